"""«Дурак албанский» (albansky): the deck is laid out by rank, aces on top, and shuffled only
within each rank. Catalogue: shared/rules/variants-attack-defend.md, section `albansky`."""

from __future__ import annotations

import random

import pytest
from engine_support import random_playout

from p2p_durak.engine import Phase, RuleError, apply, chance_outcome, make_game, new_game
from p2p_durak.engine.presets import get_preset, with_base_rules
from p2p_durak.engine.rules import validate
from p2p_durak.engine.setup import presort_layout

RULES = get_preset("albansky").rules


def _dealt(n: int, seed: int) -> tuple[list[list[int]], object]:
    game = make_game(RULES, n, 0)
    order = list(range(game.n_cards))
    random.Random(seed).shuffle(order)
    state = new_game(game, order)
    state, _ = apply(state, chance_outcome(state))  # the deal
    hands = [sorted(game.rank[c] for c in range(game.n_cards) if state.hands[s] >> c & 1)
             for s in range(n)]
    return hands, (game, state, order)


def test_the_deck_is_laid_out_by_rank_aces_on_top() -> None:
    """000_0a1bcdd496bc6662.txt: «Перед игрой карты в колоде раскладываются по убыванию
    значений: туз, король, дама, валет, 10, 9, 8, 7, 6, 5, 4, 3, 2. Тузы являются верхними
    картами в колоде, двойки являются нижними картами в колоде.» (36 cards: A…6)"""
    game = make_game(RULES, 2, 0)
    order = list(range(game.n_cards))
    random.Random(1).shuffle(order)
    stock = new_game(game, order).stock
    assert [game.rank[c] for c in stock] == sorted((game.rank[c] for c in stock), reverse=True)
    assert game.rank[stock[0]] == 14
    assert game.rank[stock[-1]] == 6


def test_the_shuffle_is_within_each_rank() -> None:
    """Catalogue `albansky`: «(c) shuffle: within_rank — shuffle suits only inside each rank
    block. Recommended: (c), the only reading that keeps both sentences meaningful»; the
    suits of each rank keep the order of the shuffled deck."""
    game = make_game(RULES, 2, 0)
    order = list(range(game.n_cards))
    random.Random(2).shuffle(order)
    stock = new_game(game, order).stock
    for rank in range(6, 15):
        assert [c for c in stock if game.rank[c] == rank] == \
            [c for c in order if game.rank[c] == rank]
    suit_orders = {tuple(game.suit[c] for c in stock if game.rank[c] == r) for r in range(6, 15)}
    assert len(suit_orders) > 1, "the suits are not in a fixed order"


@pytest.mark.parametrize(("n", "hand", "trump_rank"), [
    (2, [12, 12, 13, 13, 14, 14], 11), (4, [9, 10, 11, 12, 13, 14], 8)])
def test_the_high_cards_are_dealt_and_the_low_ones_stay_in_the_stock(
        n: int, hand: list[int], trump_rank: int) -> None:
    """000_0a1bcdd496bc6662.txt: «сдаются карты только сверху колоды и только по одной за
    раз» — catalogue: with 4 players "every player gets exactly one each of A, K, Q, J, 10, 9;
    the trump card is an 8"; with 2 players "each gets A A K K Q Q; the trump card is a J"."""
    hands, (game, state, _) = _dealt(n, 3)
    assert all(h == hand for h in hands)
    state, _ = apply(state, chance_outcome(state))  # the trump card is turned
    assert game.rank[state.trump_card] == trump_rank


def test_the_engine_and_the_deck_lay_the_deck_out_alike() -> None:
    """The table machine's initial deck and blocks (over the deck) are the engine's pre-sorted
    order: each block one rank, top first."""
    game = make_game(RULES, 3, 0)
    layout, blocks = presort_layout(game)
    assert layout == new_game(game, range(game.n_cards)).stock
    assert blocks == (4,) * 9
    at = 0
    for size in blocks:
        assert len({game.rank[c] for c in layout[at:at + size]}) == 1
        at += size


def test_a_whole_game_plays_to_the_end_under_each_base_rule() -> None:
    """000_0a1bcdd496bc6662.txt: «Данная игра может играться также по правилам простого и
    переводного дурака.»"""
    for base in ("podkidnoy", "prostoy", "perevodnoy"):
        rules = with_base_rules("albansky", base)
        validate(rules, 3)
        game = make_game(rules, 3, 1)
        order = list(range(game.n_cards))
        random.Random(4).shuffle(order)
        final, _ = random_playout(game, order, random.Random(5))
        assert final.phase == Phase.OVER


def test_the_choices_go_together() -> None:
    for knobs in ({"shuffle": "full"}, {"deck_presort": "none"}):
        with pytest.raises(RuleError) as caught:
            validate(RULES.with_options(**knobs), 2)
        assert caught.value.knob == "shuffle"
    with pytest.raises(RuleError) as caught:
        validate(RULES.with_options(jokers_per_deck=1, joker_rule="beats_any"), 2)
    assert caught.value.knob == "deck_presort"
