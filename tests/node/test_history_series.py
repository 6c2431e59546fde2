"""The history of a networked series (in one trio process, memory streams, autojump clock):
each game is recorded as its transcript is saved, with the series score after it, and the same
records come back from the transcript when the database is lost."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
import trio.testing
from node_support import play_table

from p2p_durak.engine import events as E
from p2p_durak.engine.presets import get_preset
from p2p_durak.node import replay
from p2p_durak.node.history import DUMMY, NETWORK, variant_of
from p2p_durak.node.history_store import DB_NAME, HistoryStore
from p2p_durak.node.players import BotPlayer
from p2p_durak.node.scoreboard import scoreboard
from p2p_durak.protocol.table import Moved


async def test_each_game_of_a_series_is_recorded_and_rebuilt_alike(
        tmp_path: Path, autojump_clock: trio.testing.MockClock,
        monkeypatch: pytest.MonkeyPatch) -> None:
    rules = get_preset("app_podkidnoy").rules.with_options(deck_size=24)
    bots = [BotPlayer(level="easy", seed=40 + i, games=2) for i in range(3)]
    nodes = await play_table(tmp_path, bots, seed=4, rules=rules, name="series", limit=600.0)
    runner = nodes[0].runner
    assert runner is not None
    table = runner.log.state
    assert table.series_over
    duraks = [over.durak for e in table.history if isinstance(e, Moved)
              for over in e.events if isinstance(over, E.GameOver)]
    assert len(duraks) == 2
    home = tmp_path / "p0"
    with HistoryStore.open(home) as store:
        live = sorted(store.games(), key=lambda g: g.number)
    assert [g.number for g in live] == [1, 2]
    assert [g.durak for g in live] == duraks
    assert live[1].series_duraks == table.score.duraks  # the series score after game 2
    assert {g.kind for g in live} == {NETWORK}
    assert {g.table for g in live} == {"series"}
    assert {(g.variant, g.variant_changed) for g in live} == {variant_of(rules)}
    assert live[0].variant_changed  # a 24-card deck is not the preset's own rules
    assert [p.name for p in live[0].players] == [  # in seat order
        runner.start.players[table.seat_of_party.index(seat)].name for seat in range(3)]
    assert {g.transcript for g in live} == {f"games/{table.game_id.hex()}/transcript.durak"}
    for suffix in ("", "-wal", "-shm"):
        (home / f"{DB_NAME}{suffix}").unlink(missing_ok=True)
    with HistoryStore.open(home) as store:
        assert store.catch_up().indexed == 2
        rebuilt = sorted(store.games(), key=lambda g: g.number)

    def timeless(games: list) -> list:  # type: ignore[type-arg]
        return [dataclasses.replace(g, finished_at=0.0) for g in games]

    assert timeless(rebuilt) == timeless(live)
    # a transcript whose deck audit caught a liar does not pass `durak audit` (it names the
    # cheat), yet its log verified and its games finished (the liar lost by forfeit): indexed
    real = replay.audit_file

    def caught(data: bytes, rules: object = None, lang: str = "en") -> replay.Verdict:
        verdict = real(data, rules, lang)  # type: ignore[arg-type]
        return replay.Verdict(False, "CHEAT: game 2, seat 0: …\n" + verdict.text, verdict.table)

    monkeypatch.setattr(replay, "audit_file", caught)
    for suffix in ("", "-wal", "-shm"):
        (home / f"{DB_NAME}{suffix}").unlink(missing_ok=True)
    with HistoryStore.open(home) as store:
        assert store.catch_up().indexed == 2


async def test_the_dummy_of_a_networked_game_is_no_player_in_the_history(
        tmp_path: Path, autojump_clock: trio.testing.MockClock) -> None:
    """с болваном (seed 000_0a1bcdd496bc6662.txt, «Дурак с болваном»): the dummy's hand has a
    seat but no player; the history keeps its seat (the durak indices stay the engine's) and
    the scoreboard counts players only."""
    bots = [BotPlayer(level="easy", seed=70 + i) for i in range(2)]
    nodes = await play_table(tmp_path, bots, "s_bolvanom", seed=42)
    runner = nodes[0].runner
    assert runner is not None
    state = runner.log.state.state
    assert state is not None
    assert state.result is not None
    dummy = state.game.dummy
    with HistoryStore.open(tmp_path / "p0") as store:
        (game,) = store.games()
    assert len(game.players) == 3
    assert game.players[dummy].bot == DUMMY
    assert game.players[dummy].name == "Dummy"
    assert game.durak == state.result.durak
    assert dummy not in game.durak
    board = scoreboard([game])
    assert sorted(t.name for t in board.players) == sorted(p.name for p in runner.start.players)
