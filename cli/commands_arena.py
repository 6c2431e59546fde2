"""`durak arena`: bot levels play each other; win rates and Elo with confidence intervals."""

from __future__ import annotations

import argparse
import json
import math
import sys
from typing import Any

from p2p_durak.bots.arena import ArenaReport, GameRecord, run_arena
from p2p_durak.bots.levels import LEVELS
from p2p_durak.bots.table import MAX_SEAT_ACTIONS
from p2p_durak.engine import RuleError
from p2p_durak.engine.presets import DEFAULT_PRESET


def add_arena_parser(subparsers: Any) -> argparse.ArgumentParser:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "arena", help="play bot levels against each other and rate them",
        description="Every pair of the given bot levels plays N games (two per deal, seats "
                    "swapped) in parallel processes; prints win rates over decided games with "
                    "Wilson 95%% intervals, draws and aborted games, pairwise Elo and a "
                    "Bradley-Terry Elo fit with bootstrap 95%% intervals (the first level is "
                    "anchored at 1000).")
    parser.add_argument("--bots", type=_levels, default=["easy", "medium", "hard"],
                        help=f"comma-separated levels, at least two of {','.join(LEVELS)} "
                             f"(default: easy,medium,hard)")
    parser.add_argument("--games", type=_positive, default=100,
                        help="games per pair of levels (default: 100)")
    parser.add_argument("--seed", type=int, default=0, help="seed (default: 0)")
    parser.add_argument("--preset", default=DEFAULT_PRESET,
                        help=f"preset id (default: {DEFAULT_PRESET})")
    parser.add_argument("--players", type=_positive, default=2,
                        help="seats per game, levels alternating (default: 2)")
    parser.add_argument("--budget", type=float, default=1.0,
                        help="seconds per decision of the hard bot (default: 1.0)")
    parser.add_argument("--clock", choices=("cpu", "wall"), default="cpu",
                        help="what the hard bot's budget measures: the CPU time of its thread "
                             "(default; one core's worth whatever else the machine runs) or "
                             "wall time")
    parser.add_argument("--iterations", type=_positive, default=None,
                        help="cap on the hard bot's search iterations per decision")
    parser.add_argument("--workers", type=_positive, default=2,
                        help="parallel processes (default: 2)")
    parser.add_argument("--max-actions", type=_positive, default=MAX_SEAT_ACTIONS,
                        help=f"abort a game after this many seat actions "
                             f"(default: {MAX_SEAT_ACTIONS})")
    parser.add_argument("--progress", action="store_true",
                        help="report each finished game on standard error")
    parser.add_argument("--json", action="store_true",
                        help="end with the report as one JSON object on the last line")
    parser.set_defaults(handler=run_arena_command)
    return parser


register = add_arena_parser
"""`cli.main` discovers subcommands by their `register(subparsers)`."""


def _levels(text: str) -> list[str]:
    levels = [part.strip() for part in text.split(",") if part.strip()]
    unknown = [lv for lv in levels if lv not in LEVELS]
    if unknown:
        raise argparse.ArgumentTypeError(f"unknown level {unknown[0]!r} "
                                         f"(one of {', '.join(LEVELS)})")
    if len(set(levels)) != len(levels) or len(levels) < 2:
        raise argparse.ArgumentTypeError("give at least two different levels")
    return levels


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


def run_arena_command(args: argparse.Namespace) -> int:
    hard: dict[str, Any] = {"budget": args.budget, "clock": args.clock}
    if args.iterations is not None:
        hard["iterations"] = args.iterations
    if args.budget <= 0:
        print("durak arena: --budget must be positive", file=sys.stderr)
        return 2
    try:
        report = run_arena(args.bots, args.games, args.seed, preset=args.preset,
                           players=args.players, workers=args.workers, hard_options=hard,
                           max_seat_actions=args.max_actions,
                           on_game=_progress if args.progress else None)
    except RuleError as error:
        print(f"durak arena: {error.message_en}", file=sys.stderr)
        return 2
    except ValueError as error:
        print(f"durak arena: {error}", file=sys.stderr)
        return 2
    print_report(report)
    if args.json:
        print(json.dumps(report.as_dict(), ensure_ascii=False, sort_keys=True))
    return 0


def _progress(done: int, total: int, record: GameRecord) -> None:
    result = "aborted" if record.aborted else "draw" if record.draw else \
        "durak " + ",".join(record.seat_levels[d] for d in record.durak)
    # each game's decision CPU, so a run stopped early still shows its decision times
    cpu = "".join(f"; {level} {len(times)} decisions, CPU total {sum(times):.1f} s, "
                  f"max {max(times):.3f} s, over 1 s {sum(t > 1.0 for t in times)}"
                  for level, times in sorted(record.decision_cpu.items()) if times)
    print(f"game {done}/{total}: {' v '.join(record.seat_levels)}: {result}{cpu}",
          file=sys.stderr, flush=True)


def print_report(report: ArenaReport) -> None:
    data = report.as_dict()
    print(f"{report.preset}, {report.players} players, {report.games_per_pair} games per "
          f"pair, seed {report.seed}, {data['seconds']} s")
    print(f"{'pair':<16} {'wins':>9} {'draws':>5} {'abort':>5} {'win rate (95% CI)':>24} "
          f"{'Elo diff (95% CI)':>24}")
    for pair in data["pairs"]:
        rate, (low, high) = pair["win_rate_a"], pair["win_rate_a_ci95"]
        elo = pair["elo_a_minus_b"]
        elo_text = "-" if elo is None else (
            f"{elo:+.0f} [{pair['elo_a_minus_b_ci95'][0]:+.0f}, "
            f"{pair['elo_a_minus_b_ci95'][1]:+.0f}]")
        rate_text = "-" if math.isnan(rate) else f"{rate:.3f} [{low:.3f}, {high:.3f}]"
        print(f"{pair['a'] + '-' + pair['b']:<16} {pair['wins_a']:>4}-{pair['wins_b']:<4} "
              f"{pair['draws']:>5} {pair['aborted']:>5} {rate_text:>24} {elo_text:>24}")
    print("Elo (Bradley-Terry, first level = 1000):")
    for level in report.levels:
        low, high = data["elo_ci95"][level]
        print(f"  {level:<8} {data['elo'][level]:7.0f}  [{low:.0f}, {high:.0f}]")
    for level, times in data["decision_seconds"].items():
        cpu = data["decision_cpu_seconds"][level]
        if times["n"]:
            print(f"  {level:<8} decisions: {times['n']}, wall p50 {times['p50']:.3f} s, "
                  f"p95 {times['p95']:.3f} s, max {times['max']:.3f} s; CPU p95 "
                  f"{cpu['p95']:.3f} s")
