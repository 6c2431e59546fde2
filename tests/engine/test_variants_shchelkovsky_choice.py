"""«Дурак щелковский», the table option (B) of its ten-card cap: more may be thrown in and the
defender picks the ones he beats, the rest going back (`over_limit_policy: defender_chooses`,
engine/overflow.py). Catalogue: shared/rules/variants-attack-defend.md, section `shchelkovsky`,
«(B): allow more and let the defender pick 10 to beat and return the rest to their owners»;
seed 000_0a1bcdd496bc6662.txt: «Максимальное число подкидываемых карт 10. В том случае, если
игроки подкинули более десяти карт, игрок может на выбор: выбрать карты, которые отбивать, а
остальные возвратить»."""

from __future__ import annotations

import pytest
from engine_support import Table

from p2p_durak.engine import Reason, apply, public_view, state_hash
from p2p_durak.engine import events as E
from p2p_durak.engine.presets import get_preset
from p2p_durak.engine.rules import RuleError, validate
from p2p_durak.engine.views import private_view

_RULES = {"deck_count": 2, "deck_size": 52, "jokers_per_deck": 2,
          "joker_rule": "beats_all_but_two", "transfer": True,
          "transfer_by_showing": "backward_proezdnoy", "self_throw_in": "after_proezdnoy",
          "max_players": 10, "hand_size": 16, "bout_attack_limit": 10,
          "first_bout_attack_limit": 10, "throw_in_timing": "until_bout_closed",
          "extra": (("bout_limit_counts", "thrown_in_only"),),
          "over_limit_policy": "defender_chooses"}
# seat 0 leads 7♥ and throws in sevens and eights; seat 2 throws in too; seat 1 defends with
# sixteen cards (the defender cap lets twelve and more lie unbeaten)
_HANDS = ["7♥#0 7♥#1 7♦#0 7♦#1 7♣#0 7♣#1 7♠#0 8♦#0 8♦#1 8♣#0 8♣#1 8♥#1 K♦#0 8♠#0 5♥#0 6♥#0",
          "8♥#0 2♣#0 2♦#0 3♣#0 3♦#0 4♣#0 4♦#0 5♣#0 5♦#0 6♣#0 6♦#0 9♥#1 10♥#1 4♥#0 A♦#0 "
          "A♣#0",
          "7♠#1 8♠#1 J♥#0 Q♥#0 K♥#0 A♥#0 9♣#0 10♣#0 J♣#0 Q♣#0 K♣#0 A♣#1 9♦#0 10♦#0 "
          "J♦#0 Q♦#0"]
_TEN = ("7♥#1", "7♦#0", "7♦#1", "7♣#0", "7♣#1", "7♠#0", "8♦#0", "8♦#1", "8♣#0", "8♣#1")


def _table(**knobs: object) -> Table:
    t = Table("s_jokerom", _HANDS, trump="9♠#1", first_attacker=0, **{**_RULES, **knobs})
    t.setup()
    return t


def _over() -> Table:
    """Seat 0 leads 7♥, seat 1 beats it, ten are thrown in by seat 0 and two more by seat 2."""
    t = _table()
    t.do("0 lead 7♥#0", "1 beat 8♥#0 on 7♥#0")
    t.do(*(f"0 throw {card}" for card in _TEN))
    t.do("2 throw 7♠#1", "2 throw 8♠#1")
    return t


def test_the_shchelkovsky_preset_offers_the_choice_as_a_table_option() -> None:
    """The catalogue's knobs: «over_limit_policy: hard_cap # alternative: defender_chooses»;
    the preset keeps (A), and (B) validates as the table's option."""
    rules = get_preset("shchelkovsky").rules
    assert rules.over_limit_policy == "hard_cap"
    chosen = rules.with_options(over_limit_policy="defender_chooses")
    validate(chosen, 5)
    assert chosen.rules_hash() != rules.rules_hash()
    with pytest.raises(RuleError) as error:
        validate(get_preset("app_podkidnoy").rules.with_options(
            over_limit_policy="defender_chooses"), 3)
    assert error.value.knob == "over_limit_policy"
    with pytest.raises(RuleError) as swap:  # (the swap needs no проездной)
        validate(chosen.with_options(trump_change="swap_on_defence", self_throw_in="off",
                                     transfer_by_showing="off"), 5)
    assert swap.value.knob == "over_limit_policy"


def test_more_than_ten_may_be_thrown_in_and_then_the_defender_only_sends_back() -> None:
    """000_0a1bcdd496bc6662.txt: «Максимальное число подкидываемых карт 10. В том случае, если
    игроки подкинули более десяти карт»: under (B) the throw-ins go on past ten (the
    defender cap still holds); while more than ten are thrown in the defender's only moves are
    to send a thrown-in card back."""
    t = _over()
    assert len(t.state.table) == 13  # the lead and twelve thrown in
    assert 1 in t.state.actors
    assert sorted(t.legal(1)) == sorted(f"1 send_back {c}" for c in (*_TEN, "7♠#1", "8♠#1"))
    assert t.refuse("1 beat 9♥#1 on 7♥#1").reason is Reason.SEND_BACK_FIRST
    assert t.refuse("1 take").reason is Reason.SEND_BACK_FIRST
    assert t.refuse("1 send_back 7♥#0").reason is Reason.NOT_SENDABLE  # the lead stays
    assert t.refuse("0 send_back 7♥#1").reason is Reason.NOT_YOUR_TURN


