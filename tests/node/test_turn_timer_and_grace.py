"""The table's clocks on the network (autojump clock): the turn timer (a bot moves for a player
who does not answer in time; every node shows the deadline of whoever must move), and the grace
period (a party that does not come back ends the game with a verdict on every remaining node;
one that comes back in time plays on)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
import trio
import trio.testing
from table_harness import (
    Table,
    assert_finished_cleanly,
    make_node,
    position,
    run_table,
    until,
)

from p2p_durak.engine import events as E
from p2p_durak.engine.actions import concede
from p2p_durak.node.bot_feed import bot_move
from p2p_durak.node.game import GameRunner, Player, Timing, Turn, game_dir
from p2p_durak.node.journal import Journal
from p2p_durak.node.players import BotPlayer
from p2p_durak.node.store import unfinished_games
from p2p_durak.protocol import codec
from p2p_durak.protocol.messages import TimeoutPolicy, TurnTimer
from p2p_durak.protocol.table import Moved, TableEvent, TableMachine
from p2p_durak.protocol.transcript import Transcript

SILENT = 1


class InstantPlayer(BotPlayer):
    """Answers at once, in the node's task (a worker thread's real time would let the autojump
    clock run past the turn timer)."""

    async def turn(self, turn: Turn, runner: GameRunner) -> None:
        assert self.bot is not None
        await runner.move(turn.seq, bot_move(self.bot, turn.legal))  # (с болваном: or its)


class DyingPlayer(InstantPlayer):
    """Its node dies (`die()`) once the table has seen `after` events."""

    def __init__(self, *, seed: int, after: int) -> None:
        super().__init__(level="easy", seed=seed)
        self.after = after
        self.die: Callable[[], None] | None = None

    async def update(self, table: TableMachine, events: tuple[TableEvent, ...]) -> None:
        await super().update(table, events)
        if self.die is not None and len(table.history) >= self.after:
            die, self.die = self.die, None
            die()
        await trio.lowlevel.checkpoint()


class SilentPlayer(Player):
    """Never answers: only the turn timer moves for this seat."""

    def __init__(self) -> None:
        self.turns = 0
        self.diagnosis: str | None = None

    async def turn(self, turn: object, runner: GameRunner) -> None:
        self.turns += 1


async def test_the_turn_timer_lets_a_bot_move_for_a_player_who_does_not_answer(
        tmp_path: Path, autojump_clock: trio.testing.MockClock) -> None:
    timing = Timing(turn_seconds=5)
    seen: dict[int, list[float]] = {0: [], 2: []}

    async def watch(table: Table) -> None:
        """The other nodes show the silent party's deadline while it must move."""
        await until(lambda: position(table.nodes[0]) > 0)
        while not table.runner(0).finished.is_set():
            for i in seen:
                runner = table.runner(i)
                clock = runner.clock
                left = runner.seconds_left()
                if (clock is not None and clock.parties == (table.party(SILENT),)
                        and left is not None):
                    seen[i].append(left)
            await trio.sleep(0.5)

    silent = SilentPlayer()
    players: dict[int, Player] = {i: InstantPlayer(level="easy", seed=i) for i in (0, 2)}
    players[SILENT] = silent
    table = await run_table(tmp_path, seed=11, players=players, timing=timing, during=watch)
    runners = [table.runner(i) for i in range(3)]
    assert_finished_cleanly(runners)
    timeouts = [p for p in runners[SILENT].reports if p.kind == "timeout"]
    # a turn taken over by another commit (a throw-in) before the time ran out is offered anew
    assert 0 < len(timeouts) <= silent.turns
    assert all(p.party is None and not p.fault for p in timeouts)
    for i, lefts in seen.items():
        assert lefts, f"node {i} never showed the silent party's deadline"
        assert all(0 <= left <= 5 for left in lefts)
        assert min(lefts) < 2.5 < max(lefts)  # it counts down
    # the nodes that answer at once never ran out of time
    assert not [p for i in (0, 2) for p in runners[i].reports if p.kind == "timeout"]


def test_the_clocks_are_checked() -> None:
    with pytest.raises(ValueError, match="on_timeout"):
        Timing(turn_seconds=10, on_timeout="draw")
    with pytest.raises(ValueError, match="grace"):
        Timing(grace_seconds=0)


async def test_every_node_runs_on_the_clocks_of_the_start(
        tmp_path: Path, autojump_clock: trio.testing.MockClock) -> None:
    timing = Timing(turn_seconds=7, on_timeout="lose", grace_seconds=45)
    players: dict[int, Player] = {i: InstantPlayer(level="easy", seed=i) for i in range(3)}
    table = await run_table(tmp_path, seed=14, players=players, timing=timing)
    for i in range(3):
        assert table.starts[i].timer == TurnTimer(7, TimeoutPolicy.LOSE, 45)
        assert table.runner(i).timing == timing
    assert_finished_cleanly([table.runner(i) for i in range(3)])


