"""A peer that keeps its connection up but stops answering (never acks, never sends the deck step
it owes, never moves when its timer has run out) is handled like one that went away: after the
grace period every other node ends the game with a verdict naming it. The honest nodes name
nobody else (what they re-send while the game is stuck is not a fault)."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from pathlib import Path

import pytest
import trio
import trio.testing
from misbehaving_doubles import RunnerDoubleNode
from table_harness import Table, faults, run_table

from p2p_durak.cli.canvas import plain
from p2p_durak.cli.i18n import Look
from p2p_durak.cli.table_ui import TableUi
from p2p_durak.cli.table_view import render_table_screen
from p2p_durak.node.api import TableSnapshot
from p2p_durak.node.game import GameRunner, Timing, game_dir
from p2p_durak.node.node import Node
from p2p_durak.node.session import HumanPlayer

MUTE = 2
# Shorter than the log's censorship bound (30 s): a mute sequencer would otherwise be halted for
# censorship first (also a verdict naming it, but not the one under test here).
GRACE = 8


class MuteRunner(GameRunner):
    """Hangs at position `at`, as a stuck game loop does: from then on it sends nothing and
    decides nothing, while its links stay up and keep reading (the channel's keep-alives go
    on; what arrives is dropped)."""

    at = 0

    async def _carry_out(self, effects: Sequence[object]) -> None:
        if self.log.seq >= self.at:
            self.hung.set()
            self.ticks.cancel()  # a hung loop has no clock either
            await trio.sleep_forever()
        await super()._carry_out(effects)

    async def _ticker(self) -> None:
        with self.ticks:
            await super()._ticker()

    async def _pump_mesh(self) -> None:
        async for event in self.mesh.inbox:
            if not self.hung.is_set():
                await self._inputs.send(event)

    def __post_init__(self) -> None:
        super().__post_init__()
        self.hung = trio.Event()
        self.ticks = trio.CancelScope()


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
                            timing=Timing(turn_seconds=5, grace_seconds=GRACE),
                            wait_for=(0, 1), during=note_start)
    fingerprint = table.fingerprint(MUTE)
    positions = {table.runner(i).log.seq for i in (0, 1)}
    assert len(positions) == 1
    at = positions.pop()
    assert at <= position + 1  # nothing commits without the mute party's ack
    expected = (f"abandoned: party {table.party(MUTE)} ({fingerprint}) did not answer within "
                f"{GRACE} s at position {at}")
    for i in (0, 1):
        runner = table.runner(i)
        assert runner.verdict == expected
        # it never hung up: the verdict is for silence, not for a drop
        assert not [p for p in runner.reports if p.kind == "disconnected"]
        # the honest parties kept re-sending what the stuck entry ordered: not a fault
        assert not faults(runner), faults(runner)
        folder = game_dir(tmp_path / f"p{i}", table.starts[i].game_id)
        assert (folder / "verdict.txt").read_text() == expected + "\n"
    # within the grace period (and the turn timer, for a move) of the last thing it owed
    assert trio.current_time() - started[0] < position + 5 + GRACE + 10



def _drain(human: HumanPlayer) -> list[TableSnapshot]:
    seen = []
    while True:
        try:
            seen.append(human.snapshots.receive_nowait())
        except trio.WouldBlock:
            return seen


@pytest.mark.parametrize("position", [0, 5], ids=["keys", "shuffle"])
async def test_the_person_at_the_table_sees_whom_the_deck_step_waits_for(
        tmp_path: Path, autojump_clock: trio.testing.MockClock, position: int) -> None:
    """Issue #6: the table screen shows "whom the table is waiting for". The silent party
    keeps its link up (no "not connected" note names it): while the deck step waits for its
    part, the person's snapshots name it, and the screen shows it next to the count, until
    the verdict."""
    human = HumanPlayer(table_name="t", preset_id="app_podkidnoy", names=[])

    async def seat(table: Table) -> None:
        human.seated([p.name for p in table.starts[0].players], {})
        await trio.lowlevel.checkpoint()

    table = await run_table(tmp_path, seed=21, node_classes={MUTE: mute_from(position)},
                            players={0: human}, timing=Timing(turn_seconds=5,
                                                              grace_seconds=GRACE),
                            wait_for=(0, 1), during=seat)
    mute = table.starts[0].players[table.party(MUTE)].name
    seen = _drain(human)
    assert table.runner(0).verdict is not None
    halted = seen[-1]
    assert halted.activity == "halted"
    assert halted.notice == (f"{mute} stopped answering (no answer within {GRACE} s). "
                             "The game is over.")
    assert halted.notice_ru == (f"Игрок {mute} перестал отвечать (нет ответа за {GRACE} с). "
                                "Игра окончена.")
    before = [s for s in seen if s.activity != "halted"][-1]
    assert before.activity == ("keys" if position == 0 else "shuffling")
    assert halted.away is None  # connected all along
    # named first (whether its part is due, or the parts due wait for its ack to commit): the
    # step the game was stuck on, and whom for, as it stood at the verdict
    assert halted.deck_waits_for[:1] == (mute,), halted.deck_waits_for
    ui = TableUi()
    ui.update(halted)
    text = plain(render_table_screen(ui, Look("en", False), 80, 24))
    assert "waiting for" not in text  # the game is over: nobody is waited for any more
    assert "The game has stopped" in text
    assert f"{mute} stopped answering" in text
    # until the verdict, the screen named it next to the step's count
    last = dataclasses.replace(halted, activity=before.activity, notice=None)
    ui = TableUi()
    ui.update(last)
    text = plain(render_table_screen(ui, Look("en", False), 80, 24))
    if position == 0:
        assert f"Exchanging keys… · waiting for {mute}" in text
    else:
        assert last.progress is not None
        done, total = last.progress
        assert f"Shuffling the deck: {done}/{total} · waiting for {mute}" in text
