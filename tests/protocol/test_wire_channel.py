"""The encrypted peer channel, two objects wired back to back (h11's ConnectionPair style)."""

from __future__ import annotations

import tracemalloc
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from wire_support import (
    ALICE,
    BOB,
    CAROL,
    GAME,
    ChannelPair,
    drain,
    ephemeral,
    hostile_values,
    sample_direct,
)

from p2p_durak.protocol import codec
from p2p_durak.protocol.channel import (
    HANDSHAKE_MAX_FRAME,
    AcceptHandshake,
    ChannelOpened,
    ChannelState,
    HandshakeRequest,
    HandshakeResponse,
    PeerConnection,
    Role,
    StartHandshake,
)
from p2p_durak.protocol.envelope import Envelope
from p2p_durak.protocol.errors import ErrorCode, LocalProtocolError, RemoteProtocolError
from p2p_durak.protocol.framing import NEED_DATA, ConnectionClosed, Framer
from p2p_durak.protocol.identity import HANDSHAKE_INITIATOR_CONTEXT, Identity
from p2p_durak.protocol.messages import (
    Ack,
    Error,
    HandshakeFinish,
    HandshakeInit,
    JoinRequest,
    Leave,
    Message,
    Ping,
    Pong,
)

APP_MESSAGES = [
    m
    for m in sample_direct().values()
    if not type(m).__name__.startswith(("Handshake", "Error", "JoinRequest"))
]


def open_pair(**options: object) -> ChannelPair:
    pair = ChannelPair.create(**options)  # type: ignore[arg-type]
    pair.handshake()
    return pair


def refused(connection: PeerConnection, code: ErrorCode) -> RemoteProtocolError:
    with pytest.raises(RemoteProtocolError) as info:
        connection.next_event()
    assert info.value.code is code, info.value
    assert connection.state is ChannelState.ERROR
    with pytest.raises(RemoteProtocolError):  # errors are sticky
        connection.next_event()
    return info.value


# --- Handshake ---------------------------------------------------------------------------------


def test_handshake_authenticates_both_sides() -> None:
    pair = ChannelPair.create(expected_peer=None)
    pair.to_responder(pair.initiator.send(StartHandshake()))
    request = pair.responder.next_event()
    assert request == HandshakeRequest(ALICE.peer_id, 1)
    assert pair.responder.peer is None  # only claimed so far
    pair.to_initiator(pair.responder.send(AcceptHandshake()))
    assert pair.initiator.next_event() == HandshakeResponse(BOB.peer_id, 1)
    assert pair.initiator.state is ChannelState.REPLY_RECEIVED
    pair.to_responder(pair.initiator.send(AcceptHandshake()))
    assert pair.initiator.state is ChannelState.OPEN
    opened = pair.responder.next_event()
    assert isinstance(opened, ChannelOpened)
    assert opened.peer == ALICE.peer_id
    assert pair.responder.state is ChannelState.OPEN
    assert pair.initiator.peer == BOB.peer_id
    assert opened.session_id == pair.initiator.session_id
    assert len(opened.session_id) == 32


def test_sessions_differ_with_fresh_ephemeral_keys() -> None:
    first = ChannelPair.create(deterministic=False)
    second = ChannelPair.create(deterministic=False)
    assert first.handshake().session_id != second.handshake().session_id


def test_messages_flow_both_ways() -> None:
    pair = open_pair()
    for message in APP_MESSAGES:
        pair.to_responder(pair.initiator.send(message))
        pair.to_initiator(pair.responder.send(message))
    assert list(drain(pair.responder)) == APP_MESSAGES
    assert list(drain(pair.initiator)) == APP_MESSAGES


def test_envelopes_arrive_verified() -> None:
    pair = open_pair()
    envelope = Envelope.seal(CAROL, GAME, Ack(1, bytes(32), bytes(32)))  # relayed: author ≠ peer
    pair.to_initiator(pair.responder.send(envelope))
    received = pair.initiator.next_event()
    assert received == envelope
    assert isinstance(received, Envelope)
    assert received.encode() == envelope.encode()


