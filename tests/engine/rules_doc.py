"""Keep the preset table of docs/rules.md equal to the code.

    python tests/engine/rules_doc.py     # rewrite the table between the markers

The table itself is rendered by `durak rules --markdown` (p2p_durak.cli.commands_rules), so the
doc, the command and the engine's presets cannot drift apart unnoticed: test_rules_doc.py fails
when they do.
"""

from __future__ import annotations

from pathlib import Path

from p2p_durak.cli.commands_rules import markdown_table

RULES_DOC = Path(__file__).resolve().parents[2] / "docs" / "rules.md"
BEGIN, END = "<!-- presets:begin -->", "<!-- presets:end -->"


def documented_table(text: str) -> str:
    start, end = text.index(BEGIN) + len(BEGIN), text.index(END)
    return text[start:end].strip()


def with_table(text: str, table: str) -> str:
    start, end = text.index(BEGIN) + len(BEGIN), text.index(END)
    return text[:start] + "\n" + table + "\n" + text[end:]


def main() -> None:
    text = RULES_DOC.read_text(encoding="utf-8")
    RULES_DOC.write_text(with_table(text, markdown_table()), encoding="utf-8")
    print(f"rewrote the preset table in {RULES_DOC}")


if __name__ == "__main__":
    main()
