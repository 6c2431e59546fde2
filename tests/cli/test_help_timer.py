"""Help hides the table, not the turn timer: while the table waits for the player, the help's
closing line says so with the seconds left (they run on under it)."""

from __future__ import annotations

import pytest
import trio
from table_states import find_state, snapshot_of
from ui_support import options, running_ui

from p2p_durak.cli.guest import run_guest
from p2p_durak.cli.i18n import Look
from p2p_durak.cli.table_ui import TableUi
from p2p_durak.cli.table_view import turn_status
from p2p_durak.engine.state import LEAD

guest = pytest.mark.trio(run=run_guest)


def test_the_turn_status_is_said_only_while_the_table_waits_for_the_player() -> None:
    mine = find_state(lambda s: s.phase == LEAD and s.attacker == 0)
    ui = TableUi()
    ui.update(snapshot_of(mine, deadline=7.2))
    assert turn_status(ui, Look("en", False)) == "Your move · time 8 s"
    assert turn_status(ui, Look("ru", False)) == "Ваш ход · время 8 с"
    ui.update(snapshot_of(mine))  # no timer
    assert turn_status(ui, Look("en", False)) == "Your move"
    theirs = find_state(lambda s: s.phase == LEAD and s.attacker == 1)
    ui.update(snapshot_of(theirs, deadline=7.2))
    assert turn_status(ui, Look("en", False)) == ""


@guest
async def test_help_over_a_running_turn_timer_shows_the_seconds_left() -> None:
    with trio.fail_after(30):
        async with running_ui(base=options(timer=30.0), autostart=True) as ui:
            await ui.until(lambda: ui.settled() and ui.controller.table.waited_for())
            await ui.press("?")
            await ui.until(lambda: "Help" in ui.screen())
            closing = ui.screen().split("\n")[-1]
            assert closing.startswith(" Esc or ? — back")
            assert "Your move · time " in closing, closing
