"""Which games of a networked table's history are finished, and with which result: the
engine's `GameOver` once the end-of-game deck audit is done, or the forfeit that audit
imposes on a liar (docs/rules.md, "Forfeits": the liar loses the game and that result is
scored), or the forfeit of a party that abandoned the game (every other party claimed it);
a game that ended otherwise before its audit is not recorded."""

from __future__ import annotations

from p2p_durak import engine as eng
from p2p_durak.engine import events as E
from p2p_durak.engine.actions import concede
from p2p_durak.engine.presets import get_preset
from p2p_durak.node.history import records_of_table, variant_of
from p2p_durak.protocol.identity import Identity
from p2p_durak.protocol.messages import PlayerInfo
from p2p_durak.protocol.table import AuditFinished, Forfeited, Moved, Seated, TableEvent

PLAYERS = tuple(PlayerInfo(Identity.from_seed(bytes([i]) * 32).peer_id, name)
                for i, name in enumerate(("Olga", "Masha", "Petya")))
RULES = get_preset("app_podkidnoy").rules


def _game(durak: int, *after: TableEvent) -> list[TableEvent]:
    over = E.GameOver((durak,), False, 0)
    return [Seated((2, 0, 1), 0), Moved(durak, concede(durak), (over,)), *after]


def _records(history: list[TableEvent]) -> list[tuple[tuple[str, ...], tuple[int, ...],
                                                      tuple[int, ...]]]:
    records = records_of_table(
        table_id="ab", table_name="Kitchen", rules=RULES, players=PLAYERS, history=history,
        finished_at=1.0, transcript="games/ab/transcript.durak",
        me=PLAYERS[0].identity.fingerprint)
    assert all(r.players[2].me for r in records)  # Olga (party 0) sits in seat 2
    assert {(r.variant, r.variant_changed) for r in records} <= {variant_of(RULES)}
    return [(tuple(p.name for p in r.players), r.durak, r.series_duraks) for r in records]


def test_an_audited_game_keeps_the_engines_result() -> None:
    assert _records(_game(1, AuditFinished(()))) == [
        (("Masha", "Petya", "Olga"), (1,), (0, 1, 0))]


def test_a_liar_caught_by_the_audit_is_the_durak_and_the_series_counts_it() -> None:
    forfeit = eng.Result((0,), False, 0, (1, 2, 0))
    history = (_game(1, AuditFinished(()))
               + _game(2, AuditFinished(((0, "no trump, yet he held one"),)),
                       Forfeited((0,), "cheated", forfeit)))
    assert [(durak, series) for _, durak, series in _records(history)] == [
        ((1,), (0, 1, 0)), ((0,), (1, 1, 0))]


def test_a_game_whose_audit_never_finished_is_not_recorded() -> None:
    history = _game(1, AuditFinished(())) + _game(0)  # the table ended during game 2's audit
    assert [durak for _, durak, _ in _records(history)] == [(1,)]


def test_a_party_that_abandoned_the_game_is_its_durak() -> None:
    """Abandonment (issue #22): the others claimed the silent party, engine.forfeit makes it
    the durak and the table stops — there is no deck audit, and no GameOver of play."""
    forfeit = eng.Result((0,), False, 0, (1, 2, 0))
    history = (_game(1, AuditFinished(()))
               + [Seated((2, 0, 1), 0), Forfeited((0,), "abandoned", forfeit)])
    assert [(durak, series) for _, durak, series in _records(history)] == [
        ((1,), (0, 1, 0)), ((0,), (1, 1, 0))]
