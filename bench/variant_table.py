"""What a variant's deck steps cost at the table: whole games of one preset with every party's
`TableMachine` in this one process, each committed intent applied (and every proof checked) by
every party, as the ordered log would deliver it.

    python bench/variant_table.py --preset veryu_ne_veryu --seats 2 --games 4

Per game: the log entries, how many were deck steps, the deck steps by kind (the step id's
prefix: `draw`, `remask`, `doubt`, ...), and the CPU per party (`time.process_time` of the whole
run over games and parties: one node's share). Prints a readable report and, on its last line,
one JSON object. Moves are random legal ones (seeded), so the same command plays the same games
on the same code.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from machine import cpu_model, load_average

from p2p_durak.engine.presets import get_preset
from p2p_durak.protocol.table import TableMachine


def play(preset: str, seats: int, seed: int) -> tuple[int, Counter[str]]:
    """One whole game; the number of log entries and the deck entries by step kind."""
    rules = get_preset(preset).rules
    game_id = seed.to_bytes(16, "big")
    machines = [TableMachine(game_id, p, seats, rules, random.Random(seed * 100 + p).randbytes)
                for p in range(seats)]
    rng = random.Random(seed)
    entries = 0
    steps: Counter[str] = Counter()
    while machines[0].audit is None:
        due = [(p, msg) for p, m in enumerate(machines) if (msg := m.owed()) is not None]
        if due:
            party, payload = rng.choice(due)
            pending = machines[0].deck.pending_op()
            steps[pending.op.step.split(":")[0] if pending is not None else "announce"] += 1
        else:
            party = rng.choice(machines[0].waiting_for())
            payload = machines[party].play(rng.choice(machines[party].legal()))
        for m in machines:
            m.apply(party, payload)
        entries += 1
    return entries, steps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--preset", default="veryu_ne_veryu")
    parser.add_argument("--seats", type=int, default=2)
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    started = time.process_time()
    entries: list[int] = []
    steps: Counter[str] = Counter()
    for game in range(args.games):
        n, kinds = play(args.preset, args.seats, args.seed + game)
        entries.append(n)
        steps += kinds
    cpu = time.process_time() - started
    figures = {
        "preset": args.preset, "seats": args.seats, "games": args.games,
        "entries_per_game": sum(entries) / args.games,
        "deck_entries_per_game": sum(steps.values()) / args.games,
        "deck_entries_by_step_per_game": {k: v / args.games for k, v in sorted(steps.items())},
        "cpu_s_per_game_per_party": cpu / args.games / args.seats,
        "cpu_model": cpu_model(), "load_average": load_average(),
    }
    print(f"{args.preset}, {args.seats} seats, {args.games} games on {figures['cpu_model']} "
          f"(load average {figures['load_average']:.2f})")
    print(f"  log entries per game: {figures['entries_per_game']:.1f}, of them deck steps "
          f"{figures['deck_entries_per_game']:.1f}: "
          + ", ".join(f"{k} {v:.1f}" for k, v in figures["deck_entries_by_step_per_game"].items()))
    print(f"  CPU per game per party: {figures['cpu_s_per_game_per_party']:.2f} s")
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
