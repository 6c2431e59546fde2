"""In-process tables for node tests: nodes on a MemoryNetwork, one host, the others join,
every node plays its seat with the player given."""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path

import trio

from p2p_durak import engine as eng
from p2p_durak.engine import RuleSet
from p2p_durak.engine.presets import get_preset
from p2p_durak.node.game import Player
from p2p_durak.node.lobby import GameStart, TableConfig
from p2p_durak.node.memnet import MemoryNetwork
from p2p_durak.node.node import Node
from p2p_durak.node.transport import Endpoint
from p2p_durak.protocol.identity import Identity
from p2p_durak.protocol.table import AuditFinished, TableMachine

GAME_LIMIT_SECONDS = 3 * 3600  # virtual: far beyond any honest game, timers and grace included


def make_nodes(network: MemoryNetwork, home: Path, n: int, seed: int = 0) -> list[Node]:
    return [Node(Identity.from_seed(f"p{i}".encode().ljust(32, b"_")), f"p{i}", home / f"p{i}",
                 network.listener(f"p{i}", 9000), network.dialer(f"p{i}"),
                 advertised_host=f"p{i}", rng=random.Random(seed * 10 + i).randbytes)
            for i in range(n)]


async def seat_everyone(nodes: Sequence[Node], config: TableConfig) -> list[GameStart]:
    """The first node hosts, the others join; returns each node's start."""
    nodes[0].host_table(config)
    starts: dict[int, GameStart] = {}

    async def host() -> None:
        starts[0] = await nodes[0].wait_for_start()

    async def join(i: int) -> None:
        starts[i] = await nodes[i].join(Endpoint(nodes[0].name, 9000))

    async with trio.open_nursery() as lobby:
        lobby.start_soon(host)
        for i in range(1, len(nodes)):
            lobby.start_soon(join, i)
    return [starts[i] for i in range(len(nodes))]


async def play_table(home: Path, players: Sequence[Player], preset: str = "app_podkidnoy",
                     seed: int = 0, network: MemoryNetwork | None = None, *,
                     rules: RuleSet | None = None, name: str = "test table",
                     limit: float = GAME_LIMIT_SECONDS) -> list[Node]:
    """A whole game at one table (the preset's rules unless `rules` are given); returns the
    nodes (their runners hold the outcome)."""
    network = network or MemoryNetwork()
    nodes = make_nodes(network, home, len(players), seed)
    config = TableConfig(name, preset, rules or get_preset(preset).rules, len(players))
    # A game that stalls fails here in virtual time instead of idling forever (its timers keep
    # the autojump clock running, so only a bound ends it).
    with trio.fail_after(limit):
        async with trio.open_nursery() as nursery:
            for node in nodes:
                await nursery.start(node.serve)
            starts = await seat_everyone(nodes, config)
            async with trio.open_nursery() as games:
                for node, start, player in zip(nodes, starts, players, strict=True):
                    games.start_soon(node.play, start, player)
            nursery.cancel_scope.cancel()
    return nodes


def agreed_tables(nodes: Sequence[Node], n: int) -> list[TableMachine]:
    """The table machines of a finished game, checked: no node diagnosed a fault, every one
    reached the same final state, and every audit is clean."""
    tables = [node.runner.log.state for node in nodes if node.runner is not None]
    assert len(tables) == n
    for node in nodes:
        assert node.runner is not None
        assert node.runner.diagnosis is None, node.runner.diagnosis
    assert all(t.state is not None and t.state.result is not None for t in tables)
    assert len({eng.state_hash(t.state) for t in tables if t.state is not None}) == 1
    assert all(t.audit == AuditFinished(()) for t in tables)
    return tables
