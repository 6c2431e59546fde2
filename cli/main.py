"""The `durak` console command: a thin dispatcher over subcommand modules.

Every `p2p_durak.cli.commands_*` module defines `register(subparsers)`, which adds its
subparser and sets `handler(args) -> int` as the parser default. New subcommands need a new
module only; this file stays small.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from collections.abc import Sequence

import p2p_durak.cli as cli_package


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="durak", description="Serverless LAN Durak: play, simulate and inspect the rules. "
        "`durak` alone, or with the options of `durak play` (`durak --lang ru`), opens the game.")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for info in sorted(pkgutil.iter_modules(cli_package.__path__), key=lambda m: m.name):
        if info.name.startswith("commands_"):
            module = importlib.import_module(f"{cli_package.__name__}.{info.name}")
            module.register(subparsers)
            if hasattr(module, "default_handler"):  # what `durak` alone runs
                parser.set_defaults(handler=module.default_handler)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    words = list(sys.argv[1:] if argv is None else argv)
    if words and words[0].startswith("-") and words[0] not in ("-h", "--help"):
        words.insert(0, "play")  # `durak --lang ru` is `durak play --lang ru`: the lobby
    args = parser.parse_args(words)
    handler = getattr(args, "handler", None)
    if handler is None:
        parser.print_help()
        return 0
    code: int = handler(args)
    return code


if __name__ == "__main__":
    sys.exit(main())
