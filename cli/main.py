"""The `durak` console command: a thin dispatcher over subcommand modules.

Every `p2p_durak.cli.commands_*` module defines `register(subparsers)`, which adds its
subparser and sets `handler(args) -> int` as the parser default. New subcommands need a new
module only; this file stays small.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.metadata
import os
import pkgutil
import sys
from collections.abc import Sequence

import p2p_durak.cli as cli_package


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="durak", description="Serverless LAN Durak: play, simulate and inspect the rules. "
        "`durak` alone, or with the options of `durak play` (`durak --lang ru`), opens the game.")
    parser.add_argument("--version", action="version", version=f"durak {installed_version()}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for info in sorted(pkgutil.iter_modules(cli_package.__path__), key=lambda m: m.name):
        if info.name.startswith("commands_"):
            module = importlib.import_module(f"{cli_package.__name__}.{info.name}")
            module.register(subparsers)
            if hasattr(module, "default_handler"):  # what `durak` alone runs
                parser.set_defaults(handler=module.default_handler)
    return parser


def installed_version() -> str:
    """The installed distribution's version (a checkout run without installing has none)."""
    try:
        return importlib.metadata.version("p2p-durak")
    except importlib.metadata.PackageNotFoundError:
        return "(not installed)"


# What a shell reports for a tool the closed pipe's SIGPIPE stopped (128 + 13): `durak rules |
# head` ends as `cat file | head` does (Python ignores SIGPIPE and raises instead).
PIPE_CLOSED = 141


def main(argv: Sequence[str] | None = None) -> int:
    try:
        code = _dispatch(argv)
        sys.stdout.flush()  # (buffered output meets the closed pipe here)
    except* BrokenPipeError:
        _silence_stdout()
        code = PIPE_CLOSED
    return code


def _silence_stdout() -> None:
    """The reader has gone: point stdout at the null device so that the interpreter's flush
    at exit does not print "Exception ignored … BrokenPipeError" (Python's signal docs)."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, sys.stdout.fileno())
    finally:
        os.close(devnull)


def _dispatch(argv: Sequence[str] | None) -> int:
    words = list(sys.argv[1:] if argv is None else argv)
    if words == ["--version"]:  # without importing every command (seconds on a slow machine)
        print(f"durak {installed_version()}")
        return 0
    parser = build_parser()
    if words and words[0].startswith("-") and words[0] not in ("-h", "--help", "--version"):
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
