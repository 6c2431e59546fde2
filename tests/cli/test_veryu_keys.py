"""верю не верю on the screen: a card key covers face down, V says «сомневаюсь», the table
shows face-down covers as card backs (the author sees his own card in brackets)."""

from __future__ import annotations

import pytest
import trio
from screen_strategy import choose_key, is_over
from table_states import find_state, snapshot_of
from ui_support import options, running_ui

from p2p_durak.cli.canvas import Line, plain
from p2p_durak.cli.cardtext import CardText
from p2p_durak.cli.guest import run_guest
from p2p_durak.cli.i18n import Look
from p2p_durak.cli.table_ui import TableUi
from p2p_durak.cli.table_view import render_table_screen
from p2p_durak.engine import UNKNOWN, Action, State, legal_actions
from p2p_durak.engine import actions as A
from p2p_durak.engine.state import BOUT

PRESET = "veryu_ne_veryu"
guest = pytest.mark.trio(run=run_guest)


def _ui(state: State, me: int) -> TableUi:
    ui = TableUi()
    ui.update(snapshot_of(state, me, preset=PRESET))
    return ui


def test_a_card_key_covers_face_down_and_the_author_sees_it() -> None:
    state = find_state(lambda s: s.phase == BOUT and s.defender == 0 and 0 in s.actors
                       and UNKNOWN in s.covers and not s.taking, preset=PRESET, players=2)
    ui = _ui(state, 0)
    card = ui.hand()[0]
    target = state.covers.index(UNKNOWN)
    assert ui.command("card:0") == Action(A.COVER, 0, (card,), target)  # any card: a bluff too
    for look, prompt in ((Look("en", False), "Defend face down"),
                         (Look("ru", False), "Отбивайтесь в закрытую")):
        assert prompt in plain(render(ui, look))


def _doubt_open(state: State) -> bool:
    return (state.phase == BOUT and state.defender != 0 and 0 in state.actors
            and any(a.kind == A.CHALLENGE for a in legal_actions(state, 0)))


def test_v_doubts_the_latest_face_down_card_shown_as_a_card_back() -> None:
    state = find_state(_doubt_open, preset=PRESET, players=3)
    ui = _ui(state, 0)
    covered = [i for i, c in enumerate(state.covers) if c != UNKNOWN]
    assert ui.command("doubt") == Action(A.CHALLENGE, 0, (), covered[-1])
    screen = plain(render(ui, Look("en", False)))
    assert "V I doubt it" in screen
    assert "▒▒▒" in screen  # card unknown to seat 0
    assert "сомневаюсь" in plain(render(ui, Look("ru", False)))
    author = _ui(state, state.defender)
    cover = state.covers[covered[-1]]
    assert f"[{author_card(author, cover):>3}]" in plain(render(author, Look("en", False)))


def author_card(ui: TableUi, card: int) -> str:
    assert ui.state is not None
    return CardText(ui.state.game, "en", False)(card)


def render(ui: TableUi, look: Look) -> list[Line]:
    return render_table_screen(ui, look, 90, 26)


@guest
async def test_a_game_by_keys_with_doubts_ends() -> None:
    """A practice game against bots played by keys; the player says «сомневаюсь» (V) whenever
    the key line offers it, and the game still ends."""
    with trio.fail_after(120):
        async with running_ui(base=options(preset_id=PRESET, players=2, seed=5),
                              autostart=True) as ui:
            doubts = 0
            for _ in range(800):
                await ui.until(lambda: ui.settled() and (choose_key(ui.screen()) is not None
                                                         or is_over(ui.screen())))
                screen = ui.screen()
                if is_over(screen):
                    break
                keys_line = screen.rstrip("\n").split("\n")[-1]
                if "V I doubt it" in keys_line:
                    doubts += 1
                    await ui.press("v")
                else:
                    await ui.press(choose_key(screen) or "p")
            assert is_over(ui.screen())
            assert doubts > 0
