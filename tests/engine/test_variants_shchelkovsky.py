"""«Дурак щелковский» (shchelkovsky): the deltas from the baseline beyond the decks and jokers
of test_variants_shchelkovsky_parts. Catalogue: shared/rules/variants-attack-defend.md, section
`shchelkovsky`; seed 000_0a1bcdd496bc6662.txt."""

from __future__ import annotations

from engine_support import Table

from p2p_durak.engine import Reason
from p2p_durak.engine import events as E

_TIE = "next_trumps_then_joker_then_lot"
_RULES = {"deck_count": 2, "deck_size": 52, "jokers_per_deck": 2,
          "joker_rule": "beats_all_but_two", "first_attacker_tiebreak": _TIE}



def _table(hands: list[str], trump: str = "9♠#1") -> Table:
    return Table("s_jokerom", hands, trump=trump, **_RULES)


def test_identical_lowest_trumps_compare_the_next_trumps() -> None:
    """000_0a1bcdd496bc6662.txt: «если у обоих игроков 2 одинаковых козыря (игра в 2 колоды),
    то сравниваются следующие козыри»."""
    t = _table(["6♠#0 8♠#0 7♥ 8♥ 9♥ 10♥", "6♠#1 7♠#0 7♣ K♦ Q♦ J♦", "10♠#0 7♦ 8♦ 9♦ 10♦ J♣"])
    t.do("deal", "reveal 9♠#1")
    assert t.legal(1) == ["1 claim 6♠#1"]
    t.do("1 claim 6♠#1", "2 claim 10♠#0", "0 claim 6♠#0")
    assert t.state.phase == 2  # still claiming: the tied seats show their next trumps
    assert t.legal(1) == ["1 claim 7♠#0"]
    assert t.refuse("1 claim 6♠#1").reason is Reason.WRONG_CLAIM
    t.do("1 claim 7♠#0")
    assert t.legal(0) == ["0 claim 8♠#0"]
    t.do("0 claim 8♠#0")
    assert t.state.attacker == 1
    assert t.of(E.FirstAttacker) == [E.FirstAttacker(1, False)]


def test_without_next_trumps_the_joker_holder_leads() -> None:
    """000_0a1bcdd496bc6662.txt: «при их отсутствии, преимущество получает тот игрок, у
    которого джокер»."""
    t = _table(["6♠#0 J*R 7♥ 8♥ 9♥ 10♥", "6♠#1 7♣ 8♣ K♦ Q♦ J♦"])
    t.do("deal", "reveal 9♠#1", "1 claim 6♠#1", "0 claim 6♠#0")
    assert t.legal(1) == ["1 no_trump"]
    t.do("1 no_trump", "0 no_trump")
    assert t.legal(1) == ["1 no_trump"]  # the joker round
    assert t.refuse("1 claim 7♣").reason is Reason.WRONG_CLAIM
    t.do("1 no_trump")
    assert t.refuse("0 no_trump").reason is Reason.WRONG_CLAIM
    t.do("0 claim J*R")
    assert t.state.attacker == 0


def test_a_seat_with_a_next_trump_beats_one_without_and_a_joker_tie_goes_to_the_lot() -> None:
    """The catalogue: «Joker-holder tie-break when both or neither have a joker → seeded
    lot»; a tied seat that shows no next trump drops out (docs/rules.md)."""
    t = _table(["6♠#0 7♥ 8♥ 9♥ 10♥ J♥", "6♠#1 A♠#0 8♣ K♦ Q♦ J♦"])
    t.do("deal", "reveal 9♠#1", "1 claim 6♠#1", "0 claim 6♠#0", "1 claim A♠#0",
         "0 no_trump")
    assert t.state.attacker == 1
    lot = _table(["6♠#0 J*R 8♥ 9♥ 10♥ J♥", "6♠#1 J*B 8♣ K♦ Q♦ J♦"])
    lot.do("deal", "reveal 9♠#1", "1 claim 6♠#1", "0 claim 6♠#0", "1 no_trump", "0 no_trump",
           "1 claim J*B", "0 claim J*R")
    assert lot.state.phase == 3
    assert lot.state.lot_among == (0, 1)
    lot.do("lot 0")
    assert lot.state.attacker == 0


def test_without_the_knob_a_tie_goes_to_the_lot_at_once() -> None:
    t = Table("s_jokerom", ["6♠#0 8♠#0 7♥ 8♥ 9♥ 10♥", "6♠#1 7♠#0 7♣ K♦ Q♦ J♦"], trump="9♠#1",
              **{**_RULES, "first_attacker_tiebreak": "lot"})
    t.do("deal", "reveal 9♠#1", "1 claim 6♠#1", "0 claim 6♠#0")
    assert t.state.phase == 3
    assert t.state.lot_among == (0, 1)
