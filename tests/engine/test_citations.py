"""The rule tests quote the seed texts verbatim: every «…» they cite is in the seed file.

A test that cites a sentence the seed does not contain checks a rule nobody wrote; this keeps
the quotes honest. Quotes may skip words with "..."; each part must appear in order.
"""

from __future__ import annotations

import re
from pathlib import Path
from types import ModuleType

import pytest
import test_app_rules
import test_scenarios

SEEDS = Path(__file__).resolve().parents[3] / "shared" / "seeds"
SEED_NAMES = ("001_c746c7bb87124419.txt", "000_0a1bcdd496bc6662.txt")


def _top_level_quotes(text: str) -> list[str]:
    quotes, depth, start = [], 0, 0
    for index, char in enumerate(text):
        if char == "«":
            if depth == 0:
                start = index + 1
            depth += 1
        elif char == "»" and depth:
            depth -= 1
            if depth == 0:
                quotes.append(text[start:index])
    return quotes


def _squash(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def _cited(module: ModuleType) -> list[tuple[str, str, str]]:
    """(test, seed file, quote) for every test whose docstring starts with a seed file."""
    out = []
    for name in dir(module):
        function = getattr(module, name)
        doc = getattr(function, "__doc__", None) or ""
        seed = next((s for s in SEED_NAMES if doc.startswith(s)), None)
        if name.startswith("test_") and seed:
            out.extend((name, seed, quote) for quote in _top_level_quotes(doc))
    return out


CITED = _cited(test_app_rules) + _cited(test_scenarios)


def test_the_rule_tests_cite_the_seed() -> None:
    assert len({name for name, _, _ in CITED}) >= 35


@pytest.mark.skipif(not SEEDS.exists(), reason="shared/seeds is not beside the repository")
@pytest.mark.parametrize(("test", "seed_name", "quote"), CITED,
                         ids=[f"{n}-{i}" for i, (n, _, _) in enumerate(CITED)])
def test_every_quote_is_in_the_seed(test: str, seed_name: str, quote: str) -> None:
    seed = _squash((SEEDS / seed_name).read_text(encoding="utf-8"))
    position = 0
    for part in (_squash(p) for p in quote.split("...")):
        if not part:
            continue
        found = seed.find(part, position)
        assert found >= 0, f"{test} quotes «{part}», which is not in {seed_name} (in order)"
        position = found + len(part)
