"""«Дурак магаданский» (magadansky): of the six cards dealt five lie locked face down; each
successful defence unlocks one; when the stock is gone all unlock. Catalogue:
shared/rules/variants-attack-defend.md, section `magadansky`."""

from __future__ import annotations

import random

import pytest
from engine_support import Table

from p2p_durak.engine import (
    CHANCE,
    UNKNOWN,
    RuleError,
    apply,
    chance_outcome,
    is_over,
    learn,
    legal_actions,
    make_game,
    new_game,
    private_view,
    to_act,
)
from p2p_durak.engine import actions as A
from p2p_durak.engine import events as E
from p2p_durak.engine.presets import get_preset
from p2p_durak.engine.rules import validate

# in each hand the first five cards are dealt first, so they are the locked ones
HANDS = ["6♣ 7♥ 8♥ 9♥ 10♥ J♥", "8♣ 7♠ 9♠ 10♠ J♠ Q♥"]


def test_five_of_six_are_locked_and_one_is_in_hand() -> None:
    """000_0a1bcdd496bc6662.txt: «каждому игроку сдается по 6 карт, 5 карт недоступны для
    игрока и лежат перед ним в закрытом виде.»"""
    t = Table("magadansky", HANDS, trump="6♦", first_attacker=0)
    t.setup()
    assert t.state.locked == (t.cs("6♣ 7♥ 8♥ 9♥ 10♥"), t.cs("8♣ 7♠ 9♠ 10♠ J♠"))
    assert t.hand(0) == "J♥"
    assert t.hand(1) == "Q♥"
    assert t.legal(0) == ["0 lead J♥"]
    # a player's own view does not see his locked cards either
    view = private_view(t.state, 0)
    assert view.locked == ((UNKNOWN,) * 5, (UNKNOWN,) * 5)


def test_a_successful_defence_unlocks_one_card_of_the_defender() -> None:
    """000_0a1bcdd496bc6662.txt: «По одной карте становится доступной и игрок может
    использовать ее в игре, если он сделает отбой, то есть отобьет карты своего соперника.»"""
    t = Table("magadansky", HANDS, trump="6♦", first_attacker=0, stock="A♠ K♠")
    t.setup()
    t.do("0 lead J♥", "1 beat Q♥ on J♥")
    assert t.of(E.Unlocked) == [E.Unlocked(1, 1, (t.c("8♣"),))]
    assert t.state.locked == (t.cs("6♣ 7♥ 8♥ 9♥ 10♥"), t.cs("7♠ 9♠ 10♠ J♠"))
    # «у которых карт менее шести добирают»: locked cards are his, so each draws one
    assert [(e.seat, e.n) for e in t.of(E.Drew)] == [(0, 1), (1, 1)]
    assert t.hand(0) == "A♠"
    assert t.hand(1) == "K♠ 8♣"


def test_a_take_unlocks_nothing() -> None:
    """000_0a1bcdd496bc6662.txt: «если он сделает отбой, то есть отобьет карты своего
    соперника» — taking is no отбой."""
    t = Table("magadansky", HANDS, trump="6♦", first_attacker=0)
    t.setup()
    t.do("0 lead J♥", "1 take")
    assert t.of(E.Unlocked) == []
    assert len(t.state.locked[1]) == 5


def test_the_defender_cap_counts_usable_cards_only() -> None:
    """000_0a1bcdd496bc6662.txt: «5 карт недоступны для игрока» — a defender with no usable card
    left gets nothing thrown in, whatever lies locked before him."""
    hands = ["6♣ 7♥ 8♥ 9♥ 10♥ J♥", "8♣ 7♠ 9♠ 10♠ A♠ Q♥", "6♠ 6♥ 7♦ 8♦ 9♦ J♣"]
    t = Table("magadansky", hands, trump="6♦", first_attacker=0)
    t.setup()
    t.do("0 lead J♥", "1 beat Q♥ on J♥")
    # seat 2 holds J♣ of the table's rank, but the defender has no usable card: bout over
    assert t.of(E.Discarded)
    assert t.state.table == ()


def test_when_the_stock_is_gone_every_locked_card_unlocks() -> None:
    """000_0a1bcdd496bc6662.txt: «Когда закончится колода, то все недоступные карты, становятся
    доступными и игроки могут использовать их в игре.»"""
    rules = get_preset("magadansky").rules
    for n, seed in ((2, 1), (3, 2), (4, 3)):
        game = make_game(rules, n, 0)
        order = list(range(game.n_cards))
        random.Random(seed).shuffle(order)
        state = new_game(game, order)
        rng = random.Random(seed)
        emptied = False
        while not is_over(state):
            seat = rng.choice(sorted(to_act(state)))
            action = chance_outcome(state) if seat == CHANCE else None
            if action is None:
                action = rng.choice(legal_actions(state, seat))
            state, _ = apply(state, action)
            if state.locked and not state.stock:
                emptied = True
                assert all(pile == () for pile in state.locked)
        assert emptied


def test_no_stock_after_the_deal_unlocks_everything_at_once() -> None:
    """000_0a1bcdd496bc6662.txt: «Когда закончится колода, то все недоступные карты, становятся
    доступными» — six hands of six from 36 leave no stock (SP2)."""
    game = make_game(get_preset("magadansky").rules, 6, 0)
    state, events = apply(new_game(game, list(range(36))), A.deal())
    assert all(pile == () for pile in state.locked)
    assert all(state.hand_size(s) == 6 for s in range(6))
    assert sum(e.n for e in events if isinstance(e, E.Unlocked)) == 30


def test_a_partial_view_learns_its_unlocked_card() -> None:
    """000_0a1bcdd496bc6662.txt: «По одной карте становится доступной» — in a seat's own view
    the card comes unseen and is learned from the deck."""
    t2 = Table("magadansky", HANDS, trump="6♦", first_attacker=0, stock="A♠ K♠")
    t2.setup()
    mine = private_view(t2.state, 1)
    for line in ("0 lead J♥", "1 beat Q♥ on J♥"):
        action = t2.act(line)
        t2.state, _ = apply(t2.state, action)
        mine, _ = apply(mine, action)
    assert mine.hidden[1] == 2  # the unlocked card and the drawn one, both unseen yet
    mine = learn(mine, 1, t2.cs("8♣ K♠"))
    assert mine.hands[1] == t2.state.hands[1]


def test_locked_cards_need_a_usable_card_and_the_usable_cap() -> None:
    rules = get_preset("magadansky").rules
    with pytest.raises(RuleError):
        validate(rules.with_options(locked_cards=6))
    with pytest.raises(RuleError):
        validate(rules.with_options(defender_hand_cap_counts="all_cards"))
