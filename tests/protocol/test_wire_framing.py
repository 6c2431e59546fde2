"""Streaming framer: frames in any chunking, bounded, strict about truncation."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from p2p_durak.protocol.errors import ErrorCode, LocalProtocolError, RemoteProtocolError
from p2p_durak.protocol.framing import NEED_DATA, ConnectionClosed, Frame, Framer


def frames_of(framer: Framer) -> list[bytes]:
    bodies = []
    while isinstance(event := framer.next_event(), Frame):
        bodies.append(event.body)
    assert event is NEED_DATA
    return bodies


def test_header_is_four_bytes_big_endian() -> None:
    assert Framer().send(b"abc") == b"\x00\x00\x00\x03abc"


def test_several_frames_in_one_chunk() -> None:
    sender, receiver = Framer(), Framer()
    receiver.receive_data(b"".join(sender.send(body) for body in [b"a", b"bc", b"def"]))
    assert frames_of(receiver) == [b"a", b"bc", b"def"]


def test_one_byte_at_a_time() -> None:
    sender, receiver = Framer(), Framer()
    stream = sender.send(b"hello") + sender.send(b"x" * 300)
    received = []
    for byte in stream:
        receiver.receive_data(bytes([byte]))
        received += frames_of(receiver)
    assert received == [b"hello", b"x" * 300]
    assert receiver.buffered == 0


def test_oversize_frame_refused_from_its_header() -> None:
    receiver = Framer(max_frame_size=10)
    receiver.receive_data((11).to_bytes(4, "big"))  # no body at all yet
    with pytest.raises(RemoteProtocolError) as info:
        receiver.next_event()
    assert info.value.code is ErrorCode.FRAME_TOO_LARGE
    with pytest.raises(RemoteProtocolError):  # the error sticks
        receiver.next_event()


def test_zero_length_frame_refused() -> None:
    receiver = Framer()
    receiver.receive_data(bytes(4))
    with pytest.raises(RemoteProtocolError) as info:
        receiver.next_event()
    assert info.value.code is ErrorCode.MALFORMED  # docs/protocol.md §4


def test_clean_end_of_stream() -> None:
    receiver = Framer()
    receiver.receive_data(Framer().send(b"last"))
    receiver.receive_data(b"")
    assert receiver.next_event() == Frame(b"last")
    assert isinstance(receiver.next_event(), ConnectionClosed)
    assert isinstance(receiver.next_event(), ConnectionClosed)
    with pytest.raises(LocalProtocolError):
        receiver.receive_data(b"more")


@pytest.mark.parametrize("cut", [1, 3, 4, 6])
def test_end_of_stream_inside_a_frame_is_truncation(cut: int) -> None:
    receiver = Framer()
    receiver.receive_data(Framer().send(b"abcd")[:cut])
    assert receiver.next_event() is NEED_DATA
    receiver.receive_data(b"")
    with pytest.raises(RemoteProtocolError) as info:
        receiver.next_event()
    assert info.value.code is ErrorCode.TRUNCATED


def test_send_refuses_empty_and_oversize_bodies() -> None:
    framer = Framer(max_frame_size=4)
    with pytest.raises(LocalProtocolError):
        framer.send(b"")
    with pytest.raises(LocalProtocolError):
        framer.send(b"12345")
    with pytest.raises(LocalProtocolError):
        Framer(max_frame_size=0)


def test_buffer_is_compacted() -> None:
    sender, receiver = Framer(), Framer()
    for index in range(2000):
        receiver.receive_data(sender.send(index.to_bytes(2, "big") * 50))
        assert len(frames_of(receiver)) == 1
        assert len(receiver._buffer) < 1000


@pytest.mark.slow
@settings(derandomize=True, max_examples=200)
@given(
    bodies=st.lists(st.binary(min_size=1, max_size=64), max_size=12),
    cuts=st.lists(st.integers(0, 2000), max_size=12),
)
def test_any_chunking_gives_the_same_frames(bodies: list[bytes], cuts: list[int]) -> None:
    sender, receiver = Framer(), Framer()
    stream = b"".join(sender.send(body) for body in bodies)
    edges = sorted({0, len(stream), *(cut % (len(stream) + 1) for cut in cuts)})
    received = []
    for start, end in itertools.pairwise(edges):
        receiver.receive_data(stream[start:end])
        received += frames_of(receiver)
    receiver.receive_data(b"")
    assert isinstance(receiver.next_event(), ConnectionClosed)
    assert received == bodies


@settings(derandomize=True, max_examples=200)
@given(st.binary(max_size=256))
def test_random_streams_give_frames_or_protocol_errors(stream: bytes) -> None:
    receiver = Framer(max_frame_size=64)
    receiver.receive_data(stream)
    receiver.receive_data(b"")
    try:
        while isinstance(event := receiver.next_event(), Frame):
            assert 1 <= len(event.body) <= 64
    except RemoteProtocolError:
        return
    assert isinstance(event, ConnectionClosed)