def test_forged_envelope_is_refused_naming_the_peer() -> None:
    pair = open_pair()
    envelope = Envelope.seal(CAROL, GAME, Ack(1, bytes(32), bytes(32)))
    fields = list(codec.decode(envelope.encode()))  # type: ignore[arg-type]
    fields[5] = bytes(64)
    forged = codec.encode(tuple(fields))
    # Bob's channel encrypts whatever plaintext it is given; use its internals to send raw bytes.
    direction = pair.responder._send
    assert direction is not None
    frame = direction.aead.encrypt(direction.nonce(), forged, None)
    pair.to_initiator(Framer().send(frame))
    error = refused(pair.initiator, ErrorCode.BAD_SIGNATURE)
    assert BOB.fingerprint in str(error)


def test_every_byte_split() -> None:
    pair = ChannelPair.create()
    outgoing = pair.initiator.send(StartHandshake())
    for byte in outgoing[:-1]:
        pair.to_responder(bytes([byte]))
        assert pair.responder.next_event() is NEED_DATA
    pair.to_responder(outgoing[-1:])
    assert isinstance(pair.responder.next_event(), HandshakeRequest)
    reply = pair.responder.send(AcceptHandshake())
    for byte in reply:
        pair.to_initiator(bytes([byte]))
    assert isinstance(pair.initiator.next_event(), HandshakeResponse)
    stream = pair.initiator.send(AcceptHandshake()) + b"".join(
        pair.initiator.send(message) for message in APP_MESSAGES
    )
    received: list[object] = []
    for byte in stream:
        pair.to_responder(bytes([byte]))
        received += drain(pair.responder)
    assert isinstance(received[0], ChannelOpened)
    assert received[1:] == APP_MESSAGES


def test_version_negotiation_picks_the_highest_common() -> None:
    pair = ChannelPair.create()
    pair.initiator = PeerConnection(ALICE, Role.INITIATOR, versions=(1, 2, 3))
    pair.responder = PeerConnection(BOB, Role.RESPONDER, versions=(1, 2, 4))
    pair.to_responder(pair.initiator.send(StartHandshake()))
    assert pair.responder.next_event() == HandshakeRequest(ALICE.peer_id, 2)
    pair.to_initiator(pair.responder.send(AcceptHandshake()))
    assert pair.initiator.next_event() == HandshakeResponse(BOB.peer_id, 2)


def test_no_common_version_is_refused_and_reported() -> None:
    pair = ChannelPair.create()
    pair.initiator = PeerConnection(ALICE, Role.INITIATOR, versions=(2,))
    pair.to_responder(pair.initiator.send(StartHandshake()))
    error = refused(pair.responder, ErrorCode.UNSUPPORTED_VERSION)
    assert "claiming " + ALICE.fingerprint in str(error)
    # The responder tells the initiator why, in the clear (no keys exist yet).
    pair.to_initiator(pair.responder.send(pair.responder.error_for(error)))
    event = pair.initiator.next_event()
    assert isinstance(event, Error)
    assert event.code is ErrorCode.UNSUPPORTED_VERSION
    assert pair.initiator.state is ChannelState.CLOSED
    assert isinstance(pair.initiator.next_event(), ConnectionClosed)


def test_responder_may_refuse_a_claimed_peer() -> None:
    pair = ChannelPair.create()
    pair.to_responder(pair.initiator.send(StartHandshake()))
    assert isinstance(pair.responder.next_event(), HandshakeRequest)
    pair.to_initiator(pair.responder.send(Error(ErrorCode.REFUSED, "table is private")))
    assert pair.responder.state is ChannelState.CLOSED
    assert pair.initiator.next_event() == Error(ErrorCode.REFUSED, "table is private")


