"""Issue 6: the lobby lists the tables on the network "updating live" — so a table whose host
died (kill -9, a crash, Wi-Fi gone) must leave the list in seconds. Such a host sends no
goodbye and its mDNS records live on in every cache for their TTL (two minutes), so the lobby
knocks at each listed host's port (`p2p_durak/node/liveness.py`); the host counts the knocks
quietly instead of logging strangers' faults.

Deterministic: the autojump clock, the in-memory network (a host's death is its listener gone
and its connections broken), the fake discovery keeping the dead host's record the whole time.
"""

from __future__ import annotations

import logging
import math
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
import trio
import trio.testing
from test_lobby_network import Player, options

from p2p_durak.cli.controller import Controller
from p2p_durak.cli.i18n import Look
from p2p_durak.cli.net_backend import NetworkLobbyBackend
from p2p_durak.engine.presets import get_preset
from p2p_durak.node.discovery import FakeDiscovery, FakeDiscoveryNetwork
from p2p_durak.node.liveness import GONE_WITHIN, KNOCK_EVERY, KNOCK_TIMEOUT
from p2p_durak.node.lobby import TableConfig
from p2p_durak.node.memnet import MemoryDialer, MemoryNetwork
from p2p_durak.node.node import Node
from p2p_durak.node.transport import Endpoint
from p2p_durak.protocol.identity import Identity

HOST = "10.0.0.7"  # the in-memory host, named by the address its table advertises
LOBBY = "10.0.0.9"


class Airwaves:
    """Masha's dialer: through the in-memory network while the host is on the air; when it
    is not, a knock gets no answer at all (as when its Wi-Fi is gone: no refusal comes)."""

    def __init__(self, network: MemoryNetwork) -> None:
        self.dialer = MemoryDialer(network, LOBBY)
        self.silent: set[str] = set()

    async def dial(self, endpoint: Endpoint) -> trio.abc.Stream:
        if endpoint.host in self.silent:
            await trio.sleep_forever()
        return await self.dialer.dial(endpoint)


async def sasha_hosts(network: MemoryNetwork, discovery: FakeDiscovery, home: Path, *,
                      task_status: trio.TaskStatus[tuple[Node, trio.CancelScope]]) -> None:
    """Sasha's node serving a table for three, advertised, until the scope it reports is
    cancelled: a death without a goodbye (its record stays advertised)."""
    node = Node(Identity.from_seed(b"sasha".ljust(32, b"_")), "Sasha", home,
                network.listener(HOST), network.dialer(HOST), advertised_host=HOST)
    with trio.CancelScope() as alive:
        async with trio.open_nursery() as nursery:
            await nursery.start(node.serve)
            node.host_table(TableConfig("Sasha", "app_podkidnoy",
                                        get_preset("app_podkidnoy").rules, 3))
            await discovery.advertise(node.advertisement())
            task_status.started((node, alive))


@asynccontextmanager
async def masha_looks(nursery: trio.Nursery, discovery: FakeDiscovery, dialer: Airwaves,
                      home: Path) -> AsyncIterator[Player]:
    backend = NetworkLobbyBackend(nursery, home, "Masha", discovery, knocks=dialer)
    controller = Controller(backend, Look("en", False), options("Masha"))
    send, receive = trio.open_memory_channel[str](math.inf)
    player = Player(controller, send)
    await nursery.start(controller.run, receive)
    yield player


def kill_9(network: MemoryNetwork, alive: trio.CancelScope) -> None:
    alive.cancel()  # the listener goes with the process
    network.crash(HOST)  # and every connection it held


async def test_a_killed_hosts_table_leaves_the_lobby_within_the_bound(
        tmp_path: Path, autojump_clock: trio.testing.MockClock,
        caplog: pytest.LogCaptureFixture) -> None:
    network, lan = MemoryNetwork(), FakeDiscoveryNetwork()
    async with (lan.open_discovery(addresses=(HOST,)) as sashas, lan.open_discovery() as mashas,
                trio.open_nursery() as nursery,
                masha_looks(nursery, mashas, Airwaves(network), tmp_path / "masha") as masha):
        sasha, alive = await nursery.start(sasha_hosts, network, sashas, tmp_path / "sasha")
        await masha.until(lambda: "1/3" in masha.row("Sasha"))
        await trio.sleep(10 * KNOCK_EVERY)  # knocked at all along, and still listed
        assert "1/3" in masha.row("Sasha")
        assert sasha.knocks >= 10
        assert sasha.refused == []  # the knocks are no strangers' faults
        assert not [r for r in caplog.records if r.levelno >= logging.WARNING]

        kill_9(network, alive)
        died = trio.current_time()
        await masha.until(lambda: masha.row("Sasha") == "")
        assert trio.current_time() - died <= GONE_WITHIN
        assert "No tables found yet" in masha.screen()
        assert len(lan.tables()) == 1  # its record is still advertised: the knocks told
        nursery.cancel_scope.cancel()


async def test_a_silent_host_is_hidden_and_listed_again_when_it_answers(
        tmp_path: Path, autojump_clock: trio.testing.MockClock) -> None:
    network, lan = MemoryNetwork(), FakeDiscoveryNetwork()
    air = Airwaves(network)
    async with (lan.open_discovery(addresses=(HOST,)) as sashas, lan.open_discovery() as mashas,
                trio.open_nursery() as nursery,
                masha_looks(nursery, mashas, air, tmp_path / "masha") as masha):
        await nursery.start(sasha_hosts, network, sashas, tmp_path / "sasha")
        await masha.until(lambda: "1/3" in masha.row("Sasha"))
        air.silent.add(HOST)  # Wi-Fi gone: the knocks time out
        gone = trio.current_time()
        await masha.until(lambda: masha.row("Sasha") == "")
        hidden_after = trio.current_time() - gone
        assert 2 * KNOCK_TIMEOUT <= hidden_after <= GONE_WITHIN  # one lost knock is forgiven
        air.silent.clear()
        back = trio.current_time()
        await masha.until(lambda: "1/3" in masha.row("Sasha"))
        assert trio.current_time() - back <= KNOCK_EVERY + KNOCK_TIMEOUT
        nursery.cancel_scope.cancel()


async def test_a_dead_hosts_record_found_at_start_is_never_listed(
        tmp_path: Path, autojump_clock: trio.testing.MockClock) -> None:
    network, lan = MemoryNetwork(), FakeDiscoveryNetwork()
    async with lan.open_discovery(addresses=(HOST,)) as sashas:
        async with trio.open_nursery() as nursery:
            _, alive = await nursery.start(sasha_hosts, network, sashas, tmp_path / "sasha")
            kill_9(network, alive)
        assert len(lan.tables()) == 1  # died before Masha looked; its record is cached
        async with (lan.open_discovery() as mashas, trio.open_nursery() as nursery,
                    masha_looks(nursery, mashas, Airwaves(network), tmp_path / "masha")
                    as masha):
            listed: list[int] = []
            shown = masha.controller.invalidate

            def count() -> None:
                listed.append(len(masha.controller.lobby.tables))
                shown()

            masha.controller.invalidate = count
            await trio.sleep(3 * GONE_WITHIN)
            assert masha.controller.lobby.tables == {}
            assert set(listed) <= {0}  # not even for a moment
            nursery.cancel_scope.cancel()
