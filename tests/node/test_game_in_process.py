"""Whole games between nodes in one trio process over memory streams: lobby, keys, shuffle,
deal, play, audit — every node with its own identity, deck secret, log and journal."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
import trio
import trio.testing

from p2p_durak import engine as eng
from p2p_durak.engine.presets import get_preset
from p2p_durak.node.lobby import TableConfig
from p2p_durak.node.memnet import MemoryNetwork
from p2p_durak.node.node import Node
from p2p_durak.node.players import BotPlayer
from p2p_durak.node.transport import Endpoint
from p2p_durak.protocol.identity import Identity
from p2p_durak.protocol.table import AuditFinished
from p2p_durak.protocol.transcript import Transcript


def _node(network: MemoryNetwork, name: str, home: Path, seed: int) -> Node:
    rng = random.Random(seed)
    return Node(Identity.from_seed(name.encode().ljust(32, b"_")), name, home / name,
                network.listener(name, 9000), network.dialer(name), advertised_host=name,
                rng=rng.randbytes)


async def play_table(preset: str, n: int, home: Path, seed: int) -> list[Node]:
    network = MemoryNetwork()
    nodes = [_node(network, f"p{i}", home, seed * 10 + i) for i in range(n)]
    players = [BotPlayer(level="easy", seed=seed * 100 + i) for i in range(n)]
    config = TableConfig("test table", preset, get_preset(preset).rules, n)
    async with trio.open_nursery() as nursery:
        for node in nodes:
            await nursery.start(node.serve)
        nodes[0].host_table(config)
        starts = {}

        async def join(i: int) -> None:
            starts[i] = await nodes[i].join(Endpoint("p0", 9000))

        async def host() -> None:
            starts[0] = await nodes[0].wait_for_start()

        async with trio.open_nursery() as lobby:
            lobby.start_soon(host)
            for i in range(1, n):
                lobby.start_soon(join, i)
        async with trio.open_nursery() as games:
            for i, node in enumerate(nodes):
                games.start_soon(node.play, starts[i], players[i])
        nursery.cancel_scope.cancel()
    return nodes


@pytest.mark.parametrize(("preset", "n"), [("app_podkidnoy", 2), ("app_perevodnoy", 3),
                                           ("app_komandy", 4)])
async def test_bots_play_a_whole_game_over_the_network_stack(
        preset: str, n: int, tmp_path: Path, autojump_clock: trio.testing.MockClock) -> None:
    nodes = await play_table(preset, n, tmp_path, seed=n)
    tables = [node.runner.log.state for node in nodes if node.runner is not None]
    assert len(tables) == n
    for node in nodes:
        assert node.runner is not None
        assert node.runner.diagnosis is None, node.runner.diagnosis
    results = {t.state.result for t in tables if t.state is not None}
    assert len(results) == 1
    assert None not in results
    assert {eng.state_hash(t.state) for t in tables if t.state is not None} == \
        {eng.state_hash(tables[0].state)} if tables[0].state is not None else set()
    assert all(t.audit == AuditFinished(()) for t in tables)
    # every node saved the same transcript of the game
    saved = {(tmp_path / f"p{i}" / "games").glob("*/transcript.durak").__next__().read_bytes()
             for i in range(n)}
    assert len(saved) == 1
    transcript = Transcript.load(saved.pop())
    assert len(transcript.entries) > 20
