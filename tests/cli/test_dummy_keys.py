"""Дурак с болваном on the screen: the player who controls the dummy sees its hand as a second
row (labelled, in both languages and in ASCII, on 80×24), E switches the keys to it — its card
numbers and Enter throw its cards in, P passes for it — and back; the seats list names the
dummy and who plays it; the help lists the key; a practice game is played by keys to its end
with the dummy's moves made by keys (docs/rules.md, s_bolvanom; seed 000_0a1bcdd496bc6662.txt,
«Дурак с болваном»: «а также болвану при его очереди»)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import pytest
import trio
from screen_strategy import CELL, choose_key, is_over
from table_states import find_state, snapshot_of
from ui_support import options, running_ui

from p2p_durak.cli.canvas import asciify, line_width, plain
from p2p_durak.cli.cardtext import CardText
from p2p_durak.cli.event_text import EventText
from p2p_durak.cli.guest import run_guest
from p2p_durak.cli.help_view import render_help
from p2p_durak.cli.i18n import Look, Messages
from p2p_durak.cli.lobby_ui import CreateForm
from p2p_durak.cli.table_ui import TableUi
from p2p_durak.cli.table_view import render_table_screen
from p2p_durak.engine import Action, State, legal_actions, private_view
from p2p_durak.engine import actions as A
from p2p_durak.engine import events as E
from p2p_durak.engine.cards import cards_of
from p2p_durak.engine.presets import get_preset
from p2p_durak.engine.seats import acting_party
from p2p_durak.node.api import TableSnapshot

guest = pytest.mark.trio(run=run_guest)
LOOKS = (Look("en", False), Look("ru", False), Look("ru", True))


def dummy_snapshot(full: State, me: int = 0) -> TableSnapshot:
    """What a practice session shows seat `me` at a dummy table: the dummy's seat marked, its
    moves among his while he controls it, the table waiting for people."""
    snap = snapshot_of(full, me, preset="s_bolvanom")
    dummy = full.game.dummy
    view = private_view(full, me)
    legal = snap.legal + (legal_actions(view, dummy) if full.controller == me else ())
    waiting = tuple(dict.fromkeys(acting_party(full, s) for s in snap.waiting_for))
    seats = tuple(replace(s, is_dummy=True, is_bot=False, name="the dummy")
                  if s.seat == dummy else s for s in snap.seats)
    return replace(snap, legal=legal, waiting_for=waiting, seats=seats)


def dummy_may_throw(controller_is_me: bool, also_me: bool = False) -> Callable[[State], bool]:
    def predicate(state: State) -> bool:
        dummy = state.game.dummy
        if dummy <= 0 or (state.controller == 0) != controller_is_me:
            return False
        throws = [a for a in legal_actions(state, dummy) if a.kind == A.THROW]
        return bool(throws) and (not also_me or bool(legal_actions(state, 0)))
    return predicate


def screens(ui: TableUi) -> list[str]:
    out = []
    for look in LOOKS:
        lines = render_table_screen(ui, look, 80, 24)
        if look.ascii_only:
            lines = asciify(lines)
        assert len(lines) == 24
        assert {line_width(line) for line in lines} == {80}
        out.append(plain(lines))
    return out


def test_the_controller_sees_the_dummy_hand_and_plays_it_by_keys() -> None:
    full = find_state(dummy_may_throw(True, also_me=True), preset="s_bolvanom", players=4)
    dummy = full.game.dummy
    ui = TableUi()
    ui.update(dummy_snapshot(full))
    assert not ui.dummy_focus  # he may move too: the keys stay on his own hand
    hand = ui.dummy_hand()
    assert set(hand) == set(cards_of(full.hands[dummy]))
    en, ru, ascii_ru = screens(ui)
    assert "Dummy (you play)" in en
    assert "The dummy's hand" in en
    assert "Болван (играете вы)" in ru
    assert "Карты болвана" in ru
    assert "Карты болвана" in ascii_ru  # (the Russian screen keeps its words in ASCII mode)
    assert "E dummy's hand" in en
    for card in hand:
        assert full.game.deck.card_text(card, "en") in en
    # E: the keys act on the dummy's hand; a number throws its card in, P passes for it
    assert ui.command("dummy") is None
    assert ui.dummy_focus
    en = screens(ui)[0]
    assert "The dummy's turn" in en
    assert "P it passes" in en
    playable = sorted(ui.dummy_playable())
    position = hand.index(playable[0])
    assert ui.command(f"card:{position}") == Action(A.THROW, dummy, (playable[0],))
    assert ui.command("pass") == Action(A.PASS, dummy)
    ui.command("home")
    for _ in range(position):
        ui.command("right")
    assert ui.command("play") == Action(A.THROW, dummy, (playable[0],))
    assert ui.command(f"card:{len(hand)}") is None  # no such card of the dummy's
    # a click on the dummy's card plays it too
    assert ui.command(f"dummy_card:{position}") == Action(A.THROW, dummy, (playable[0],))
    # E again: his own hand
    ui.command("dummy")
    assert not ui.dummy_focus
    assert ui.command("pass") == Action(A.PASS, 0)


def test_the_keys_go_to_the_dummy_when_only_it_may_move() -> None:
    def only_dummy(state: State) -> bool:
        return dummy_may_throw(True)(state) and not legal_actions(state, 0)

    full = find_state(only_dummy, preset="s_bolvanom", players=3)
    ui = TableUi()
    ui.update(dummy_snapshot(full))
    assert ui.dummy_focus
    en = screens(ui)[0]
    assert ui.my_turn()  # (for the dummy's move, which the table waits for or allows)
    assert "Your move" in en or "you may play now too" in en
    # the dummy's row carries the numbers; his own row none
    lines = en.split("\n")
    dummy_at = next(i for i, line in enumerate(lines) if line.startswith(" The dummy's hand"))
    assert any(ch.isdigit() for ch in lines[dummy_at + 1])
    own_at = next(i for i, line in enumerate(lines) if line.startswith(" Your hand"))
    assert not any(ch.isdigit() for ch in lines[own_at + 1])


def test_another_player_plays_the_dummy_and_it_is_named_as_no_player() -> None:
    full = find_state(dummy_may_throw(False), preset="s_bolvanom", players=4)
    ui = TableUi()
    snap = dummy_snapshot(full)
    ui.update(snap)
    assert ui.dummy_seat() == -1
    assert ui.dummy_hand() == []
    en, ru, _ = screens(ui)
    who = snap.seats[full.controller].name
    assert f"Dummy ({who} plays)" in en
    assert f"Болван (играет {who})" in ru
    assert "The dummy's hand" not in en
    assert "E dummy" not in en
    assert ui.command("dummy") is None
    assert ui.notice is not None
    assert "do not play the dummy" in ui.notice.en
    # the move log names it «болван» / "the dummy"
    dummy = full.game.dummy
    cards = CardText(full.game, "en", False)
    thrown = E.ThrewIn(dummy, 0)
    assert EventText(Messages("en"), cards, snap.seats, 0)(thrown) == (
        f"Dummy throws {cards(0)}")
    russian = EventText(Messages("ru"), CardText(full.game, "ru", False), snap.seats, 0)
    assert (russian(thrown) or "").startswith("Болван подкидывает")


def test_the_help_lists_the_dummy_key_for_its_rules_only() -> None:
    dummy = get_preset("s_bolvanom")
    for look in LOOKS[:2]:
        lines = render_help(dummy.id, dummy.rules, 3, look, 80, 24)
        assert len(lines) == 24
        assert {line_width(line) for line in lines} == {80}
        text = plain(lines)
        assert ("E             с болваном" if look.lang == "en" else "E (У)") in text
        assert ("Mouse" if look.lang == "en" else "Мышь") in text  # nothing cut off
    plain_rules = get_preset("app_podkidnoy")
    text = plain(render_help(plain_rules.id, plain_rules.rules, 3, LOOKS[0], 80, 24))
    assert "с болваном" not in text
    assert "Mouse" in text


def _dummy_key(screen: str) -> str | None:
    """The key for a throw-in of the dummy's when its row shows one: its number when the
    keys are on its row, else E to put them there."""
    lines = screen.split("\n")
    at = next((i for i, line in enumerate(lines)
               if line.startswith((" The dummy's hand", " Карты болвана"))), None)
    if at is None or at + 2 >= len(lines):
        return None
    labels, cards = lines[at + 1], lines[at + 2]
    column = cards.find("[")
    if column < 0:
        return None
    label = labels[column:column + CELL].strip()
    return label if label else "e"


@guest
async def test_a_dummy_game_by_keys_plays_the_dummy_to_the_end() -> None:
    """Two players and the dummy at a practice table; over a few seeds the person controls
    the dummy and throws its cards in by its keys."""
    thrown = 0
    with trio.fail_after(240):
        for seed in (1, 2, 3, 4):
            async with running_ui(base=options(preset_id="s_bolvanom", players=2, seed=seed),
                                  autostart=True) as ui:
                for _ in range(800):
                    await ui.until(lambda: ui.settled() and (
                        choose_key(ui.screen()) is not None or is_over(ui.screen())))
                    screen = ui.screen()
                    if is_over(screen):
                        break
                    key = _dummy_key(screen) or choose_key(screen) or "p"
                    if key == "e":
                        await ui.press(key)
                        continue
                    snap = ui.controller.table.snapshot
                    assert snap is not None
                    assert snap.state is not None
                    dummy_turn = ui.controller.table.dummy_focus and key.isdigit()
                    after = await ui.press_and_see(key)
                    thrown += dummy_turn and after.state is not None and any(
                        isinstance(line.event, E.ThrewIn)
                        and line.event.seat == snap.state.game.dummy for line in after.log)
                assert is_over(ui.screen())
    assert thrown > 0


def test_the_new_table_form_counts_people_and_the_dummy_comes_on_top() -> None:
    """The form's «Players» are people: a dummy table of three seats three players and the
    dummy (`Preset.people`: 2–4 with 36 cards)."""
    form = CreateForm()
    form.select_preset("s_bolvanom")
    assert form.players in (2, 3, 4)
    chosen = form.options(options())
    practice = chosen.practice_setup()
    assert practice.n_players == chosen.players + 1
    assert len(practice.names) == chosen.players
    form.players = 5
    assert form.check(options()) is not None  # five players and the dummy do not fit


def test_the_end_panel_lists_players_only() -> None:
    full = find_state(lambda s: s.result is not None, preset="s_bolvanom", players=4)
    snap = replace(dummy_snapshot(full), activity="over", duraks=(0, 0, 0, 0))
    ui = TableUi()
    ui.update(snap)
    for look, name in zip(LOOKS, ("the dummy", "болван", "болван"), strict=True):
        lines = render_table_screen(ui, look, 80, 24)
        if look.ascii_only:
            lines = asciify(lines)
        text = plain(lines[1:])  # (the header names the preset: «Дурак с болваном»)
        assert "Game over" in text or "Партия окончена" in text
        assert name not in text  # not in the series table, not a durak or a finisher
        assert "Dummy (" not in text
        assert "Болван (" not in text
