"""`durak play` (and `durak` alone): the terminal UI.

Without `--bots` it opens the lobby (tables on the network, a new table, practice); with
`--bots N` it sits straight down at a practice table against N bots. Everything the table
needs can be given on the command line, so a script (or a test under tmux) can start a
reproducible game: `durak play --bots 3 --preset app_podkidnoy --lang ru --seed 7`.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from typing import Any

import trio

from p2p_durak.bots.levels import LEVELS
from p2p_durak.cli.app import build_app, run_ui
from p2p_durak.cli.backend import TableOptions
from p2p_durak.cli.controller import Controller
from p2p_durak.cli.engine_build import engine_strength
from p2p_durak.cli.guest import IntentSink, run_guest
from p2p_durak.cli.i18n import BOT_NAMES, LANGS, PLAYER_NAME, Look, Messages
from p2p_durak.cli.net_backend import NetworkLobbyBackend
from p2p_durak.cli.table_ui import Notice, notice_of
from p2p_durak.cli.terminal import choose_terminal
from p2p_durak.cli.ui_log import log_to_file
from p2p_durak.engine import RuleError
from p2p_durak.engine.presets import DEFAULT_PRESET
from p2p_durak.node.discovery import Discovery
from p2p_durak.node.local_session import TIMER_POLICIES
from p2p_durak.node.paths import data_dir


def add_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--bots", type=int, metavar="N",
                        help="sit down at once at a practice table against N bots (1-5)")
    parser.add_argument("--preset", default=DEFAULT_PRESET,
                        help=f"rules preset (default: {DEFAULT_PRESET}; see `durak rules`)")
    parser.add_argument("--level", choices=LEVELS, default="medium",
                        help="bot level (default: medium)")
    parser.add_argument("--lang", choices=LANGS, help="language (default: from the locale)")
    parser.add_argument("--ascii", action=argparse.BooleanOptionalAction, default=None,
                        help="letters instead of suit symbols; --no-ascii: symbols even when "
                             "the locale (C, not UTF-8) or TERM=linux suggests letters")
    parser.add_argument("--seed", type=int, help="seed of the practice game (reproducible)")
    parser.add_argument("--timer", type=float, metavar="SECONDS",
                        help="turn timer for your moves (default: none)")
    parser.add_argument("--on-timeout", choices=TIMER_POLICIES, default="bot",
                        help="when your time runs out: a bot moves for you, or you lose")
    parser.add_argument("--bot-delay", type=float, default=0.8, metavar="SECONDS",
                        help="how long bots think before a move (default: 0.8)")
    parser.add_argument("--name", help="your name at the table")
    parser.add_argument("--rule", action="append", default=[], metavar="KNOB=VALUE",
                        help="change one rule knob (repeatable), e.g. transfer=true")
    parser.add_argument("--no-discovery", action="store_true",
                        help="do not look for tables on the network")


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "play", help="play: the lobby, or a practice game against bots",
        description="Open the terminal UI: the lobby of tables on the network, or with "
                    "--bots a practice game against bots straight away.")
    add_options(parser)
    parser.set_defaults(handler=run)


def default_handler(args: argparse.Namespace) -> int:
    """`durak` with no subcommand: the lobby, with every option at its default."""
    parser = argparse.ArgumentParser(prog="durak")
    add_options(parser)
    return run(parser.parse_args([]))


def rule_value(text: str) -> Any:
    lowered = text.lower()
    if lowered in ("true", "on", "yes"):
        return True
    if lowered in ("false", "off", "no"):
        return False
    if lowered == "none":
        return None
    try:
        return int(text)
    except ValueError:
        return text


def login_name() -> str:
    """The login name, as a seat name (root is nobody's name)."""
    name = os.environ.get("USER") or os.environ.get("LOGNAME") or ""
    return "" if name in ("", "root") else name[:16].capitalize()


def rule_items(items: list[str]) -> tuple[tuple[str, Any], ...]:
    """The `--rule KNOB=VALUE` options as (knob, value) pairs; RuleError for a malformed one."""
    changes = []
    for item in items:
        knob, sep, value = item.partition("=")
        if not sep:
            raise RuleError(knob, f"--rule needs KNOB=VALUE, not {item!r}",
                            f"--rule пишется как KNOB=VALUE, а не {item!r}")
        changes.append((knob.strip(), rule_value(value.strip())))
    return tuple(changes)


def table_options(args: argparse.Namespace, lang: str) -> TableOptions:
    changes = rule_items(args.rule)
    players = 3 if args.bots is None else args.bots + 1
    if not 2 <= players <= 6:
        raise RuleError("bots", "a table has 1 to 5 bots", "за столом от 1 до 5 ботов")
    return TableOptions(
        preset_id=args.preset, players=players, timer=args.timer,
        timer_policy=args.on_timeout, bot_level=args.level, seed=args.seed,
        player_name=args.name or login_name() or PLAYER_NAME[lang], bot_names=BOT_NAMES[lang],
        bot_delay=max(0.0, args.bot_delay), rule_changes=changes)


def run(args: argparse.Namespace) -> int:
    terminal = choose_terminal(args.lang, args.ascii)
    lang = terminal.lang
    try:
        options = table_options(args, lang)
        if args.bots is not None:
            options.rules()
    except RuleError as error:
        message = error.message_ru if lang == "ru" else error.message_en
        print(f"durak play: {message}", file=sys.stderr)
        return 2
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        print("durak: " + Messages(lang)("no_terminal"), file=sys.stderr)
        return 2
    look = Look(lang, terminal.ascii_only, cyrillic=terminal.cyrillic)
    # what turned discovery off, said in the lobby instead of "looking for tables"
    discover = "--no-discovery" if args.no_discovery else "--bots" if args.bots else ""
    with log_to_file(data_dir()):  # a warning printed on stderr would land on the screen
        run_guest(play, look, options, args.bots is not None, discover)
    return 0


@asynccontextmanager
async def lan_tables(off_by: str) -> AsyncIterator[
        tuple[Discovery | None, Notice | None]]:
    """mDNS discovery (tables seen, ours advertised), or why there is none: `off_by` names
    the option that turned it off."""
    if off_by:
        yield None, notice_of("lobby.discovery_off", reason=off_by)
        return
    from p2p_durak.node.discovery import open_discovery

    async with AsyncExitStack() as stack:
        try:
            discovery = await stack.enter_async_context(open_discovery())
        except (OSError, RuntimeError) as error:
            yield None, notice_of("lobby.discovery_off", reason=error)
            return
        yield discovery, None


async def play(look: Look, options: TableOptions, autostart: bool, discovery_off_by: str
               ) -> None:
    sink = IntentSink()
    async with lan_tables(discovery_off_by) as (discovery, note), trio.open_nursery() as nursery:
        backend = NetworkLobbyBackend(nursery, data_dir(), options.player_name, discovery)
        controller = Controller(backend, look, options, autostart=autostart,
                                discovery_note=note, engine_status=engine_strength)
        app = build_app(controller, sink)
        await run_ui(app, controller, sink)
        nursery.cancel_scope.cancel()