@pytest.mark.parametrize("side", ["initiator", "responder"])
def test_unexpected_identity_is_refused(side: str) -> None:
    pair = ChannelPair.create()
    if side == "initiator":
        pair.initiator = PeerConnection(ALICE, Role.INITIATOR, expected_peer=CAROL.peer_id)
    else:
        pair.responder = PeerConnection(BOB, Role.RESPONDER, expected_peer=CAROL.peer_id)
    pair.to_responder(pair.initiator.send(StartHandshake()))
    if side == "responder":
        error = refused(pair.responder, ErrorCode.WRONG_IDENTITY)
        assert CAROL.fingerprint in str(error)
        return
    pair.responder.next_event()
    pair.to_initiator(pair.responder.send(AcceptHandshake()))
    error = refused(pair.initiator, ErrorCode.WRONG_IDENTITY)
    assert f"expected {CAROL.fingerprint}, got {BOB.fingerprint}" in str(error)


@pytest.mark.parametrize("side", ["initiator", "responder"])
def test_an_expected_fingerprint_pins_the_peer(side: str) -> None:
    """An mDNS advertisement names the host by fingerprint only (docs/protocol.md §5, §9):
    whoever answers at the address must prove an identity with that fingerprint."""
    role = Role.INITIATOR if side == "initiator" else Role.RESPONDER
    own, peer = (ALICE, BOB) if side == "initiator" else (BOB, ALICE)
    right = ChannelPair.create()
    setattr(right, side, PeerConnection(own, role, expected_fingerprint=peer.fingerprint))
    assert right.handshake().peer == ALICE.peer_id
    wrong = ChannelPair.create()
    pinned = PeerConnection(own, role, expected_fingerprint=CAROL.fingerprint)
    setattr(wrong, side, pinned)
    wrong.to_responder(wrong.initiator.send(StartHandshake()))
    if side == "initiator":
        wrong.responder.next_event()
        wrong.to_initiator(wrong.responder.send(AcceptHandshake()))
    error = refused(pinned, ErrorCode.WRONG_IDENTITY)
    assert f"expected fingerprint {CAROL.fingerprint}, got {peer.fingerprint}" in str(error)
    with pytest.raises(LocalProtocolError):  # the initiator never signs for the impostor
        pinned.send(AcceptHandshake())


def test_expected_identity_is_accepted() -> None:
    pair = ChannelPair.create()
    pair.initiator = PeerConnection(ALICE, Role.INITIATOR, expected_peer=BOB.peer_id)
    pair.responder = PeerConnection(BOB, Role.RESPONDER, expected_peer=ALICE.peer_id)
    assert pair.handshake().peer == ALICE.peer_id


def test_peer_claiming_our_identity_is_refused() -> None:
    pair = ChannelPair.create(initiator=BOB, responder=BOB)
    pair.to_responder(pair.initiator.send(StartHandshake()))
    refused(pair.responder, ErrorCode.WRONG_IDENTITY)


def test_impostor_cannot_finish_the_handshake() -> None:
    """Mallory claims Alice's identity; without Alice's key she cannot sign the transcript."""
    mallory = Identity.from_seed(bytes(32))
    framer = Framer()
    responder = PeerConnection(BOB, Role.RESPONDER)
    init = HandshakeInit((1,), ALICE.peer_id, bytes(range(1, 33)))
    responder.receive_data(framer.send(init.encode()))
    assert responder.next_event() == HandshakeRequest(ALICE.peer_id, 1)
    reply_bytes = responder.send(AcceptHandshake())[4:]
    transcript = codec.sha256(init.encode()) + codec.sha256(reply_bytes)
    forged = HandshakeFinish(mallory.sign(HANDSHAKE_INITIATOR_CONTEXT, transcript))
    responder.receive_data(framer.send(forged.encode()))
    error = refused(responder, ErrorCode.BAD_SIGNATURE)
    assert "claiming " + ALICE.fingerprint in str(error)
    assert responder.peer is None


def test_finish_from_an_old_session_is_refused() -> None:
    old = ChannelPair.create()
    old.handshake()
    old_finish = old.wire_log[2][1]
    fresh = ChannelPair.create(deterministic=False)
    fresh.to_responder(fresh.initiator.send(StartHandshake()))
    fresh.responder.next_event()
    fresh.responder.send(AcceptHandshake())
    fresh.to_responder(old_finish)
    refused(fresh.responder, ErrorCode.BAD_SIGNATURE)


