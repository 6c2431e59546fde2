"""«Дурак с двумя Джокерами» (s_dvumya_jokerami): a red and a black joker whose powers follow
the trump's colour; a joker turned as trump makes both suits of its colour trump. Catalogue:
shared/rules/variants-attack-defend.md, section `s_dvumya_jokerami`."""

from __future__ import annotations

from engine_support import Table

from p2p_durak.engine import Reason
from p2p_durak.engine.presets import get_preset
from p2p_durak.engine.state import BLACK_PAIR


def _table(a: str, b: str, trump: str, **kw: object) -> Table:
    t = Table("s_dvumya_jokerami", [a, b], trump=trump, first_attacker=0,
              **kw)  # type: ignore[arg-type]
    t.setup()
    return t


def _beats(t: Table) -> list[str]:
    return sorted(a for a in t.legal(1) if " beat " in a)


def test_the_deck_has_a_red_and_a_black_joker() -> None:
    """000_0a1bcdd496bc6662.txt: «В игру вводятся 2 джокера: черного и красного цвета.»"""
    rules = get_preset("s_dvumya_jokerami").rules
    assert rules.deck().n_cards == 38
    t = _table("6♣ 7♥ 8♥ 9♥ 10♥ J♥", "J*R J*B K♦ Q♦ J♦ 10♦", "9♦")
    assert t.c("J*R") != t.c("J*B")


def test_red_trump_the_red_joker_is_highest_the_black_one_beats_black_cards() -> None:
    """000_0a1bcdd496bc6662.txt: «Если козырная масть бубна или черва, то красный джокер это
    самая старшая карта в игре, а черный джокер просто бьет любую карту черной масти.»"""
    t = _table("A♦ A♠ 6♥ 7♥ 8♥ 9♥", "J*R J*B 7♣ Q♣ J♣ 10♣", "9♦")
    t.do("0 lead A♦")
    assert _beats(t) == ["1 beat J*R on A♦"]
    t = _table("A♠ A♦ 6♥ 7♥ 8♥ 9♥", "J*R J*B 7♣ Q♣ J♣ 10♣", "9♦")
    t.do("0 lead A♠")
    assert _beats(t) == ["1 beat J*B on A♠", "1 beat J*R on A♠"]
    t = _table("6♥ A♦ A♠ 7♥ 8♥ 9♥", "J*R J*B 7♣ Q♣ J♣ 10♣", "9♦")
    t.do("0 lead 6♥")
    assert _beats(t) == ["1 beat J*R on 6♥"]
    assert t.refuse("1 beat J*B on 6♥").reason is Reason.DOES_NOT_BEAT


def test_black_trump_the_black_joker_is_highest_the_red_one_beats_red_cards() -> None:
    """000_0a1bcdd496bc6662.txt: «Если козырная масть трефа или пика, то черный джокер это
    самая старшая карта в игре, а красный джокер просто бьет любую карту красной масти.»"""
    t = _table("A♥ A♣ 6♠ 7♥ 8♥ 9♥", "J*R J*B 7♦ Q♦ J♦ 10♦", "9♣")
    t.do("0 lead A♥")
    assert _beats(t) == ["1 beat J*B on A♥", "1 beat J*R on A♥"]
    t = _table("A♣ A♥ 6♠ 7♥ 8♥ 9♥", "J*R J*B 7♦ Q♦ J♦ 10♦", "9♣")
    t.do("0 lead A♣")
    assert _beats(t) == ["1 beat J*B on A♣"]


def test_a_led_off_colour_joker_falls_to_any_trump_or_the_high_joker() -> None:
    """Catalogue `s_dvumya_jokerami` (the text is silent): «treat it as a non-trump card of its
    colour that outranks every card of that colour: beaten by any trump or by the high joker»
    (`off_colour_joker_beaten_by`); nothing beats the high joker."""
    t = _table("J*B 6♥ 7♥ 8♥ 9♥ 10♥", "6♦ A♠ J*R Q♣ J♣ 10♣", "9♦")
    t.do("0 lead J*B")
    assert _beats(t) == ["1 beat 6♦ on J*B", "1 beat J*R on J*B"]
    only_high = _table("J*B 6♥ 7♥ 8♥ 9♥ 10♥", "6♦ A♠ J*R Q♣ J♣ 10♣", "9♦",
                       off_colour_joker_beaten_by="high_joker_only")
    only_high.do("0 lead J*B")
    assert _beats(only_high) == ["1 beat J*R on J*B"]
    t = _table("J*R 6♥ 7♥ 8♥ 9♥ 10♥", "6♦ A♦ J*B Q♣ J♣ 10♣", "9♦")
    t.do("0 lead J*R")
    assert t.legal(1) == ["1 take"]


def test_a_joker_turned_as_trump_makes_both_suits_of_its_colour_trump() -> None:
    """000_0a1bcdd496bc6662.txt: «Если козырем выпал джокер, то козырными становятся все карты
    одного цвета с джокером, например, при черном джокере козырными являются все карты пиковой
    и трефовой масти»"""
    t = _table("A♥ 7♥ 8♥ 9♥ 10♥ J♥", "6♠ 6♣ 7♦ Q♦ J♦ 10♦", "J*B")
    assert t.state.trump == BLACK_PAIR
    t.do("0 lead A♥")
    assert _beats(t) == ["1 beat 6♠ on A♥", "1 beat 6♣ on A♥"]


def test_equal_trumps_of_the_two_suits_do_not_beat_each_other() -> None:
    """000_0a1bcdd496bc6662.txt: «в том случае, если козырь джокер, то козырные карты равные по
    значению не могут перебивать друг друга, например, при черном джокере, 8 треф не может
    отбить 8 пик.»"""
    t = _table("8♠ 7♥ 8♥ 9♥ 10♥ J♥", "8♣ 9♣ 7♠ Q♦ J♦ 10♦", "J*B")
    t.do("0 lead 8♠")
    assert _beats(t) == ["1 beat 9♣ on 8♠"]
    assert t.refuse("1 beat 8♣ on 8♠").reason is Reason.DOES_NOT_BEAT
    assert t.refuse("1 beat 7♠ on 8♠").reason is Reason.DOES_NOT_BEAT


def test_the_lowest_trump_is_searched_in_both_trump_suits() -> None:
    """Catalogue `s_dvumya_jokerami`: «In that mode the lowest-trump search covers both trump
    suits.» 000_0a1bcdd496bc6662.txt: «В первой игре ходит первым игрок, у которого имеется
    младший козырь»"""
    t = Table("s_dvumya_jokerami", ["7♠ 7♥ 8♥ 9♥ 10♥ J♥", "6♣ A♠ 7♦ Q♦ J♦ 10♦"], trump="J*B")
    t.setup()
    assert t.state.attacker == 1
