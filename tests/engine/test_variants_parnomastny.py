"""«Дурак парномастный» (parnomastny): throw-ins match the rank or the suit of any table card.
Catalogue: shared/rules/variants-attack-defend.md, section `parnomastny`."""

from __future__ import annotations

from engine_support import Table

from p2p_durak.engine import Reason

_A = "6♣ 9♣ 10♠ 8♥ J♦ Q♦"
_B = "7♣ 7♥ 8♠ A♥ K♦ A♦"


def _after_beat(preset: str) -> Table:
    t = Table(preset, [_A, _B], trump="6♠", first_attacker=0)
    t.setup()
    t.do("0 lead 6♣", "1 beat 7♣ on 6♣")
    return t


def test_a_card_of_a_suit_on_the_table_may_be_thrown_in() -> None:
    """000_0a1bcdd496bc6662.txt: «Если игрок отбивает эту карту, то другие игроки могут
    подкидывать карты того же значения или той же масти, что лежат на столе.»"""
    t = _after_beat("parnomastny")
    assert t.legal(0) == ["0 throw 9♣", "0 pass"]
    t.do("0 throw 9♣")
    assert t.table_text() == [("6♣", "7♣"), ("9♣", None)]


def test_the_template_refuses_the_same_throw_in() -> None:
    """000_0a1bcdd496bc6662.txt: «другие игроки могут подкидывать карты того же значения, что
    лежат на столе.» — the template matches ranks only."""
    t = _after_beat("podkidnoy")
    assert t.legal(0) == ["0 pass"]
    assert t.refuse("0 throw 9♣").reason is Reason.RANK_NOT_ON_TABLE


def test_a_trump_used_to_beat_makes_every_trump_throwable() -> None:
    """Catalogue resolution: «что лежат на столе» counts defence cards too, so after a trump
    has beaten, any trump may be thrown in."""
    t = Table("parnomastny", ["8♥ 9♣ 10♠ 6♦ J♦ Q♦", "7♣ 7♥ 8♠ A♣ K♦ A♦"], trump="6♠",
              first_attacker=0)
    t.setup()
    t.do("0 lead 8♥", "1 beat 8♠ on 8♥")
    assert "0 throw 10♠" in t.legal(0)
    assert "0 throw 9♣" not in t.legal(0)