def test_replayed_handshake_is_refused() -> None:
    """Replaying a recorded init and finish to a responder with a fresh ephemeral key fails:
    the initiator's signature covers the responder's ephemeral key of the recorded session."""
    old = ChannelPair.create()
    old.handshake()
    (_, old_init), _, (_, old_finish) = old.wire_log
    responder = PeerConnection(BOB, Role.RESPONDER)
    responder.receive_data(old_init)
    assert responder.next_event() == HandshakeRequest(ALICE.peer_id, 1)
    responder.send(AcceptHandshake())
    responder.receive_data(old_finish)
    refused(responder, ErrorCode.BAD_SIGNATURE)


@pytest.mark.parametrize("field", ["ephemeral", "identity", "versions"])
def test_tampered_init_is_detected_by_the_initiator(field: str) -> None:
    """A man in the middle changes the init on its way: swaps the initiator's ephemeral key (to
    share a key with the responder), relabels it with another identity (so the responder thinks
    it talks to her: an unknown key share), or strips the versions offered (a downgrade). The
    reply's signature covers the init bytes the responder saw, so the initiator refuses it."""
    pair = ChannelPair.create()
    pair.initiator = PeerConnection(ALICE, Role.INITIATOR, versions=(1, 2),
                                    ephemeral_key=ephemeral("initiator"))
    pair.responder = PeerConnection(BOB, Role.RESPONDER, versions=(1, 2),
                                    ephemeral_key=ephemeral("responder"))
    init = pair.initiator.send(StartHandshake())
    own_ephemeral = ephemeral("initiator").public_key().public_bytes_raw()
    sent = HandshakeInit((1, 2), ALICE.peer_id, own_ephemeral)
    assert Framer().send(sent.encode()) == init
    swapped = {
        "ephemeral": HandshakeInit((1, 2), ALICE.peer_id, bytes(range(1, 33))),
        "identity": HandshakeInit((1, 2), CAROL.peer_id, sent.ephemeral),
        "versions": HandshakeInit((1,), ALICE.peer_id, sent.ephemeral),
    }[field]
    pair.to_responder(Framer().send(swapped.encode()))
    pair.responder.next_event()
    pair.to_initiator(pair.responder.send(AcceptHandshake()))
    refused(pair.initiator, ErrorCode.BAD_SIGNATURE)
    assert pair.initiator.peer is None  # the responder is not taken for proven


@pytest.mark.parametrize("field", ["ephemeral", "identity", "version"])
def test_tampered_reply_is_refused(field: str) -> None:
    pair = ChannelPair.create()
    pair.initiator = PeerConnection(ALICE, Role.INITIATOR, versions=(1, 2))
    pair.responder = PeerConnection(BOB, Role.RESPONDER, versions=(1, 2))
    pair.to_responder(pair.initiator.send(StartHandshake()))
    pair.responder.next_event()
    reply = codec.decode(pair.responder.send(AcceptHandshake())[4:])
    assert isinstance(reply, tuple)
    changed = {
        "version": (*reply[:2], 1, *reply[3:]),
        "identity": (*reply[:3], CAROL.peer_id.key, *reply[4:]),
        "ephemeral": (*reply[:4], bytes(range(1, 33)), *reply[5:]),
    }[field]
    pair.to_initiator(Framer().send(codec.encode(changed)))
    refused(pair.initiator, ErrorCode.BAD_SIGNATURE)


def test_low_order_ephemeral_key_is_refused() -> None:
    responder = PeerConnection(BOB, Role.RESPONDER)
    init = HandshakeInit((1,), ALICE.peer_id, bytes(32))  # the all-zero X25519 point
    responder.receive_data(Framer().send(init.encode()))
    refused(responder, ErrorCode.MALFORMED)


def test_out_of_turn_handshake_messages_are_refused() -> None:
    pair = ChannelPair.create()
    init = pair.initiator.send(StartHandshake())
    pair.to_responder(init + init)
    assert isinstance(pair.responder.next_event(), HandshakeRequest)
    pair.responder.send(AcceptHandshake())
    refused(pair.responder, ErrorCode.UNEXPECTED_MESSAGE)


