"""`durak history`: the games finished on this machine, and who was the durak how often.

It reads the data folder's history (`node/history_store.py`), first indexing any saved game
the database lacks — all of them when the database was lost or damaged — so what it prints is
always what the game files hold.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sqlite3
import sys
import time
from pathlib import Path
from typing import Any

from p2p_durak.cli.history_text import board_lines, game_lines, say
from p2p_durak.cli.terminal import add_lang_option, output_lang
from p2p_durak.node.history_store import HistoryStore
from p2p_durak.node.paths import data_dir
from p2p_durak.node.scoreboard import TONIGHT_HOURS, scoreboard


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "history", help="recent games and who was the durak how often",
        description="The games finished on this machine (practice and networked) and a "
                    "scoreboard: who was the durak how often, against each opponent and per "
                    "variant.")
    parser.add_argument("--limit", type=int, default=10, metavar="N",
                        help="how many recent games to list (default 10; 0: all)")
    parser.add_argument("--tonight", action="store_true",
                        help=f"only this evening's games (the last {TONIGHT_HOURS:g} hours)")
    parser.add_argument("--home", type=Path, help="data folder (default: the user's)")
    parser.add_argument("--json", action="store_true",
                        help="one JSON object: the games listed, the scoreboard, and the files "
                             "that could not be indexed")
    add_lang_option(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    lang = output_lang(args.lang)
    home = Path(args.home) if args.home else data_dir()
    if args.limit < 0:
        print("durak history: --limit cannot be negative", file=sys.stderr)
        return 2
    since = time.time() - TONIGHT_HOURS * 3600 if args.tonight else None
    try:
        with HistoryStore.open(home) as store:
            caught = store.catch_up()
            games = store.games(since=since)
    except (OSError, sqlite3.Error) as exc:
        print(f"durak history: {home}: {exc}", file=sys.stderr)
        return 1
    listed = games[: args.limit] if args.limit else games
    board = scoreboard(games)
    if args.json:
        print(json.dumps({
            "games": [g.to_json() for g in listed],
            "scoreboard": dataclasses.asdict(board),
            "tonight": args.tonight,
            "rebuilt": caught.rebuilt and caught.indexed > 0,
            "skipped": [{"path": p, "reason": why} for p, why in caught.skipped],
        }, ensure_ascii=False))
        return 0
    for path, why in caught.skipped:
        print(say(lang, "skipped", path=path, why=why), file=sys.stderr)
    if not games:
        print(say(lang, "none"))
        return 0
    if caught.rebuilt and caught.indexed:
        print(say(lang, "rebuilt"))
    print(say(lang, "recent"))
    for game in listed:
        for line in game_lines(game, lang):
            print(line)
    print()
    for line in board_lines(board, lang, tonight=args.tonight):
        print(line)
    return 0
