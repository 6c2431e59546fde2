"""What the terminal can show and which language the player reads, from the environment.

The language follows gettext's order: `LANGUAGE` (a list such as `ru:en`, heeded only when
the locale is not C), then `LC_ALL`, `LC_MESSAGES`, `LANG`. The terminal's encoding is the
locale's codeset (`LC_ALL`, then `LC_CTYPE`, then `LANG`), which is also how tmux and curses
decide: a C or POSIX locale, or none at all, means plain ASCII.

Python's own idea of the encoding cannot tell: since PEP 538/540 it coerces a C locale to
UTF-8 (and rewrites `LC_CTYPE` in `os.environ`), so `sys.stdout.encoding` says "utf-8" under
`LANG=C` while the terminal shows `_` or `?` for every suit. Hence the environment is read as
the process received it (`/proc/self/environ` on Linux).

Windows has no locale variables: there the user's locale (`locale.getlocale()`, e.g.
`Russian_Russia`) stands in for `LANG`, with UTF-8, as Python writes to the Windows console in
UTF-16 whatever its code page (PEP 528). Set `LANG` to decide otherwise, or pass `--ascii`.
"""

from __future__ import annotations

import argparse
import codecs
import locale
import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass

LANGS = ("en", "ru")
SUITS = "♠♣♦♥"
CYRILLIC_SAMPLE = "ЁЖЩЯёжщя"
NARROW_TERMS = ("linux", "vt100", "vt102", "vt220", "dumb")
"""Terminals whose fonts lack `♠ ▶ ★ …`: the Linux console (256 or 512 glyphs), old VTs."""


LOCALE_VARIABLES = ("LC_ALL", "LC_MESSAGES", "LC_CTYPE", "LANG", "LANGUAGE")


def with_windows_locale(env: Mapping[str, str], system: str = sys.platform,
                        user_locale: str | None = None) -> Mapping[str, str]:
    """On Windows without locale variables, `LANG` from the user's locale (see above)."""
    if system != "win32" or any(env.get(name) for name in LOCALE_VARIABLES):
        return env
    name = (locale.getlocale()[0] if user_locale is None else user_locale) or ""
    russian = name.lower().startswith(("ru", "russian"))
    return {**env, "LANG": "ru_RU.UTF-8" if russian else "en_US.UTF-8"}


def startup_environ() -> Mapping[str, str]:
    """The environment as this process was started with, before Python coerced the locale."""
    try:
        with open("/proc/self/environ", "rb") as file:
            raw = file.read()
    except OSError:
        return with_windows_locale(os.environ)
    pairs = (item.split(b"=", 1) for item in raw.split(b"\0") if b"=" in item)
    return {name.decode(errors="surrogateescape"): value.decode(errors="surrogateescape")
            for name, value in pairs}


def _first(env: Mapping[str, str], names: tuple[str, ...]) -> str:
    return next((env[name] for name in names if env.get(name)), "")


def _is_c(value: str) -> bool:
    """C, POSIX, C.UTF-8: the locale of no language."""
    return not value or value.partition(".")[0].partition("@")[0] in ("C", "POSIX")


def detect_lang(environ: Mapping[str, str] | None = None) -> str:
    """`ru` when the locale says Russian, else `en` (gettext's order of variables)."""
    env = startup_environ() if environ is None else environ
    messages = _first(env, ("LC_ALL", "LC_MESSAGES", "LANG"))
    if _is_c(messages):
        return "en"  # glibc ignores LANGUAGE under the C locale
    for item in env.get("LANGUAGE", "").split(":"):
        code = item[:2].lower()
        if code in LANGS:
            return code
    return "ru" if messages.lower().startswith("ru") else "en"


def terminal_encoding(environ: Mapping[str, str] | None = None) -> str:
    """The codec the terminal expects, from the locale's codeset; `ascii` for C or none."""
    env = startup_environ() if environ is None else environ
    value = _first(env, ("LC_ALL", "LC_CTYPE", "LANG"))
    if _is_c(value) and "." not in value:
        return "ascii"
    # ru_RU alone means its default codeset; C.UTF-8 is C with UTF-8
    codeset = locale.normalize(value).partition(".")[2].partition("@")[0]
    try:
        return codecs.lookup(codeset).name if codeset else "ascii"
    except LookupError:
        return "ascii"


def can_encode(encoding: str | None, text: str) -> bool:
    if not encoding:
        return False
    try:
        text.encode(encoding)
    except (LookupError, UnicodeEncodeError):
        return False
    return True


def can_show_suits(encoding: str | None) -> bool:
    """Whether text in `encoding` can carry the suit symbols."""
    return can_encode(encoding, SUITS)


def can_show_russian(encoding: str | None) -> bool:
    return can_encode(encoding, CYRILLIC_SAMPLE)


@dataclass(frozen=True)
class TerminalChoice:
    """What `durak play` decided about the language and the symbols, and why."""

    lang: str
    ascii_only: bool
    cyrillic: bool  # whether Russian can be shown at all (else `L` stays in English)


def choose_terminal(lang: str | None, ascii_option: bool | None,
                    environ: Mapping[str, str] | None = None) -> TerminalChoice:
    """The options (`--lang`, `--ascii` / `--no-ascii`) over what the environment says."""
    env = startup_environ() if environ is None else environ
    encoding = terminal_encoding(env)
    cyrillic = can_show_russian(encoding) or ascii_option is False
    chosen = lang or detect_lang(env)
    if chosen == "ru" and not cyrillic:
        chosen = "en"  # better English than unreadable question marks
    if ascii_option is None:
        narrow = env.get("TERM", "") in NARROW_TERMS
        ascii_only = narrow or not can_show_suits(encoding)
    else:
        ascii_only = ascii_option
    return TerminalChoice(chosen, ascii_only, cyrillic)


def add_lang_option(parser: argparse.ArgumentParser) -> None:
    """`--lang` of the commands that print (host, join, resume, replay, rules, audit)."""
    parser.add_argument("--lang", choices=LANGS, default=None,
                        help="language of the output (default: from the locale)")


def output_lang(option: str | None, environ: Mapping[str, str] | None = None) -> str:
    """A printing command's language: `--lang` when given (even Russian where the terminal
    may lack Cyrillic: the output may go to a file), else what `durak` would choose from the
    locale — so `durak replay` speaks as the lobby does."""
    return option or choose_terminal(None, None, environ).lang