def test_application_message_before_open_is_refused() -> None:
    responder = PeerConnection(BOB, Role.RESPONDER)
    responder.receive_data(Framer().send(Ping(1).encode()))
    refused(responder, ErrorCode.UNEXPECTED_MESSAGE)


def test_a_large_frame_before_the_channel_opens_is_refused_from_its_header() -> None:
    # A stranger may not make us buffer a megabyte per connection before it has proven who it
    # is: handshake frames are small (docs/protocol.md §4, §14), and the header alone decides.
    for side in ("responder", "initiator"):
        pair = ChannelPair.create()
        if side == "responder":
            connection = pair.responder
        else:
            pair.initiator.send(StartHandshake())
            connection = pair.initiator
        connection.receive_data((HANDSHAKE_MAX_FRAME + 1).to_bytes(4, "big") + b"x")
        error = refused(connection, ErrorCode.FRAME_TOO_LARGE)
        assert str(HANDSHAKE_MAX_FRAME) in error.reason


def test_every_handshake_message_fits_the_handshake_frame_bound() -> None:
    longest = Error(ErrorCode.INTERNAL, "é" * 128)  # the longest detail: 256 bytes
    offer = HandshakeInit(tuple(range(1, 9)), ALICE.peer_id, bytes(range(32)))
    assert max(len(longest.encode()), len(offer.encode())) <= HANDSHAKE_MAX_FRAME
    pair = open_pair()  # and the open channel takes full-size frames again
    big = Leave(GAME, "x" * 64)
    pair.to_responder(pair.initiator.send(big))
    assert pair.responder.next_event() == big
    pair.to_responder(codec.MAX_FRAME_SIZE.to_bytes(4, "big"))
    assert pair.responder.next_event() is NEED_DATA  # a full-size frame may follow


# --- Encrypted frames --------------------------------------------------------------------------


def frames_to_responder(pair: ChannelPair, *messages: Message) -> list[bytes]:
    return [pair.initiator.send(message) for message in messages]


def test_tampered_frame_is_refused() -> None:
    pair = open_pair()
    frame = bytearray(pair.initiator.send(Ping(1)))
    frame[-1] ^= 0x01
    pair.to_responder(bytes(frame))
    error = refused(pair.responder, ErrorCode.BAD_FRAME)
    assert error.peer == ALICE.fingerprint
    assert "frame 0" in str(error)


def test_replayed_frame_is_refused() -> None:
    pair = open_pair()
    first, second = frames_to_responder(pair, Ping(1), Ping(2))
    pair.to_responder(first + second + first)
    assert list(drain_until_error(pair.responder)) == [Ping(1), Ping(2)]
    refused(pair.responder, ErrorCode.BAD_FRAME)


def test_reordered_frames_are_refused() -> None:
    pair = open_pair()
    first, second = frames_to_responder(pair, Ping(1), Ping(2))
    pair.to_responder(second + first)
    refused(pair.responder, ErrorCode.BAD_FRAME)


def test_dropped_frame_is_detected() -> None:
    pair = open_pair()
    _, second = frames_to_responder(pair, Ping(1), Ping(2))
    pair.to_responder(second)
    refused(pair.responder, ErrorCode.BAD_FRAME)


def test_reflected_frame_is_refused() -> None:
    pair = open_pair()
    frame = pair.initiator.send(Ping(1))
    pair.to_initiator(frame)  # sent back to its own author: the directions use different keys
    refused(pair.initiator, ErrorCode.BAD_FRAME)


def test_frame_from_another_session_is_refused() -> None:
    one = open_pair(deterministic=False)
    other = open_pair(deterministic=False)
    other.to_responder(one.initiator.send(Ping(1)))
    refused(other.responder, ErrorCode.BAD_FRAME)


def test_truncated_frame_is_refused() -> None:
    pair = open_pair()
    frame = pair.initiator.send(Ping(1))
    shortened = (len(frame) - 6).to_bytes(4, "big") + frame[4:-2]
    pair.to_responder(shortened)
    refused(pair.responder, ErrorCode.BAD_FRAME)


def test_stream_cut_inside_a_frame_is_truncation() -> None:
    pair = open_pair()
    frame = pair.initiator.send(Ping(1))
    pair.to_responder(frame[:-3])
    assert pair.responder.next_event() is NEED_DATA
    pair.to_responder(b"")
    refused(pair.responder, ErrorCode.TRUNCATED)


