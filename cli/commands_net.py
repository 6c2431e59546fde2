"""Headless networking: `durak host`, `durak join`, `durak tables`, `durak replay`, `durak audit`.

Every seat a headless process plays is a bot peer; each prints a readable log of the game and
writes its event log (JSON lines) and the signed transcript into its data folder.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import trio

from p2p_durak.cli.terminal import add_lang_option, output_lang
from p2p_durak.engine import RuleError
from p2p_durak.engine.presets import DEFAULT_PRESET, get_preset
from p2p_durak.node.lobby import JoinFailed, TableConfig
from p2p_durak.node.paths import data_dir

LEVELS = ("random", "easy", "medium", "hard")


def register(subparsers: Any) -> None:
    host = subparsers.add_parser(
        "host", help="host a table without the UI (bots play the seats of this process)",
        description="Create a table, advertise it over mDNS, seat bots, wait for the other "
                    "players and play the game headless, printing the game log.")
    host.add_argument("--name", default="Durak table", help="table name")
    host.add_argument("--preset", default=DEFAULT_PRESET, help="preset id (see `durak rules`)")
    host.add_argument("--seats", type=int, default=2,
                      help="number of players (с болваном: the dummy comes on top)")
    host.add_argument("--rule", action="append", default=[], metavar="KNOB=VALUE",
                      help="change one rule knob of the preset (repeatable), e.g. "
                      "over_limit_policy=defender_chooses")
    host.add_argument("--bots", default="", help="bot levels for seats this process fills, "
                      "comma separated, e.g. easy,hard")
    host.add_argument("--turn-seconds", type=int, default=0, metavar="SECONDS",
                      help="turn timer: seconds each player has for a move (default 0: none)")
    host.add_argument("--on-timeout", choices=("bot", "lose"), default="bot",
                      help="when a player's turn timer runs out: a bot plays the move, or the "
                      "player loses the game (default: bot)")
    host.add_argument("--grace-seconds", type=int, default=60, metavar="SECONDS",
                      help="how long the others wait for a player who went away or fell "
                      "silent before the game ends with a verdict (default 60)")
    _common(host)
    host.add_argument("--no-mdns", action="store_true", help="do not advertise over mDNS")
    host.set_defaults(handler=run_host)

    join = subparsers.add_parser(
        "join", help="join a table without the UI (a bot plays this seat)",
        description="Join a table by address (HOST:PORT) or, with --table, the first table of "
                    "that name found over mDNS; play headless, printing the game log.")
    join.add_argument("address", nargs="?", help="HOST:PORT of the table's host")
    join.add_argument("--table", help="find this table name over mDNS instead of an address")
    join.add_argument("--count", type=int, default=1, help="how many bot peers to seat")
    join.add_argument("--wait", type=float, default=30.0, help="seconds to look for the table")
    _common(join)
    join.set_defaults(handler=run_join)

    resume = subparsers.add_parser(
        "resume", help="rejoin the unfinished games of this data folder (after a crash)",
        description="Rejoin every game this installation (and the bots it hosted) left "
                    "unfinished, on the same ports with the same identities, and play on.")
    resume.add_argument("--level", choices=LEVELS, default="easy")
    resume.add_argument("--home", type=Path, help="data folder (default: the user's)")
    add_lang_option(resume)
    resume.add_argument("--json", action="store_true")
    resume.set_defaults(handler=run_resume)

    tables = subparsers.add_parser(
        "tables", help="list tables found over mDNS",
        description="Listen for tables over mDNS and print one line each; when none is "
                    "found, say so on stderr and exit 1.")
    tables.add_argument("--seconds", type=float, default=3.0, help="how long to listen")
    tables.add_argument("--interface", action="append", help="IPv4 address of an interface")
    tables.add_argument("--json", action="store_true", help="one JSON object per table")
    add_lang_option(tables)
    tables.set_defaults(handler=run_tables)

    for name, handler, what in (("replay", run_replay, "print a saved game"),
                                ("audit", run_audit, "check a saved game's every signature, "
                                 "hash, proof and move")):
        sub = subparsers.add_parser(name, help=what)
        sub.add_argument("transcript", type=Path, help="a transcript.durak file")
        add_lang_option(sub)
        sub.set_defaults(handler=handler)


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--player", default="Player", help="this seat's display name")
    parser.add_argument("--level", choices=LEVELS, default="easy",
                        help="bot level playing this process's own seat")
    parser.add_argument("--bind", default="0.0.0.0", help="address to listen on (and to dial "
                        "from; a hosted table is advertised at it)")
    parser.add_argument("--port", type=int, default=0, help="TCP port (0: any free one)")
    parser.add_argument("--advertise", help="address other players dial to reach us")
    parser.add_argument("--interface", action="append", help="IPv4 address of an interface "
                        "for mDNS (default: all)")
    parser.add_argument("--home", type=Path, help="data folder (default: the user's)")
    add_lang_option(parser)
    parser.add_argument("--seed", type=int, help="reproducible bot choices (testing)")
    parser.add_argument("--json", action="store_true",
                        help="end with a JSON summary of the game on the last line")
    parser.add_argument("--games", type=int, default=1, metavar="N",
                        help="play N games of a series at this table (0: as many as the others "
                        "play); the table stops after the game where a player stops "
                        "(default 1)")
    parser.add_argument("--leave-at-bout", type=int, metavar="K",
                        help="leave the table gracefully when bout K of the game comes (0 is "
                        "the first): this process's seat opens its hand, which goes to the "
                        "discard, and the others play on (with two at the table: concede)")


def _home(args: argparse.Namespace) -> Path:
    return Path(args.home) if args.home else data_dir()


def _finish(args: argparse.Namespace, seats: list[Any]) -> int:
    from p2p_durak.node.headless import summary

    result = summary(seats)
    if args.json:
        print(json.dumps(result, ensure_ascii=False), flush=True)
    return 0 if result["finished"] and not result["halted"] else 1


def run_host(args: argparse.Namespace) -> int:
    from p2p_durak.node.headless import HostOptions, host_and_play

    lang = output_lang(args.lang)
    try:
        from p2p_durak.cli.commands_play import rule_items

        preset = get_preset(args.preset)
        rules = preset.rules.with_options(**dict(rule_items(args.rule)))
        bots = tuple(b for b in args.bots.split(",") if b)
        if any(b not in LEVELS for b in bots):
            raise SystemExit(f"bot levels are {', '.join(LEVELS)}")
        config = TableConfig(args.name, preset.id, rules, args.seats, bots,
                             args.turn_seconds, args.on_timeout, args.grace_seconds)
        from p2p_durak.engine.rules import engine_seats, validate

        validate(rules, engine_seats(rules, args.seats))  # (с болваном: +1)
    except RuleError as exc:
        print(f"durak host: {exc.message_ru if lang == 'ru' else exc.message_en}",
              file=sys.stderr)
        return 2
    except ValueError as exc:
        print(f"durak host: {exc}", file=sys.stderr)
        return 2
    opts = HostOptions(_home(args), args.player, config, bind=args.bind, port=args.port,
                       advertise=args.advertise, level=args.level, mdns=not args.no_mdns,
                       interfaces=args.interface, lang=lang, seed=args.seed,
                       games=args.games or None, leave_at_bout=args.leave_at_bout)
    seats = trio.run(host_and_play, opts)
    return _finish(args, seats)


def run_join(args: argparse.Namespace) -> int:
    from p2p_durak.node.headless import JoinOptions, join_and_play
    from p2p_durak.node.node import parse_endpoint

    lang = output_lang(args.lang)
    endpoint = parse_endpoint(args.address) if args.address else None
    if args.address and endpoint is None:
        print("durak join: the address is HOST:PORT", file=sys.stderr)
        return 2
    if endpoint is None and args.table is None and args.address is None:
        args.table = None  # any table with a free seat
    opts = JoinOptions(_home(args), args.player, endpoint, args.table, bind=args.bind,
                       port=args.port, advertise=args.advertise, level=args.level,
                       count=args.count, interfaces=args.interface, find_seconds=args.wait,
                       lang=lang, seed=args.seed, games=args.games or None,
                       leave_at_bout=args.leave_at_bout)
    try:
        seats = trio.run(join_and_play, opts)
    except JoinFailed as exc:
        print(f"durak join: {exc.reason}", file=sys.stderr)
        return 3
    except TimeoutError:
        print("durak join: no table found", file=sys.stderr)
        return 3
    return _finish(args, seats)


def run_resume(args: argparse.Namespace) -> int:
    from p2p_durak.cli.i18n import Messages
    from p2p_durak.node.headless import resume_and_play
    from p2p_durak.node.store import scan_unfinished

    lang = output_lang(args.lang)
    home = _home(args)
    found = scan_unfinished(home)
    for folder in found.running:  # one writer per seat: the running copy plays on
        print(f"durak resume: {Messages(lang)('resume.running', game=folder.name[:8])}",
              file=sys.stderr)
    if not found.resumable:
        if not found.running:
            print(f"durak resume: {Messages(lang)('resume.nothing')}", file=sys.stderr)
        return 1
    seats = trio.run(lambda: resume_and_play(home, found.resumable, level=args.level,
                                             lang=lang))
    return _finish(args, seats)


def run_tables(args: argparse.Namespace) -> int:
    from p2p_durak.cli.table_list import listing, tables_seen
    from p2p_durak.node.discovery import open_discovery

    seen = trio.run(tables_seen, lambda: open_discovery(interfaces=args.interface),
                    args.seconds)
    result = listing(seen, seconds=args.seconds, lang=output_lang(args.lang),
                     as_json=args.json)
    for line in result.lines:
        print(line)
    if result.note is not None:
        print(f"durak tables: {result.note}", file=sys.stderr)
    return result.status


def _rules_beside(transcript: Path) -> Any:
    """The rules a node saved next to a transcript (`rules.durak`), when there are any."""
    from p2p_durak.engine.rules import RuleSet

    path = transcript.with_name("rules.durak")
    return RuleSet.from_canonical(path.read_bytes()) if path.exists() else None


def run_replay(args: argparse.Namespace) -> int:
    from p2p_durak.node.replay import replay_lines

    try:
        for line in replay_lines(args.transcript.read_bytes(), output_lang(args.lang),
                                 _rules_beside(args.transcript)):
            print(line)
    except (OSError, ValueError) as exc:
        print(f"durak replay: {exc}", file=sys.stderr)
        return 2
    return 0


def run_audit(args: argparse.Namespace) -> int:
    from p2p_durak.node.replay import audit_file

    try:
        verdict = audit_file(args.transcript.read_bytes(), _rules_beside(args.transcript),
                             output_lang(args.lang))
    except OSError as exc:
        print(f"durak audit: {exc}", file=sys.stderr)
        return 2
    print(verdict.text)
    return 0 if verdict.ok else 1
