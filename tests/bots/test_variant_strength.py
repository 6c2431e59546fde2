"""The medium bot beats the random one at the compendium variants with their own mechanics
(issue 8: "the medium bot beats the random one"), over a small seeded match each."""

from __future__ import annotations

import pytest
from bot_support import medium_vs_random

VARIANTS = ["kozyrny", "dvukhkozyrny", "nevidimy", "magadansky", "otboyny"]
VARIANTS += ["s_jokerom", "s_dvumya_jokerami", "pustyshka", "bolshoy", "zanudny", "treshka",
             "s_par", "s_par_pyaterka"]
VARIANTS += ["shchelkovsky"]
VARIANTS += ["armyansky_1", "albansky", "app_dlinny"]
VARIANTS += ["oborotny"]
VARIANTS += ["naborny", "krugly", "krestovy"]
VARIANTS += ["veryu_ne_veryu", "pokerny"]
GAMES = 40


@pytest.mark.parametrize("preset_id", VARIANTS)
def test_medium_beats_random(preset_id: str) -> None:
    wins, decided = medium_vs_random(preset_id, GAMES, seed=2000)
    assert decided >= GAMES * 3 // 4
    assert wins >= 0.75 * decided, f"medium won {wins} of {decided}"
