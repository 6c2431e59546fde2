"""The mesh: one link per pair of parties, redialled after a drop, faults named."""

from __future__ import annotations

import trio
import trio.testing

from p2p_durak.node.link import PeerFault, accept_link
from p2p_durak.node.memnet import MemoryNetwork
from p2p_durak.node.mesh import Connected, Disconnected, Mesh, Party, Received
from p2p_durak.node.transport import Endpoint
from p2p_durak.protocol.identity import Identity
from p2p_durak.protocol.messages import Ping


async def _node(
    network: MemoryNetwork,
    host: str,
    identity: Identity,
    parties: list[Party],
    nursery: trio.Nursery,
) -> Mesh:
    mesh = Mesh(identity, parties, network.dialer(host))

    async def handler(stream: trio.abc.Stream) -> None:
        try:
            link = await accept_link(stream, identity, admit=lambda peer: None, label=host)
        except PeerFault:
            return
        if mesh.wants(link):
            await mesh.adopt(link)

    await nursery.start(network.listener(host, 7000).serve, handler)
    await nursery.start(mesh.run)
    return mesh


async def _next_of(mesh: Mesh, kind: type) -> object:
    while True:
        event = await mesh.inbox.receive()
        if isinstance(event, kind):
            return event


async def test_three_parties_connect_and_exchange(autojump_clock: trio.testing.MockClock) -> None:
    with trio.fail_after(60):
        await _scenario()


async def _scenario() -> None:
    network = MemoryNetwork()
    ids = [Identity.from_seed(bytes([i]) * 32) for i in range(3)]
    hosts = ["a", "b", "c"]
    parties = [Party(i.peer_id, Endpoint(h, 7000)) for i, h in zip(ids, hosts, strict=True)]
    async with trio.open_nursery() as nursery:
        meshes = [
            await _node(network, h, i, parties, nursery) for h, i in zip(hosts, ids, strict=True)
        ]
        for mesh in meshes:
            seen = set()
            for _ in range(2):
                event = await _next_of(mesh, Connected)
                assert isinstance(event, Connected)
                seen.add(event.party)
            assert seen == {p for p in range(3) if p != mesh.me}
        await meshes[0].broadcast(Ping(1))
        for mesh in meshes[1:]:
            event = await _next_of(mesh, Received)
            assert event == Received(meshes[0].me, Ping(1))
        # a crashed link is noticed and redialled
        network.cut("a", "b")
        lost = await _next_of(meshes[1], Disconnected)
        assert isinstance(lost, Disconnected)
        back = await _next_of(meshes[1], Connected)
        assert isinstance(back, Connected)
        nursery.cancel_scope.cancel()
