"""`durak rules`: the presets, with their source and whether the engine plays them yet."""

from __future__ import annotations

import argparse
import json
from typing import Any

from p2p_durak.cli.terminal import add_lang_option, output_lang
from p2p_durak.engine.presets import DEFAULT_PRESET, PRESETS, Preset


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "rules", help="list the rule presets and their state",
        description="List every rule preset: id, names, source and whether it works yet "
                    "(or which knobs are still pending).")
    add_lang_option(parser)
    parser.add_argument("--json", action="store_true", help="print one JSON array instead")
    parser.add_argument("--markdown", action="store_true",
                        help="print the preset table of docs/rules.md instead")
    parser.set_defaults(handler=run)


def preset_state(preset: Preset) -> str:
    if preset.works:
        return f"engine only: {preset.unfinished}" if preset.unfinished else "works"
    return "pending: " + ", ".join(preset.pending)


def preset_record(preset: Preset) -> dict[str, Any]:
    return {"id": preset.id, "name_ru": preset.name_ru, "name_en": preset.name_en,
            "source": preset.source, "works": preset.works, "pending": preset.pending,
            "players": list(preset.players), "default": preset.id == DEFAULT_PRESET}


def markdown_table() -> str:
    """The preset table of docs/rules.md, generated from the code (a test keeps them equal)."""
    lines = ["| id | name | source | players | state |", "|---|---|---|---|---|"]
    for preset in PRESETS.values():
        state = ("engine only" if preset.unfinished else "works") if preset.works else \
            "pending: " + ", ".join(f"`{knob}`" for knob in preset.pending)
        default = " (default)" if preset.id == DEFAULT_PRESET else ""
        lines.append(f"| `{preset.id}`{default} | {preset.name_ru} / {preset.name_en} | "
                     f"{preset.source} | {', '.join(map(str, preset.players))} | {state} |")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    presets = list(PRESETS.values())
    if args.markdown:
        print(markdown_table())
        return 0
    if args.json:
        print(json.dumps([preset_record(p) for p in presets], ensure_ascii=False))
        return 0
    working = sum(p.works for p in presets)
    lang = output_lang(args.lang)
    for preset in presets:
        mark = "*" if preset.id == DEFAULT_PRESET else " "
        other = preset.name_en if lang == "ru" else preset.name_ru
        print(f"{mark} {preset.id:<22} {preset.name(lang)} ({other})")
        print(f"    source:  {preset.source}")
        print(f"    players: {', '.join(map(str, preset.players))}")
        print(f"    state:   {preset_state(preset)}")
    print(f"\n{len(presets)} presets, {working} work; * = the default ({DEFAULT_PRESET})")
    return 0
