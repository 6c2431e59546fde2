"""Opponent modelling from public play, and the playouts' per-seat policies."""

from __future__ import annotations

import random

from bot_support import play, podkidnoy

from p2p_durak.bots.hard import HardBot
from p2p_durak.bots.heuristic import EASY, STRONG, play_out
from p2p_durak.bots.knowledge import determinize
from p2p_durak.bots.levels import EasyBot, MediumBot
from p2p_durak.bots.opponents import OpponentModel, _holding
from p2p_durak.bots.table import LocalTable
from p2p_durak.engine import make_game, new_game
from p2p_durak.engine.presets import get_preset
from p2p_durak.engine.state import known_cards


def _judged(opponent: type[EasyBot | MediumBot], seed: int) -> float:
    """The hard bot's odds, at the end of a game, that the other seat plays like easy."""
    hard = HardBot(0, random.Random(seed), budget=60.0, iterations=2, endgame_nodes=400)
    play(podkidnoy(2, seed % 2), [hard, opponent(1, random.Random(seed))], seed)
    assert hard.opponents is not None
    return hard.opponents.p_easy(1)


def test_the_model_tells_the_easy_heuristic_from_the_strong_one() -> None:
    # measured: easy 0.82, 1.00, 0.94, 0.71; medium 0.01, 0.17, 0.03, 0.01 (seeds 0, 1, 3, 4)
    seeds = (0, 1, 3, 4)
    assert all(_judged(EasyBot, seed) > 0.6 for seed in seeds)
    assert all(_judged(MediumBot, seed) < 0.3 for seed in seeds)


def test_a_fresh_model_leans_strong() -> None:
    model = OpponentModel(podkidnoy(), 0, STRONG)
    assert model.p_easy(1) < 0.5
    draws = [model.policies(random.Random(i)) for i in range(200)]
    assert all(d[0] == (STRONG, True) for d in draws)  # the bot's own seat
    easy = sum(d[1] == (EASY, False) for d in draws)
    assert 20 < easy < 100  # about a quarter


def test_a_played_card_is_put_in_the_sampled_hand() -> None:
    game = podkidnoy()
    rng = random.Random(3)
    order = list(range(game.n_cards))
    rng.shuffle(order)
    bots = [MediumBot(0, random.Random(0)), MediumBot(1, random.Random(1))]
    table = LocalTable(game, order, bots, rng)
    for _ in range(6):  # a few moves into the game
        table.commit(table.next_action())
    view, knowledge = bots[0].view, bots[0].memory
    for trial in range(20):
        sample = determinize(view, knowledge, random.Random(trial))
        card = next(c for c in range(game.n_cards) if (table.state.hands[1] >> c) & 1
                    and not (sample.hands[1] >> c) & 1)
        traded = _holding(sample, view, 1, (card,), random.Random(trial))
        assert (traded.hands[1] >> card) & 1
        assert traded.hands[1] & view.hands[1] == view.hands[1]  # known cards stay
        assert [h.bit_count() for h in traded.hands] == [h.bit_count() for h in sample.hands]
        placed = traded.hands[0] | traded.hands[1] | known_cards(view)
        for c in traded.stock:
            placed |= 1 << c
        assert placed == game.all_cards  # every card in one place


def test_per_seat_policies_replace_the_common_style() -> None:
    game = make_game(get_preset("app_podkidnoy").rules, 2, 0)
    for seed in range(5):
        order = list(range(game.n_cards))
        random.Random(seed).shuffle(order)
        start = new_game(game, order)
        assert play_out(start, STRONG, policies=[(STRONG, True)] * 2) == play_out(start, STRONG)
        assert play_out(start, STRONG, policies=[(EASY, False)] * 2) == \
            play_out(start, EASY, memory=False)
