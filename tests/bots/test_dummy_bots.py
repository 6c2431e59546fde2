"""с болваном (s_bolvanom): every bot level plays the preset legally, the dummy's seat by the
dummy policy (bots/dummy.py: throw in for the controller, never at him), and medium beats
random at two players and the dummy."""

from __future__ import annotations

import random

import pytest
from bot_support import HARD_TEST, play

from p2p_durak.bots.base import Bot
from p2p_durak.bots.levels import LEVELS, MediumBot, RandomBot, make_bot
from p2p_durak.engine import actions as A
from p2p_durak.engine import apply, make_game, new_game
from p2p_durak.engine.presets import get_preset

RULES = get_preset("s_bolvanom").rules


def _replay_dummy_throws(game_seed: int, seats: int, bots: list[Bot]) -> tuple[int, int]:
    """Play one game; (the dummy's throw-ins, those made while its controller defended)."""
    game = make_game(RULES, seats, game_seed % seats)
    played = play(game, bots, seed=game_seed)
    assert not played.aborted
    result = played.final.result
    assert result is not None
    assert game.dummy not in result.durak
    rng = random.Random(game_seed)
    deck = list(range(game.n_cards))
    rng.shuffle(deck)
    state = new_game(game, deck)
    throws = at_controller = 0
    for action in played.log:
        if action.seat == game.dummy:
            assert action.kind in (A.THROW, A.PASS)
            if action.kind == A.THROW:
                throws += 1
                at_controller += state.defender == state.controller
        state, _ = apply(state, action)
    assert state == played.final
    return throws, at_controller


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_plays_the_dummy_game_legally(level: str) -> None:
    options = HARD_TEST if level == "hard" else {}
    total = 0
    for g in range(3):
        seats = 3 + g % 2
        bots = [make_bot(level, s, random.Random(100 * g + s), **options) for s in range(seats)]
        throws, at_controller = _replay_dummy_throws(g, seats, bots)
        total += throws
        if level != "random":
            assert at_controller == 0
    if level != "random":
        assert total > 0  # the policy does throw the dummy's cards in


def test_medium_beats_random_with_the_dummy() -> None:
    """Two players and the dummy (played by the medium policy, for whoever controls it), seats
    alternating, 40 games."""
    wins = decided = 0
    for g in range(40):
        game = make_game(RULES, 3, g % 3)
        players = [s for s in range(3) if s != game.dummy]
        medium_seat = players[g % 2]
        bots: list[Bot] = [RandomBot(s, random.Random(g * 3 + s)) if s != medium_seat
                           and s != game.dummy else MediumBot(s, random.Random(g * 3 + s))
                           for s in range(3)]
        result = play(game, bots, seed=1000 + g).final.result
        assert result is not None
        if not result.draw:
            decided += 1
            wins += medium_seat not in result.durak
    assert decided >= 30
    assert wins >= 0.7 * decided, (wins, decided)
