"""Play N seeded random games of a preset (2-4 seats) with `random_playout`: a fixed workload
for instruction-count A/B runs under valgrind, where wall time is too noisy.

    valgrind --tool=callgrind python -X durak-pure bench/playout_count.py app_podkidnoy 301
    (minus the same run with 1 game: imports and setup)
"""

from __future__ import annotations

import random
import sys
import time

from p2p_durak.engine import make_game, new_game, random_playout
from p2p_durak.engine.presets import get_preset


def main() -> None:
    preset = sys.argv[1] if len(sys.argv) > 1 else "app_podkidnoy"
    games = int(sys.argv[2]) if len(sys.argv) > 2 else 300
    rules = get_preset(preset).rules
    starts = []
    for seed in range(games):
        game = make_game(rules, 2 + seed % 3, dealer=0)
        deck = list(range(game.n_cards))
        random.Random(seed).shuffle(deck)
        starts.append(new_game(game, deck))
    began = time.process_time()
    for index, state in enumerate(starts):
        random_playout(state, index)
    print(f"{games} games of {preset}: {time.process_time() - began:.3f} CPU s")


if __name__ == "__main__":
    main()