def test_the_cards_sent_back_go_to_their_throwers_and_then_the_cap_is_hard() -> None:
    """000_0a1bcdd496bc6662.txt: «игрок может на выбор: выбрать карты, которые отбивать, а
    остальные возвратить»: each card goes back to the
    hand of the player who threw it in, face up; once he has sent back, nobody throws in past
    ten again, and he is left with exactly ten thrown-in cards."""
    t = _over()
    t.do("1 send_back 8♠#1")
    assert t.events == [E.SentBack(1, t.c("8♠#1"), 2)]
    assert "8♠#1" in t.hand(2)
    assert sorted(t.legal(1)) == sorted(f"1 send_back {c}" for c in (*_TEN, "7♠#1"))
    t.do("1 send_back 8♣#1")
    assert "8♣#1" in t.hand(0)
    assert len(t.state.table) == 11  # the lead and ten thrown in
    assert 0 not in t.state.actors
    assert 2 not in t.state.actors
    assert t.refuse("2 throw 8♠#1").reason is Reason.THROW_IN_NOT_ALLOWED
    assert "1 take" in t.legal(1)
    assert not [a for a in t.legal(1) if "send_back" in a]
    t.do("1 beat 9♥#1 on 7♥#1")  # the game goes on as under the hard cap


def test_a_beaten_card_and_the_lead_are_never_sent_back() -> None:
    t = _table()
    t.do("0 lead 7♥#0", "1 beat 8♥#0 on 7♥#0")
    t.do(*(f"0 throw {card}" for card in _TEN[:3]))
    t.do("1 beat 9♥#1 on 7♥#1")
    t.do(*(f"0 throw {card}" for card in _TEN[3:]))
    t.do("2 throw 7♠#1")
    assert t.refuse("1 send_back 7♥#1").reason is Reason.NOT_SENDABLE
    assert "1 send_back 7♥#1" not in t.legal(1)
    t.do("1 send_back 7♦#0")
    assert "7♦#0" in t.hand(0)


def test_a_transferred_card_is_not_thrown_in_and_stays() -> None:
    """The limit does not count the lead's and the transfers' cards (the catalogue), so under
    (B) they are not among the cards sent back either."""
    hands = ["7♥#0 7♥#1 7♦#0 7♦#1 7♣#0 7♣#1 8♣#0 8♦#0 8♦#1 8♣#1 K♦#0 K♣#0 5♥#0 6♥#0 4♠#0 "
             "3♠#0",
             "7♠#0 2♣#0 2♦#0 3♣#0 3♦#0 4♣#0 4♦#0 5♣#0 5♦#0 6♣#0 6♦#0 2♥#0 3♥#0 4♥#0 A♦#0 "
             "A♣#0",
             "7♠#1 8♠#1 J♥#0 Q♥#0 K♥#0 A♥#0 9♣#0 10♣#0 J♣#0 Q♣#0 K♣#1 A♣#1 J♦#0 Q♦#0 "
             "8♥#0 A♠#0"]
    t = Table("s_jokerom", hands, trump="9♠#1", first_attacker=0,
              **{**_RULES, "hand_size": 16})
    t.setup()
    t.do("0 lead 7♥#0", "1 transfer 7♠#0")
    assert t.state.defender == 2
    t.do(*(f"0 throw {card}" for card in ("7♥#1", "7♦#0", "7♦#1", "7♣#0", "7♣#1")))
    t.do("2 beat 8♥#0 on 7♥#0", "2 beat A♠#0 on 7♠#0")
    t.do(*(f"0 throw {card}" for card in ("8♣#0", "8♦#0", "8♦#1", "8♣#1")))
    t.do("1 throw A♦#0", "1 throw A♣#0")
    assert len(t.state.table) == 13  # the lead, the transfer and eleven thrown in
    assert "2 send_back 7♠#0" not in t.legal(2)
    assert t.refuse("2 send_back 7♠#0").reason is Reason.NOT_SENDABLE
    t.do("2 send_back A♦#0")
    assert "A♦#0" in t.hand(1)
    assert len(t.state.table) == 12


def test_a_partial_view_applies_the_same_moves_to_the_same_public_state() -> None:
    """The card sent back lay face up: every view learns it is back in its thrower's hand."""
    t = _over()
    views = [private_view(t.state, seat) for seat in range(3)]
    action = t.act("1 send_back 7♠#1")
    t.do("1 send_back 7♠#1")

    for seat, view in enumerate(views):
        after, _ = apply(view, action)
        assert state_hash(after) == state_hash(t.state)
        assert public_view(after) == public_view(t.state)
        assert (after.hands[2] >> t.c("7♠#1")) & 1, seat


def test_after_the_take_the_cap_stays_hard() -> None:
    """After «беру» nothing is beaten, so there is nothing to choose: the throw-ins stop at ten
    (our reading)."""
    t = _table(throw_in_after_take=True)
    t.do("0 lead 7♥#0", "1 beat 8♥#0 on 7♥#0", "0 throw 7♥#1", "1 take")
    t.do(*(f"0 throw {card}" for card in _TEN[1:9]))
    assert 2 in t.state.actors
    t.do(f"0 throw {_TEN[9]}")  # the tenth: nobody may throw in any more, the bout closes
    (took,) = t.of(E.Took)
    assert took.seat == 1
    assert len(took.cards) == 12
