"""Which engine modules the mypyc build compiles: every module is either in setup.py's
COMPILED list or named below as Python on purpose.

Session 2 moved the playout's xorshift generator into a module of its own and did not add it
to the list, so every random draw of a compiled playout called back into the interpreter: the
sustained two-player rate fell to about 3,600 games per CPU second (6,800 with it compiled).
A new module now has to be placed on one side or the other.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "p2p_durak" / "engine"

PYTHON_ON_PURPOSE = {
    "__init__": "the package: re-exports, and picks the build through _compiled",
    "_compiled": "decides whether the build is current; must run before any compiled module",
    "entry": "apply/step take any object from the network and refuse it with IllegalAction "
             "(a compiled function would raise TypeError on a wrongly typed argument)",
    "errors": "an Enum with tuple values, which mypyc mis-compiles; only raised, never hot",
    "prephase": "the pre-game phases (наборный, круглый, крестовый): some forty chance steps "
                "once per game, before the first bout",
    "doubt": "верю не верю's face-down covers and doubts, reached only in that variant's "
             "games (not yet built with mypyc: to be moved to COMPILED once a build has "
             "checked it)",
    "exchange": "покерный's exchange with the stock, reached only in that variant's games "
                "(not yet built with mypyc, as doubt)",
    "overflow": "щелковский's cards sent back beyond the bout limit (a table option), reached "
                "only in that variant's games (not yet built with mypyc, as doubt)",
    "presets": "data read once per table",
    "rules": "RuleSet validation, once per game; the hot path reads engine/tables.py",
    "verdicts": "a concession, at most once a game",
    "refusals": "explains a refused action, only after `apply` has refused it (entry.py)",
    "moves": "the card-movement records, made only when a table asks (never in a playout)",
    "layout": "follows card movements on a table's slots, once per committed action",
    "durak_moves": "derives an action's card movements after the fact, only for a table",
    "family": "the game-family interface's types",
    "durak_family": "the attack/defend family's adapter over the engine's entry points",
}


def compiled_modules() -> set[str]:
    """The COMPILED tuple of setup.py, read without running the build."""
    for node in ast.parse((ROOT / "setup.py").read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and any(
                isinstance(target, ast.Name) and target.id == "COMPILED"
                for target in node.targets):
            value = ast.literal_eval(node.value)
            assert isinstance(value, tuple)
            return {str(name) for name in value}
    raise AssertionError("setup.py has no COMPILED list")


def test_every_engine_module_is_compiled_or_python_on_purpose() -> None:
    modules = {path.stem for path in ENGINE.glob("*.py")}
    compiled = compiled_modules()
    assert compiled <= modules, f"setup.py compiles missing modules: {compiled - modules}"
    assert not compiled & PYTHON_ON_PURPOSE.keys()
    unplaced = modules - compiled - PYTHON_ON_PURPOSE.keys()
    assert not unplaced, (
        f"engine modules neither compiled nor Python on purpose: {sorted(unplaced)}; add them "
        "to COMPILED in setup.py (anything a playout or legal_actions calls per action) or to "
        "PYTHON_ON_PURPOSE here with the reason")


def test_the_playout_generator_is_compiled() -> None:
    assert "xorshift" in compiled_modules()
