"""«Дурак пустышка» (pustyshka): one extra blank card that beats any card and is beaten by any
card; a blank turned as trump means no trump. Catalogue: shared/rules/variants-attack-defend.md,
section `pustyshka` (and SP18: the blank has no suit and no rank)."""

from __future__ import annotations

from engine_support import Table

from p2p_durak.engine import Phase, Reason
from p2p_durak.engine.cards import NO_SUIT
from p2p_durak.engine.presets import get_preset


def _table(a: str, b: str, trump: str = "9♠") -> Table:
    t = Table("pustyshka", [a, b], trump=trump, first_attacker=0)
    t.setup()
    return t


def _beats(t: Table) -> list[str]:
    return sorted(a for a in t.legal(1) if " beat " in a)


def test_a_card_that_is_not_in_the_deck_is_added() -> None:
    """000_0a1bcdd496bc6662.txt: «Если игра идет колодой в 36 карт, то в игру вводится карта,
    которой нет в колоде, например, джокер, или 2, 3 или 4. ... Называется она пустышкой.»"""
    assert get_preset("pustyshka").rules.deck().n_cards == 37


def test_the_blank_beats_any_card() -> None:
    """000_0a1bcdd496bc6662.txt: «Пустышка отбивает любую карту»"""
    t = _table("A♠ 7♥ 8♥ 9♥ 10♥ J♥", "Blank 7♣ K♦ Q♦ J♦ 10♦")
    t.do("0 lead A♠")
    assert _beats(t) == ["1 beat Blank on A♠"]


def test_a_led_blank_is_beaten_by_any_card_even_the_lowest() -> None:
    """000_0a1bcdd496bc6662.txt: «но и ее можно отбить любой картой даже самой младшей.»"""
    t = _table("Blank 7♥ 8♥ 9♥ 10♥ J♥", "6♣ 6♠ K♦ Q♦ J♦ 10♦")
    t.do("0 lead Blank")
    every = sorted(["6♣", "6♠", "K♦", "Q♦", "J♦", "10♦"])
    assert _beats(t) == [f"1 beat {c} on Blank" for c in every]


def test_the_blank_adds_no_rank_and_is_never_thrown_in() -> None:
    """Catalogue `pustyshka`: «it cannot be thrown in (nothing matches it) and adds no rank to
    the table (the card that beat it does)»"""
    t = _table("Blank 6♦ 7♥ 8♥ 9♥ 10♥", "6♣ 6♠ K♦ Q♦ J♦ 10♦")
    t.do("0 lead Blank", "1 beat 6♣ on Blank")
    assert t.legal(0) == ["0 throw 6♦", "0 pass"]
    t = _table("6♦ Blank 7♥ 8♥ 9♥ 10♥", "6♣ 6♠ K♦ Q♦ J♦ 10♦")
    t.do("0 lead 6♦", "1 beat K♦ on 6♦")
    assert t.refuse("0 throw Blank").reason is Reason.RANK_NOT_ON_TABLE


def test_a_blank_turned_as_trump_means_a_game_without_trumps() -> None:
    """000_0a1bcdd496bc6662.txt: «Если пустышка становится козырем, то в игра проходит без
    козырей.» and «если козыря нет, то либо по жребию или же определяют по младшей карте»
    (the lot, SP5)."""
    t = Table("pustyshka", ["A♠ 7♥ 8♥ 9♥ 10♥ J♥", "6♣ 6♠ 7♠ Q♦ J♦ 10♦"], trump="Blank")
    t.setup(lot=0)
    assert t.state.trump == NO_SUIT
    assert t.state.trump_card == t.c("Blank")
    assert t.state.phase == Phase.LEAD
    assert t.state.attacker == 0
    t.do("0 lead 7♥")
    assert _beats(t) == []  # the 6s and 7♠ are no trumps now
    assert t.state.stock[-1] == t.c("Blank")  # under the stock, drawn last
