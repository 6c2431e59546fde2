"""«Дурак армянский – первый вариант» (armyansky_1): the attacker may lead the top stock card
unseen. Catalogue: shared/rules/variants-attack-defend.md, section `armyansky_1`."""

from __future__ import annotations

import pytest
from engine_support import Table

from p2p_durak.engine import CHANCE, Phase, Reason, RuleError, make_game, validate
from p2p_durak.engine import events as E
from p2p_durak.engine.presets import get_preset, with_base_rules
from p2p_durak.engine.tables import STOCK_LEAD_FIRST_ONLY

HANDS = ["6♠ 7♠ 8♠ 9♠ 10♠ J♠", "6♦ 7♦ 8♦ 9♦ 10♦ J♦"]


def test_the_lead_may_be_the_top_stock_card() -> None:
    """000_0a1bcdd496bc6662.txt: «Первый игрок может сделать первый ход с любой своей карты или
    с верхней карты колоды.» — the blind lead is offered next to the hand's cards."""
    t = Table("armyansky_1", HANDS, trump="6♥", stock="Q♣ K♣", first_attacker=0)
    t.setup()
    legal = t.legal(0)
    assert legal[-1] == "0 lead_stock"
    assert "0 lead 6♠" in legal


def test_the_stock_card_is_revealed_to_all_and_is_a_normal_attack_card() -> None:
    """Catalogue `armyansky_1`: «a blind lead; the card is revealed to everyone as it is
    placed», «The led stock card is a normal attack card: its rank enables throw-ins; the stock
    shrinks by one before the refill.»"""
    t = Table("armyansky_1", ["6♠ 7♠ 8♠ 9♠ 10♠ Q♠", "6♦ 7♦ 8♦ 9♦ 10♦ K♣"], trump="6♥",
              stock="Q♣ A♣", first_attacker=0)
    t.setup()
    stock_before = len(t.state.stock)
    t.do("0 lead_stock")
    assert t.state.phase == Phase.REVEAL_STOCK
    assert t.state.actors == (CHANCE,)
    assert t.of(E.StockLeadDeclared) == [E.StockLeadDeclared(0)]
    assert t.state.hand_size(0) == 6  # nothing left the hand
    assert t.legal(CHANCE) == ["reveal Q♣"]
    t.do("reveal Q♣")
    assert t.of(E.StockLed) == [E.StockLed(0, t.c("Q♣"))]
    assert t.state.phase == Phase.BOUT
    assert t.table_text() == [("Q♣", None)]
    assert t.state.table_by == (0,)
    assert len(t.state.stock) == stock_before - 1
    # once it is beaten its rank may be thrown in (the compendium's throw-ins come after a beat)
    t.do("1 beat K♣ on Q♣")
    assert "0 throw Q♠" in t.legal(0)


def test_the_turned_trump_card_may_not_be_led() -> None:
    """000_0a1bcdd496bc6662.txt: «Если в колоде остается одна козырная карта, то ход с нее
    делать нельзя.»"""
    t = Table("armyansky_1", ["6♠ 7♠ 8♠ 9♠ 10♠ J♠ Q♠ K♠ A♠ 6♣ 7♣ 8♣ 9♣ 10♣ J♣ Q♣ K♣",
                              "A♣ 6♦ 7♦ 8♦ 9♦ 10♦ J♦ Q♦ K♦ A♦ 7♥ 8♥ 9♥ 10♥ J♥ Q♥ K♥"],
              trump="6♥", stock="A♥", first_attacker=0, hand_size=17)
    t.setup()
    assert t.legal(0)[-1] == "0 lead_stock"  # A♥ on top, the trump card under it
    t.do("0 lead_stock", "reveal A♥")
    t.do("1 take")  # (the compendium throws nothing in after «беру»)
    # the stock is down to the face-up trump card: only hand cards may be led
    assert t.state.stock == (t.c("6♥"),)
    assert "lead_stock" not in " ".join(t.legal(0))
    assert t.refuse("0 lead_stock").reason is Reason.LEAD_NOT_ALLOWED


def test_every_bout_lead_may_come_from_the_stock_and_the_first_lead_option() -> None:
    """Catalogue `armyansky_1`: scope «every bout lead»; `first_lead_of_game` is a table
    option."""
    t = Table("armyansky_1", HANDS, trump="6♥", stock="Q♣ K♣", first_attacker=0)
    t.setup()
    t.do("0 lead 6♠", "1 take")
    assert t.legal(0)[-1] == "0 lead_stock"  # the second bout
    first = Table("armyansky_1", HANDS, trump="6♥", stock="Q♣ K♣", first_attacker=0,
                  extra=(STOCK_LEAD_FIRST_ONLY,))
    first.setup()
    assert first.legal(0)[-1] == "0 lead_stock"
    first.do("0 lead 6♠", "1 take")
    assert "lead_stock" not in " ".join(first.legal(0))


def test_only_the_lead_comes_from_the_stock() -> None:
    """Catalogue `armyansky_1`: «Only the leading player may do it: no throw-ins or transfers
    from the stock.»"""
    t = Table("armyansky_1", HANDS, trump="6♥", stock="Q♣ K♣", first_attacker=0)
    t.setup()
    t.do("0 lead 6♠")
    assert "lead_stock" not in " ".join(t.legal(0) + t.legal(1))
    assert t.refuse("0 lead_stock").reason is Reason.WRONG_PHASE
    assert t.refuse("1 lead_stock").reason is Reason.WRONG_PHASE


def test_a_reveal_must_show_the_top_card() -> None:
    t = Table("armyansky_1", HANDS, trump="6♥", stock="Q♣ K♣", first_attacker=0)
    t.setup()
    t.do("0 lead_stock")
    assert t.refuse("reveal K♣").reason is Reason.BAD_CHANCE
    assert t.refuse("0 lead 6♠").reason is Reason.WRONG_PHASE


def test_the_base_rules_and_what_the_lead_from_stock_needs() -> None:
    """000_0a1bcdd496bc6662.txt: «Данная игра может играться также по правилам простого и
    переводного дурака.»"""
    for base in ("podkidnoy", "prostoy", "perevodnoy"):
        validate(with_base_rules("armyansky_1", base), 4)
    rules = get_preset("armyansky_1").rules
    for knobs in ({"trump_rule": "fixed_suit:spades"}, {"lead_rule": "exact_any:3"},
                  {"trump_change": "hidden_second"}):
        with pytest.raises(RuleError) as caught:
            make_game(rules.with_options(**knobs), 2)
        assert caught.value.knob == "lead_from_stock"
        assert caught.value.message_ru
