"""The real application in-process (guest mode, pipe input, dummy output), driven by keys."""

from __future__ import annotations

import pytest
import trio
from screen_strategy import choose_key, is_over
from ui_support import options, running_ui

from p2p_durak.cli.guest import run_guest
from p2p_durak.cli.i18n import Look
from p2p_durak.cli.table_ui import DIGIT_KEYS, SHIFT_DIGIT_KEYS

# On each test, not the module: trio mode's own mark would come first otherwise.
guest = pytest.mark.trio(run=run_guest)

MAX_KEYS = 400


async def play_to_the_end(ui) -> int:  # type: ignore[no-untyped-def]
    """Press what the screen strategy says until the end-of-game screen; keys pressed."""
    pressed = 0
    while True:
        await ui.until(lambda: ui.settled() and (choose_key(ui.screen()) is not None
                                                 or is_over(ui.screen())))
        screen = ui.screen()
        if is_over(screen):
            return pressed
        key = choose_key(screen)
        assert key is not None
        await ui.press(key)
        pressed += 1
        assert pressed < MAX_KEYS, screen


@guest
async def test_a_whole_practice_game_is_played_by_keys() -> None:
    with trio.fail_after(60):
        async with running_ui(autostart=True) as ui:
            pressed = await play_to_the_end(ui)
            screen = ui.screen()
            assert pressed > 5
            assert "Game over" in screen
            assert "Series after game 1" in screen
            assert "N — play again" in screen
            snapshot = ui.controller.table.snapshot
            assert snapshot is not None
            assert snapshot.state is not None
            assert snapshot.state.result is not None

            await ui.press("n")  # the next game of the series
            await ui.until(lambda: "Game over" not in ui.screen())
            assert "game 2" in ui.screen()

            await ui.press("\x03")  # Ctrl-C leaves the table and quits
            await ui.exited.wait()
            assert ui.controller.session is None


@guest
async def test_a_game_in_russian_and_ascii() -> None:
    base = options(players=2, seed=11, player_name="Тестер", bot_names=("Аня",))
    with trio.fail_after(60):
        async with running_ui(Look("ru", True), base, autostart=True) as ui:
            await play_to_the_end(ui)
            screen = ui.screen()
            assert "Партия окончена" in screen
            assert not any(symbol in screen for symbol in "♠♣♦♥")
            await ui.press("q")  # over: Q goes back to the lobby at once
            await ui.until(lambda: ui.controller.screen == "lobby")
            assert "Дурак - столы в сети" in ui.screen()  # ASCII dashes too


@guest
async def test_a_refused_key_shows_the_reason_and_changes_nothing() -> None:
    with trio.fail_after(60):
        async with running_ui(autostart=True) as ui:
            def stuck() -> bool:
                """My move, with a card in hand that no legal action plays."""
                table = ui.controller.table
                return (ui.settled() and table.my_turn()
                        and any(c not in table.playable() for c in table.hand()))

            while True:
                await ui.until(lambda: stuck() or (ui.settled() and choose_key(ui.screen())
                                                   is not None))
                if stuck():
                    break
                await ui.press(choose_key(ui.screen()) or "p")
            table = ui.controller.table
            before = table.snapshot
            position = next(i for i, c in enumerate(table.hand()) if c not in table.playable())
            await ui.press((DIGIT_KEYS + SHIFT_DIGIT_KEYS)[position])
            await ui.until(lambda: ui.settled() and table.notice is not None)
            assert "Not allowed: " in ui.screen()
            assert table.snapshot is before
            session = ui.controller.session
            assert session is not None
            assert session.snapshots.statistics().current_buffer_used == 0


@guest
async def test_a_click_on_a_playable_card_plays_it() -> None:
    with trio.fail_after(60):
        async with running_ui(autostart=True) as ui:
            await ui.until(lambda: ui.settled() and ui.controller.table.waited_for()
                           and bool(ui.controller.table.playable()))
            await ui.rendered()
            screen = ui.screen(80, 40)  # the size of prompt-toolkit's dummy output
            row = next(i for i, line in enumerate(screen.split("\n"))
                       if "[" in line and line.startswith(" ") and "]" in line)
            column = screen.split("\n")[row].index("[") + 1
            before = ui.controller.table.snapshot
            assert before is not None
            ui.pipe.send_text(f"\x1b[<0;{column + 1};{row + 1}M\x1b[<0;{column + 1};{row + 1}m")
            await ui.until(lambda: ui.settled() and ui.controller.table.snapshot is not before)
            after = ui.controller.table.snapshot
            assert after is not None
            assert len(after.log) > len(before.log)
            assert ui.controller.table.notice is None
