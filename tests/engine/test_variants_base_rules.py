"""The lobby choice of base rules: «Данная игра может играться также по правилам простого и
переводного дурака» resolved into knobs for every variant that offers it."""

from __future__ import annotations

import random

import pytest
from engine_support import Table, random_playout

from p2p_durak.engine import RuleError, make_game, validate
from p2p_durak.engine import actions as A
from p2p_durak.engine.presets import (
    PRESETS,
    base_rules_choices,
    with_base_rules,
)

OFFERING = [pid for pid in PRESETS if base_rules_choices(pid)]
WORKING = [(pid, base) for pid in OFFERING if PRESETS[pid].works
           for base in base_rules_choices(pid)]


def test_the_catalogue_offers_the_choice_in_26_sections() -> None:
    """000_0a1bcdd496bc6662.txt: «Данная игра может играться также по правилам простого и
    переводного дурака.»"""
    assert len(OFFERING) == 26
    assert base_rules_choices("naborny") == ("podkidnoy", "perevodnoy")
    assert base_rules_choices("parnomastny") == ()


@pytest.mark.parametrize(("preset_id", "base"), WORKING)
def test_each_choice_of_a_working_variant_plays_to_the_end(preset_id: str, base: str) -> None:
    rules = with_base_rules(preset_id, base)
    validate(rules)
    if base != "podkidnoy":  # podkidnoy: the preset's own rules
        assert (rules.throw_in, rules.transfer) == (base == "perevodnoy", base == "perevodnoy")
    for n in (2, 3):
        game = make_game(rules, n, 0)
        rng = random.Random(n)
        order = list(range(game.n_cards))
        rng.shuffle(order)
        final, log = random_playout(game, order, rng)
        assert final.result is not None
        kinds = {a.kind for a in log}
        if base == "prostoy":
            assert A.THROW not in kinds
            assert A.TRANSFER not in kinds


def test_the_own_choice_is_the_preset_itself() -> None:
    assert with_base_rules("korolevsky", "podkidnoy") is PRESETS["korolevsky"].rules
    assert with_base_rules("perevodnoy_2", "podkidnoy") is PRESETS["perevodnoy_2"].rules


def test_perevodnoy_2_played_by_perevodnoy_rules_transfers_only_the_lead() -> None:
    """000_0a1bcdd496bc6662.txt: «Данная игра может играться также по правилам простого и
    переводного дурака.» — by «Дурак переводной» rules the thrown-in card cannot be
    transferred."""
    rules = with_base_rules("perevodnoy_2", "perevodnoy")
    assert rules.transfer_window == "before_first_cover"
    t = Table("perevodnoy_2", ["6♣ 8♥ 9♦ 10♦ J♦ K♠", "8♣ 8♦ 7♠ 7♥ Q♥ A♠"], trump="6♠",
              first_attacker=0, transfer_window="before_first_cover", base_rules="perevodnoy")
    t.setup()
    t.do("0 lead 6♣", "1 beat 8♣ on 6♣", "0 throw 8♥")
    assert "1 transfer 8♦" not in t.legal(1)


def test_korolevsky_by_simple_rules_has_no_throw_ins() -> None:
    """000_0a1bcdd496bc6662.txt: «Данная игра может играться также по правилам простого и
    переводного дурака.»"""
    t = Table("korolevsky", ["6♣ 8♣ 9♦ 10♦ J♦ K♠", "A♣ 8♦ 7♠ 7♥ Q♥ A♠"], trump="9♠",
              first_attacker=0, base_rules="prostoy", throw_in=False,
              throw_in_after_take=False)
    t.setup()
    t.do("0 lead 6♣", "1 beat A♣ on 6♣")
    assert t.state.bout == 1  # the bout closed at once: nobody may throw in


def test_a_choice_the_variant_does_not_offer_is_refused() -> None:
    with pytest.raises(RuleError):
        with_base_rules("parnomastny", "prostoy")
    with pytest.raises(RuleError):
        with_base_rules("naborny", "prostoy")
    with pytest.raises(RuleError):
        validate(PRESETS["korolevsky"].rules.with_options(base_rules="prostoy"))
