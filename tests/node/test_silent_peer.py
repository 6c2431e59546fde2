"""A peer that keeps its connection up but stops answering (never acks, never sends the deck step
it owes, never moves when its timer has run out) is handled like one that went away: after the
grace period every other node ends the game with a verdict naming it."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest
import trio
import trio.testing
from misbehaving_doubles import RunnerDoubleNode
from table_harness import run_table

from p2p_durak.node.game import GameRunner, Timing, game_dir
from p2p_durak.node.node import Node
from p2p_durak.protocol.log_effects import Broadcast, Halted, SendTo

MUTE = 2


class MuteRunner(GameRunner):
    """From position `at` on it sends nothing at all; its links stay up (the mesh still answers
    the channel's own keep-alives), it keeps receiving, and it never gives up (it ignores its
    own log's halts, which would end its game and close its links)."""

    at = 0

    async def _carry_out(self, effects: Sequence[object]) -> None:
        if self.log.seq >= self.at:
            effects = [e for e in effects if not isinstance(e, Broadcast | SendTo | Halted)]
        await super()._carry_out(effects)


def mute_from(position: int) -> type[Node]:
    runner = type("MuteRunnerAt", (MuteRunner,), {"at": position})
    return type("MuteNode", (RunnerDoubleNode,), {"runner_class": runner})


@pytest.mark.parametrize("position", [0, 25], ids=["owes-its-keys", "mid-game"])
async def test_a_connected_but_silent_peer_ends_the_game_after_the_grace_period(
        tmp_path: Path, autojump_clock: trio.testing.MockClock, position: int) -> None:
    started: list[float] = []

    async def note_start(table: object) -> None:
        started.append(trio.current_time())
        await trio.lowlevel.checkpoint()

    table = await run_table(tmp_path, seed=21, node_classes={MUTE: mute_from(position)},
                            timing=Timing(turn_seconds=10, grace_seconds=60),
                            wait_for=(0, 1), during=note_start)
    fingerprint = table.fingerprint(MUTE)
    positions = {table.runner(i).log.seq for i in (0, 1)}
    assert len(positions) == 1
    at = positions.pop()
    assert at <= position + 1  # nothing commits without the mute party's ack
    expected = (f"abandoned: party {table.party(MUTE)} ({fingerprint}) did not answer within "
                f"60 s at position {at}")
    for i in (0, 1):
        runner = table.runner(i)
        assert runner.verdict == expected
        # it never hung up: the verdict is for silence, not for a drop
        assert not [p for p in runner.reports if p.kind == "disconnected"]
        folder = game_dir(tmp_path / f"p{i}", table.starts[i].game_id)
        assert (folder / "verdict.txt").read_text() == expected + "\n"
    # within the grace period (and the turn timer, for a move) of the last thing it owed
    assert trio.current_time() - started[0] < 60 + 10 + 30
