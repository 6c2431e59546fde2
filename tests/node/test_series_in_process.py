"""The next game of a series at a networked table, in one trio process (memory streams, the
autojump clock): after a game's audit every party chooses to play on or to stop, through the
ordered log; when all play on, the same table deals the next game (the engine's `next_game`:
the durak deals; new per-game keys and shuffle; the same seats), and the series score adds up.
One who stops stops the table.
"""

from __future__ import annotations

from pathlib import Path

import trio
import trio.testing
from node_support import play_table

from p2p_durak.engine.presets import get_preset
from p2p_durak.node.game import GameRunner
from p2p_durak.node.node import Node
from p2p_durak.node.players import BotPlayer
from p2p_durak.node.replay import audit_file
from p2p_durak.protocol.table import (
    AuditFinished,
    NextGame,
    Seated,
    SeriesOver,
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
