"""Special actions of this batch's variants, shown and played by key: the real application on a
pipe (as tests/cli/test_app_game.py) and `TableUi.command` on engine situations."""

from __future__ import annotations

import pytest
import trio
from screen_strategy import choose_key, is_over
from table_states import find_state, snapshot_of
from ui_support import Ui, options, running_ui

from p2p_durak.cli.canvas import plain
from p2p_durak.cli.guest import run_guest
from p2p_durak.cli.i18n import Look
from p2p_durak.cli.table_ui import TableUi
from p2p_durak.cli.table_view import render_table_screen
from p2p_durak.engine import UNKNOWN, Action, State, legal_actions
from p2p_durak.engine import actions as A
from p2p_durak.engine.state import BOUT
from p2p_durak.node.api import TableSnapshot

guest = pytest.mark.trio(run=run_guest)


def self_throw_open(state: State) -> bool:
    """Seat 0 defends, has beaten everything and may throw in to himself."""
    return (state.phase == BOUT and state.defender == 0 and UNKNOWN not in state.covers
            and not state.taking
            and any(a.kind == A.THROW for a in legal_actions(state, 0)))


def test_a_card_key_throws_in_to_oneself_and_p_passes() -> None:
    state = find_state(self_throw_open, preset="amerikansky", players=2)
    ui = TableUi()
    ui.update(snapshot_of(state, preset="amerikansky"))
    throws = [a for a in ui.snapshot.legal if a.kind == A.THROW]  # type: ignore[union-attr]
    card = throws[0].cards[0]
    position = ui.hand().index(card)
    assert ui.command(f"card:{position}") == Action(A.THROW, 0, (card,))
    assert ui.command("pass") == Action(A.PASS, 0)
    screen = plain(render_table_screen(ui, Look("en", False), 80, 24))
    assert "P pass" in screen


async def _press_and_see(ui: Ui, key: str) -> TableSnapshot:
    """Press a key and wait for the snapshot it brings."""
    table = ui.controller.table
    before = table.snapshot
    await ui.press(key)
    await ui.until(lambda: ui.settled() and table.snapshot is not before)
    after = table.snapshot
    assert after is not None
    return after


@guest
async def test_an_american_game_by_keys_throws_in_to_oneself() -> None:
    """A practice game of amerikansky played by the screen's keys; the defender's
    self-throw is offered as a playable card and played by its number key."""
    with trio.fail_after(120):
        async with running_ui(base=options(preset_id="amerikansky", players=2, seed=3),
                              autostart=True) as ui:
            self_thrown = 0
            for _ in range(600):
                await ui.until(lambda: ui.settled() and (choose_key(ui.screen()) is not None
                                                         or is_over(ui.screen())))
                screen = ui.screen()
                if is_over(screen):
                    break
                snap = ui.controller.table.snapshot
                assert snap is not None
                assert snap.state is not None
                key = choose_key(screen) or "p"
                if (snap.state.phase == BOUT and snap.state.defender == snap.my_seat
                        and any(a.kind == A.THROW for a in snap.legal)):
                    after = await _press_and_see(ui, key)
                    assert after.state is not None
                    if after.state.table_by[-1:] == (after.my_seat,) \
                            and after.state.defender == after.my_seat:
                        self_thrown += 1
                else:
                    await ui.press(key)
            assert is_over(ui.screen())
            assert self_thrown > 0