def test_injected_plaintext_is_refused() -> None:
    pair = open_pair()
    pair.to_responder(Framer().send(Ping(1).encode()))
    refused(pair.responder, ErrorCode.BAD_FRAME)


def test_clean_close() -> None:
    pair = open_pair()
    pair.to_responder(pair.initiator.send(Leave(GAME, "bye")))
    pair.to_responder(b"")
    assert pair.responder.next_event() == Leave(GAME, "bye")
    assert isinstance(pair.responder.next_event(), ConnectionClosed)
    assert pair.responder.state is ChannelState.CLOSED
    assert isinstance(pair.responder.next_event(), ConnectionClosed)


def test_error_closes_the_channel_both_ways() -> None:
    pair = open_pair()
    pair.to_responder(pair.initiator.send(Error(ErrorCode.GOING_AWAY, "quit")))
    assert pair.initiator.state is ChannelState.CLOSED
    assert pair.responder.next_event() == Error(ErrorCode.GOING_AWAY, "quit")
    assert pair.responder.state is ChannelState.CLOSED
    with pytest.raises(LocalProtocolError):
        pair.responder.send(Ping(1))


def test_join_request_must_name_the_channel_peer() -> None:
    pair = open_pair()
    honest = JoinRequest(GAME, 1, bytes(32), "Alice", ALICE.peer_id)
    pair.to_responder(pair.initiator.send(honest))
    assert pair.responder.next_event() == honest
    pair.to_responder(pair.initiator.send(JoinRequest(GAME, 1, bytes(32), "Carol", CAROL.peer_id)))
    refused(pair.responder, ErrorCode.WRONG_IDENTITY)


def test_after_a_peer_fault_only_an_error_may_be_sent() -> None:
    pair = open_pair()
    pair.to_responder(b"\x00\x00\x00\x20" + bytes(32))
    error = refused(pair.responder, ErrorCode.BAD_FRAME)
    with pytest.raises(LocalProtocolError):
        pair.responder.send(Ping(1))
    pair.to_initiator(pair.responder.send(pair.responder.error_for(error)))
    told = pair.initiator.next_event()
    assert isinstance(told, Error)
    assert told.code is ErrorCode.BAD_FRAME


# --- Local misuse ------------------------------------------------------------------------------


def test_local_misuse_raises_local_errors() -> None:
    pair = ChannelPair.create()
    with pytest.raises(LocalProtocolError):
        pair.responder.send(StartHandshake())
    with pytest.raises(LocalProtocolError):
        pair.initiator.send(Ping(1))
    with pytest.raises(LocalProtocolError):
        pair.initiator.send(AcceptHandshake())
    pair.to_responder(pair.initiator.send(StartHandshake()))
    with pytest.raises(LocalProtocolError):
        pair.initiator.send(StartHandshake())
    pair.responder.next_event()
    pair.responder.send(AcceptHandshake())
    with pytest.raises(LocalProtocolError):
        pair.responder.send(AcceptHandshake())
    with pytest.raises(LocalProtocolError):
        pair.responder.send(Ack(1, bytes(32), bytes(32)))  # a signed kind needs an envelope
    with pytest.raises(LocalProtocolError):
        PeerConnection(ALICE, Role.INITIATOR, versions=(2, 1))


def test_oversize_message_is_a_local_error() -> None:
    pair = open_pair(max_frame_size=200)
    with pytest.raises(LocalProtocolError) as info:
        pair.initiator.send(Leave(GAME, "x" * 250))
    assert info.value.code is ErrorCode.FRAME_TOO_LARGE
    assert pair.initiator.state is ChannelState.OPEN
    pair.to_responder(pair.initiator.send(Ping(1)))  # the counter did not move
    assert pair.responder.next_event() == Ping(1)


