"""Engine benchmark: random self-play games per second on one core.

    python bench/engine.py            # 30 CPU seconds per player count and loop
    python bench/engine.py --quick    # under a minute; figures as JSON on the last line

Plays app_podkidnoy (36 cards) with 2, 4 and 6 seats from decks shuffled inside the timed
loop, two ways:

* playout (the headline, `games_per_second_{n}p`): `random_playout(new_game(game, deck),
  seed)`, the engine's own seeded random self-play — every rule of the preset, the deal and the
  reveal through `step`, equal move for move to the public API
  (tests/engine/test_engine_regressions.py); what bots' rollouts run;
* simulate (`simulate_games_per_second_{n}p`): the loop of `durak simulate`
  (p2p_durak.sim.play_game) — a `RandomBot` per seat asks `to_act` and `legal_actions` and
  plays with `step`, one `State` per action.

Rates are per CPU second of this process (`time.process_time`), which the neighbours on a shared
machine do not inflate as they do the wall clock; wall-clock rates are printed too. The process
is pinned to one CPU where the OS allows it.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import sys
import time
from collections.abc import Callable
from typing import Any

from machine import cpu_model, load_average, pin_to_one_core

from p2p_durak.bots.random_bot import RandomBot
from p2p_durak.engine import make_game, new_game, random_playout
from p2p_durak.engine.presets import DEFAULT_PRESET, get_preset
from p2p_durak.sim import play_game

PLAYER_COUNTS = (2, 4, 6)


def timed(one_game: Callable[[int], int], seconds: float,
          wall_cap: float = float("inf")) -> dict[str, float]:
    """Play games with `one_game(index) -> actions` for `seconds` of CPU time."""
    played = actions = 0
    start_cpu, start_wall = time.process_time(), time.perf_counter()
    deadline, wall_deadline = start_cpu + seconds, start_wall + wall_cap
    while True:
        actions += one_game(played)
        played += 1
        if played % 16 == 0 and (time.process_time() >= deadline
                                 or time.perf_counter() >= wall_deadline):
            break
    cpu = time.process_time() - start_cpu
    wall = time.perf_counter() - start_wall
    return {"games": played, "games_per_second": played / cpu,
            "wall_games_per_second": played / wall, "actions_per_second": actions / cpu,
            "avg_actions": actions / played}


def playout_loop(n_players: int, seed: int) -> Callable[[int], int]:
    rules = get_preset(DEFAULT_PRESET).rules
    games = [make_game(rules, n_players, dealer) for dealer in range(n_players)]
    rng = random.Random(seed)
    deck = list(range(games[0].n_cards))
    log: list[Any] = []

    def one_game(index: int) -> int:
        rng.shuffle(deck)
        log.clear()
        random_playout(new_game(games[index % n_players], deck), seed + index, log)
        return len(log)
    return one_game


def simulate_loop(n_players: int, seed: int) -> Callable[[int], int]:
    rules = get_preset(DEFAULT_PRESET).rules
    games = [make_game(rules, n_players, dealer) for dealer in range(n_players)]
    rng = random.Random(seed)
    bots = [RandomBot(rng) for _ in range(n_players)]
    deck = list(range(games[0].n_cards))

    def one_game(index: int) -> int:
        rng.shuffle(deck)
        return play_game(games[index % n_players], deck, rng, bots).steps
    return one_game


LOOPS = {"playout": playout_loop, "simulate": simulate_loop}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help="2 CPU seconds per player count and loop, at most 8 s of wall "
                             "clock each")
    parser.add_argument("--seconds", type=float, default=30.0,
                        help="CPU seconds per player count and loop (default 30)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    seconds = 2.0 if args.quick else args.seconds
    wall_cap = 8.0 if args.quick else float("inf")
    pinned = pin_to_one_core()
    load = load_average()
    print(f"engine benchmark: {DEFAULT_PRESET}, 36 cards; {cpu_model()}, "
          f"{os.cpu_count()} CPUs ({pinned}), Python {platform.python_version()}, "
          f"load average {load:.2f}")
    for loop in LOOPS.values():  # warm the card tables and the per-game caches
        timed(loop(2, args.seed), min(1.0, seconds))
    figures: dict[str, Any] = {"preset": DEFAULT_PRESET, "seconds_per_count": seconds,
                               "cpu": cpu_model(), "cpus": os.cpu_count(),
                               "python": platform.python_version(), "load_average": load}
    for name, loop in LOOPS.items():
        prefix = "" if name == "playout" else "simulate_"
        for n in PLAYER_COUNTS:
            result = timed(loop(n, args.seed), seconds, wall_cap)
            print(f"{name:8} {n} players: {result['games_per_second']:8.1f} games/s "
                  f"{result['actions_per_second']:10.0f} actions/s "
                  f"{result['avg_actions']:6.1f} actions/game ({result['games']} games; "
                  f"{result['wall_games_per_second']:.1f} games per wall-clock second)")
            figures[f"{prefix}games_per_second_{n}p"] = round(result["games_per_second"], 1)
            figures[f"{prefix}actions_per_second_{n}p"] = round(result["actions_per_second"])
            figures[f"{prefix}avg_actions_{n}p"] = round(result["avg_actions"], 1)
            figures[f"{prefix}wall_games_per_second_{n}p"] = round(
                result["wall_games_per_second"], 1)
    print(json.dumps(figures, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
