"""The lobby as `durak` runs it: `NetworkLobbyBackend` (real nodes on 127.0.0.1, the
mental-poker deck) under two controllers, one per player, whose discovery is a shared
`FakeDiscoveryNetwork`. A table made with the new-table form appears in the other lobby,
its seats change live, the other player joins from the list, and the game that starts plays
the form's rules; leaving a waiting room frees the seat or withdraws the table."""

from __future__ import annotations

import math
import re
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path

import trio
from screen_strategy import choose_key, is_over

from p2p_durak.cli.backend import TableOptions
from p2p_durak.cli.canvas import plain
from p2p_durak.cli.controller import Controller
from p2p_durak.cli.i18n import Look
from p2p_durak.cli.lobby_ui import FIELDS
from p2p_durak.cli.lobby_view import render_lobby
from p2p_durak.cli.net_backend import NetworkLobbyBackend
from p2p_durak.node.discovery import FakeDiscoveryNetwork
from p2p_durak.protocol.messages import TimeoutPolicy

TERMINAL_KEYS = {"\r": "enter"}  # the screen strategy's keys as the controller names them
WAIT = 60  # seconds: real TCP and real key exchanges on a shared 2-core machine


class Player:
    """One person's `durak`: a controller fed keys, drawn at 80×24 after every change."""

    def __init__(self, controller: Controller, send: trio.MemorySendChannel[str]) -> None:
        self.controller = controller
        self.send = send
        self._changed = trio.Event()
        controller.invalidate = self._bump

    def _bump(self) -> None:
        self._changed.set()
        self._changed = trio.Event()

    def screen(self) -> str:
        return plain(self.controller.render(80, 24))

    async def press(self, *keys: str) -> str:
        target = self.controller.intents_handled + len(keys)
        for key in keys:
            self.send.send_nowait(key)
        await self.until(lambda: self.controller.intents_handled >= target)
        return self.screen()

    async def until(self, predicate: Callable[[], bool]) -> None:
        """Wait for the predicate, checked after every repaint the controller asks for."""
        with trio.fail_after(WAIT):
            while not predicate():
                await self._changed.wait()

    async def sees(self, *texts: str) -> str:
        await self.until(lambda: all(text in self.screen() for text in texts))
        return self.screen()

    async def dealt(self) -> None:
        """Wait until this player's game is dealt (a snapshot with a state)."""
        await self.until(lambda: self.controller.table.snapshot is not None
                         and self.controller.table.snapshot.state is not None)

    def row(self, name: str) -> str:
        """The lobby's row of the table `name` (the list lives on behind other screens)."""
        lines = plain(render_lobby(self.controller.lobby, self.controller.look, 80, 24))
        return next((line for line in lines.splitlines() if line[3:].startswith(name)), "")

    async def field(self, name: str) -> None:
        """Move the form's focus to the field `name`."""
        steps = (FIELDS.index(name) - self.controller.form.focus) % len(FIELDS)
        await self.press(*["down"] * steps)


async def repaint_of_either(*players: Player) -> None:
    """Wait until any of the players' controllers asks for a repaint."""
    async with trio.open_nursery() as nursery:
        for player in players:
            async def first(changed: trio.Event = player._changed) -> None:
                await changed.wait()
                nursery.cancel_scope.cancel()

            nursery.start_soon(first)


def options(name: str) -> TableOptions:
    return TableOptions(player_name=name, bot_names=("Anna", "Boris", "Vera"), bot_delay=0.0)


@asynccontextmanager
async def two_players(tmp_path: Path, names: tuple[str, str] = ("Sasha", "Masha")
                      ) -> AsyncIterator[tuple[Player, Player]]:
    net = FakeDiscoveryNetwork()
    async with (net.open_discovery() as seen_by_sasha, net.open_discovery() as seen_by_masha,
                trio.open_nursery() as nursery):
        players = []
        for home, name, look, discovery in (
                ("sasha", names[0], Look("en", False), seen_by_sasha),
                ("masha", names[1], Look("ru", False), seen_by_masha)):
            backend = NetworkLobbyBackend(nursery, tmp_path / home, name, discovery,
                                          bind="127.0.0.1")
            controller = Controller(backend, look, options(name))
            send, receive = trio.open_memory_channel[str](math.inf)
            player = Player(controller, send)
            await nursery.start(controller.run, receive)
            players.append(player)
        yield players[0], players[1]
        nursery.cancel_scope.cancel()


