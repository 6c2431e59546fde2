"""The whole message catalogue (cli/i18n.py): every key the UI asks for exists, in both
languages, with the same fields, and a Russian text is not an English copy.

`Messages` shows an unknown key as it came (a notice from a newer peer must not crash the
UI), so a misspelt key would reach the screen as `prompt.thorw` without any error: this test
reads the source of cli/ for every key it can ask for instead.
"""

from __future__ import annotations

import ast
import re
import string
from collections.abc import Iterator
from pathlib import Path

import pytest

import p2p_durak.cli as cli_package
from p2p_durak.bots.levels import LEVELS
from p2p_durak.cli.engine_build import Strength
from p2p_durak.cli.i18n import CATALOGUE, SUIT_NAMES, Messages
from p2p_durak.cli.lobby_ui import FIELDS, TIMER_POLICIES
from p2p_durak.engine import cards
from p2p_durak.engine.rules import IMPLEMENTED
from p2p_durak.engine.setup import GOVNO
from p2p_durak.node.local_session import NOTICE_TIMEOUT_BOT, NOTICE_TIMEOUT_LOSE
from p2p_durak.node.narrate import Narrator

CLI = Path(cli_package.__path__[0])
KEY = re.compile(r"[a-z_]+([.:][a-z_0-9]+)+")
NAMESPACES = {re.split("[.:]", key)[0] for key in CATALOGUE if re.search("[.:]", key)}
NOT_SCANNED = {"app.py", "i18n.py"}  # style names look like keys ("role.attack"); the catalogue

# What each computed key (an f-string or `"prefix." + name`) may be filled in with.
DOMAINS: dict[str, set[str]] = {
    "level.": set(LEVELS),
    "throw_in_by.": set(IMPLEMENTED["throw_in_by"]),
    "timer_policy.": set(TIMER_POLICIES),
    "timer.short.": {"bot", "lose"},
    "title.": {str(t) for t in range(GOVNO + 1)},
    "over.scores.": set(IMPLEMENTED["counter"]) - {"none"},
    "create.": set(FIELDS),
    "activity.": {"keys", "audit", "lobby", "seating"},
    "hand.timeout.": {"bot", "lose"},
    "lobby.engine.": {strength.value for strength in Strength},
    "help.key.": {"transfer", "chain", "claim", "claim_card", "show", "proezdnoy", "lead_stock",
                  "doubt", "exchange", "send_back", "dummy"},
}


def _calls(tree: ast.AST) -> Iterator[ast.Call]:
    """Calls that look a message up: m(…), look.messages(…), notice_of(…), Messages(l)(…)."""
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or not node.args:
            continue
        func = node.func
        if ((isinstance(func, ast.Name) and func.id in ("m", "notice_of", "en", "ru"))
                or (isinstance(func, ast.Attribute) and func.attr == "messages")
                or (isinstance(func, ast.Call) and isinstance(func.func, ast.Name)
                    and func.func.id == "Messages")):
            yield node


def _prefix(node: ast.expr) -> str | None:
    """The constant start of a computed key: f"level.{x}" or "create." + name."""
    if isinstance(node, ast.JoinedStr) and node.values \
            and isinstance(node.values[0], ast.Constant):
        return str(node.values[0].value)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add) \
            and isinstance(node.left, ast.Constant) and isinstance(node.left.value, str):
        return node.left.value
    return None


def used_keys() -> tuple[set[str], set[str]]:
    """(keys written out, prefixes of computed keys) in cli/'s source."""
    keys: set[str] = set()
    prefixes: set[str] = set()
    for path in sorted(CLI.glob("*.py")):
        tree = ast.parse(path.read_text(), str(path))
        for call in _calls(tree):
            first = call.args[0]
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                keys.add(first.value)
            elif (prefix := _prefix(first)) is not None:
                prefixes.add(prefix)
        if path.name in NOT_SCANNED:
            continue
        for node in ast.walk(tree):  # keys handed around before the lookup ("role.out")
            if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                    and KEY.fullmatch(node.value) \
                    and re.split("[.:]", node.value)[0] in NAMESPACES:
                keys.add(node.value)
            elif (isinstance(node, ast.JoinedStr) and (prefix := _prefix(node)) is not None
                  and re.fullmatch(r"[a-z_]+([.:][a-z_0-9]+)*[.:]", prefix)
                  and re.split("[.:]", prefix)[0] in NAMESPACES):
                prefixes.add(prefix)
    return keys, prefixes


