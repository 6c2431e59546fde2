"""The medium bot beats the random one at the compendium variants with their own mechanics
(issue 8: "the medium bot beats the random one"), over a small seeded match each."""

from __future__ import annotations

import random

import pytest
from bot_support import game_for, play

from p2p_durak.bots.levels import MediumBot, RandomBot

VARIANTS = ["kozyrny", "dvukhkozyrny", "nevidimy", "magadansky", "otboyny"]
VARIANTS += ["s_jokerom", "s_dvumya_jokerami", "pustyshka", "bolshoy", "zanudny", "treshka",
             "s_par", "s_par_pyaterka"]
VARIANTS += ["shchelkovsky"]
GAMES = 40


@pytest.mark.parametrize("preset_id", VARIANTS)
def test_medium_beats_random(preset_id: str) -> None:
    wins = decided = 0
    for g in range(GAMES):
        game = game_for(preset_id, 2, g)
        medium_seat = g % 2
        bots = [MediumBot(s, random.Random(g * 2 + s)) if s == medium_seat
                else RandomBot(s, random.Random(g * 2 + s)) for s in range(2)]
        result = play(game, bots, seed=2000 + g).final.result
        assert result is not None
        if not result.draw:
            decided += 1
            wins += medium_seat not in result.durak
    assert decided >= GAMES * 3 // 4
    assert wins >= 0.75 * decided, f"medium won {wins} of {decided}"
