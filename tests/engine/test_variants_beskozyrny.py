"""«Дурак бескозырный» (beskozyrny): no trump; only a higher card of the same suit beats; the
holder of the lowest card leads first. Catalogue: section `beskozyrny`."""

from __future__ import annotations

from engine_support import Table

from p2p_durak.engine import CHANCE, Phase, Reason, apply, legal_actions
from p2p_durak.engine import actions as A
from p2p_durak.engine import events as E
from p2p_durak.engine.cards import NO_SUIT


def _deal(a: str, b: str, c: str = "") -> Table:
    hands = [a, b] + ([c] if c else [])
    t = Table("beskozyrny", hands)
    t.do("deal")
    return t


def test_there_is_no_trump_and_only_the_same_suit_beats() -> None:
    """000_0a1bcdd496bc6662.txt: «Козырной масти в игре нет, игра идет без козырей.» and
    «отбить необходимо, положить карту старшего значения той же масти.»"""
    t = _deal("7♣ 7♦ 10♥ J♥ Q♥ K♥", "6♦ 8♣ A♠ 7♠ 8♠ 9♠")
    assert t.state.trump == NO_SUIT
    assert t.state.trump_card < 0
    t.setup()
    assert t.state.attacker == 1
    t.do("1 lead 6♦")
    assert t.legal(0) == ["0 beat 7♦ on 6♦", "0 take"]
    t2 = _deal("7♣ 9♥ 10♥ J♥ Q♥ K♥", "6♦ 8♣ A♠ 7♠ 8♠ 9♠")
    t2.setup()
    t2.do("1 lead A♠")
    assert t2.legal(0) == ["0 take"]  # no higher spade, and no trump to help


def test_the_lowest_card_leads_first_by_shown_claims() -> None:
    """000_0a1bcdd496bc6662.txt: «младший козырь, если козыря нет, то либо по жребию или же
    определяют по младшей карте» — with no trump at all, the lowest card (recommended)."""
    t = _deal("7♣ 9♥ 10♥ J♥ Q♥ K♥", "8♦ 8♣ A♠ 7♠ 8♠ 9♠", "6♥ 10♣ J♣ Q♣ K♣ A♣")
    assert t.state.phase == Phase.CLAIM
    # seat 1 (the dealer's left) shows its lowest card; "none" is not an answer
    assert t.legal(1) == ["1 claim 7♠"]
    assert t.refuse("1 claim 8♦").reason is Reason.WRONG_CLAIM
    assert t.refuse(A.Action(A.NO_TRUMP, 1)).reason is Reason.WRONG_CLAIM
    t.do("1 claim 7♠", "2 claim 6♥", "0 claim 7♣")
    assert t.state.attacker == 2
    assert [e for e in t.events if isinstance(e, E.FirstAttacker)] == [E.FirstAttacker(2, False)]


def test_equal_lowest_ranks_draw_lots() -> None:
    """000_0a1bcdd496bc6662.txt: «либо по жребию или же определяют по младшей карте»"""
    t = _deal("6♣ 9♥ 10♥ J♥ Q♥ K♥", "6♦ 8♣ A♠ 7♠ 8♠ 9♠")
    t.do("1 claim 6♦", "0 claim 6♣")
    assert t.state.phase == Phase.LOT
    assert t.state.lot_among == (0, 1)
    state, _ = apply(t.state, legal_actions(t.state, CHANCE)[1])
    assert state.attacker == 1
