"""SP5's table option `first_attacker_fallback: lowest_card` over the mental-poker deck: when
nobody shows a trump every seat shows his lowest card; every machine agrees, the audit is
clean, and a shown card that was not the lowest is named. baseline.md SP5: «"если козыря нет,
то либо по жребию или же определяют по младшей карте"» … «`lowest_card` (ties by lot)»."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from p2p_durak import engine as eng
from p2p_durak.engine.presets import get_preset
from p2p_durak.protocol.table import AuditFinished, TableMachine

from .test_table_machine import _rng, _run
from .test_variant_tables import recording_claims_audit

# two cards a hand from 24: nobody holds a trump in about one deal in three
RULES = get_preset("app_podkidnoy").rules.with_options(
    deck_size=24, hand_size=2, first_attacker_fallback="lowest_card")


def _game_with_lowest_cards() -> tuple[list[TableMachine], list[Sequence[int]]]:
    """The first seeded two-seat game whose claims went to the lowest cards, played to its
    audit; the cards the first machine's audit saw."""
    for seed in range(40):
        machines = [TableMachine((seed + 9100).to_bytes(16, "big"), p, 2, RULES,
                                 _rng(seed * 100 + p)) for p in range(2)]
        opened = recording_claims_audit(machines[0])
        _run(machines, seed=seed)
        if len(machines[0].claims) > 2:
            return machines, opened
    raise AssertionError("no seeded deal left both seats without a trump")


def test_lowest_cards_decide_over_the_deck_and_a_false_one_is_named() -> None:
    machines, opened = _game_with_lowest_cards()
    states = [m.state for m in machines]
    assert all(s is not None and s.result is not None for s in states)
    assert len({eng.state_hash(s) for s in states if s is not None}) == 1
    assert all(m.audit == AuditFinished(()) for m in machines)
    m = machines[0]
    (cards,) = opened
    assert m.state is not None
    game = m.state.game
    first, second = m.claims[2], m.claims[3]  # the lowest-card round
    assert first.lowest
    assert second.lowest
    held = [cards[s] for s in first.slots]
    highest = max(held, key=lambda c: (game.rank[c], c))
    if game.rank[highest] != min(game.rank[c] for c in held):
        m.claims[2] = replace(first, card=highest)
        assert m._check_claims(cards) == AuditFinished(
            ((first.seat, "showed a card that was not the lowest"),))
    m.claims[2] = replace(first, card=-1)
    assert m._check_claims(cards) == AuditFinished(
        ((first.seat, "said he had no card of rank while holding one"),))
