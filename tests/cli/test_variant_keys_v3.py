"""Special actions of this batch's variants, shown and played by key: the real application on a
pipe (as tests/cli/test_app_game.py) and `TableUi.command` on engine situations."""

from __future__ import annotations

import pytest
import trio
from screen_strategy import choose_key, is_over
from table_states import find_state, snapshot_of
from ui_support import options, running_ui

from p2p_durak.cli.canvas import plain
from p2p_durak.cli.guest import run_guest
from p2p_durak.cli.i18n import Look
from p2p_durak.cli.table_ui import TableUi
from p2p_durak.cli.table_view import render_table_screen
from p2p_durak.engine import UNKNOWN, Action, State, legal_actions
from p2p_durak.engine import actions as A
from p2p_durak.engine.state import BOUT, CLAIM

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
                    after = await ui.press_and_see(key)
                    assert after.state is not None
                    if after.state.table_by[-1:] == (after.my_seat,) \
                            and after.state.defender == after.my_seat:
                        self_thrown += 1
                else:
                    await ui.press(key)
            assert is_over(ui.screen())
            assert self_thrown > 0


def test_the_end_panel_shows_a_scored_games_winner_and_scores() -> None:
    state = find_state(lambda s: s.result is not None and bool(s.result.winners),
                       preset="figurny", players=3)
    assert state.result is not None
    ui = TableUi()
    ui.update(snapshot_of(state, preset="figurny", extra={"scores": "1,2,3"}))
    for look, words in ((Look("en", False), ("Winner:", "Figures beaten:", "points")),
                        (Look("ru", False), ("Победитель:", "Отбито фигур:", "очков"))):
        screen = plain(render_table_screen(ui, look, 80, 30))
        for word in words:
            assert word in screen, screen


@guest
async def test_a_scored_game_by_keys_ends_with_its_scores() -> None:
    """A practice game of ochkovy played by keys: the seats show their running scores and the
    end-of-game screen the cards each beat and the series' points."""
    with trio.fail_after(120):
        async with running_ui(base=options(preset_id="ochkovy", players=3, seed=4),
                              autostart=True) as ui:
            for _ in range(600):
                await ui.until(lambda: ui.settled() and (choose_key(ui.screen()) is not None
                                                         or is_over(ui.screen())))
                screen = ui.screen()
                if is_over(screen):
                    break
                assert "score " in screen
                await ui.press(choose_key(screen) or "p")
            screen = ui.screen(80, 30)
            assert "Cards beaten:" in screen
            assert "points" in screen
            snap = ui.controller.table.snapshot
            assert snap is not None
            assert snap.state is not None
            assert snap.state.result is not None
            assert sum(snap.state.result.scores) > 0


def test_marked_cards_and_enter_throw_a_pair_in_at_once() -> None:
    """погонный: Space marks two cards of a rank, Enter throws them in together."""
    def pair_throw(state: State) -> bool:
        return (state.phase == BOUT and state.defender != 0 and 0 in state.actors
                and any(a.kind == A.THROW and len(a.cards) == 2
                        for a in legal_actions(state, 0)))

    state = find_state(pair_throw, preset="pogonny", players=3)
    ui = TableUi()
    ui.update(snapshot_of(state, preset="pogonny"))
    legal = ui.snapshot.legal  # type: ignore[union-attr]
    pair = next(a for a in legal if a.kind == A.THROW and len(a.cards) == 2)
    hand = ui.hand()
    for card in pair.cards:
        ui.command("home")
        for _ in range(hand.index(card)):
            ui.command("right")
        ui.command("mark")
    screen = plain(render_table_screen(ui, Look("en", False), 80, 24))
    assert "Space mark pair" in screen
    action = ui.command("play")
    assert action == pair
    # a single card key still throws that card alone
    assert ui.command(f"card:{hand.index(pair.cards[0])}") == Action(A.THROW, 0,
                                                                    (pair.cards[0],))


