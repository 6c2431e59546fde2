"""The node's channel adapter: handshake, messages both ways, refusal, garbage, timeouts."""

from __future__ import annotations

import pytest
import trio
import trio.testing

from p2p_durak.node.link import FRAME_SECONDS, Link, PeerFault, accept_link, open_link
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


async def _open_pair() -> tuple[Link, Link, trio.abc.Stream]:
    alice, bob = Identity.generate(), Identity.generate()
    left, right = trio.testing.memory_stream_pair()
    links: dict[str, Link] = {}

    async def server() -> None:
        links["bob"] = await accept_link(right, bob, admit=lambda peer: None, label="alice")

    async with trio.open_nursery() as nursery:
        nursery.start_soon(server)
        links["alice"] = await open_link(left, alice, expected=bob.peer_id, label="bob")
    return links["alice"], links["bob"], left


async def test_a_frame_that_never_completes_is_a_fault(
        autojump_clock: trio.testing.MockClock) -> None:
    _alice, bob, raw = await _open_pair()
    await raw.send_all((1 << 20).to_bytes(4, "big") + bytes(10))  # a header, and then nothing
    began = trio.current_time()
    with pytest.raises(PeerFault, match=f"stayed incomplete for {FRAME_SECONDS:g} s"):
        await bob.receive()
    assert trio.current_time() - began == pytest.approx(FRAME_SECONDS)


async def test_frames_split_across_reads_for_long_are_no_fault(
        autojump_clock: trio.testing.MockClock) -> None:
    # A steady stream whose reads never end on a frame boundary: some frame is always begun,
    # none stays incomplete.
    alice, bob, _raw = await _open_pair()
    pings = int(3 * FRAME_SECONDS)
    frames = b"".join(alice.conn.send(Ping(i)) for i in range(pings))

    async def trickle() -> None:
        for at in range(0, len(frames), 7):  # 7 bytes a second: no read holds whole frames
            await alice.stream.send_all(frames[at:at + 7])
            await trio.sleep(7 / len(frames) * pings)

    async with trio.open_nursery() as nursery:
        nursery.start_soon(trickle)
        for i in range(pings):
            assert await bob.receive() == Ping(i)
