"""The node's channel adapter: handshake, messages both ways, refusal, garbage, timeouts."""

from __future__ import annotations

import pytest
import trio
import trio.testing

from p2p_durak.node.link import PeerFault, accept_link, open_link
from p2p_durak.protocol.identity import Identity
from p2p_durak.protocol.messages import Ping, Pong


async def test_handshake_and_messages_both_ways() -> None:
    alice, bob = Identity.generate(), Identity.generate()
    left, right = trio.testing.memory_stream_pair()
    links = {}

    async def server() -> None:
        links["bob"] = await accept_link(right, bob, admit=lambda peer: None, label="alice")

    async with trio.open_nursery() as nursery:
        nursery.start_soon(server)
        links["alice"] = await open_link(left, alice, expected=bob.peer_id, label="bob")
    assert links["alice"].peer == bob.peer_id
    assert links["bob"].peer == alice.peer_id
    await links["alice"].send(Ping(7))
    assert await links["bob"].receive() == Ping(7)
    await links["bob"].send(Pong(7))
    assert await links["alice"].receive() == Pong(7)
    await links["alice"].close()
    with pytest.raises(PeerFault, match="GOING_AWAY"):
        await links["bob"].receive()


async def test_refusal_names_the_reason() -> None:
    alice, bob = Identity.generate(), Identity.generate()
    left, right = trio.testing.memory_stream_pair()

    async def server() -> None:
        with pytest.raises(PeerFault, match="table is full"):
            await accept_link(right, bob, admit=lambda peer: "table is full", label="alice")

    async with trio.open_nursery() as nursery:
        nursery.start_soon(server)
        with pytest.raises(PeerFault, match="table is full"):
            await open_link(left, alice, expected=None, label="bob")


async def test_wrong_identity_is_refused() -> None:
    alice, bob, mallory = Identity.generate(), Identity.generate(), Identity.generate()
    left, right = trio.testing.memory_stream_pair()

    async def server() -> None:
        with pytest.raises(PeerFault):
            await accept_link(right, mallory, admit=lambda peer: None, label="alice")

    async with trio.open_nursery() as nursery:
        nursery.start_soon(server)
        with pytest.raises(PeerFault, match="bob"):
            await open_link(left, alice, expected=bob.peer_id, label="bob")


async def test_garbage_names_the_peer(autojump_clock: trio.testing.MockClock) -> None:
    bob = Identity.generate()
    left, right = trio.testing.memory_stream_pair()
    await left.send_all(b"\x00\x00\x00\x05hello")
    with pytest.raises(PeerFault) as info:
        await accept_link(right, bob, admit=lambda peer: None, label="10.0.0.7:4000")
    assert "10.0.0.7:4000" in str(info.value)


async def test_silent_peer_times_out(autojump_clock: trio.testing.MockClock) -> None:
    alice = Identity.generate()
    left, _right = trio.testing.memory_stream_pair()
    with pytest.raises(PeerFault, match="timed out"):
        await open_link(left, alice, expected=None, label="quiet", handshake_seconds=5)