async def test_a_table_from_the_form_is_listed_joined_and_plays_the_forms_rules(
        tmp_path: Path) -> None:
    async with two_players(tmp_path) as (sasha, masha):
        await masha.sees("Столов пока нет")
        await sasha.press("c")
        await sasha.field("transfer")
        await sasha.press("right")  # перевод on
        await sasha.field("throw_in_by")
        assert "◀ neighbours" in await sasha.press("right")
        await sasha.field("pogony")
        await sasha.press("right")
        await sasha.field("timer")
        assert "◀ 15 s ▶" in await sasha.press("right")
        await sasha.field("timer_policy")
        await sasha.press("right")  # you lose the game
        await sasha.field("bots")
        assert "◀ easy ▶" in await sasha.press("left")
        await sasha.field("network_bots")
        assert "◀ 1 ▶" in await sasha.press("right")
        await sasha.field("network")
        await sasha.press("enter")

        # Sasha's waiting room: who sits, the free seat, the rules and clocks, the way out
        room = await sasha.sees("Waiting for players: 2 of 3 seated", "Anna (bot, easy)")
        assert "Sasha (you)" in room
        assert "free seat" in room
        assert "Transfer (перевод): on" in room
        assert "Turn timer: 15 s, then lose" in room
        assert "Q back to the lobby" in room
        assert "Dealing" not in room

        # Masha's lobby lists it: named after its host, the variant, seats, free, clocks
        lobby = await masha.sees("Sasha", "2/3")  # (1/3 until the bot has sat down)
        row = masha.row("Sasha")
        assert "Подкидной" in row
        assert re.search(r" 2/3 +1 ", row)  # two seated of three, one free seat
        assert row.rstrip().endswith("15 с, потом проигрыш")  # whole at 80 columns
        # Sasha's fingerprint, which Masha's join below pins (docs/protocol.md §9)
        host_fingerprint = sasha.controller.backend.fingerprint
        assert host_fingerprint is not None
        assert f": {host_fingerprint} (сверяется при входе)" in lobby

        await masha.press("enter")  # join the chosen table; the game starts at once
        await masha.dealt()
        await sasha.dealt()
        for player in (sasha, masha):
            snap = player.controller.table.snapshot
            assert snap is not None
            assert snap.state is not None
            assert sorted(s.name for s in snap.seats) == ["Anna", "Masha", "Sasha"]
            assert snap.rules.transfer
            assert snap.rules.throw_in_by == "neighbours_of_defender"
            assert snap.rules.pogony_sixes
            assert snap.clocks is not None
            assert snap.clocks.turn_seconds == 15
            assert snap.clocks.on_timeout is TimeoutPolicy.LOSE
        # a table whose game started is no longer offered
        await masha.until(lambda: not masha.controller.lobby.tables)
        assert "Перевод" in await masha.press("?")


async def test_leaving_a_waiting_room_frees_the_seat_or_withdraws_the_table(
        tmp_path: Path) -> None:
    async with two_players(tmp_path) as (sasha, masha):
        await sasha.press("c")
        await sasha.field("transfer")
        await sasha.press("right")  # перевод: not the preset's own rules
        await sasha.field("network")
        await sasha.press("enter")
        await sasha.sees("Waiting for players: 1 of 3 seated")
        lobby = await masha.sees("1/3")
        assert "Подкидной*" in masha.row("Sasha")
        assert "* правила варианта изменены" in lobby

        await masha.press("enter")
        # the joiner's waiting room: who sits (from the host) and the table's own rules
        room = await masha.sees("за столом 2 из 3", "1  Sasha")
        assert "2  Masha (вы)" in room
        assert "Перевод: да" in room
        await sasha.sees("Waiting for players: 2 of 3 seated", "Masha")
        await masha.until(lambda: "2/3" in masha.row("Sasha"))

        assert "Дурак — столы в сети" in await masha.press("q")  # back at once
        await sasha.sees("Waiting for players: 1 of 3 seated")
        await masha.until(lambda: "1/3" in masha.row("Sasha"))

        assert "tables on the network" in await sasha.press("q")
        await masha.sees("Столов пока нет")
        await sasha.sees("No tables found yet")


async def test_the_host_fills_the_free_seats_with_bots_and_the_game_starts(
        tmp_path: Path) -> None:
    """Two people who both kept the default name: the second shows as «Player 2»."""
    async with two_players(tmp_path, ("Player", "Player")) as (host, guest):
        await host.press("c")
        await host.field("players")
        await host.press("right")  # four players
        await host.field("bots")
        await host.press("right")  # hard bots
        await host.field("network")
        await host.press("enter")
        await host.sees("B fill the free seats with bots")
        await guest.until(lambda: "1/4" in guest.row("Player"))
        await guest.press("enter")
        await host.sees("2 of 4 seated", "Player 2")
        await guest.sees("Q в лобби")
        assert "B " not in guest.screen().splitlines()[-1]  # only the host may fill seats

        await host.press("b")
        for player in (host, guest):
            await player.dealt()
            snap = player.controller.table.snapshot
            assert snap is not None
            assert sorted(s.name for s in snap.seats) == ["Anna", "Boris", "Player",
                                                          "Player 2"]
        # the host knows its own bots (the protocol does not say who is one)
        snap = host.controller.table.snapshot
        assert snap is not None
        assert sorted((s.name, s.bot_level) for s in snap.seats if s.is_bot) == [
            ("Anna", "hard"), ("Boris", "hard")]


