"""Strangers at a node's door: whoever connects to its listener before proving an identity.

The charter: bad input is normal; each gets a clear error that names the peer and the reason,
and the node never crashes. A node logs every connection it turns away with the peer's address
(and the identity it claimed, once it claimed one); a flood of connections that send nothing
does not grow without bound, and an honest peer still gets through it.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

import pytest
import trio
import trio.testing

from p2p_durak.engine.presets import get_preset
from p2p_durak.node.doorman import LINES_PER_SECOND, MAX_STRANGERS
from p2p_durak.node.link import open_link
from p2p_durak.node.lobby import TableConfig
from p2p_durak.node.memnet import MemoryNetwork
from p2p_durak.node.node import Node
from p2p_durak.node.transport import Endpoint
from p2p_durak.protocol.framing import Framer
from p2p_durak.protocol.identity import Identity
from p2p_durak.protocol.messages import (
    PROTOCOL_VERSION,
    HandshakeFinish,
    HandshakeInit,
    JoinAccepted,
    JoinRequest,
    TableInfo,
)

HOST = Endpoint("host", 9000)


def hosting_node(network: MemoryNetwork, home: Path) -> Node:
    node = Node(Identity.from_seed(b"host".ljust(32, b"_")), "host", home, network.listener("host",
                9000), network.dialer("host"), advertised_host="host")
    return node


async def serve_a_table(nursery: trio.Nursery, node: Node) -> None:
    await nursery.start(node.serve)
    node.host_table(TableConfig("t", "app_podkidnoy", get_preset("app_podkidnoy").rules, 3))


async def closed_by_the_node(stream: trio.abc.Stream) -> bool:
    """Whether the node hung up on `stream` (what it sent before is skipped)."""
    with trio.move_on_after(60):
        while await stream.receive_some():
            pass
        return True
    return False


async def test_a_flood_of_silent_connections_is_bounded_and_an_honest_peer_gets_through(
        tmp_path: Path, autojump_clock: trio.testing.MockClock,
        caplog: pytest.LogCaptureFixture) -> None:
    network = MemoryNetwork(backlog=4 * MAX_STRANGERS)
    node = hosting_node(network, tmp_path)
    mallory = network.dialer("mallory")
    async with trio.open_nursery() as nursery:
        await serve_a_table(nursery, node)
        flood = []
        for _ in range(3 * MAX_STRANGERS):  # each: a frame header and two bytes, then nothing
            stream = await mallory.dial(HOST)
            await stream.send_all((100).to_bytes(4, "big") + b"\x93\x01")
            flood.append(stream)
        await trio.testing.wait_all_tasks_blocked()
        assert node.doorman.inside == MAX_STRANGERS  # the rest were cut to make room
        assert node.doorman.turned_away == 2 * MAX_STRANGERS
        for stream in flood[:2 * MAX_STRANGERS]:
            assert await closed_by_the_node(stream)
        link = await open_link(await network.dialer("alice").dial(HOST),
                               Identity.from_seed(b"alice".ljust(32, b"_")),
                               expected=node.identity.peer_id, label="host")
        assert isinstance(await link.receive(), TableInfo)  # the table answers her
        await link.close()
        await trio.sleep(1)
        # Alice's handshake cut one more; now one place is free, and the next connection cut
        # for room tells the count of those not told yet.
        late = [await mallory.dial(HOST) for _ in range(2)]
        await trio.testing.wait_all_tasks_blocked()
        nursery.cancel_scope.cancel()
    del late
    assert any(r.startswith("a peer at mallory: cut: still in its handshake")
               for r in node.refused)
    lines = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert lines
    assert all("mallory" in line for line in lines)
    # a flood is told with a count, not line by line: the first lines, then the count
    assert len(lines) == LINES_PER_SECOND + 1
    unsaid = 2 * MAX_STRANGERS - LINES_PER_SECOND + 1
    assert lines[-1].endswith(f"(and {unsaid} more since the last report)")


async def test_each_bad_handshake_is_logged_with_the_address_and_the_reason(
        tmp_path: Path, autojump_clock: trio.testing.MockClock,
        caplog: pytest.LogCaptureFixture) -> None:
    network = MemoryNetwork()
    node = hosting_node(network, tmp_path)
    victim = Identity.from_seed(b"victim".ljust(32, b"_"))  # a key mallory does not hold
    attacks = {
        "random bytes": [os.urandom(64)],
        "huge frame": [b"\xff\xff\xff\xff"],
        "our own identity": [Framer().send(HandshakeInit((1,), node.identity.peer_id,
                                                         bytes(range(1, 33))).encode())],
        "another's identity": [Framer().send(HandshakeInit((1,), victim.peer_id,
                                                           bytes(range(1, 33))).encode()),
                               Framer().send(HandshakeFinish(bytes(64)).encode())],
        "a hang-up": [Framer().send(HandshakeInit((1,), victim.peer_id,
                                                  bytes(range(1, 33))).encode()), b""],
    }
    async with trio.open_nursery() as nursery:
        await serve_a_table(nursery, node)
        for chunks in attacks.values():
            stream = await network.dialer("mallory").dial(HOST)
            for chunk in chunks:
                if chunk:
                    await stream.send_all(chunk)
                else:  # vanishes, mid-handshake
                    await stream.send_eof()
                await trio.sleep(0.1)
            assert await closed_by_the_node(stream)
        nursery.cancel_scope.cancel()
    logged = "\n".join(r.getMessage() for r in caplog.records if r.levelno == logging.WARNING)
    assert len(node.refused) == len(attacks), node.refused
    for refusal in node.refused:
        assert refusal.startswith("a peer at mallory"), refusal
        assert refusal in logged
    huge, own, other, gone = node.refused[1:]
    assert gone.endswith(f"claiming {victim.peer_id}: hung up during the handshake")
    assert "exceeds 1024" in huge
    assert f"claiming {node.identity.peer_id}" in own
    assert "our own identity" in own
    assert f"claiming {victim.peer_id}" in other
    assert "does not verify" in other


async def test_a_seated_joiner_that_breaks_its_channel_frees_its_seat(
        tmp_path: Path, autojump_clock: trio.testing.MockClock,
        caplog: pytest.LogCaptureFixture) -> None:
    network = MemoryNetwork()
    node = hosting_node(network, tmp_path)
    mallory = Identity.from_seed(b"mallory".ljust(32, b"_"))
    async with trio.open_nursery() as nursery:
        await serve_a_table(nursery, node)
        table = node.hosted
        assert table is not None
        stream = await network.dialer("mallory").dial(HOST)
        link = await open_link(stream, mallory, expected=node.identity.peer_id, label="host")
        info = await link.receive()
        assert isinstance(info, TableInfo)
        await link.send(JoinRequest(info.game, PROTOCOL_VERSION, info.rules_hash, "m",
                                    mallory.peer_id, 1))
        assert isinstance(await link.receive(), JoinAccepted)
        assert [p.identity for p in table.players][1:] == [mallory.peer_id]
        await stream.send_all((40).to_bytes(4, "big") + bytes(40))  # not a frame of the channel
        assert await closed_by_the_node(stream)
        await trio.sleep(5)
        assert [p.identity for p in table.players] == [node.identity.peer_id], table.refusals
        nursery.cancel_scope.cancel()
    logged = "\n".join(r.getMessage() for r in caplog.records if r.levelno == logging.WARNING)
    assert f"a peer at mallory ({mallory.peer_id.fingerprint})" in logged
    assert "failed authentication" in logged
