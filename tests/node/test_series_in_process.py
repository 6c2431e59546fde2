"""The next game of a series at a networked table, in one trio process (memory streams, the
autojump clock): after a game's audit every party chooses to play on or to stop, through the
ordered log; when all play on, the same table deals the next game (the engine's `next_game`:
the durak deals; new per-game keys and shuffle; the same seats), and the series score adds up.
One who stops stops the table.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import trio
import trio.testing
from node_support import play_table
from table_harness import Table, make_node, run_table

from p2p_durak.engine.presets import get_preset
from p2p_durak.node.game import GameRunner, Player, game_dir
from p2p_durak.node.node import Node
from p2p_durak.node.players import BotPlayer
from p2p_durak.node.replay import audit_file
from p2p_durak.node.store import GameJournal
from p2p_durak.protocol.table import (
    AuditFinished,
    NextGame,
    Seated,
    SeriesOver,
    TableEvent,
    TableMachine,
    series_game_id,
)
from p2p_durak.protocol.transcript import Transcript

BOUND = 600.0  # virtual seconds


def _runners(nodes: list[Node]) -> list[GameRunner]:
    runners = [node.runner for node in nodes]
    assert all(r is not None for r in runners)
    return [r for r in runners if r is not None]


def _one_transcript(runners: list[GameRunner]) -> Transcript:
    saved = {(r.journal.folder / "transcript.durak").read_bytes() for r in runners}
    assert len(saved) == 1, "the nodes saved different transcripts"
    assert {r.log.transcript().save() for r in runners} == saved
    return Transcript.load(saved.pop())


def _clean(runner: GameRunner) -> TableMachine:
    assert runner.diagnosis is None, runner.diagnosis
    assert runner.finished.is_set()
    assert not [p for p in runner.reports if p.fault], runner.problems
    return runner.log.state


async def test_a_table_plays_a_two_game_series_to_the_end(
        tmp_path: Path, autojump_clock: trio.testing.MockClock) -> None:
    rules = get_preset("app_podkidnoy").rules.with_options(deck_size=24)
    bots = [BotPlayer(level="easy", seed=40 + i, games=2) for i in range(3)]
    nodes = await play_table(tmp_path, bots, seed=4, rules=rules, name="series", limit=BOUND)
    runners = _runners(nodes)
    transcript = _one_transcript(runners)
    verdict = audit_file(transcript.save(), rules)  # an auditor in no seat replays both games
    assert verdict.ok, verdict.text
    assert "a series of 2 games" in verdict.text
    tables = [_clean(r) for r in runners]
    for table in tables:
        assert table.game_number == 2
        assert table.series_over
        assert table.audit == AuditFinished(())
        seated = [e for e in table.history if isinstance(e, Seated)]
        assert len(seated) == 2
        assert seated[0].seat_of_party == seated[1].seat_of_party  # the same seats
        audits = [e for e in table.history if isinstance(e, AuditFinished)]
        assert audits == [AuditFinished(()), AuditFinished(())]
        started = [e for e in table.history if isinstance(e, NextGame)]
        assert [e.number for e in started] == [2]
        over = [e for e in table.history if isinstance(e, SeriesOver)]
        assert len(over) == 1
        assert over[0].stopped == (0, 1, 2)  # each bot played the two games it was asked to
        assert over[0].score.games == 2
        assert table.score == over[0].score
        # the durak of the first game deals the second (or the same dealer after a draw)
        first = started[0].score
        if first.draws:
            assert seated[1].dealer == seated[0].dealer
        else:
            assert seated[1].dealer == first.duraks.index(1)
        assert table.deck.game_id == series_game_id(table.game_id, 2) != table.game_id
    assert len({t.score for t in tables}) == 1
    assert len({t.state_hash() for t in tables}) == 1


async def test_one_party_that_stops_stops_the_table(
        tmp_path: Path, autojump_clock: trio.testing.MockClock) -> None:
    rules = get_preset("app_podkidnoy").rules.with_options(deck_size=24)
    bots = [BotPlayer(level="easy", seed=50, games=None), BotPlayer(level="easy", seed=51)]
    nodes = await play_table(tmp_path, bots, seed=5, rules=rules, name="one game", limit=BOUND)
    runners = _runners(nodes)
    _one_transcript(runners)
    for runner in runners:
        table = _clean(runner)
        assert table.game_number == 1
        over = [e for e in table.history if isinstance(e, SeriesOver)]
        assert over == [SeriesOver((runner.start.party_of(nodes[1].identity.peer_id),),
                                   table.score)]
        assert table.score.games == 1


class _DiesInTheSecondGame(BotPlayer):
    """Its node dies (`die()`) a few events into the second game of the series."""

    def __init__(self, *, seed: int) -> None:
        super().__init__(level="easy", seed=seed, games=2)
        self.die: Callable[[], None] | None = None
        self._second_from: int | None = None

    async def update(self, table: TableMachine, events: tuple[TableEvent, ...]) -> None:
        await super().update(table, events)
        if table.game_number == 2 and self._second_from is None:
            self._second_from = len(table.history)
        if (self.die is not None and self._second_from is not None
                and len(table.history) >= self._second_from + 12):
            die, self.die = self.die, None
            die()
        await trio.lowlevel.checkpoint()


async def test_a_node_killed_in_the_second_game_rejoins_and_the_series_ends(
        tmp_path: Path, autojump_clock: trio.testing.MockClock) -> None:
    """The restarted node finds the second game's deck secret from its journaled seed and the
    deck messages it had made for that game, so it sends the same ones again."""
    back = 2
    revived: list[GameRunner] = []
    dying = _DiesInTheSecondGame(seed=back)

    async def crash_and_return(table: Table) -> None:
        died = trio.Event()

        def die() -> None:
            table.kill(back)
            died.set()
        dying.die = die
        await died.wait()
        await trio.sleep(10)
        start = table.starts[back]
        journal = GameJournal(game_dir(tmp_path / f"p{back}", start.game_id), table.party(back))
        games = journal.series_games()  # what `durak resume` plays on with
        journal.close()
        assert games == 2
        node = make_node(table.network, f"p{back}", tmp_path, seed=21 * 10 + back)
        async with trio.open_nursery() as nursery:
            await nursery.start(node.serve)
            await node.play(start, BotPlayer(level="easy", seed=9, games=games))
            assert node.runner is not None
            revived.append(node.runner)
            nursery.cancel_scope.cancel()

    players: dict[int, Player] = {i: BotPlayer(level="easy", seed=i, games=2) for i in (0, 1)}
    players[back] = dying
    table = await run_table(tmp_path, seed=21, players=players, wait_for=(0, 1),
                            during=crash_and_return)
    assert revived
    runners = [table.runner(0), table.runner(1), revived[0]]
    _one_transcript(runners)
    for runner in runners:
        state = _clean_enough(runner)
        assert state.game_number == 2
        assert state.series_over
        assert state.score.games == 2


def _clean_enough(runner: GameRunner) -> TableMachine:
    """Finished with no diagnosis (a dropped connection is news, not a fault)."""
    assert runner.diagnosis is None, runner.diagnosis
    assert runner.finished.is_set()
    return runner.log.state
