"""Golden byte vectors: every message type, and a whole channel transcript, byte for byte.

The vectors live in tests/protocol/golden/*.hex and are checked on every run in both directions
(our encoder produces them; our decoder accepts them and yields the same messages). They are
built from fixed seeds (see golden/README.md), so another implementation can reproduce them.

A deliberate wire change regenerates them with::

    P2P_DURAK_REGENERATE_GOLDEN=1 pytest tests/protocol/test_wire_golden.py
"""

from __future__ import annotations

import importlib
import os
import pkgutil
import sys

import pytest
from wire_support import (
    GOLDEN_DIR,
    ChannelPair,
    all_samples,
    drain,
    read_golden,
    write_golden,
)

import p2p_durak.protocol
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
    Catalogue,
    Message,
    Ping,
    Pong,
    decode_message,
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


def catalogue_of(message: Message) -> Catalogue:
    for table in (HANDSHAKE_MESSAGES, SIGNED_MESSAGES, CHANNEL_MESSAGES):
        if table.get((message.TAG, message.VERSION)) is type(message):
            return table
    raise AssertionError(f"{type(message).__name__} is in no catalogue")


@pytest.mark.parametrize("name", sorted(all_samples()))
def test_message_vector(name: str) -> None:
    message = all_samples()[name]
    check(name, describe(message), message.encode())
    # ... and the other direction: the stored bytes decode to the same message.
    stored = read_golden(name)
    decoded = decode_message(stored, catalogue_of(message))
    assert decoded == message
    assert decoded.encode() == stored
    if isinstance(message, Envelope):
        assert isinstance(decoded, Envelope)
        assert decoded.message == message.message


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


def every_message_class() -> set[type[Message]]:
    """Every `Message` subclass in any module of the protocol package, found by walking the
    package (not by reading the catalogues): a new message type anywhere needs a vector."""
    for module in pkgutil.walk_packages(p2p_durak.protocol.__path__, "p2p_durak.protocol."):
        importlib.import_module(module.name)
    found: set[type[Message]] = set()
    pending = list(Message.__subclasses__())
    while pending:
        cls = pending.pop()
        pending += cls.__subclasses__()
        # `dataclass(slots=True)` builds a new class; the one it replaced lingers among the
        # subclasses until collected. Count only the class its module actually exports.
        if getattr(sys.modules[cls.__module__], cls.__qualname__, None) is cls:
            found.add(cls)
    return found


def test_every_message_type_has_a_vector() -> None:
    covered = {type(message) for message in all_samples().values()}
    covered |= {
        type(envelope.message)
        for envelope in all_samples().values()
        if isinstance(envelope, Envelope)
    }
    every = every_message_class()
    assert len(every) >= 20  # the walk found the catalogue (a broken walk must not pass)
    assert every == covered, f"no golden vector for {sorted(c.__name__ for c in every - covered)}"
    catalogued = {
        cls
        for table in (HANDSHAKE_MESSAGES, SIGNED_MESSAGES, CHANNEL_MESSAGES)
        for cls in table.values()
    }
    assert every == catalogued, "a message type that no catalogue admits can never be received"
