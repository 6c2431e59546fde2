"""Compendium variants over the mental-poker deck: a whole game at every party's machine agrees
and the end-of-game audit finds nothing (modelled on test_table_machine)."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from p2p_durak import engine as eng
from p2p_durak.engine.presets import with_base_rules
from p2p_durak.protocol.table import AuditFinished, TableMachine

from .test_table_machine import _rng, _run, _table

VARIANTS = [("perevodnoy_2", 2), ("perevodnoy_2", 3), ("parnomastny", 3), ("korolevsky", 2),
            ("pustoy", 3), ("arifm_progressiya", 2), ("arifm_progressiya", 4),
            ("navalenny", 2), ("navalenny", 3), ("navalenny", 5), ("chukotsky", 2),
            ("chukotsky", 6),
            ("beskozyrny", 2), ("beskozyrny", 4), ("kozyrny", 2), ("kozyrny", 4),
            ("amerikansky", 2), ("amerikansky", 4), ("dorozhny", 2), ("dorozhny", 5),
            ("dvukhkozyrny", 2), ("dvukhkozyrny", 3), ("dvukhkozyrny", 5)]


@pytest.mark.parametrize(("preset", "n"), VARIANTS)
def test_whole_game_agrees_and_audits_clean(preset: str, n: int) -> None:
    machines = _table(n, preset, seed=n + 40)
    _run(machines, seed=n + 40)
    states = [m.state for m in machines]
    assert all(s is not None and s.result is not None for s in states)
    assert len({eng.state_hash(s) for s in states if s is not None}) == 1
    for m in machines:
        assert m.audit == AuditFinished(())


@pytest.mark.parametrize(("preset", "base", "n"), [("korolevsky", "perevodnoy", 3),
                                                   ("chukotsky", "prostoy", 2),
                                                   ("perevodnoy_2", "prostoy", 3),
                                                   ("kozyrny", "perevodnoy", 3),
                                                   ("dorozhny", "perevodnoy", 3)])
def test_a_base_rules_choice_agrees_and_audits_clean(preset: str, base: str, n: int) -> None:
    rules = with_base_rules(preset, base)
    game_id = (n + 60).to_bytes(16, "big")
    machines = [TableMachine(game_id, p, n, rules, _rng((n + 60) * 100 + p)) for p in range(n)]
    _run(machines, seed=n + 60)
    states = [m.state for m in machines]
    assert all(s is not None and s.result is not None for s in states)
    assert len({eng.state_hash(s) for s in states if s is not None}) == 1
    for m in machines:
        assert m.audit == AuditFinished(())


def test_a_false_lowest_card_claim_is_named_by_the_audit() -> None:
    """beskozyrny: a partial view takes another seat's lowest-card claim on trust; the audit,
    with every card public, names a claim that was not the claimant's lowest card."""
    from dataclasses import replace

    machines = _table(2, "beskozyrny", seed=77)
    m = machines[0]
    opened: list[Sequence[int]] = []
    check = m._check_claims

    def recording(cards: Sequence[int]) -> AuditFinished:
        opened.append(cards)
        return check(cards)

    m._check_claims = recording  # type: ignore[method-assign]
    _run(machines, seed=77)
    assert m.audit == AuditFinished(())
    (cards,) = opened
    game = m.state.game if m.state is not None else None
    assert game is not None
    claim = m.claims[0]
    held = [cards[s] for s in claim.slots]
    highest = max(held, key=lambda c: (game.rank[c], c))
    m.claims[0] = replace(claim, card=highest)
    assert check(cards) == AuditFinished(((claim.seat, "showed a card that was not the lowest"),))


def test_kozyrny_swaps_the_trump_slot_and_every_draw_agrees() -> None:
    """козырной over the deck: the swapped-in card and the old trump card are both open, so the
    swap moves slots without a deck step; whoever draws the new trump card under the stock
    gets that slot, and every machine agrees to the audit."""
    from p2p_durak.engine import events as E
    from p2p_durak.protocol.table import Moved

    machines = _table(2, "kozyrny", seed=42)
    _run(machines, seed=42)
    swaps = [ev for m_ev in machines[0].history if isinstance(m_ev, Moved)
             for ev in m_ev.events if isinstance(ev, E.TrumpSwapped)]
    assert swaps, "no defended bout swapped the trump in this game"
    m = machines[0]
    assert m.deck.slots[m.trump_slot].card == swaps[-1].card
    for machine in machines:
        assert machine.audit == AuditFinished(())
