"""«Works in an 80×24 terminal»: a seat line keeps the score and the durak count whole. In a
scored series (очковый, погонный, фигурный) both share the line after the name, the card
count and the role; with six seats, long names and Russian they were cut off the end at 80
columns. The name now gives way (down to ten cells) to what comes after it."""

from __future__ import annotations

import dataclasses
import re

import pytest
from table_states import find_state, snapshot_of

from p2p_durak.cli.canvas import plain
from p2p_durak.cli.i18n import Look
from p2p_durak.cli.table_ui import TableUi
from p2p_durak.cli.table_view import render_table_screen
from p2p_durak.engine.state import BOUT
from p2p_durak.node.api import SeatInfo

LONG_NAMES = ("Константин", "Александра", "Maximilian", "Екатерина", "Christopher",
              "Владислав")


@pytest.mark.parametrize("preset", ["ochkovy", "pogonny", "figurny"])
@pytest.mark.parametrize("look", [Look("ru", False), Look("en", False), Look("ru", True)])
def test_six_seats_keep_the_score_and_the_durak_count_at_80_columns(preset: str,
                                                                     look: Look) -> None:
    state = find_state(lambda s: s.phase == BOUT and any(s.tally), preset=preset, players=6)
    snap = snapshot_of(state, preset=preset, duraks=(12,) * 6)
    seats = tuple(SeatInfo(s, LONG_NAMES[s], is_bot=s != 0, bot_level="" if s == 0 else "hard")
                  for s in range(6))
    snap = dataclasses.replace(snap, seats=seats)
    ui = TableUi()
    ui.update(snap)
    screen = plain(render_table_screen(ui, look, 80, 24))
    m = look.messages
    lines = [line for line in screen.splitlines() if m("duraks_n", n=12) in line]
    assert len(lines) == 6, screen
    for seat, name in enumerate(LONG_NAMES):
        (line,) = [line for line in lines if name[:8] in line]  # the name's start stays
        if seat:  # a bot's level gives way first
            assert m("level.hard") not in line, line
        assert m("score_n", n=state.tally[seat]) in line, line
        assert re.search(re.escape(m("score_n", n=state.tally[seat])) + r" +"
                         + re.escape(m("duraks_n", n=12)), line), line
        assert m("cards_n", n=state.hand_size(seat)) in line, line
