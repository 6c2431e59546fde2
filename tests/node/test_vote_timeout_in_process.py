"""A player who stays connected but never says whether to play on after a game of a series
(autojump clock): its node stops for it when the table's clock runs out — the turn timer, or
without one the grace period — with a vote that says so; every node ends the series with the
same verdict, shows it, and the transcript keeps it."""

from __future__ import annotations

from pathlib import Path

import pytest
import trio
import trio.testing
from table_harness import Table, assert_same_committed_log, faults, run_table, until

from p2p_durak.node.game import GameRunner, Player, Timing
from p2p_durak.node.narrate import Narrator
from p2p_durak.node.players import BotPlayer
from p2p_durak.protocol import codec
from p2p_durak.protocol.envelope import decode_envelope
from p2p_durak.protocol.messages import Entry, Intent
from p2p_durak.protocol.table import NEXT_GAME, SeriesOver, TableMachine

AWAY = 1


class GoneAfterTheGame(BotPlayer):
    """Plays its game as a bot, then never answers "play on / stop" (the person walked away;
    the node stays connected)."""

    asked = 0

    async def after_game(self, table: TableMachine, runner: GameRunner) -> None:
        self.asked += 1


def _votes(runner: GameRunner) -> list[tuple[int, tuple[object, ...]]]:
    """The committed choices after a game: (party, payload)."""
    out = []
    for seq in range(1, runner.log.seq + 1):
        entry = decode_envelope(runner.log.entry_bytes(seq)).message
        assert isinstance(entry, Entry)
        for data in entry.intents:
            intent = decode_envelope(data).message
            assert isinstance(intent, Intent)
            payload = codec.decode(intent.action)
            if isinstance(payload, tuple) and payload[0] == NEXT_GAME:
                out.append((intent.seat, payload))
    return out


@pytest.mark.parametrize(("timing", "allowed"), [
    pytest.param(Timing(turn_seconds=5, grace_seconds=30), 5.0, id="turn timer"),
    pytest.param(Timing(grace_seconds=40), 40.0, id="no turn timer: the grace period"),
])
async def test_a_player_who_never_chooses_is_stopped_on_time(
        tmp_path: Path, autojump_clock: trio.testing.MockClock, timing: Timing,
        allowed: float) -> None:
    away = GoneAfterTheGame(level="easy", seed=3, games=2)
    players: dict[int, Player] = {i: BotPlayer(level="easy", seed=i, games=2) for i in (0, 2)}
    players[AWAY] = away
    shown: dict[int, list[float]] = {0: [], 2: []}
    asked_at: list[float] = []

    async def watch(table: Table) -> None:
        """The others show the silent party's deadline while it may choose."""
        await until(lambda: table.nodes[AWAY].runner is not None)
        await until(lambda: away.asked > 0, step=0.01)
        asked_at.append(trio.current_time())
        while not table.runner(0).finished.is_set():
            for i in shown:
                runner = table.runner(i)
                left = runner.seconds_left()
                if runner.clock is not None and table.party(AWAY) in runner.clock.parties \
                        and left is not None:
                    shown[i].append(left)
            await trio.sleep(0.5)

    table = await run_table(tmp_path, seed=12, players=players, timing=timing, during=watch)
    runners = [table.runner(i) for i in range(3)]
    party = table.party(AWAY)
    assert away.asked == 1
    assert_same_committed_log(runners)
    for runner in runners:
        assert runner.diagnosis is None, runner.diagnosis
        assert runner.stopped is None  # stopped by a vote, not by the grace period
        assert runner.finished.is_set()
        assert not faults(runner), runner.problems
        state = runner.log.state
        assert state.series_over
        assert state.game_number == 1
        over = [e for e in state.history if isinstance(e, SeriesOver)]
        assert over == [SeriesOver((party,), state.score, (party,))]
        # the transcript keeps the verdict: the vote says it was made on time's running out
        assert (party, (NEXT_GAME, False, "timeout")) in _votes(runner)
        lines = Narrator(None, []).lines(over[0], [f"P{p}" for p in range(3)])
        assert f"the table stops: P{party} did not choose in time (counted as stopping)" \
            in lines
    (timeout,) = [p for p in runners[AWAY].reports if p.kind == "timeout"]
    assert timeout.party is None
    assert not timeout.fault
    assert f"no choice within {allowed:g} s after game 1" in timeout.detail
    for i, lefts in shown.items():
        assert lefts, f"node {i} never showed the deadline of the party choosing"
        assert all(0 <= left <= allowed for left in lefts)
        assert min(lefts) < allowed / 2 < max(lefts)  # it counts down
