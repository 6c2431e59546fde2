"""A table's clocks (turn timer, policy on expiry, grace period) where people see and set them:
the lobby's list, the new-table form, the table screen, `durak host`."""

from __future__ import annotations

import argparse
import math

import trio
import trio.testing

from p2p_durak.cli.backend import LocalLobbyBackend, TableOptions
from p2p_durak.cli.canvas import plain
from p2p_durak.cli.commands_net import register
from p2p_durak.cli.controller import Controller
from p2p_durak.cli.i18n import Look
from p2p_durak.cli.lobby_ui import FIELDS, CreateForm
from p2p_durak.cli.table_ui import TableUi
from p2p_durak.cli.table_view import clocks_line, render_table_screen
from p2p_durak.engine.presets import get_preset
from p2p_durak.node.api import TableSnapshot
from p2p_durak.node.discovery import FakeDiscoveryNetwork
from p2p_durak.node.tableinfo import TableAd, new_table_id
from p2p_durak.protocol.identity import Identity
from p2p_durak.protocol.messages import TimeoutPolicy, TurnTimer

FINGERPRINT = Identity.from_seed(bytes(32)).fingerprint


def ad(name: str, timer: TurnTimer) -> TableAd:
    return TableAd(new_table_id(), name, "app_podkidnoy", "ab" * 32, 1, 2, FINGERPRINT, 4000, 1,
                   timer)


async def test_the_lobby_shows_each_tables_clocks() -> None:
    net = FakeDiscoveryNetwork()
    async with (net.open_discovery(addresses=["10.0.0.2"]) as host,
                net.open_discovery() as mine, trio.open_nursery() as nursery):
        controller = Controller(LocalLobbyBackend(nursery, mine.events), Look("en", False),
                                TableOptions(seed=1, bot_delay=0.0))
        send, receive = trio.open_memory_channel[str](math.inf)
        await nursery.start(controller.run, receive)
        await host.advertise(ad("Strict", TurnTimer(20, TimeoutPolicy.LOSE, 90)))
        await host.advertise(ad("Relaxed", TurnTimer()))
        await trio.testing.wait_all_tasks_blocked()
        screen = plain(controller.render(100, 24))
        assert "Turn timer" in screen
        strict = next(line for line in screen.splitlines() if "Strict" in line)
        relaxed = next(line for line in screen.splitlines() if "Relaxed" in line)
        assert "20 s, then lose" in strict
        assert "no timer" in relaxed
        send.send_nowait("q")
        nursery.cancel_scope.cancel()


def test_the_new_table_form_sets_the_grace_period() -> None:
    form = CreateForm()
    form.focus = FIELDS.index("timer")
    form.change(1)
    form.focus = FIELDS.index("timer_policy")
    form.change(1)
    form.focus = FIELDS.index("grace")
    form.change(1)
    options = form.options(TableOptions())
    assert (options.timer, options.timer_policy, options.grace_seconds) == (15.0, "lose", 30)


def test_the_table_screen_shows_the_clocks_before_and_during_the_game() -> None:
    look = Look("en", False)
    clocks = TurnTimer(45, TimeoutPolicy.BOT, 120)
    assert clocks_line(clocks, look) == ("Turn timer: 45 s, then a bot · a lost player is "
                                         "awaited 120 s")
    ui = TableUi()
    ui.snapshot = TableSnapshot(table_name="t", preset_id="app_podkidnoy",
                                rules=get_preset("app_podkidnoy").rules, seats=(), my_seat=0,
                                state=None, clocks=clocks)
    assert "a lost player is awaited 120 s" in plain(render_table_screen(ui, look, 100, 30))


def test_durak_host_takes_the_clocks() -> None:
    parser = argparse.ArgumentParser()
    register(parser.add_subparsers())
    args = parser.parse_args(["host", "--turn-seconds", "25", "--on-timeout", "lose",
                              "--grace-seconds", "90"])
    assert (args.turn_seconds, args.on_timeout, args.grace_seconds) == (25, "lose", 90)
