"""Golden byte vectors: every message type, and a whole channel transcript, byte for byte.

The vectors live in tests/protocol/golden/*.hex and are checked on every run in both directions
(our encoder produces them; our decoder accepts them and yields the same messages). They are
built from fixed seeds (see golden/README.md), so another implementation can reproduce them.

A deliberate wire change regenerates them with::

    P2P_DURAK_REGENERATE_GOLDEN=1 pytest tests/protocol/test_wire_golden.py
"""

from __future__ import annotations

import os

import pytest
from wire_support import (
    GOLDEN_DIR,
    ChannelPair,
    all_samples,
    drain,
    read_golden,
    write_golden,
)

from p2p_durak.protocol.channel import (
    CHANNEL_MESSAGES,
    AcceptHandshake,
    ChannelOpened,
    HandshakeRequest,
    HandshakeResponse,
    StartHandshake,
)
from p2p_durak.protocol.envelope import Envelope
from p2p_durak.protocol.messages import (
    HANDSHAKE_MESSAGES,
    SIGNED_MESSAGES,
    Ack,
    Message,
    Ping,
    Pong,
)

REGENERATE = os.environ.get("P2P_DURAK_REGENERATE_GOLDEN") == "1"
CHANNEL_STEPS = ["init", "reply", "finish", "ping", "pong", "envelope"]


def check(name: str, comment: str, data: bytes) -> None:
    if REGENERATE:
        write_golden(name, comment, data)
    assert read_golden(name) == data, f"{name} differs from tests/protocol/golden/{name}.hex"


def describe(message: Message) -> str:
    text = f"{type(message).__name__} (tag {message.TAG}, version {message.VERSION})"
    if isinstance(message, Envelope):
        text += f" carrying {describe(message.message)}, signed by Bob"
    return text


@pytest.mark.parametrize("name", sorted(all_samples()))
def test_message_vector(name: str) -> None:
    message = all_samples()[name]
    check(name, describe(message), message.encode())


def channel_transcript() -> tuple[ChannelPair, list[bytes]]:
    pair = ChannelPair.create()
    pair.handshake()
    pair.to_responder(pair.initiator.send(Ping(1)))
    pair.to_initiator(pair.responder.send(Pong(1)))
    envelope = Envelope.seal(pair.initiator.identity, bytes(16), Ack(1, bytes(32), bytes(32)))
    pair.to_responder(pair.initiator.send(envelope))
    return pair, [data for _, data in pair.wire_log]


def test_channel_transcript_vector() -> None:
    pair, chunks = channel_transcript()
    assert len(chunks) == len(CHANNEL_STEPS)
    for index, (step, data) in enumerate(zip(CHANNEL_STEPS, chunks, strict=True), start=1):
        direction = (
            "responder -> initiator" if step in ("reply", "pong") else "initiator -> responder"
        )
        check(f"channel_{index}_{step}", f"channel frame {index}: {step}, {direction}", data)
    assert pair.initiator.session_id is not None
    check("channel_session_id", "session_id both ends derive", pair.initiator.session_id)


def test_channel_transcript_decodes() -> None:
    """Drive fresh endpoints (same fixed keys) with the stored frames rather than each other."""
    pair = ChannelPair.create()
    initiator, responder = pair.initiator, pair.responder
    assert initiator.send(StartHandshake()) == read_golden("channel_1_init")
    responder.receive_data(read_golden("channel_1_init"))
    assert isinstance(responder.next_event(), HandshakeRequest)
    assert responder.send(AcceptHandshake()) == read_golden("channel_2_reply")
    initiator.receive_data(read_golden("channel_2_reply"))
    assert isinstance(initiator.next_event(), HandshakeResponse)
    assert initiator.send(AcceptHandshake()) == read_golden("channel_3_finish")
    for step in ["channel_3_finish", "channel_4_ping", "channel_6_envelope"]:
        responder.receive_data(read_golden(step))
    opened, ping, envelope = drain(responder)
    assert isinstance(opened, ChannelOpened)
    assert opened.session_id == read_golden("channel_session_id")
    assert ping == Ping(1)
    assert isinstance(envelope, Envelope)
    assert envelope.message == Ack(1, bytes(32), bytes(32))
    initiator.receive_data(read_golden("channel_5_pong"))
    assert initiator.next_event() == Pong(1)


def test_no_stale_or_missing_vectors() -> None:
    expected = set(all_samples()) | {
        f"channel_{index}_{step}" for index, step in enumerate(CHANNEL_STEPS, start=1)
    }
    expected.add("channel_session_id")
    stored = {path.stem for path in GOLDEN_DIR.glob("*.hex")}
    assert stored == expected


def test_every_message_type_has_a_vector() -> None:
    covered = {type(message) for message in all_samples().values()}
    covered |= {
        type(envelope.message)
        for envelope in all_samples().values()
        if isinstance(envelope, Envelope)
    }
    every = {
        cls
        for table in (HANDSHAKE_MESSAGES, SIGNED_MESSAGES, CHANNEL_MESSAGES)
        for cls in table.values()
    }
    assert every <= covered