def test_the_scan_finds_the_lookups() -> None:
    """A scan that found nothing would pass every check below."""
    keys, prefixes = used_keys()
    assert {"prompt.throw", "over.durak_you", "role.defending", "lobby.keys",
            "lang.no_cyrillic", "help.key_tail"} <= keys
    assert {"level.", "create.", "over.scores."} <= prefixes


def test_every_key_the_ui_asks_for_is_in_the_catalogue() -> None:
    keys, prefixes = used_keys()
    keys |= {NOTICE_TIMEOUT_BOT, NOTICE_TIMEOUT_LOSE}  # the practice session's notices
    assert sorted(keys - CATALOGUE.keys()) == []
    unknown = sorted(prefixes - DOMAINS.keys())
    assert unknown == [], f"say in DOMAINS what {unknown} is filled in with"
    missing = sorted(prefix + value for prefix, values in DOMAINS.items() for value in values
                     if prefix + value not in CATALOGUE)
    assert missing == []


def test_every_entry_of_the_catalogue_is_used() -> None:
    """A key nobody asks for is a text nobody checks: it goes stale in both languages."""
    keys, _ = used_keys()
    keys |= {NOTICE_TIMEOUT_BOT, NOTICE_TIMEOUT_LOSE}
    keys |= {prefix + value for prefix, values in DOMAINS.items() for value in values}
    assert sorted(CATALOGUE.keys() - keys) == []


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


@pytest.mark.parametrize("key", sorted(CATALOGUE))
def test_every_entry_is_written_in_both_languages(key: str) -> None:
    en, ru = CATALOGUE[key]
    assert _fields(en) == _fields(ru)
    assert en.count("\n") == ru.count("\n")  # line for line (help's key lines)
    assert en.strip()
    assert ru.strip()
    words_en = re.sub(r"\{[^}]*\}", "", en)
    if re.search("[A-Za-z]{3,}", words_en) and not key.startswith("lobby.columns"):
        assert en != ru, "the Russian text is the English one"
        assert re.search("[а-яё]", ru.lower()), "no Russian word in the Russian text"


def test_a_missing_key_shows_as_it_came() -> None:
    """What the scan above guards against: no error, the key itself on the screen."""
    assert Messages("ru")("prompt.thorw") == "prompt.thorw"


SAMPLE_FIELDS = {"limit": 10, "who": "W" * 16, "card": "10♥"}  # a seat name has ≤ 16 letters
ONE_LINE_LIMITS = {"prompt.": 80, "lobby.keys": 79, "create.keys": 79, "help.": 78,
                   "lang.": 79, "refused": 79}
"""How wide each kind of line may be: a prompt takes a whole line; a key line and a notice
start with a space; help lines are indented by two."""


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_every_one_line_text_fits_80_columns(lang: str) -> None:
    """The views cut a line at the window's width; an 80×24 window must see every prompt, key
    line and help line whole (the table's own prompts are also checked as drawn, in every
    preset's game, by test_every_preset.py)."""
    from p2p_durak.cli.canvas import text_width

    messages = Messages(lang)
    too_wide = []
    for key, entry in CATALOGUE.items():
        limit = next((n for prefix, n in ONE_LINE_LIMITS.items() if key.startswith(prefix)),
                     None)
        if limit is None:
            continue
        fields = {name: SAMPLE_FIELDS.get(name, "x") for name in _fields(entry[0])}
        for line in messages(key, **fields).split("\n"):
            if text_width(line) > limit:
                too_wide.append((key, text_width(line), line))
    assert too_wide == []


def test_the_suits_are_named_in_one_place() -> None:
    """The help's legend (`cli/i18n.SUIT_NAMES`) and the game log (`node/narrate`) read the
    engine's lists, whose order is the suits' values — which the rules' suit names
    (`fixed_suit:spades`, `untrumpable_suits`) are parsed by."""
    assert SUIT_NAMES["en"] is cards.SUIT_NAMES
    assert SUIT_NAMES["ru"] is cards.SUIT_NAMES_RU
    assert [cards.Suit[name.upper()] for name in cards.SUIT_NAMES] == [0, 1, 2, 3]
    narrator = Narrator(None, [], "ru")
    assert [narrator._suit(s) for s in range(4)] == \
        [f"{cards.SUIT_SYMBOLS[s]} {cards.SUIT_NAMES_RU[s]}" for s in range(4)]
