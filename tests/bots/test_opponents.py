"""Opponent modelling from public play, and the playouts' per-seat policies."""

from __future__ import annotations

import random

from bot_support import endgame, podkidnoy

from p2p_durak.bots.base import Bot
from p2p_durak.bots.heuristic import EASY, STRONG, play_out
from p2p_durak.bots.levels import EasyBot, MediumBot
from p2p_durak.bots.opponents import OpponentModel, easy_throws
from p2p_durak.bots.table import LocalTable
from p2p_durak.engine import State, make_game, new_game
from p2p_durak.engine.presets import get_preset


def _bout(state: State, stock: int, taking: bool) -> State:
    """`state` (hearts trump) with `stock` cards left in the stock and the defender taking or
    not; only what `easy_throws` reads."""
    return state._replace(stock=tuple(range(stock)), taking=taking)


def test_the_easy_throw_in_pattern() -> None:
    state = endgame([["6S"], ["7S"]], trump="H")
    deck = state.game.deck
    card = deck.parse
    long_stock, no_stock = _bout(state, 10, False), _bout(state, 0, False)
    assert easy_throws(long_stock, card("TS"))
    assert not easy_throws(long_stock, card("JS"))  # above a ten while the stock lasts
    assert easy_throws(_bout(state, 10, True), card("JS"))  # after «беру»: up to a jack
    assert not easy_throws(_bout(state, 10, True), card("QS"))
    assert easy_throws(no_stock, card("AS"))  # any plain card once the stock is gone
    assert not easy_throws(long_stock, card("6H"))  # never a trump
    assert not easy_throws(no_stock, card("6H"))


def _watch(bots: list[Bot], seed: int) -> OpponentModel:
    """Play a heads-up game and return what a watcher at seat 0 made of seat 1."""
    game = podkidnoy(2, seed % 2)
    rng = random.Random(seed)
    deck = list(range(game.n_cards))
    rng.shuffle(deck)
    table = LocalTable(game, deck, bots, rng)
    model = OpponentModel(game, 0)
    commit = table.commit

    def watched(action: object) -> None:
        before = table.state
        commit(action)  # type: ignore[arg-type]
        model.update(before, action)  # type: ignore[arg-type]

    table.commit = watched  # type: ignore[method-assign]
    assert not table.play().aborted
    return model


def test_the_easy_bot_stays_restrained_and_the_medium_bot_does_not() -> None:
    easy = [_watch([EasyBot(0, random.Random(s)), EasyBot(1, random.Random(s))], s)
            for s in range(6)]
    assert all(m.restrained == [False, True] for m in easy)
    medium = [_watch([EasyBot(0, random.Random(s)), MediumBot(1, random.Random(s))], s)
              for s in range(6)]
    # measured: 4 of these 6 games show a throw-in the easy heuristic never makes (in the
    # other two it threw in nothing above a ten while the stock lasted)
    assert sum(not m.restrained[1] for m in medium) >= 3
    assert medium[0].policies(STRONG)[0] == (STRONG, True)  # the watcher's own seat


def test_per_seat_policies_replace_the_common_style() -> None:
    game = make_game(get_preset("app_podkidnoy").rules, 2, 0)
    for seed in range(5):
        deck = list(range(game.n_cards))
        random.Random(seed).shuffle(deck)
        start = new_game(game, deck)
        assert play_out(start, STRONG, policies=[(STRONG, True)] * 2) == play_out(start, STRONG)
        assert play_out(start, STRONG, policies=[(EASY, False)] * 2) == \
            play_out(start, EASY, memory=False)
