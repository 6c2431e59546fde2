"""The printing commands (`durak host`, `join`, `resume`, `replay`, `rules`, `audit`) speak the
language `durak` itself would choose from the locale; `--lang` still wins.

The issue (#6, "Language and terminals"): «Russian and English, chosen from the locale,
switchable by option». The locale is read as the process started (/proc/self/environ), so the
commands run in child processes with the environment under test.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

import pytest

from p2p_durak.cli.main import build_parser
from p2p_durak.cli.terminal import output_lang

RU, EN = "ru_RU.UTF-8", "en_US.UTF-8"


def _subcommands() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(action.choices)


def test_no_printing_command_fixes_its_language_at_english() -> None:
    """Every subcommand with `--lang` leaves it unset by default (then the locale decides)."""
    with_lang = {name: next(a for a in sub._actions if "--lang" in a.option_strings)
                 for name, sub in _subcommands().items()
                 if any("--lang" in a.option_strings for a in sub._actions)}
    assert {"play", "host", "join", "resume", "replay", "rules", "audit"} <= set(with_lang)
    assert {name: action.default for name, action in with_lang.items()} == \
        dict.fromkeys(with_lang)


@pytest.mark.parametrize(("option", "env", "expected"), [
    (None, {"LANG": RU}, "ru"),
    (None, {"LANG": EN, "LANGUAGE": "ru:en"}, "ru"),
    (None, {"LANG": EN}, "en"),
    (None, {"LANG": "C", "LANGUAGE": "ru"}, "en"),  # gettext ignores LANGUAGE under C
    (None, {"LANG": "ru_RU.ISO-8859-1"}, "en"),  # Russian the terminal cannot show
    ("en", {"LANG": RU}, "en"),
    ("ru", {"LANG": "C"}, "ru"),  # asked for: the output may go to a file
])
def test_the_output_language_is_the_option_else_the_locale(
        option: str | None, env: dict[str, str], expected: str) -> None:
    assert output_lang(option, env) == expected


def _durak(*argv: str, lang: str) -> subprocess.CompletedProcess[str]:
    env = {"PATH": os.environ.get("PATH", ""), "PYTHONPATH": os.pathsep.join(sys.path),
           "LANG": lang}
    return subprocess.run([sys.executable, "-m", "p2p_durak.cli.main", *argv], env=env,
                          capture_output=True, text=True, timeout=120)


@pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="needs Linux's /proc")
def test_rules_lists_the_presets_in_the_locales_language() -> None:
    russian = "* app_podkidnoy          Подкидной (Throw-in durak (app rules))"
    english = "* app_podkidnoy          Throw-in durak (app rules) (Подкидной)"
    assert _durak("rules", lang=RU).stdout.splitlines()[0] == russian
    assert _durak("rules", "--lang", "en", lang=RU).stdout.splitlines()[0] == english
    assert _durak("rules", lang=EN).stdout.splitlines()[0] == english


@pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="needs Linux's /proc")
def test_audit_and_host_say_what_is_wrong_in_the_locales_language(tmp_path: Path) -> None:
    junk = tmp_path / "transcript.durak"
    junk.write_bytes(b"not a transcript")
    audit = _durak("audit", str(junk), lang=RU)
    assert audit.returncode == 1
    assert audit.stdout.startswith("это не запись игры: ")
    assert _durak("audit", str(junk), "--lang", "en", lang=RU).stdout.startswith(
        "not a transcript: ")
    host = _durak("host", "--no-mdns", "--rule", "no_such_knob=1", lang=RU)
    assert host.returncode == 2
    assert not host.stderr.isascii(), host.stderr  # the engine's Russian reason
