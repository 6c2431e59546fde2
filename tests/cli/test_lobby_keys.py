"""Every lobby key and click through the real application: trio in guest mode on
prompt-toolkit's asyncio loop, keys typed into a pipe, a dummy terminal."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import pytest
import trio
from ui_support import Ui, running_ui

from p2p_durak.cli.backend import LobbyError, LocalLobbyBackend
from p2p_durak.cli.guest import run_guest
from p2p_durak.node.api import Session
from p2p_durak.node.discovery import FakeDiscoveryNetwork
from p2p_durak.node.tableinfo import TableAd, TableSeen, new_table_id
from p2p_durak.protocol.identity import Identity

guest = pytest.mark.trio(run=run_guest)
FINGERPRINT = Identity.from_seed(bytes(32)).fingerprint
DUMMY_SIZE = (80, 40)  # what prompt-toolkit's DummyOutput reports
UP, DOWN = "\x1b[A", "\x1b[B"  # what a terminal sends for the arrow keys


async def press(ui: Ui, *keys: str) -> None:
    """Type keys, each one key however many bytes it takes, and wait until each is handled."""
    target = ui.controller.intents_handled + len(keys)
    ui.pipe.send_text("".join(keys))
    await ui.until(lambda: ui.controller.intents_handled >= target)


class RecordingBackend(LocalLobbyBackend):
    """Practice as usual; a join is recorded (and refused, so the lobby stays in view)."""

    def __init__(self, nursery: trio.Nursery,
                 tables: trio.MemoryReceiveChannel[object]) -> None:
        super().__init__(nursery, tables)  # type: ignore[arg-type]
        self.joined: list[str] = []

    async def join(self, table: TableSeen) -> Session:
        await trio.lowlevel.checkpoint()
        self.joined.append(table.table.name)
        raise LobbyError(f"joined {table.table.name}", f"вход за {table.table.name}")


def ad(name: str) -> TableAd:
    return TableAd(new_table_id(), name, "app_podkidnoy", "ab" * 32, 1, 2, FINGERPRINT, 4000, 1)


@asynccontextmanager
async def lobby_with_two_tables() -> AsyncIterator[tuple[Ui, RecordingBackend]]:
    net = FakeDiscoveryNetwork()
    async with (net.open_discovery() as host, net.open_discovery() as mine,
                trio.open_nursery() as nursery):
        backend = RecordingBackend(nursery, mine.events)  # type: ignore[arg-type]
        async with running_ui(backend=backend) as ui:
            await host.advertise(ad("Kitchen"))
            await host.advertise(ad("Office"))
            await ui.until(lambda: "Office" in ui.screen())
            yield ui, backend
        nursery.cancel_scope.cancel()


@guest
async def test_arrows_and_enter_join_the_chosen_table() -> None:
    with trio.fail_after(30):
        async with lobby_with_two_tables() as (ui, backend):
            await press(ui, DOWN)
            assert ui.controller.lobby.cursor == 1
            await ui.press("\r")
            assert backend.joined == ["Office"]
            assert "joined Office" in ui.screen()
            await press(ui, UP, "\r")
            assert backend.joined == ["Office", "Kitchen"]


@guest
async def test_a_click_on_a_row_joins_that_table() -> None:
    with trio.fail_after(30):
        async with lobby_with_two_tables() as (ui, backend):
            # twice: a render begun before the rows came may be the first one counted
            await ui.rendered()
            await ui.rendered()
            lines = ui.screen(*DUMMY_SIZE).split("\n")
            row = next(i for i, line in enumerate(lines) if line[3:].startswith("Office"))
            ui.pipe.send_text(f"\x1b[<0;10;{row + 1}M\x1b[<0;10;{row + 1}m")
            await ui.until(lambda: backend.joined == ["Office"])
            assert ui.controller.lobby.cursor == 1


@guest
async def test_create_help_language_and_back_by_keys_of_either_layout() -> None:
    with trio.fail_after(30):
        async with lobby_with_two_tables() as (ui, _):
            await ui.press("c")
            assert ui.controller.screen == "create"
            await ui.press("\x1b")  # Esc: back to the lobby
            assert ui.controller.screen == "lobby"
            await ui.press("с")  # the same key on a Russian layout
            assert ui.controller.screen == "create"
            await ui.press("\x1b")
            await ui.press("\x1b")  # one Esc too many does not quit the game
            assert not ui.exited.is_set()
            assert ui.controller.screen == "lobby"
            await ui.press("?")
            help_screen = ui.screen()
            assert "choose a table" in help_screen
            assert "none listed: play against bots" in help_screen
            assert "waiting room: bots take the free seats" in help_screen
            await ui.press("?")
            await ui.press("l")
            assert "Дурак — столы в сети" in ui.screen()
            await ui.press("д")  # L on a Russian layout
            assert "tables on the network" in ui.screen()


@guest
async def test_p_plays_alone_against_bots_at_once_and_q_quits() -> None:
    with trio.fail_after(30):
        async with lobby_with_two_tables() as (ui, _):
            await ui.press("з")  # P on a Russian layout
            await ui.until(lambda: ui.controller.table.snapshot is not None
                           and ui.controller.table.snapshot.state is not None)
            snap = ui.controller.table.snapshot
            assert snap is not None
            assert [seat.is_bot for seat in snap.seats] == [False, True, True]
            await ui.press("qq")  # leave the table (twice: a game is on)
            assert ui.controller.screen == "lobby"
            ui.pipe.send_text("q")
            await ui.exited.wait()


@guest
async def test_enter_in_an_empty_lobby_plays_against_bots_at_once() -> None:
    """What a first `durak` on a quiet network does with the most natural key."""
    with trio.fail_after(30):
        async with running_ui() as ui:
            assert "Play against bots now (Enter)" in ui.screen()
            # the name this player sits down with, and how to change it
            assert "You play as Tester (another name: durak --name NAME)" in ui.screen()
            await ui.press("\r")
            await ui.until(lambda: ui.controller.table.snapshot is not None
                           and ui.controller.table.snapshot.state is not None)
            snap = ui.controller.table.snapshot
            assert snap is not None
            assert [seat.is_bot for seat in snap.seats] == [False, True, True]


@guest
async def test_clicks_in_the_form_change_a_value_and_start() -> None:
    """A click on an option's value changes it (as →); on a button, it starts (as Enter)."""
    with trio.fail_after(30):
        async with running_ui() as ui:
            await ui.press("c")

            async def click(text: str, column: int | None = None) -> None:
                await ui.rendered()
                await ui.rendered()  # (see the row click above)
                lines = ui.screen(*DUMMY_SIZE).split("\n")
                row = next(i for i, line in enumerate(lines) if text in line)
                at = lines[row].index(text) + 2 if column is None else column
                handled = ui.controller.intents_handled + 1
                ui.pipe.send_text(f"\x1b[<0;{at + 1};{row + 1}M\x1b[<0;{at + 1};{row + 1}m")
                await ui.until(lambda: ui.controller.intents_handled >= handled)

            assert not ui.controller.form.transfer
            await click("Transfer (перевод)", column=30)  # on its value
            assert ui.controller.form.transfer
            await click("Play with bots")
            await ui.until(lambda: ui.controller.table.snapshot is not None
                           and ui.controller.table.snapshot.state is not None)
            snap = ui.controller.table.snapshot
            assert snap is not None
            assert snap.rules.transfer
