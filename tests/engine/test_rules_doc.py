"""docs/rules.md's preset table is the one the code renders."""

from __future__ import annotations

from rules_doc import RULES_DOC, documented_table

from p2p_durak.cli.commands_rules import markdown_table
from p2p_durak.engine.presets import PRESETS


def test_the_preset_table_in_docs_matches_the_code() -> None:
    documented = documented_table(RULES_DOC.read_text(encoding="utf-8"))
    assert documented == markdown_table(), (
        "docs/rules.md is out of date: run `python tests/engine/rules_doc.py`")


def test_the_table_has_every_preset_and_its_state() -> None:
    table = markdown_table()
    for preset in PRESETS.values():
        (row,) = [line for line in table.splitlines() if line.startswith(f"| `{preset.id}`")]
        assert ("| works |" in row) == (preset.works and not preset.unfinished)
        assert ("| engine only |" in row) == (preset.works and bool(preset.unfinished))
        for knob in preset.pending:
            assert knob in row