def test_nonce_exhaustion() -> None:
    pair = open_pair(nonce_limit=3)
    frames = frames_to_responder(pair, Ping(1), Ping(2), Ping(3))
    with pytest.raises(LocalProtocolError) as info:
        pair.initiator.send(Ping(4))
    assert info.value.code is ErrorCode.NONCE_EXHAUSTED
    pair.to_responder(b"".join(frames))
    assert list(drain(pair.responder)) == [Ping(1), Ping(2), Ping(3)]


def test_peer_past_the_nonce_limit_is_refused() -> None:
    pair = ChannelPair.create()
    pair.responder = PeerConnection(
        BOB, Role.RESPONDER, nonce_limit=1, ephemeral_key=ephemeral("r")
    )
    pair.handshake()
    pair.to_responder(b"".join(frames_to_responder(pair, Ping(1), Ping(2))))
    assert pair.responder.next_event() == Ping(1)
    refused(pair.responder, ErrorCode.NONCE_EXHAUSTED)


def test_ping_response() -> None:
    assert Ping(7).response() == Pong(7)


# --- Property tests ----------------------------------------------------------------------------


def drain_until_error(connection: PeerConnection) -> list[object]:
    events = []
    try:
        while (event := connection.next_event()) is not NEED_DATA:
            events.append(event)
            if isinstance(event, ConnectionClosed):
                break
    except RemoteProtocolError:
        pass
    return events


CHANNEL_FUZZ = settings(
    derandomize=True, max_examples=60, suppress_health_check=[HealthCheck.too_slow], deadline=None
)


@CHANNEL_FUZZ
@given(
    st.lists(st.tuples(st.booleans(), st.sampled_from(APP_MESSAGES)), max_size=12),
    st.lists(st.integers(1, 64), min_size=1, max_size=8),
)
def test_any_interleaving_and_chunking_delivers_in_order(
    sends: list[tuple[bool, Message]], chunk_sizes: list[int]
) -> None:
    pair = open_pair()
    to_r = b"".join(pair.initiator.send(m) for forward, m in sends if forward)
    to_i = b"".join(pair.responder.send(m) for forward, m in sends if not forward)
    got_r: list[object] = []
    got_i: list[object] = []
    for stream, feed, connection, got in [
        (to_r, pair.to_responder, pair.responder, got_r),
        (to_i, pair.to_initiator, pair.initiator, got_i),
    ]:
        offset, turn = 0, 0
        while offset < len(stream):
            size = chunk_sizes[turn % len(chunk_sizes)]
            feed(stream[offset : offset + size])
            got += drain(connection)
            offset, turn = offset + size, turn + 1
    assert got_r == [m for forward, m in sends if forward]
    assert got_i == [m for forward, m in sends if not forward]


@CHANNEL_FUZZ
@given(st.data())
def test_any_corruption_is_refused_never_misdelivered(data: st.DataObject) -> None:
    pair = open_pair()
    messages = [Ping(1), Leave(GAME, "bye"), Pong(2)]
    stream = bytearray(b"".join(pair.initiator.send(m) for m in messages))
    position = data.draw(st.integers(0, len(stream) - 1))
    stream[position] ^= data.draw(st.integers(1, 255))
    pair.to_responder(bytes(stream))
    pair.to_responder(b"")
    events = drain_until_error(pair.responder)
    assert pair.responder.state is ChannelState.ERROR
    assert events == messages[: len(events)]  # a prefix of what was sent, nothing else


# --- Hostile input in every state: only protocol errors, bounded memory -------------------------

HANDSHAKE_STATES = ["await_init", "await_reply", "await_finish", "open"]


def victim_in(state: str) -> tuple[PeerConnection, Callable[[bytes], bytes]]:
    """A connection waiting in `state`, and how a peer on its channel would wrap a frame body
    (plaintext before the channel opens; encrypted with the peer's real key after)."""
    pair = ChannelPair.create()
    if state == "await_init":
        return pair.responder, Framer().send
    pair.to_responder(pair.initiator.send(StartHandshake()))
    pair.responder.next_event()
    if state == "await_reply":
        return pair.initiator, Framer().send
    pair.to_initiator(pair.responder.send(AcceptHandshake()))
    pair.initiator.next_event()
    if state == "await_finish":
        return pair.responder, Framer().send
    pair.to_responder(pair.initiator.send(AcceptHandshake()))
    pair.responder.next_event()
    sender = pair.initiator._send  # the initiator's real key: the frames authenticate
    assert sender is not None

    def seal(body: bytes) -> bytes:
        assert sender is not None
        ciphertext = sender.aead.encrypt(sender.nonce(), body, None)
        sender.counter += 1
        return Framer().send(ciphertext)

    return pair.responder, seal


