"""Engine benchmark: random self-play games per second on one core.

    python bench/engine.py            # 30 CPU seconds per player count
    python bench/engine.py --quick    # under a minute; figures as JSON on the last line

Plays app_podkidnoy (36 cards) with 2, 4 and 6 seats: every seat a random bot, full states,
`step` without events, the deck shuffled and the chance actions resolved in the loop — the
same loop as `durak simulate` (p2p_durak.sim.play_game). The process is pinned to one CPU
where the OS allows it.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import sys
import time
from typing import Any

from p2p_durak.bots.random_bot import RandomBot
from p2p_durak.engine import make_game
from p2p_durak.engine.presets import DEFAULT_PRESET, get_preset
from p2p_durak.sim import play_game

PLAYER_COUNTS = (2, 4, 6)


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            for line in info:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def pin_to_one_core() -> str:
    if hasattr(os, "sched_setaffinity") and hasattr(os, "sched_getaffinity"):
        cpu = min(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {cpu})
        return f"pinned to CPU {cpu}"
    return "not pinned (no sched_setaffinity)"


def measure(n_players: int, seconds: float, seed: int,
            wall_cap: float = float("inf")) -> dict[str, float]:
    rules = get_preset(DEFAULT_PRESET).rules
    games = [make_game(rules, n_players, dealer) for dealer in range(n_players)]
    rng = random.Random(seed)
    bots = [RandomBot(rng) for _ in range(n_players)]
    deck = list(range(games[0].n_cards))
    played = steps = moves = 0
    # CPU time of this process: on a shared machine the wall clock also counts the time
    # other processes hold the core; both are reported
    start_cpu, start_wall = time.process_time(), time.perf_counter()
    deadline, wall_deadline = start_cpu + seconds, start_wall + wall_cap
    while True:
        rng.shuffle(deck)
        run = play_game(games[played % n_players], deck, rng, bots)
        played += 1
        steps += run.steps
        moves += run.moves
        if played % 16 == 0 and (time.process_time() >= deadline
                                 or time.perf_counter() >= wall_deadline):
            break
    cpu = time.process_time() - start_cpu
    wall = time.perf_counter() - start_wall
    return {"games": played, "cpu_seconds": cpu, "wall_seconds": wall,
            "games_per_second": played / cpu, "wall_games_per_second": played / wall,
            "actions_per_second": steps / cpu, "avg_actions": steps / played,
            "avg_moves": moves / played}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help="4 CPU seconds per player count, at most 15 s of wall clock each")
    parser.add_argument("--seconds", type=float, default=30.0,
                        help="CPU seconds per player count (default 30)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    seconds = 4.0 if args.quick else args.seconds
    wall_cap = 15.0 if args.quick else float("inf")
    pinned = pin_to_one_core()
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else -1.0
    print(f"engine benchmark: {DEFAULT_PRESET}, random bots, step; {cpu_model()}, "
          f"{os.cpu_count()} CPUs ({pinned}), Python {platform.python_version()}, "
          f"load average {load:.2f}")
    measure(2, min(1.0, seconds), args.seed)  # warm up the card tables and caches
    figures: dict[str, Any] = {"preset": DEFAULT_PRESET, "seconds_per_count": seconds,
                               "cpu": cpu_model(), "cpus": os.cpu_count(),
                               "python": platform.python_version(), "load_average": load}
    for n in PLAYER_COUNTS:
        result = measure(n, seconds, args.seed, wall_cap)
        print(f"{n} players: {result['games_per_second']:8.1f} games/s "
              f"{result['actions_per_second']:10.0f} actions/s "
              f"{result['avg_actions']:6.1f} actions/game ({result['games']} games; "
              f"{result['wall_games_per_second']:.1f} games per wall-clock second)")
        figures[f"games_per_second_{n}p"] = round(result["games_per_second"], 1)
        figures[f"actions_per_second_{n}p"] = round(result["actions_per_second"])
        figures[f"avg_actions_{n}p"] = round(result["avg_actions"], 1)
        figures[f"wall_games_per_second_{n}p"] = round(result["wall_games_per_second"], 1)
    print(json.dumps(figures, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
