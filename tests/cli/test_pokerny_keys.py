"""покерный on the screen: Space marks two cards, X swaps them with the stock's top two."""

from __future__ import annotations

from table_states import find_state, snapshot_of

from p2p_durak.cli.canvas import plain
from p2p_durak.cli.i18n import Look
from p2p_durak.cli.table_ui import TableUi
from p2p_durak.cli.table_view import render_table_screen
from p2p_durak.engine import Action, State, legal_actions
from p2p_durak.engine import actions as A
from p2p_durak.engine.state import BOUT

PRESET = "pokerny"


def _exchange_open(state: State) -> bool:
    return (state.phase == BOUT and state.defender == 0
            and any(a.kind == A.EXCHANGE for a in legal_actions(state, 0)))


def test_two_marked_cards_and_x_swap_them_with_the_stock() -> None:
    state = find_state(_exchange_open, preset=PRESET, players=2)
    ui = TableUi()
    ui.update(snapshot_of(state, preset=PRESET))
    screen = plain(render_table_screen(ui, Look("en", False), 90, 26))
    assert "X swap two" in screen
    assert "swap two marked cards" in screen
    assert "обмен" in plain(render_table_screen(ui, Look("ru", False), 90, 26))
    assert ui.command("exchange") is None  # nothing marked yet: a notice says what to do
    assert ui.notice is not None
    hand = ui.hand()
    ui.command("home")
    ui.command("mark")
    ui.command("right")
    ui.command("mark")
    expected = Action(A.EXCHANGE, 0, tuple(sorted(hand[:2])))
    assert expected in legal_actions(state, 0)
    assert ui.command("exchange") == expected
    assert not ui.marked
