"""«Дурак дорожный» (dorozhny): the whole deck is dealt, the last dealt card shows the trump, no
refill; a thrown-in card must beat the defender's latest beating card.
Catalogue: shared/rules/variants-attack-defend.md, section `dorozhny`."""

from __future__ import annotations

from engine_support import Table

from p2p_durak.engine import Reason
from p2p_durak.engine import events as E

# Six players share the 36 cards; the dealer (seat 0) gets the last card, 6♠: trump spades.
_HANDS = ["7♥ 9♦ 10♣ Q♣ K♦ 6♠", "9♥ 8♣ J♥ A♣ 7♦ 8♦", "10♥ 7♠ J♣ 6♦ 6♣ 7♣",
          "8♠ 9♠ 10♠ J♠ Q♠ K♠", "A♠ 9♣ K♣ 10♦ Q♦ A♦", "6♥ 8♥ J♦ Q♥ K♥ A♥"]


def _beaten(preset: str = "dorozhny") -> Table:
    t = Table(preset, _HANDS, trump="6♠")
    t.setup()
    assert t.state.attacker == 0  # the lowest trump, 6♠
    t.do("0 lead 7♥", "1 beat 9♥ on 7♥")
    return t


def test_the_whole_deck_is_dealt_and_the_last_card_is_trump() -> None:
    """000_0a1bcdd496bc6662.txt: «Колода тщательно тасуется, снимать необязательно и полностью
    сдается между всеми игроками. Последняя сдаваемая карта показывается всем игрокам это
    козырь.»"""
    t = Table("dorozhny", _HANDS, trump="6♠")
    t.setup()
    assert t.state.stock == ()
    assert t.state.trump_card == t.c("6♠")
    assert t.hand(0).count(" ") == 5  # the dealer keeps the trump card


def test_a_throw_in_must_beat_the_defenders_card() -> None:
    """000_0a1bcdd496bc6662.txt: «Если игрок отбивает эту карту, то другие игроки могут
    подкидывать карты такой же масти старшего значения или козырную карту любого значения,
    если, карта которой отбился игрок не козырная.»"""
    t = _beaten()
    assert t.legal(0) == ["0 throw 6♠", "0 pass"]  # 9♦ shares a rank but does not beat 9♥
    assert set(t.legal(2)) == {"2 throw 7♠", "2 throw 10♥", "2 pass"}
    assert t.refuse("0 throw 9♦").reason is Reason.THROW_MUST_BEAT
    t.do("2 throw 10♥")
    # one throw-in per beat: the defender answers first
    assert t.state.actors == (1,)
    assert t.refuse("0 throw 6♠").reason is Reason.THROW_IN_NOT_ALLOWED
    t.do("1 beat J♥ on 10♥")
    # now the cards that beat J♥: higher hearts and every trump; the tens on the table count
    # for nothing
    assert t.legal(0) == ["0 throw 6♠", "0 pass"]
    assert t.refuse("0 throw 10♣").reason is Reason.THROW_MUST_BEAT
    assert set(t.legal(5)) == {"5 throw Q♥", "5 throw K♥", "5 throw A♥", "5 pass"}


def test_the_template_throws_in_by_rank() -> None:
    """000_0a1bcdd496bc6662.txt: «другие игроки могут подкидывать карты того же значения, что
    лежат на столе.» (the template, dealt the same way)"""
    t = _beaten("navalenny")
    assert t.legal(0) == ["0 throw 9♦", "0 pass"]


def test_nobody_draws_and_empty_hands_leave() -> None:
    """Catalogue: no refill sentence — there is no stock. A player whose hand is empty is out
    at the end of the bout."""
    t = _beaten()
    for seat in (0, 2, 3, 4, 5):
        t.do(f"{seat} pass")
    assert t.of(E.Discarded)
    assert not t.of(E.Drew)


_THREE = ["7♥ 8♠ Q♥ 6♥ 6♦ 7♦ 8♦ 9♦ 10♦ 6♣ 7♣ 6♠",
          "J♥ 9♠ 8♥ 9♥ J♦ Q♦ K♦ A♦ 8♣ 9♣ 10♣ J♣",
          "10♥ K♥ A♥ 7♠ 10♠ J♠ Q♠ K♠ A♠ Q♣ K♣ A♣"]


def _two_beats(**knobs: str) -> Table:
    """Seat 1 beats 7♥ with J♥, then the thrown-in 8♠ with 9♠ (three seats share the deck:
    twelve cards each)."""
    t = Table("dorozhny", _THREE, trump="6♠", hand_size=12, **knobs)
    t.setup()
    t.do("0 lead 7♥", "1 beat J♥ on 7♥", "0 throw 8♠", "1 beat 9♠ on 8♠")
    return t


def test_by_default_only_the_latest_beating_card_counts() -> None:
    """The catalogue: «Which beating card the throw-in must beat → the **most recent** defence
    card»: after 9♠ only higher trumps; Q♥, which beats the earlier J♥, may not."""
    t = _two_beats()
    assert t.legal(0) == ["0 pass"]
    assert t.refuse("0 throw Q♥").reason is Reason.THROW_MUST_BEAT


def test_the_table_option_beats_any_defence_card() -> None:
    """The catalogue's alternative `beats_any_defence` («Alternative `beats_any_defence`»): a
    throw-in may beat any of the defender's beating cards on the table."""
    t = _two_beats(throw_in_match="beats_any_defence")
    # Q♥ and the trump 6♠ beat the earlier J♥ (neither beats 9♠)
    assert t.legal(0) == ["0 throw 6♠", "0 throw Q♥", "0 pass"]
    assert "2 throw K♥" in t.legal(2)
    assert "2 throw 10♠" in t.legal(2)
    assert "2 throw 10♥" not in t.legal(2)  # beats neither J♥ nor 9♠
    t.do("0 throw Q♥")
    assert t.state.actors == (1,)  # one throw-in per beat, as before