def _journal_records(path: Path) -> list[object]:
    journal = Journal.open(path)
    try:
        return [codec.decode(r) for r in journal.records()]
    finally:
        journal.close()


async def test_a_party_that_does_not_come_back_ends_the_game_with_a_verdict(
        tmp_path: Path, autojump_clock: trio.testing.MockClock) -> None:
    gone = 2
    killed_at: list[float] = []
    dying = DyingPlayer(seed=gone, after=30)

    async def kill(table: Table) -> None:
        def die() -> None:
            killed_at.append(trio.current_time())
            table.kill(gone)
        dying.die = die
        await trio.lowlevel.checkpoint()

    players: dict[int, Player] = {i: InstantPlayer(level="easy", seed=i) for i in (0, 1)}
    players[gone] = dying
    table = await run_table(tmp_path, seed=12, players=players, timing=Timing(grace_seconds=60),
                            wait_for=(0, 1), during=kill)
    fingerprint = table.fingerprint(gone)
    positions = {table.runner(i).log.seq for i in (0, 1)}
    assert len(positions) == 1
    at = positions.pop()
    expected = (f"abandoned: party {table.party(gone)} ({fingerprint}) did not return within "
                f"60 s at position {at}")
    for i in (0, 1):
        runner = table.runner(i)
        assert runner.verdict == expected
        assert runner.diagnosis == expected
        assert players[i].diagnosis == expected  # the player was told
        assert not runner.finished.is_set()
        folder = game_dir(tmp_path / f"p{i}", table.starts[i].game_id)
        assert (folder / "verdict.txt").read_text() == expected + "\n"
        saved = Transcript.load((folder / "transcript.durak").read_bytes())
        assert len(saved.entries) == at  # what was committed, signed and certified
        records = _journal_records(folder / f"party-{table.party(i)}.journal")
        assert ("verdict", expected) in records
        assert unfinished_games(tmp_path / f"p{i}") == []  # nothing left to rejoin
    # The grace period runs from when the table began to wait for the party (node/silence.py):
    # that may be an ack it owed a moment before it died, never more than a second before.
    assert killed_at[0] + 59 <= trio.current_time() < killed_at[0] + 70


async def test_a_party_that_comes_back_within_the_grace_period_plays_on(
        tmp_path: Path, autojump_clock: trio.testing.MockClock) -> None:
    back = 2
    revived: list[GameRunner] = []
    dying = DyingPlayer(seed=back, after=30)

    async def crash_and_return(table: Table) -> None:
        died = trio.Event()

        def die() -> None:
            table.kill(back)
            died.set()
        dying.die = die
        await died.wait()
        await trio.sleep(20)
        home = tmp_path  # the same data folder: the journal is where the node left it
        node = make_node(table.network, f"p{back}", home, seed=13 * 10 + back)
        async with trio.open_nursery() as nursery:
            await nursery.start(node.serve)
            await node.play(table.starts[back], InstantPlayer(level="easy", seed=99))
            assert node.runner is not None
            revived.append(node.runner)
            nursery.cancel_scope.cancel()

    players: dict[int, Player] = {i: InstantPlayer(level="easy", seed=i) for i in (0, 1)}
    players[back] = dying
    table = await run_table(tmp_path, seed=13, players=players, timing=Timing(grace_seconds=60),
                            wait_for=(0, 1), during=crash_and_return)
    assert revived
    assert_finished_cleanly([table.runner(0), table.runner(1), revived[0]])


async def test_at_a_lose_table_a_player_who_runs_out_of_time_concedes_on_every_node(
        tmp_path: Path, autojump_clock: trio.testing.MockClock) -> None:
    silent = SilentPlayer()
    players: dict[int, Player] = {i: InstantPlayer(level="easy", seed=i) for i in (0, 2)}
    players[SILENT] = silent
    table = await run_table(tmp_path, seed=15, players=players,
                            timing=Timing(turn_seconds=5, on_timeout="lose"))
    runners = [table.runner(i) for i in range(3)]
    assert_finished_cleanly(runners)  # the same log, audited, on every node
    seat = runners[0].log.state.seat_of_party[table.party(SILENT)]
    for runner in runners:
        state = runner.log.state.state
        assert state is not None
        assert state.result is not None
        assert state.result.durak == (seat,)
        moves = [ev for ev in runner.log.state.history if isinstance(ev, Moved)]
        assert moves[-1].action == concede(seat)  # the last move of the transcript
        assert E.Conceded(seat) in moves[-1].events
    assert silent.turns == 1  # it lost on its first turn
    (timeout,) = [p for p in runners[SILENT].reports if p.kind == "timeout"]
    assert "loses the game on time" in timeout.detail
    saved = [(game_dir(tmp_path / f"p{i}", table.starts[i].game_id) / "transcript.durak")
             .read_bytes() for i in range(3)]
    assert len(set(saved)) == 1