def test_the_king_names_the_trump_by_pressing_a_card() -> None:
    """Король-говно: the King's prompt, the card keys naming their suit, titles instead of
    names."""
    from p2p_durak.engine import make_game, new_game, step
    from p2p_durak.engine.presets import get_preset

    game = make_game(get_preset("app_korol_govno").rules, 3, 1, 1, 1, (0, 6, 1))
    state = step(new_game(game, list(range(game.n_cards))), Action(A.DEAL, -1))
    ui = TableUi()
    ui.update(snapshot_of(state, preset="app_korol_govno"))
    hand = ui.hand()
    assert ui.playable() == set(hand)
    action = ui.command("card:2")
    assert action == Action(A.NAME_TRUMP, 0, (), game.suit[hand[2]])
    assert action in ui.snapshot.legal  # type: ignore[union-attr]
    screen = plain(render_table_screen(ui, Look("en", False), 80, 24))
    assert "You are the King: name the trump" in screen
    assert "King (you)" in screen
    assert "Shit" in screen
    assert "Anna" not in screen  # «только по званиям»
    ru = plain(render_table_screen(ui, Look("ru", False), 80, 24))
    assert "Вы Король: назначьте козырь" in ru
    assert "Говно" in ru


@guest
async def test_a_korol_govno_series_by_keys_gives_titles() -> None:
    """Two games of Король-говно at a practice table by keys: the first ends with the titles
    for the next, the second is played under them (its seats shown by title)."""
    with trio.fail_after(240):
        async with running_ui(base=options(preset_id="app_korol_govno", players=3, seed=6),
                              autostart=True) as ui:
            for game in (1, 2):
                await ui.play_to_the_end()
                screen = ui.screen(80, 34)
                assert "Titles for the next game:" in screen, screen
                snap = ui.controller.table.snapshot
                assert snap is not None
                assert snap.state is not None
                if game == 2:
                    assert snap.state.game.titles
                    assert snap.state.trump_card < 0  # named, not turned
                    break
                await ui.press("n")
                await ui.until(lambda: "Game over" not in ui.screen())
                assert "King" in ui.screen()


def proezdnoy_open(state: State) -> bool:
    """Seat 0 defends and may show a проездной (щелковский)."""
    return (state.phase == BOUT and state.defender == 0 and not state.taking
            and any(a.kind == A.SHOW for a in legal_actions(state, 0)))


@pytest.mark.parametrize(("lang", "hint"), [("en", "S проездной: show trump, cards go back"),
                                            ("ru", "S проездной: показать козырь, карты назад")])
def test_s_shows_a_proezdnoy_and_the_hint_says_the_cards_go_back(lang: str, hint: str) -> None:
    state = find_state(proezdnoy_open, preset="shchelkovsky", players=3)
    ui = TableUi()
    ui.update(snapshot_of(state, preset="shchelkovsky"))
    shows = [a for a in ui.snapshot.legal if a.kind == A.SHOW]  # type: ignore[union-attr]
    ui.cursor_card = shows[0].cards[0]
    ui.cursor = ui.hand().index(shows[0].cards[0])
    assert ui.command("show") == shows[0]
    screen = plain(render_table_screen(ui, Look(lang, False), 120, 30))
    assert hint in screen


def tie_break_claim_open(state: State) -> bool:
    """Seat 0 claims in a tie-break round (щелковский: the lowest trumps were equal)."""
    return (state.phase == CLAIM and len(state.claims) >= state.game.n_players
            and 0 in state.actors)


@pytest.mark.parametrize(("lang", "prompt"), [("en", "Equal lowest trumps"),
                                              ("ru", "Младшие козыри равны")])
def test_a_tie_break_round_says_to_show_the_next_trump(lang: str, prompt: str) -> None:
    state = find_state(tie_break_claim_open, preset="shchelkovsky", players=2,
                       seeds=range(400))
    ui = TableUi()
    ui.update(snapshot_of(state, preset="shchelkovsky"))
    screen = plain(render_table_screen(ui, Look(lang, False), 120, 30))
    assert prompt in screen
    legal = ui.snapshot.legal  # type: ignore[union-attr]
    if legal[0].kind == A.CLAIM:
        assert ui.command("show") == legal[0]
    else:
        assert ui.command("pass") == legal[0]
