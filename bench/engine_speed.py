"""Engine speed: random self-play through the public API, and `random_playout`, on one core.

    python bench/engine_speed.py                     # about a minute per engine
    python bench/engine_speed.py --quick             # a few seconds; JSON on the last line
    python bench/engine_speed.py --baseline ffb6be6  # also the engine of that commit

Two measures, for app_podkidnoy (36 cards) with 2, 4 and 6 seats, from shuffled decks:

* loop: the caller's loop — a random seat of `to_act`, a random action of `legal_actions`,
  `step` — with Python's `random`, as a bot's simulation or a benchmark would write it;
* playout: `random_playout(new_game(...), seed)`, the engine's own seeded playout.

Figures are games (and actions) per CPU second, the best of several rounds, in this process
pinned to one CPU: on a shared machine the CPU clock is steadier than the wall clock. When the
engine under test is the mypyc build, the same figures are also taken in a child process with
`-X durak-pure` (the Python sources); `--baseline COMMIT` measures the loop for the engine as
it was at COMMIT, extracted with git into a temporary package.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import platform
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType
from typing import Any

from machine import cpu_model, pin_to_one_core

ROOT = Path(__file__).resolve().parent.parent
PRESET = "app_podkidnoy"
PLAYER_COUNTS = (2, 4, 6)


def loop_games(engine: ModuleType, game: Any, decks: list[list[int]],
               rng: random.Random) -> int:
    """Play every deck to the end with the caller's random loop; the actions played."""
    to_act, legal_actions, step, is_over = (engine.to_act, engine.legal_actions, engine.step,
                                            engine.is_over)
    actions = 0
    for deck in decks:
        state = engine.new_game(game, deck)
        while not is_over(state):
            seats = sorted(to_act(state))
            seat = seats[rng.randrange(len(seats))]
            options = legal_actions(state, seat)
            state = step(state, options[rng.randrange(len(options))])
            actions += 1
    return actions


def playout_games(engine: ModuleType, game: Any, decks: list[list[int]], seed: int) -> int:
    actions = 0
    log: list[Any] = []
    for i, deck in enumerate(decks):
        log.clear()
        engine.random_playout(engine.new_game(game, deck), seed + i, log)
        actions += len(log)
    return actions


def best_rate(run: Any, games: int, rounds: int) -> tuple[float, float]:
    """(games, actions) per CPU second: the best of `rounds` runs."""
    best = float("inf")
    actions = 0
    for _ in range(rounds):
        start = time.process_time()
        actions = run()
        best = min(best, time.process_time() - start)
    return games / best, actions / best


def measure(engine: ModuleType, presets: ModuleType, quick: bool,
            playouts: bool = True) -> dict[str, float]:
    games = 100 if quick else 500
    rounds = 3 if quick else 5
    figures: dict[str, float] = {}
    rules = presets.get_preset(PRESET).rules
    for n in PLAYER_COUNTS:
        game = engine.make_game(rules, n, 0)
        shuffler = random.Random(n)
        decks = []
        for _ in range(games):
            deck = list(range(game.n_cards))
            shuffler.shuffle(deck)
            decks.append(deck)
        # warm the per-game caches (lead combinations) as a long simulation has them
        loop_games(engine, game, decks[:30], random.Random(0))
        rate, actions = best_rate(
            lambda game=game, decks=decks: loop_games(engine, game, decks, random.Random(1)),
            games, rounds)
        figures[f"loop_games_per_second_{n}p"] = round(rate, 1)
        figures[f"loop_actions_per_second_{n}p"] = round(actions)
        if playouts:
            playout_games(engine, game, decks, 0)
            rate, actions = best_rate(
                lambda game=game, decks=decks: playout_games(engine, game, decks, 1),
                games, rounds)
            figures[f"playout_games_per_second_{n}p"] = round(rate, 1)
            figures[f"playout_actions_per_second_{n}p"] = round(actions)
    return figures


def baseline_engine(commit: str, workdir: Path) -> tuple[ModuleType, ModuleType]:
    """The engine package as it was at `commit`, importable as `baseline_engine`."""
    package = workdir / "baseline_engine"
    package.mkdir()
    names = subprocess.run(["git", "-C", str(ROOT), "ls-tree", "--name-only", commit,
                            "p2p_durak/engine/"], check=True, capture_output=True,
                           text=True).stdout.split()
    for name in names:
        if name.endswith(".py"):
            text = subprocess.run(["git", "-C", str(ROOT), "show", f"{commit}:{name}"],
                                  check=True, capture_output=True, text=True).stdout
            (package / Path(name).name).write_text(
                text.replace("p2p_durak.engine", "baseline_engine"), encoding="utf-8")
    sys.path.insert(0, str(workdir))
    return (importlib.import_module("baseline_engine"),
            importlib.import_module("baseline_engine.presets"))


def report(label: str, figures: dict[str, float]) -> None:
    for n in PLAYER_COUNTS:
        line = (f"{label:>9} {n}p: loop {figures[f'loop_games_per_second_{n}p']:8.1f} games/s"
                f" {figures[f'loop_actions_per_second_{n}p']:9.0f} actions/s")
        if f"playout_games_per_second_{n}p" in figures:
            line += (f" | playout {figures[f'playout_games_per_second_{n}p']:8.1f} games/s"
                     f" {figures[f'playout_actions_per_second_{n}p']:9.0f} actions/s")
        print(line)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer games and rounds")
    parser.add_argument("--baseline", metavar="COMMIT",
                        help="also measure the loop with the engine of this git commit")
    parser.add_argument("--json-only", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    pin_to_one_core()
    engine = importlib.import_module("p2p_durak.engine")
    presets = importlib.import_module("p2p_durak.engine.presets")
    figures = measure(engine, presets, args.quick)
    if args.json_only:  # the child process that measures the Python sources
        print(json.dumps(figures))
        return 0
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else -1.0
    print(f"engine speed: {PRESET}; {cpu_model()}, {os.cpu_count()} CPUs (this process on "
          f"one), Python {platform.python_version()}, load average {load:.2f}; "
          f"games and actions per CPU second")
    label = "mypyc" if engine.COMPILED else "python"
    report(label, figures)
    result: dict[str, Any] = {"preset": PRESET, "compiled": engine.COMPILED, "quick": args.quick,
                              "cpu": cpu_model(), "cpus": os.cpu_count(),
                              "python": platform.python_version(), "load_average": load,
                              label: figures}
    if engine.COMPILED:
        child = subprocess.run([sys.executable, "-X", "durak-pure", __file__, "--json-only",
                                *(["--quick"] if args.quick else [])],
                               check=True, capture_output=True, text=True)
        pure = json.loads(child.stdout.strip().splitlines()[-1])
        report("python", pure)
        result["python"] = pure
    if args.baseline:
        with tempfile.TemporaryDirectory() as workdir:
            old, old_presets = baseline_engine(args.baseline, Path(workdir))
            base = measure(old, old_presets, args.quick, playouts=False)
        report(args.baseline[:9], base)
        result["baseline"] = {"commit": args.baseline, **base}
    print(json.dumps(result, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
