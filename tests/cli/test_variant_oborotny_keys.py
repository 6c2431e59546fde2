"""Дурак оборотный on the screen: the player's own hand is shown face down by position, the
other hands face up; a number key picks the card at that position for the play open to him
(lead, beat the chosen attack card, throw in), and a practice game is played to its end by
keys on a pipe."""

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
from p2p_durak.engine import UNKNOWN, Action, State
from p2p_durak.engine import actions as A
from p2p_durak.engine.state import BOUT, LEAD

guest = pytest.mark.trio(run=run_guest)


def defending(state: State) -> bool:
    return state.phase == BOUT and state.defender == 0 and not state.taking \
        and UNKNOWN in state.covers


def test_his_hand_is_face_down_by_position_and_the_others_face_up() -> None:
    state = find_state(defending, preset="oborotny", players=3)
    ui = TableUi()
    ui.update(snapshot_of(state, preset="oborotny"))
    size = state.hand_size(0)
    assert ui.hand() == [A.BLIND_BASE + p for p in range(size)]
    for look in (Look("en", False), Look("ru", False), Look("ru", True)):
        screen = plain(render_table_screen(ui, look, 80, 24))
        assert screen.count("##" if look.ascii_only else "▒▒") >= size
        # every other seat's cards are on his screen, his own nowhere
        for seat in (1, 2):
            for card in range(state.game.n_cards):
                if (state.hands[seat] >> card) & 1:
                    text = CardText(state.game, look.lang, look.ascii_only)(card)
                    assert text in screen
    # a number key beats the chosen attack card with the card at that position
    target = ui.target
    assert target is not None
    assert ui.command("card:1") == Action(A.BEAT, 0, (A.BLIND_BASE + 1,), target)
    assert ui.command("take") == Action(A.TAKE, 0)


def test_a_number_key_leads_the_card_at_its_position() -> None:
    state = find_state(lambda s: s.phase == LEAD and s.attacker == 0, preset="oborotny",
                       players=2)
    ui = TableUi()
    ui.update(snapshot_of(state, preset="oborotny"))
    assert ui.command("card:0") == Action(A.LEAD, 0, (A.BLIND_BASE,))


@guest
async def test_a_backwards_game_by_keys_plays_blind_picks_to_the_end() -> None:
    with trio.fail_after(120):
        async with running_ui(base=options(preset_id="oborotny", players=2, seed=5),
                              autostart=True) as ui:
            picks = 0
            for _ in range(600):
                await ui.until(lambda: ui.settled() and (choose_key(ui.screen()) is not None
                                                         or is_over(ui.screen())))
                screen = ui.screen()
                if is_over(screen):
                    break
                snap = ui.controller.table.snapshot
                assert snap is not None
                key = choose_key(screen) or "p"
                picks += key.isdigit() and any(A.pick_position(a) >= 0 for a in snap.legal)
                await ui.press(key)
            assert is_over(ui.screen())
            assert picks > 3
