"""Every playable preset, played to the end at a practice table, renders every snapshot on an
80×24 screen in both languages (and in ASCII) without a line too long or too many, without
cutting the prompt, the notice or the key line short, and in ASCII without a symbol the
terminal cannot show."""

from __future__ import annotations

import random

import pytest
import trio

from p2p_durak.cli.canvas import line_width, plain, text_width
from p2p_durak.cli.controller import as_shown
from p2p_durak.cli.i18n import Look
from p2p_durak.cli.table_ui import TableUi
from p2p_durak.cli.table_view import bottom_lines, render_table_screen
from p2p_durak.engine.presets import table_presets
from p2p_durak.node.local_session import PracticeSetup, open_local_session

LOOKS = (Look("en", False), Look("ru", False), Look("ru", True), Look("en", True))
RUSSIAN_LETTERS = frozenset("абвгдеёжзийклмнопрстуфхцчшщъыьэюя".upper()
                            + "абвгдеёжзийклмнопрстуфхцчшщъыьэюя")


def check_screen(ui: TableUi, look: Look) -> None:
    """24 lines of 80 cells; the prompt, the notice and the key line whole (not cut at 80
    columns); in ASCII mode nothing but ASCII (and Russian letters when the UI speaks
    Russian: a KOI8-R terminal shows those)."""
    lines = as_shown(render_table_screen(ui, look, 80, 24), look, 80)
    assert len(lines) == 24
    assert {line_width(line) for line in lines} == {80}
    for line in as_shown(list(bottom_lines(ui, look)), look, 1000):
        text = plain([line])
        assert text_width(text) <= 80, (look.lang, look.ascii_only, text)
    if look.ascii_only:
        allowed = RUSSIAN_LETTERS if look.lang == "ru" else frozenset()
        leaked = {ch for ch in plain(lines) if not ch.isascii() and ch not in allowed}
        assert not leaked, (look.lang, leaked, plain(lines))


@pytest.mark.parametrize("preset", [p.id for p in table_presets()])
async def test_a_whole_game_of_every_preset_renders(preset: str,
                                                    autojump_clock: trio.abc.Clock) -> None:
    chosen = next(p for p in table_presets() if p.id == preset)
    players = max(chosen.players) if chosen.rules.teams != "none" else min(4, max(chosen.players))
    rng = random.Random(preset)
    setup = PracticeSetup(chosen.rules, players, preset_id=preset, seed=1, bot_level="easy",
                          bot_delay=0.5)
    ui = TableUi()
    renders = 0
    async with open_local_session(setup) as session:
        async for snap in session.snapshots:
            ui.update(snap)
            for look in LOOKS:
                check_screen(ui, look)
            renders += 1
            if snap.activity == "over":
                break
            if session.snapshots.statistics().current_buffer_used == 0 and snap.legal \
                    and snap.waiting_for[:1] == (snap.my_seat,):
                await session.act(snap.legal[rng.randrange(len(snap.legal))])
    assert renders > 10
