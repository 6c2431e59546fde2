"""армянский in the UI: K leads the top stock card unseen, the prompt and the key line say so,
and the move log names the card once it is turned (a real practice game on a pipe)."""

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
from p2p_durak.engine import Action, State, legal_actions
from p2p_durak.engine import actions as A
from p2p_durak.engine.state import BOUT

guest = pytest.mark.trio(run=run_guest)


def stock_lead_open(state: State) -> bool:
    return any(a.kind == A.LEAD_STOCK for a in legal_actions(state, 0))


@pytest.mark.parametrize(("lang", "hint", "prompt"), [
    ("en", "K lead from stock", "K leads the top stock card unseen"),
    ("ru", "K ход с колоды", "K — ход верхней картой колоды")])
def test_k_leads_from_the_stock_and_the_screen_says_so(lang: str, hint: str,
                                                      prompt: str) -> None:
    state = find_state(stock_lead_open, preset="armyansky_1", players=2)
    ui = TableUi()
    ui.update(snapshot_of(state, preset="armyansky_1"))
    assert ui.command("lead_stock") == Action(A.LEAD_STOCK, 0)
    screen = plain(render_table_screen(ui, Look(lang, False), 100, 30))
    assert hint in screen
    assert prompt in screen


@guest
async def test_an_armenian_game_by_keys_leads_from_the_stock() -> None:
    """A practice game played by the screen's keys, pressing K whenever it is offered: the
    card from the stock lands on the table and the move log shows it."""
    with trio.fail_after(120):
        async with running_ui(base=options(preset_id="armyansky_1", players=2, seed=4),
                              autostart=True) as ui:
            blind = 0
            for _ in range(600):
                await ui.until(lambda: ui.settled() and (choose_key(ui.screen()) is not None
                                                         or is_over(ui.screen())))
                screen = ui.screen(100, 30)
                if is_over(screen):
                    break
                snap = ui.controller.table.snapshot
                assert snap is not None
                if any(a.kind == A.LEAD_STOCK for a in snap.legal):
                    assert "K lead from stock" in screen
                    after = await ui.press_and_see("k")
                    await ui.until(lambda: ui.settled() and _phase(ui) == BOUT)
                    assert after.notice is None
                    blind += 1
                    assert "from the stock" in ui.screen(100, 30)
                    continue
                await ui.press_and_see(choose_key(screen) or "p")
            assert blind >= 1
            assert is_over(ui.screen())


def _phase(ui: Ui) -> int:
    snap = ui.controller.table.snapshot
    return -1 if snap is None or snap.state is None else snap.state.phase
