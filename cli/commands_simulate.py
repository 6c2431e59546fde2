"""`durak simulate`: play local bot games and print what happened."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from p2p_durak.engine import RuleError
from p2p_durak.engine.games.catalogue import GAMES
from p2p_durak.engine.presets import DEFAULT_PRESET, get_preset
from p2p_durak.sim import Summary, simulate


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "simulate", help="play local random-bot games and summarise them",
        description="Play K local games between random bots from a seed and print wins and "
                    "duraks per seat, draws and the average game length.")
    parser.add_argument("--preset", default=DEFAULT_PRESET, help=f"preset id (default: "
                        f"{DEFAULT_PRESET}; see `durak rules`)")
    parser.add_argument("--players", type=int, default=2,
                        help="number of players (default: 2; с болваном the dummy comes on top)")
    parser.add_argument("--games", type=_count, default=100, help="games to play (default: 100)")
    parser.add_argument("--seed", type=int, default=0, help="seed (default: 0)")
    parser.add_argument("--json", action="store_true",
                        help="end with the summary as one JSON object on the last line")
    parser.set_defaults(handler=run)


def _count(text: str) -> int:
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError("must not be negative")
    return value


def run(args: argparse.Namespace) -> int:
    try:
        if args.preset in GAMES and GAMES[args.preset].works:  # a game of its own engine
            summary = simulate(args.preset, args.players, args.games, args.seed)
            print_summary(summary)
            if args.json:
                print(json.dumps(summary.as_dict(), ensure_ascii=False, sort_keys=True))
            return 0
        preset = get_preset(args.preset)
        if not preset.works:
            raise RuleError("preset", f"{preset.id} is not playable yet (pending: "
                            f"{', '.join(preset.pending)})",
                            f"{preset.id} пока не играется")
        summary = simulate(preset.id, args.players, args.games, args.seed)
    except RuleError as error:
        print(f"durak simulate: {error.message_en}", file=sys.stderr)
        return 2
    print_summary(summary)
    if args.json:
        print(json.dumps(summary.as_dict(), ensure_ascii=False, sort_keys=True))
    return 0


def print_summary(summary: Summary) -> None:
    print(f"{summary.games} games of {summary.preset}, {summary.players} players, "
          f"seed {summary.seed}")
    # с болваном: per player, not per seat
    if summary.preset not in GAMES and get_preset(summary.preset).rules.dummy_hand:
        print("(the dummy is nobody's: the players are listed in seat order without it)")
        print("player wins  duraks")
    else:
        print("seat   wins  duraks")
    for seat in range(summary.players):
        print(f"{seat:>4} {summary.wins[seat]:>6} {summary.duraks[seat]:>7}")
    print(f"draws: {summary.draws}")
    if summary.pogony:
        print(f"epaulettes: {summary.pogony}")
    unit = "ladders" if summary.preset in GAMES else "bouts"
    print(f"average length: {summary.avg_actions:.1f} actions, {summary.avg_bouts:.1f} {unit}")