def feed_hostile(connection: PeerConnection, data: bytes) -> None:
    """Deliver `data` and end the stream: the connection may yield events or refuse with a
    `RemoteProtocolError`; anything else (another exception, a hang) fails the test."""
    connection.receive_data(data)
    connection.receive_data(b"")
    failure: RemoteProtocolError | None = None
    for _ in range(len(data) + 2):  # every event consumes at least one frame
        try:
            event = connection.next_event()
        except RemoteProtocolError as error:
            failure = error
            break
        if isinstance(event, ConnectionClosed):
            return
    else:
        raise AssertionError("the connection neither ended nor refused")
    assert connection.state is ChannelState.ERROR
    assert failure.peer is not None  # named, even if only by "unidentified peer"


HOSTILE_VALUES = hostile_values(max_leaves=16)


@CHANNEL_FUZZ
@given(st.sampled_from(HANDSHAKE_STATES), st.binary(max_size=300))
def test_random_bytes_in_any_state_give_only_protocol_errors(state: str, data: bytes) -> None:
    victim, _ = victim_in(state)
    feed_hostile(victim, data)


@CHANNEL_FUZZ
@given(st.sampled_from(HANDSHAKE_STATES), st.lists(HOSTILE_VALUES, min_size=1, max_size=3),
       st.sampled_from([1, 2, 3, 4, 5, 64, 65]))
def test_random_structures_in_any_state_give_only_protocol_errors(
    state: str, values: list[codec.Value], tag: int
) -> None:
    """Well-framed, canonical, and (once open) properly encrypted bodies holding random
    structures, most of them shaped like a message: `[tag, 1, random fields...]`."""
    victim, wrap = victim_in(state)
    bodies = []
    for value in values:
        shaped = (tag, 1, *value) if isinstance(value, tuple) else value
        try:
            bodies.append(wrap(codec.encode(shaped)))
        except LocalProtocolError:  # nested deeper than anyone can encode
            bodies.append(wrap(b"\x91" * 6 + b"\x00"))
    feed_hostile(victim, b"".join(bodies))


@pytest.mark.parametrize("state", HANDSHAKE_STATES)
def test_a_huge_declared_frame_is_refused_before_it_is_buffered(state: str) -> None:
    """A peer announces a 4 GiB frame and starts streaming it: refused from the 4-byte header,
    and the connection's memory stays far below even one legal frame (1 MiB)."""
    victim, _ = victim_in(state)
    chunk = bytes(64 * 1024)
    tracemalloc.start()
    try:
        victim.receive_data(b"\xff\xff\xff\xff")
        with pytest.raises(RemoteProtocolError) as info:
            victim.next_event()
        for _ in range(16):  # a careless caller goes on feeding the refused stream
            victim.receive_data(chunk)
            with pytest.raises(RemoteProtocolError):
                victim.next_event()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert info.value.code is ErrorCode.FRAME_TOO_LARGE
    assert victim.state is ChannelState.ERROR
    assert peak < 256 * 1024  # 16 chunks of 64 KiB arrived: none of them was kept


def test_bytes_after_a_peer_fault_are_not_kept() -> None:
    """A forged frame ends the channel; a peer that keeps streaming afterwards (here 1 MiB in
    64 KiB chunks) does not make the connection hold any of it."""
    pair = open_pair()
    pair.to_responder(b"\x00\x00\x00\x20" + bytes(32))
    refused(pair.responder, ErrorCode.BAD_FRAME)
    chunk = bytes(64 * 1024)
    tracemalloc.start()
    try:
        for _ in range(16):
            pair.responder.receive_data(chunk)
            with pytest.raises(RemoteProtocolError):
                pair.responder.next_event()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 256 * 1024
