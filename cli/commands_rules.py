"""`durak rules`: the presets, with their source and whether the engine plays them yet."""

from __future__ import annotations

import argparse
import json
import sys
import textwrap
from typing import Any

from p2p_durak.cli.terminal import add_lang_option, output_lang
from p2p_durak.engine.games.catalogue import GAMES, GamePreset
from p2p_durak.engine.presets import DEFAULT_PRESET, PRESETS, Preset


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "rules", help="list the rule presets and their state",
        description="List every rule preset: id, names, source and whether it works yet "
                    "(or which knobs are still pending); with an id, that preset's rules.")
    parser.add_argument("preset", nargs="?", help="a preset id: print its rules and options")
    add_lang_option(parser)
    parser.add_argument("--json", action="store_true", help="print one JSON array instead")
    parser.add_argument("--markdown", action="store_true",
                        help="print the preset table of docs/rules.md instead")
    parser.set_defaults(handler=run)


def preset_state(preset: Preset) -> str:
    if preset.works:
        return f"engine only: {preset.unfinished}" if preset.unfinished else "works"
    return "pending: " + ", ".join(preset.pending)


def game_state(game: GamePreset) -> str:
    if game.works:
        return f"engine only: {game.unfinished}" if game.unfinished else "works"
    return f"pending: game_engine={game.engine!r}"


def preset_record(preset: Preset) -> dict[str, Any]:
    return {"id": preset.id, "name_ru": preset.name_ru, "name_en": preset.name_en,
            "source": preset.source, "works": preset.works, "pending": preset.pending,
            "players": list(preset.players), "default": preset.id == DEFAULT_PRESET}


def game_record(game: GamePreset) -> dict[str, Any]:
    return {"id": game.id, "name_ru": game.name_ru, "name_en": game.name_en,
            "source": game.source, "works": game.works,
            "pending": [] if game.works else [f"game_engine={game.engine!r}"],
            "players": list(game.players), "default": False, "engine": game.engine,
            "unfinished": game.unfinished}


def markdown_table() -> str:
    """The preset table of docs/rules.md, generated from the code (a test keeps them equal)."""
    lines = ["| id | name | source | players | state |", "|---|---|---|---|---|"]
    for preset in PRESETS.values():
        state = ("engine only" if preset.unfinished else "works") if preset.works else \
            "pending: " + ", ".join(f"`{knob}`" for knob in preset.pending)
        default = " (default)" if preset.id == DEFAULT_PRESET else ""
        lines.append(f"| `{preset.id}`{default} | {preset.name_ru} / {preset.name_en} | "
                     f"{preset.source} | {', '.join(map(str, preset.players))} | {state} |")
    for game in GAMES.values():  # the games with an engine of their own
        state = ("engine only" if game.unfinished else "works") if game.works else \
            f"pending: `game_engine={game.engine!r}`"
        lines.append(f"| `{game.id}` | {game.name_ru} / {game.name_en} | {game.source} | "
                     f"{', '.join(map(str, game.players))} | {state} |")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    presets = list(PRESETS.values())
    games = list(GAMES.values())
    lang = output_lang(args.lang)
    if args.preset is not None:
        return show_one(args.preset, lang, as_json=args.json)
    if args.markdown:
        print(markdown_table())
        return 0
    if args.json:
        print(json.dumps([preset_record(p) for p in presets] + [game_record(g) for g in games],
                         ensure_ascii=False))
        return 0
    working = sum(p.works for p in presets) + sum(g.works for g in games)
    rows = [(p.id, p.name(lang), p.name_en if lang == "ru" else p.name_ru, p.source,
             p.players, preset_state(p)) for p in presets]
    rows += [(g.id, g.name(lang), g.name_en if lang == "ru" else g.name_ru, g.source,
              g.players, game_state(g)) for g in games]
    for preset_id, name, other, source, players, state in rows:
        mark = "*" if preset_id == DEFAULT_PRESET else " "
        print(f"{mark} {preset_id:<22} {name} ({other})")
        print(f"    source:  {source}")
        print(f"    players: {', '.join(map(str, players))}")
        print(f"    state:   {state}")
    print(f"\n{len(rows)} presets, {working} work; * = the default ({DEFAULT_PRESET})")
    return 0


def show_one(preset_id: str, lang: str, *, as_json: bool = False) -> int:
    """One preset: names, source, state, what it is, and (a game of its own) its rules and
    table options."""
    game = GAMES.get(preset_id)
    preset = PRESETS.get(preset_id)
    if game is None and preset is None:
        known = ", ".join([*PRESETS, *GAMES])
        print(f"durak rules: no preset {preset_id!r} (one of {known})", file=sys.stderr)
        return 2
    if game is not None:
        if as_json:
            print(json.dumps({**game_record(game), "rules": list(game.rules(lang)),
                              "options": dict(game.option_values())},
                             ensure_ascii=False))
            return 0
        print(f"{game.id}: {game.name(lang)} ({game.name_en if lang == 'ru' else game.name_ru})")
        print(f"source:  {game.source}")
        print(f"players: {', '.join(map(str, game.players))}")
        print(f"state:   {game_state(game)}")
        print()
        print(textwrap.fill(game.description(lang), 80))
        for paragraph in game.rules(lang):
            print()
            print(textwrap.fill(paragraph, 80))
        if game.option_values():
            print()
            print("Таблица: варианты (по умолчанию)" if lang == "ru" else
                  "Table options (defaults)")
            for name, value in game.option_values():
                print(f"  {name} = {value}")
        return 0
    assert preset is not None
    if as_json:
        print(json.dumps(preset_record(preset), ensure_ascii=False))
        return 0
    print(f"{preset.id}: {preset.name(lang)} "
          f"({preset.name_en if lang == 'ru' else preset.name_ru})")
    print(f"source:  {preset.source}")
    print(f"players: {', '.join(map(str, preset.players))}")
    print(f"state:   {preset_state(preset)}")
    print()
    print(textwrap.fill(preset.description(lang), 80))
    return 0
