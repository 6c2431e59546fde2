"""Decision time of the bots, on one core.

Plays heads-up games of app_podkidnoy (36 cards) in this one process — the hard bot against
the medium bot, seats alternating — and times every decision that weighed several options.
Prints percentiles per level, the hard bot's search iterations by stock size and how often
the exact endgame decided, plus the heuristic playout rate the search lives on.

    python bench/bots.py --games 20 --budget 1.0 [--json]
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import time
from typing import Any

from engine import cpu_model  # bench/engine.py

from p2p_durak.bots.hard import HardBot
from p2p_durak.bots.heuristic import STRONG, play_out
from p2p_durak.bots.levels import MediumBot
from p2p_durak.bots.table import LocalTable
from p2p_durak.engine import make_game, new_game
from p2p_durak.engine.presets import get_preset


def percentiles(values: list[float]) -> dict[str, float]:
    if not values:
        return {"n": 0}
    ordered = sorted(values)

    def at(q: float) -> float:
        return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))], 4)

    return {"n": len(ordered), "p50": at(0.5), "p90": at(0.9), "p95": at(0.95),
            "p99": at(0.99), "max": round(ordered[-1], 4)}


def playout_rate(seconds: float) -> float:
    """Heuristic-vs-heuristic full games per second on known deals (the search's playouts)."""
    game = make_game(get_preset("app_podkidnoy").rules, 2, 0)
    rng = random.Random(0)
    games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        deck = list(range(game.n_cards))
        rng.shuffle(deck)
        play_out(new_game(game, deck), STRONG)
        games += 1
    return games / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--budget", type=float, default=1.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--clock", choices=("wall", "cpu"), default="wall")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rules = get_preset("app_podkidnoy").rules
    hard_times: list[float] = []
    hard_cpu: list[float] = []
    medium_times: list[float] = []
    iterations: dict[str, list[int]] = {}
    solved = searched = 0
    for g in range(args.games):
        rng = random.Random(f"bench/bots/{args.seed}/{g}")
        game = make_game(rules, 2, g % 2)
        deck = list(range(game.n_cards))
        rng.shuffle(deck)
        hard_seat = g % 2
        hard = HardBot(hard_seat, random.Random(rng.getrandbits(64)), budget=args.budget,
                       clock=args.clock)
        medium = MediumBot(1 - hard_seat, random.Random(rng.getrandbits(64)))
        bots = [hard, medium] if hard_seat == 0 else [medium, hard]
        table = LocalTable(game, deck, bots, rng)

        def record(seat: int, seconds: float, cpu_seconds: float, table: LocalTable = table,
                   hard: HardBot = hard) -> None:
            nonlocal solved, searched
            if seat != hard.seat:
                medium_times.append(seconds)
                return
            hard_times.append(seconds)
            hard_cpu.append(cpu_seconds)
            search = hard.last_rollout or hard.last
            if search is None:
                solved += 1
            else:
                searched += 1
                stock = len(table.state.stock)
                bucket = "0" if stock == 0 else "1-6" if stock <= 6 else "7-12" \
                    if stock <= 12 else "13+"
                iterations.setdefault(bucket, []).append(search.iterations)

        table.on_decision = record
        table.play()
    report: dict[str, Any] = {
        "machine": {"python": platform.python_version(), "cpu": cpu_model(), "cores_used": 1},
        "games": args.games, "budget": args.budget,
        "hard_seconds": percentiles(hard_times),
        "hard_cpu_seconds": percentiles(hard_cpu),
        "medium_seconds": percentiles(medium_times),
        "hard_exact_endgame_decisions": solved, "hard_search_decisions": searched,
        "hard_iterations_by_stock": {k: {"n": len(v), "median": sorted(v)[len(v) // 2]}
                                     for k, v in sorted(iterations.items())},
        "heuristic_playouts_per_second": round(playout_rate(3.0), 1),
    }
    if args.json:
        print(json.dumps(report, sort_keys=True))
    else:
        for key, value in report.items():
            print(f"{key}: {value}")


if __name__ == "__main__":
    main()
