"""The links of a game as it starts: every pair of players opens one (the smaller key dials),
but the players' nodes start their games at different moments — the host seals the `Start`
and withdraws its table from discovery, each joiner gets the `Start` in turn, a slow disk
delays a node's journal. A link that comes before its node's game runs must wait for it, not be
refused: a refusal costs a redial, and each one was logged as a peer's fault ("GOING_AWAY: no
table or game here for you") though nobody did anything wrong.
"""

from __future__ import annotations

from pathlib import Path

import trio
import trio.testing
from node_support import agreed_tables, make_nodes, seat_everyone

from p2p_durak.engine.presets import get_preset
from p2p_durak.node.lobby import GameStart, TableConfig
from p2p_durak.node.memnet import MemoryNetwork
from p2p_durak.node.node import Node
from p2p_durak.node.players import BotPlayer
from p2p_durak.node.transport import Endpoint

STAGGER = 0.5  # virtual seconds between two nodes' starts: far more than a dial takes


async def test_links_that_come_before_a_nodes_game_runs_wait_for_it(
        tmp_path: Path, autojump_clock: trio.testing.MockClock) -> None:
    network = MemoryNetwork()
    nodes = make_nodes(network, tmp_path, 3, seed=5)
    config = TableConfig("t", "app_podkidnoy", get_preset("app_podkidnoy").rules, 3)
    # the node that accepts a link (the larger key) starts its game after the one that dials:
    # each dialler finds its peer's node without a running game
    by_key = sorted(nodes, key=lambda node: node.identity.peer_id.key)

    async def play_late(rank: int, start: GameStart) -> None:
        await trio.sleep(rank * STAGGER)
        await by_key[rank].play(start, BotPlayer(level="easy", seed=rank))

    with trio.fail_after(3600):
        async with trio.open_nursery() as nursery:
            for node in nodes:
                await nursery.start(node.serve)
            starts = dict(zip(nodes, await seat_everyone(nodes, config), strict=True))
            async with trio.open_nursery() as games:
                for rank, node in enumerate(by_key):
                    games.start_soon(play_late, rank, starts[node])
            nursery.cancel_scope.cancel()
    agreed_tables(nodes, 3)
    for node in nodes:
        assert node.refused == [], f"{node.name} refused: {node.refused}"
        assert node.mesh is not None
        assert node.mesh.faults == [], node.mesh.faults
        assert node.runner is not None
        hung_up = [str(r) for r in node.runner.reports if r.kind == "disconnected"]
        assert hung_up == [], f"{node.name}: {hung_up}"


async def test_a_link_that_comes_before_the_start_reaches_a_joiner_waits_for_it(
        tmp_path: Path, autojump_clock: trio.testing.MockClock) -> None:
    """The host sends the `Start` to its joiners one by one; here it reaches one joiner a
    second late, and the other, which dials it, is playing by then."""
    network = MemoryNetwork()
    host, *joiners = make_nodes(network, tmp_path, 3, seed=6)
    early, late = sorted(joiners, key=lambda node: node.identity.peer_id.key)  # early dials late
    config = TableConfig("t", "app_podkidnoy", get_preset("app_podkidnoy").rules, 3)
    starts: dict[str, GameStart] = {}

    async def seat(node: Node) -> None:
        starts[node.name] = await (node.wait_for_start() if node is host
                                   else node.join(Endpoint(host.name, 9000)))
        await node.play(starts[node.name], BotPlayer(level="easy", seed=len(node.name)))

    with trio.fail_after(3600):
        async with trio.open_nursery() as nursery:
            for node in (host, *joiners):
                await nursery.start(node.serve)
            table = host.host_table(config)
            async with trio.open_nursery() as games:
                games.start_soon(seat, host)
                games.start_soon(seat, late)
                while len(table.players) < 2:
                    await table.changed.wait()
                network.partition(host.name, late.name)  # the Start will wait on the way
                games.start_soon(seat, early)
                await table.started.wait()
                await trio.sleep(STAGGER * 2)
                assert late.name not in starts  # still waiting for its Start
                assert early.runner is not None  # playing, and dialling it
                network.heal(host.name, late.name)
            nursery.cancel_scope.cancel()
    agreed_tables([host, *joiners], 3)
    assert late.refused == [], late.refused
    assert early.mesh is not None
    assert early.mesh.faults == [], early.mesh.faults
