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


def _timed_turn(ui) -> bool:  # type: ignore[no-untyped-def]
    """The table waits for the player and his turn timer runs (the session publishes the
    seconds left just after the turn's first snapshot)."""
    table = ui.controller.table
    return bool(ui.settled() and table.waited_for() and table.snapshot is not None
                and table.snapshot.deadline is not None)


@guest
async def test_help_over_a_running_turn_timer_shows_the_seconds_left() -> None:
    with trio.fail_after(30):
        async with running_ui(base=options(timer=30.0), autostart=True) as ui:
            await ui.until(lambda: _timed_turn(ui))
            await ui.press("?")
            await ui.until(lambda: "Help" in ui.screen())
            closing = ui.screen().split("\n")[-1]
            assert closing.startswith(" Esc or ? — back")
            assert "Your move · time " in closing, closing


@guest
@pytest.mark.parametrize(("policy", "said"), [("lose", "when time runs out you lose the game"),
                                              ("bot", "when time runs out a bot moves for you")])
async def test_the_hand_says_what_running_out_of_time_does(policy: str, said: str) -> None:
    # «--on-timeout lose»: the red seconds in the header mean losing the game — say so
    with trio.fail_after(30):
        async with running_ui(base=options(timer=30.0, timer_policy=policy),
                              autostart=True) as ui:
            await ui.until(lambda: _timed_turn(ui))
            title = next(line for line in ui.screen().split("\n")
                         if line.startswith(" Your hand:"))
            assert title.endswith("Your move  " + said), title


def test_no_timer_no_word_of_it() -> None:
    mine = find_state(lambda s: s.phase == LEAD and s.attacker == 0)
    ui = TableUi()
    ui.update(snapshot_of(mine))
    from p2p_durak.cli.canvas import plain
    from p2p_durak.cli.table_view import render_table_screen

    assert "time runs out" not in plain(render_table_screen(ui, Look("en", False), 80, 24))
