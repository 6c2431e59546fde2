"""The pre-game variants' special actions (наборный's and круглый's choice of the face-up card
a drawn card takes, крестовый's pass-on and its piles), shown and played by key:
`TableUi.command` on engine situations, and a practice game on the real application over a
pipe."""

from __future__ import annotations

import pytest
import trio
from screen_strategy import choose_key, is_over
from table_states import find_state, snapshot_of
from ui_support import options, running_ui

from p2p_durak.cli.canvas import plain
from p2p_durak.cli.cardtext import CardText
from p2p_durak.cli.guest import run_guest
from p2p_durak.cli.i18n import Look
from p2p_durak.cli.table_ui import TableUi
from p2p_durak.cli.table_view import render_table_screen
from p2p_durak.engine import Action, State, legal_actions
from p2p_durak.engine import actions as A
from p2p_durak.engine.state import BOUT, CAPTURE, TURN_UP

guest = pytest.mark.trio(run=run_guest)


def my_capture(state: State) -> bool:
    return state.phase == CAPTURE and state.attacker == 0


def test_the_drawer_chooses_the_card_to_take_by_keys_or_a_click() -> None:
    state = find_state(my_capture, preset="naborny", players=2)
    ui = TableUi()
    ui.update(snapshot_of(state, preset="naborny"))
    legal = ui.snapshot.legal  # type: ignore[union-attr]
    assert {a.kind for a in legal} == {A.CAPTURE}
    targets = ui.open_targets()
    assert len(targets) == len(legal) >= 2
    assert ui.target == targets[0]
    ui.command("target_next")
    assert ui.target == targets[1]
    action = ui.command("play")
    assert action == Action(A.CAPTURE, 0, (state.table[targets[1]],))
    assert action in legal
    assert ui.command(f"target:{targets[0]}") == Action(A.CAPTURE, 0, (state.table[targets[0]],))
    drawn = CardText(state.game, "en", False)(state.covers[0])
    screen = plain(render_table_screen(ui, Look("en", False), 80, 24))
    assert f"Your {drawn} takes one face-up card" in screen
    assert "Enter take" in screen
    assert "turns a card" in screen
    for index in targets:
        assert f"[{CardText(state.game, 'en', False)(state.table[index]):>3}]" in screen
    ru = plain(render_table_screen(ui, Look("ru", True), 80, 24))
    assert "забирает одну открытую карту" in ru


@guest
async def test_a_naborny_game_by_keys_chooses_captures() -> None:
    """A practice game of naborny played by the screen's keys: the turned cards are shown on
    the table, a choice of capture is taken with Enter, and the game goes on to its end."""
    with trio.fail_after(120):
        async with running_ui(base=options(preset_id="naborny", players=2, seed=4),
                              autostart=True) as ui:
            chosen = turned_seen = 0
            for _ in range(800):
                await ui.until(lambda: ui.settled() and (choose_key(ui.screen()) is not None
                                                         or is_over(ui.screen())))
                screen = ui.screen()
                if is_over(screen):
                    break
                snap = ui.controller.table.snapshot
                assert snap is not None
                assert snap.state is not None
                if snap.state.phase in (TURN_UP, CAPTURE) and " turns " in screen:
                    turned_seen += 1
                key = choose_key(screen) or "p"
                if snap.state.phase == CAPTURE:
                    assert key == "\r"
                    chosen += 1
                await ui.press(key)
            assert is_over(ui.screen())
            assert turned_seen
            assert chosen, "no capture choice came up for this seat"


def chain_open(state: State) -> bool:
    """крестовый: seat 0 defends, and passing the card on is open to him."""
    return (state.phase == BOUT and state.defender == 0
            and any(a.kind == A.CHAIN for a in legal_actions(state, 0)))


def test_krestovy_passes_the_card_on_with_r_and_shows_the_piles() -> None:
    state = find_state(chain_open, preset="krestovy", players=4)
    ui = TableUi()
    ui.update(snapshot_of(state, preset="krestovy"))
    hand = ui.hand()
    action = ui.command("transfer")
    assert action == Action(A.CHAIN, 0, (hand[ui.cursor],))
    assert action in ui.snapshot.legal  # type: ignore[union-attr]
    screen = plain(render_table_screen(ui, Look("en", False), 80, 24))
    assert "pass one of yours on (R)" in screen
    assert "R pass on" in screen
    ru = plain(render_table_screen(ui, Look("ru", False), 80, 24))
    assert "R передать" in ru
    laying = find_state(lambda s: s.phase == TURN_UP and len(s.table) == 4, preset="krestovy",
                        players=4)
    ui.update(snapshot_of(laying, preset="krestovy"))
    screen = plain(render_table_screen(ui, Look("en", False), 80, 24))
    assert "(the piles lie by their players)" in screen
    for card in laying.table:
        assert CardText(laying.game, "en", False)(card) in screen
