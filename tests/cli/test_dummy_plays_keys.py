"""Дурак с болваном with the table option `can_attack_defend` on the screen (seed
000_0a1bcdd496bc6662.txt, «Дурак с болваном»: «Болван не имеет права ходить и отбиваться, но
возможен вариант игры, когда по согласованию между игроками болван имеет право это делать»):
on the dummy's hand row (E) its controller leads with the dummy's cards, beats with them and
takes for it; the prompt and the key line say so, on 80×24 in both languages; the new-table
form offers the option."""

from __future__ import annotations

from table_states import find_state
from test_dummy_keys import dummy_snapshot, screens

from p2p_durak.cli.table_ui import TableUi
from p2p_durak.engine import Action, State, legal_actions
from p2p_durak.engine import actions as A
from p2p_durak.engine.cards import cards_of
from p2p_durak.engine.presets import get_preset, table_choices
from p2p_durak.engine.rules import DUMMY_PLAYS_GAME_FIRST_ATTACKER
from p2p_durak.engine.state import BOUT, LEAD

RULES = get_preset("s_bolvanom").rules.with_options(dummy_hand=DUMMY_PLAYS_GAME_FIRST_ATTACKER)


def test_the_controller_leads_with_the_dummys_cards() -> None:
    def dummy_leads(state: State) -> bool:
        return (state.phase == LEAD and state.attacker == state.game.dummy
                and state.controller == 0)

    full = find_state(dummy_leads, rules=RULES, players=3)
    dummy = full.game.dummy
    ui = TableUi()
    ui.update(dummy_snapshot(full))
    assert ui.dummy_focus  # only the dummy may move: the keys are on its hand
    en, ru, _ = screens(ui)
    assert "The dummy leads" in en
    assert "Ход болвана" in ru
    hand = ui.dummy_hand()
    assert set(hand) == set(cards_of(full.hands[dummy]))
    action = ui.command("card:0")
    assert action == Action(A.LEAD, dummy, (hand[0],))
    assert action in legal_actions(full, dummy)
    ui.command("right")
    assert ui.command("play") == Action(A.LEAD, dummy, (hand[1],))


def test_the_controller_beats_and_takes_for_the_dummy() -> None:
    def dummy_defends(state: State) -> bool:
        return (state.phase == BOUT and state.defender == state.game.dummy
                and state.controller == 0
                and any(a.kind == A.BEAT for a in legal_actions(state, state.defender)))

    full = find_state(dummy_defends, rules=RULES, players=3)
    dummy = full.game.dummy
    ui = TableUi()
    ui.update(dummy_snapshot(full))
    if not ui.dummy_focus:  # he may throw in too: E puts the keys on the dummy's hand
        ui.command("dummy")
    assert ui.dummy_focus
    en, ru, _ = screens(ui)
    assert "The dummy defends" in en
    assert "T take" in en
    assert "Болван отбивается" in ru
    beats = [a for a in legal_actions(full, dummy) if a.kind == A.BEAT]
    hand = ui.dummy_hand()
    position = hand.index(beats[0].cards[0])
    assert ui.command(f"card:{position}") in beats
    ui.command("home")
    for _ in range(position):
        ui.command("right")
    beat = ui.command("beat")
    assert beat is not None
    assert (beat.kind, beat.seat, beat.cards) == (A.BEAT, dummy, beats[0].cards)
    assert ui.command("take") == Action(A.TAKE, dummy)
    assert ui.command("dummy") is None  # E again: his own hand
    assert ui.command("take") == Action(A.TAKE, 0)


def test_the_new_table_form_offers_the_option() -> None:
    changes = [dict(c.changes).get("dummy_hand") for c in table_choices("s_bolvanom")]
    assert DUMMY_PLAYS_GAME_FIRST_ATTACKER in changes