async def masha_quits_mid_game(sasha: Player, masha: Player) -> list[float]:
    """Sasha's table for three with a bot, Masha seated, the game dealt; when Masha's app
    quits (the times it was told to)."""
    quit_at: list[float] = []
    masha.controller.exit_app = lambda: quit_at.append(trio.current_time())
    await sasha.press("c")
    await sasha.field("network_bots")
    await sasha.press("right")
    await sasha.field("network")
    await sasha.press("enter")
    await masha.until(lambda: "2/3" in masha.row("Sasha"))
    await masha.press("enter")
    await masha.dealt()
    return quit_at


async def test_ctrl_c_mid_game_leaves_gracefully_before_quitting(tmp_path: Path) -> None:
    """Ctrl-C at a networked table: the node plays its leave out (the others are told at the
    end of the bout and play on, instead of waiting out the grace period for a vanished
    player), then the app quits; the lobby says so meanwhile; a second Ctrl-C quits at once."""
    from p2p_durak.cli.net_backend import NetworkSeat

    async with two_players(tmp_path) as (sasha, masha):
        quit_at = await masha_quits_mid_game(sasha, masha)
        seat = masha.controller.session
        assert isinstance(seat, NetworkSeat)
        assert "Выходим из-за стола после этого кона" in await masha.press("c-c")
        assert not quit_at  # not before the others know
        with trio.fail_after(WAIT):
            while not quit_at:  # Sasha plays on until the bout is over
                key = choose_key(sasha.screen())
                if key is None:
                    await sasha.until(lambda: bool(quit_at) or choose_key(sasha.screen())
                                      is not None)
                else:
                    await sasha.press(TERMINAL_KEYS.get(key, key))
        runner = seat.node.runner if seat.node is not None else None
        assert runner is not None
        assert runner.finished.is_set()  # the leave was played out, not cut short
        await sasha.sees("Masha leaves the")  # (the log column wraps the rest)


async def test_a_second_ctrl_c_quits_at_once(tmp_path: Path) -> None:
    async with two_players(tmp_path) as (sasha, masha):
        quit_at = await masha_quits_mid_game(sasha, masha)
        await masha.press("c-c")
        assert not quit_at
        await masha.press("c-c")
        assert quit_at


async def test_ctrl_c_at_the_end_of_a_game_quits_once_the_table_has_the_stop(
        tmp_path: Path) -> None:
    """One player's stop ends the series (README: the table stops after the game where any
    player stops), so Ctrl-C on the end screen quits once that stop is committed — not after
    the other player's choice, or the vote's timeout (it waited the whole 60 s)."""
    async with two_players(tmp_path) as (sasha, masha):
        quit_at: list[float] = []
        quit = trio.Event()

        def exit_app() -> None:
            quit_at.append(trio.current_time())
            quit.set()

        masha.controller.exit_app = exit_app
        await sasha.press("c")
        await sasha.field("players")
        await sasha.press("left")  # two players
        await sasha.field("network")
        await sasha.press("enter")
        await masha.until(lambda: "1/2" in masha.row("Sasha"))
        await masha.press("enter")
        await masha.dealt()
        with trio.fail_after(WAIT):
            while not all(is_over(p.screen()) for p in (sasha, masha)):
                pressed = False
                for player in (sasha, masha):
                    key = choose_key(player.screen())
                    if key is not None:
                        await player.press(TERMINAL_KEYS.get(key, key))
                        pressed = True
                if not pressed:
                    await repaint_of_either(sasha, masha)
        pressed_at = trio.current_time()
        await masha.press("c-c")
        with trio.fail_after(WAIT):
            await quit.wait()
        assert quit_at[0] - pressed_at < 10, quit_at[0] - pressed_at  # the vote waits 60 s


async def test_a_joiner_is_told_when_the_host_gives_up_before_the_start(
        tmp_path: Path) -> None:
    async with two_players(tmp_path) as (sasha, masha):
        await sasha.press("c")
        await sasha.field("network")
        await sasha.press("enter")
        await masha.until(lambda: "1/3" in masha.row("Sasha"))
        await masha.press("enter")
        await sasha.sees("2 of 3 seated")
        await sasha.press("q")  # the host leaves its waiting room
        room = await masha.sees("Не удалось сесть за стол:")
        assert "Q в лобби" in room
        assert "Столов пока нет" in await masha.press("q")
