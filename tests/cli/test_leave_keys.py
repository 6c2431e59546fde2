"""Leaving the table by keys (the real app on a pipe): Q asks, a second Q leaves; Esc after Q
cancels — it used to confirm, so Esc, which everywhere else means back or cancel, threw the
player out of a running game."""

from __future__ import annotations

import pytest
import trio
from ui_support import running_ui

from p2p_durak.cli.guest import run_guest

guest = pytest.mark.trio(run=run_guest)


@guest
async def test_escape_cancels_a_leave_and_q_twice_leaves() -> None:
    with trio.fail_after(30):
        async with running_ui(autostart=True) as ui:
            await ui.until(lambda: ui.controller.table.snapshot is not None and ui.settled())
            await ui.press("q")
            assert "Press Q again to leave" in ui.screen()
            await ui.press("\x1b")
            await ui.until(lambda: not ui.controller.table.leave_armed)
            assert ui.controller.screen == "table"
            assert ui.controller.session is not None
            assert "Press Q again" not in ui.screen()
            await ui.press("q")  # asks again: the Esc did not leave half of the confirmation
            assert ui.controller.screen == "table"
            await ui.press("q")
            await ui.until(lambda: ui.controller.screen == "lobby")
            assert ui.controller.session is None
