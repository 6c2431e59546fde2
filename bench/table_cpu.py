"""CPU of a whole table, all nodes in one process (issue #5): steady figures under any load.

    python bench/table_cpu.py                  # 6 seats, seeds 1-6, one game each
    python bench/table_cpu.py --seeds 1 2 3 --seats 4
    PYTHONPATH=../other-tree python bench/table_cpu.py   # measure another checkout

What runs: `tests/node/node_support.play_table` — real nodes (lobby, mesh, ordered log,
mental-poker deck, journal in a temporary folder, an "easy" bot each) on an in-memory network
under trio's autojump clock, so no node waits for another's core and no timer's wall time
counts. Only CPU is measured (``time.process_time``: every thread of the process), which a
loaded machine slows much less than it slows wall-clock latency. Not measured here: the
sockets, which `bench/table.py` has (one process per node, TCP over loopback).

Figures per game: ``setup_cpu_s``, the CPU of all nodes from the start to the first player
move (mesh, seating, keys, shuffles, deal); ``cpu_ms_per_entry``, the CPU of all nodes per log
entry from the first player move to the last (the moves, with the cards drawn and shown
between them), divided by the seats for the figure per node; ``end_cpu_s``, the CPU after the
last move (the audit, the transcripts kept, the nodes' linger). Games differ from run
to run (trio schedules the racing bots differently), so compare means over several seeds, and
run the two versions being compared alternately.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import trio
import trio.testing

import p2p_durak

# the test helpers of the tree whose package is imported (PYTHONPATH picks the tree to measure)
sys.path.insert(0, str(Path(p2p_durak.__file__).resolve().parent.parent / "tests" / "node"))

import node_support

from p2p_durak.engine.actions import CHANCE
from p2p_durak.node.node import Node
from p2p_durak.node.players import BotPlayer
from p2p_durak.protocol.table import Moved, TableEvent, TableMachine


def play_one(seed: int, seats: int) -> dict[str, Any]:
    marks: dict[str, float] = {}
    nodes: list[Node] = []
    players: list[BotPlayer] = []
    make_nodes = node_support.make_nodes

    def kept(*args: Any, **kwargs: Any) -> list[Node]:
        nodes[:] = make_nodes(*args, **kwargs)
        return nodes

    class MarkingBot(BotPlayer):
        async def update(self, table: TableMachine, events: tuple[TableEvent, ...]) -> None:
            moved = sum(1 for e in events if isinstance(e, Moved) and e.seat != CHANCE)
            if moved:
                now, seq = time.process_time(), max(n.runner.log.seq for n in nodes if n.runner)
                if "first" not in marks:
                    marks["first"], marks["first_seq"] = now, seq
                marks["last"], marks["last_seq"] = now, seq
                if self is players[0]:  # the moves, counted at one node
                    marks["moves"] = marks.get("moves", 0) + moved
            await super().update(table, events)

    async def main() -> None:
        with tempfile.TemporaryDirectory() as home:
            players[:] = [MarkingBot(level="easy", seed=seed * 100 + i) for i in range(seats)]
            marks["start"] = time.process_time()
            await node_support.play_table(Path(home), players, seed=seed)
            marks["end"] = time.process_time()

    node_support.make_nodes = kept  # type: ignore[assignment]
    try:
        trio.run(main, clock=trio.testing.MockClock(autojump_threshold=0))
    finally:
        node_support.make_nodes = make_nodes  # type: ignore[assignment]
    entries = max(n.runner.log.seq for n in nodes if n.runner)
    moves = marks["last_seq"] - marks["first_seq"]
    return {"seed": seed, "entries": entries, "entries_to_first_move": int(marks["first_seq"]),
            "setup_cpu_s": round(marks["first"] - marks["start"], 3),
            "cpu_ms_per_entry": round(1000 * (marks["last"] - marks["first"]) / moves, 2),
            # per player move applied, from the first to the last (the first excluded): log
            # entries and all nodes' CPU (a move's deck steps, the draws after a bout, included)
            "player_moves": int(marks["moves"]),
            "entries_per_move": round(moves / (marks["moves"] - 1), 2),
            "cpu_ms_per_move": round(1000 * (marks["last"] - marks["first"])
                                     / (marks["moves"] - 1), 2),
            "end_cpu_s": round(marks["end"] - marks["last"], 3)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3, 4, 5, 6])
    parser.add_argument("--seats", type=int, default=6)
    args = parser.parse_args()
    games = []
    for seed in args.seeds:
        game = play_one(seed, args.seats)
        games.append(game)
        print(f"seed {seed}: {game['entries']} entries; CPU of all nodes until the first move "
              f"{game['setup_cpu_s']:.2f} s; then {game['cpu_ms_per_entry']:.1f} ms per entry "
              f"({game['cpu_ms_per_entry'] / args.seats:.2f} per node) until the last move, "
              f"{game['end_cpu_s']:.2f} s after it; {game['player_moves']} moves: "
              f"{game['entries_per_move']:.2f} entries, {game['cpu_ms_per_move']:.1f} ms CPU "
              "per move", flush=True)
    per_entry = statistics.mean(g["cpu_ms_per_entry"] for g in games)
    summary = {"seats": args.seats, "games": games,
               "setup_cpu_s_mean": round(statistics.mean(g["setup_cpu_s"] for g in games), 3),
               "cpu_ms_per_entry_mean": round(per_entry, 2),
               "cpu_ms_per_entry_per_node_mean": round(per_entry / args.seats, 2),
               **{f"{k}_mean": round(statistics.mean(g[k] for g in games), 2)
                  for k in ("entries_per_move", "cpu_ms_per_move")}}
    print(f"mean: setup {summary['setup_cpu_s_mean']:.2f} s, {per_entry:.1f} ms per entry, "
          f"{summary['cpu_ms_per_entry_per_node_mean']:.2f} ms per entry per node")
    print(json.dumps({"package": p2p_durak.__file__, **summary}))


if __name__ == "__main__":
    main()
