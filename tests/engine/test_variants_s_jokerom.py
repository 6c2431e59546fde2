"""«Дурак с Джокером» (s_jokerom): one joker that beats any card. Catalogue:
shared/rules/variants-attack-defend.md, section `s_jokerom` (and SP18 for what the text leaves
open: the joker has no suit and no rank)."""

from __future__ import annotations

from engine_support import Table

from p2p_durak.engine import Reason
from p2p_durak.engine import events as E
from p2p_durak.engine.cards import NO_SUIT
from p2p_durak.engine.presets import get_preset


def _table(a: str, b: str, trump: str = "9♠", **kw: object) -> Table:
    t = Table("s_jokerom", [a, b], trump=trump, first_attacker=0, **kw)  # type: ignore[arg-type]
    t.setup()
    return t


def test_the_deck_has_one_joker() -> None:
    """000_0a1bcdd496bc6662.txt: «Количество карт в колоде: 36 или 52 и один джокер»"""
    rules = get_preset("s_jokerom").rules
    assert rules.deck().n_cards == 37
    assert rules.with_options(deck_size=52).deck().n_cards == 53


def test_the_joker_beats_any_card_trumps_included() -> None:
    """000_0a1bcdd496bc6662.txt: «Если эта карта козырь, то соответственно отбить ее можно,
    козырной картой старшего значения или джокером. Джокер отбивает любую карту.»"""
    t = _table("A♠ 6♣ 7♥ 8♥ 9♥ 10♥", "J*R 7♣ K♦ Q♦ J♦ 10♦")
    t.do("0 lead A♠")
    assert [a for a in t.legal(1) if " beat " in a] == ["1 beat J*R on A♠"]
    t.do("1 beat J*R on A♠")
    assert t.state.covers[0] == t.c("J*R")


def test_a_led_joker_cannot_be_beaten() -> None:
    """Catalogue `s_jokerom` (SP18): «nothing beats a led joker, so the defender must take
    it»; the text only says «Джокер отбивает любую карту»."""
    t = _table("J*R 6♣ 7♥ 8♥ 9♥ 10♥", "A♠ K♠ 7♣ Q♦ J♦ 10♦")
    assert "0 lead J*R" in t.legal(0)
    t.do("0 lead J*R")
    assert t.legal(1) == ["1 take"]
    assert t.refuse("1 beat A♠ on J*R").reason is Reason.DOES_NOT_BEAT


def test_the_joker_is_led_alone_and_never_thrown_in() -> None:
    """Catalogue SP18: no rank, so it cannot be thrown in and adds no rank to the table."""
    t = _table("6♣ 7♥ 8♥ 9♥ 10♥ J♥", "J*R 7♣ K♦ Q♦ J♦ 10♦")
    t.do("0 lead 6♣", "1 beat J*R on 6♣")
    assert t.legal(0) == ["0 pass"]  # neither 6 nor a joker's "rank" to match
    t2 = Table("s_jokerom", ["J*R 6♣ 7♥ 8♥ 9♥ 10♥", "A♠ K♠ 7♣ Q♦ J♦ 10♦"], trump="9♠",
               first_attacker=0, lead_rule="same_rank_multi")
    t2.setup()
    assert not [a for a in t2.legal(0) if a.startswith("0 lead J*R ")]
    assert t2.refuse("0 lead 6♣ J*R").reason is Reason.NOT_SAME_RANK


def test_the_joker_does_not_transfer() -> None:
    """Catalogue `s_jokerom`: «the joker has no rank → it cannot transfer and cannot be
    transferred by rank» (with the table's choice of transfer rules)."""
    t = Table("s_jokerom", ["J*R 6♣ 7♥ 8♥ 9♥ 10♥", "6♦ K♠ 7♣ Q♦ J♦ 10♦", "A♠ K♣ 7♦ Q♣ J♣ 10♣"],
              trump="9♠", first_attacker=0, transfer=True)
    t.setup()
    t.do("0 lead J*R")
    assert t.legal(1) == ["1 take"]
    t.refuse("1 transfer 6♦")


def test_a_joker_turned_as_trump_goes_to_the_middle_and_the_next_card_is_turned() -> None:
    """000_0a1bcdd496bc6662.txt (Дурак щелковский, the compendium's rule for a joker turned as
    trump, SP18): «Если эта карта джокер, то он убирается в середину колоды и открывается снова
    верхняя карта колоды.»"""
    t = Table("s_jokerom", ["6♣ 7♥ 8♥ 9♥ 10♥ J♥", "8♣ 7♠ 9♠ 10♠ J♠ Q♠"], trump="J*R",
              stock="K♦", first_attacker=0)
    t.setup()
    (moved,) = t.of(E.TrumpReinserted)
    assert moved == E.TrumpReinserted(t.c("J*R"), 12)  # 25 stock cards: position 25 // 2
    (revealed,) = t.of(E.TrumpRevealed)
    # twelve cards lay above the joker; the turned K♦ went from the top to the bottom
    assert t.state.stock.index(t.c("J*R")) == 11
    assert revealed.card == t.c("K♦")
    assert t.state.trump == 2
    assert t.state.stock[-1] == t.c("K♦")


def test_a_joker_that_is_the_only_stock_card_leaves_the_game_without_trump() -> None:
    """Catalogue `s_jokerom` leaves it open; docs/rules.md: with six hands of six there is one
    stock card, and a joker there has no other card to give way to: no trump, first attacker
    by lot (SP5)."""
    hands = ["6♣ 7♥ 8♥ 9♥ 10♥ J♥", "8♣ 7♠ 9♠ 10♠ J♠ Q♠", "6♠ 6♦ 6♥ 7♣ 7♦ 8♠",
             "8♦ 9♣ 9♦ 10♣ 10♦ J♣", "J♦ Q♣ Q♦ Q♥ K♠ K♣", "K♦ K♥ A♠ A♣ A♦ A♥"]
    t = Table("s_jokerom", hands, trump="J*R", first_attacker=0)
    t.setup()
    assert t.of(E.TrumpReinserted) == []
    assert t.state.trump == NO_SUIT
    assert t.state.trump_card == t.c("J*R")


def test_the_joker_is_no_trump_in_the_lowest_trump_search() -> None:
    """000_0a1bcdd496bc6662.txt: «В первой игре ходит первым игрок, у которого имеется младший
    козырь» — the joker is not a trump (catalogue SP18)."""
    t = Table("s_jokerom", ["J*R 7♥ 8♥ 9♥ 10♥ J♥", "A♠ 7♣ K♦ Q♦ J♦ 10♦"], trump="9♠")
    t.setup()
    assert t.state.attacker == 1
