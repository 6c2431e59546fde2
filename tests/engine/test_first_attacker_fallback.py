"""SP5, the first attacker when nobody holds a trump: a lot (the default) or, as the table
option `first_attacker_fallback: lowest_card`, the holder of the lowest card, ties by lot.
shared/rules/baseline.md SP5: «Compendium: "если козыря нет, то либо по жребию или же
определяют по младшей карте"» (seed 000_0a1bcdd496bc6662.txt, «Дурак щелковский»);
«Recommended, for all presets: `first_attacker_fallback: lot` (default) or `lowest_card`
(ties by lot).»"""

from __future__ import annotations

from engine_support import Table

from p2p_durak.engine import Reason, apply, state_hash
from p2p_durak.engine import events as E
from p2p_durak.engine.state import Phase
from p2p_durak.engine.views import private_view

_LOWEST = {"first_attacker_fallback": "lowest_card"}
# trump spades (the 6♠ under the stock); nobody holds a spade
_HANDS = ["8♥ 9♥ 10♥ J♥ Q♥ K♥", "7♣ 8♣ 9♣ 10♣ J♣ Q♣", "9♦ 10♦ J♦ Q♦ K♦ A♦"]


def test_by_default_nobody_with_a_trump_means_a_lot_among_all() -> None:
    t = Table("app_podkidnoy", _HANDS, trump="6♠")
    t.do("deal", "reveal 6♠", "1 no_trump", "2 no_trump", "0 no_trump")
    assert t.state.phase == Phase.LOT
    assert t.state.lot_among == (0, 1, 2)


def test_with_the_option_the_lowest_card_leads() -> None:
    """000_0a1bcdd496bc6662.txt: «если козыря нет, то либо по жребию или же определяют по
    младшей карте»: after everybody said "no trump" every seat shows his lowest card; the 7♣
    is the lowest."""
    t = Table("app_podkidnoy", _HANDS, trump="6♠", **_LOWEST)
    t.do("deal", "reveal 6♠", "1 no_trump", "2 no_trump", "0 no_trump")
    assert t.state.phase == Phase.CLAIM
    assert t.legal(1) == ["1 claim 7♣"]
    assert t.refuse("1 claim 8♣").reason is Reason.WRONG_CLAIM
    assert t.refuse("1 no_trump").reason is Reason.WRONG_CLAIM
    t.do("1 claim 7♣", "2 claim 9♦", "0 claim 8♥")
    assert t.state.phase == Phase.LEAD
    assert t.state.attacker == 1
    assert t.of(E.FirstAttacker) == [E.FirstAttacker(1, False)]


def test_lowest_cards_of_one_rank_go_to_the_lot() -> None:
    """«(ties by lot)»: only the tied seats draw."""
    hands = ["7♥ 9♥ 10♥ J♥ Q♥ K♥", "7♣ 8♣ 9♣ 10♣ J♣ Q♣", "9♦ 10♦ J♦ Q♦ K♦ A♦"]
    t = Table("app_podkidnoy", hands, trump="6♠", **_LOWEST)
    t.do("deal", "reveal 6♠", "1 no_trump", "2 no_trump", "0 no_trump",
         "1 claim 7♣", "2 claim 9♦", "0 claim 7♥")
    assert t.state.phase == Phase.LOT
    assert t.state.lot_among == (0, 1)
    t.do("lot 0")
    assert t.state.attacker == 0


def test_a_trump_holder_still_leads_as_before() -> None:
    hands = ["8♥ 9♥ 10♥ J♥ Q♥ K♠", "7♣ 8♣ 9♣ 10♣ J♣ Q♣", "9♦ 10♦ J♦ Q♦ K♦ A♦"]
    t = Table("app_podkidnoy", hands, trump="6♠", **_LOWEST)
    t.do("deal", "reveal 6♠", "1 no_trump", "2 no_trump", "0 claim K♠")
    assert t.state.phase == Phase.LEAD
    assert t.state.attacker == 0


def test_a_joker_is_no_low_card() -> None:
    """щелковский's jokers have no rank: the lowest card is the lowest plain card."""
    rules = {"deck_count": 2, "deck_size": 52, "jokers_per_deck": 2,
             "joker_rule": "beats_all_but_two",
             "first_attacker_tiebreak": "next_trumps_then_joker_then_lot", **_LOWEST}
    t = Table("s_jokerom", ["J*R 7♥#0 8♥ 9♥ 10♥ J♥", "3♣#0 8♣ 9♣ 10♣ J♣ Q♣"], trump="6♠#1",
              **rules)
    t.do("deal", "reveal 6♠#1", "1 no_trump", "0 no_trump")
    t.do("1 claim 3♣#0")
    assert t.legal(0) == ["0 claim 7♥#0"]  # not the joker
    assert t.refuse("0 claim J*R").reason is Reason.WRONG_CLAIM
    t.do("0 claim 7♥#0")
    assert t.state.attacker == 1


def test_every_view_applies_the_lowest_card_claims_alike() -> None:
    """A partial view cannot check that a shown card is the lowest (the end-of-game audit
    does, protocol/table.py); it applies the claims to the same public state."""
    t = Table("app_podkidnoy", _HANDS, trump="6♠", **_LOWEST)
    t.do("deal", "reveal 6♠")
    views = [private_view(t.state, seat) for seat in range(3)]
    for line in ("1 no_trump", "2 no_trump", "0 no_trump", "1 claim 7♣", "2 claim 9♦",
                 "0 claim 8♥"):
        action = t.act(line)
        t.do(line)
        views = [apply(view, action)[0] for view in views]
        assert {state_hash(view) for view in views} == {state_hash(t.state)}


def test_every_table_choice_of_every_preset_is_playable() -> None:
    """The lobby's rule option (presets.table_choices): each combination validates, the
    preset's own comes first, and SP5's fallback is offered wherever trumps are claimed."""
    from p2p_durak.engine.presets import table_choices, table_presets
    from p2p_durak.engine.rules import validate

    offered = 0
    for preset in table_presets():
        choices = table_choices(preset.id)
        if choices:
            assert choices[0].changes == ()
        for choice in choices:
            validate(preset.rules.with_options(**dict(choice.changes)), preset.players[0])
            offered += ("first_attacker_fallback", "lowest_card") in choice.changes
    assert offered > 30
    assert len(table_choices("shchelkovsky")) == 5  # 2 × 2, and SP17's alone
    assert table_choices("s_par") == ()
