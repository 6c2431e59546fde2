"""docs/protocol.md §4–§6: the channel handshake and encrypted frames, from the spec alone.

First against the recorded channel in tests/protocol/golden (§16: Alice dials Bob, Ping, Pong,
an enveloped Ack), then live against the reference `PeerConnection` (Appendix A) in both roles,
including the refusals §5 and §13 promise: no common version, a claim of the responder's own
identity, a forged signature, a replayed frame.
"""

from __future__ import annotations

import pytest
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

from p2p_durak.protocol.channel import (
    AcceptHandshake,
    ChannelOpened,
    HandshakeRequest,
    HandshakeResponse,
    PeerConnection,
    Role,
    StartHandshake,
)
from p2p_durak.protocol.errors import LocalProtocolError, RemoteProtocolError
from p2p_durak.protocol.framing import NEED_DATA, ConnectionClosed
from p2p_durak.protocol.identity import Identity
from p2p_durak.protocol.messages import Error, Ping, Pong

from .cleanroom_channel import (
    Channel,
    Direction,
    Initiator,
    Responder,
    frame,
    initiator_signed_bytes,
    key_schedule,
    nonce,
    responder_signed_bytes,
    split_frames,
    x25519,
    x25519_public,
)
from .cleanroom_crypto import INITIATOR_CONTEXT, RESPONDER_CONTEXT, public_key, sign
from .cleanroom_msgpack import write
from .cleanroom_schema import DIRECT, HANDSHAKE, SIGNED, SpecRefusal, identify
from .vectors import (
    ALICE_SEED,
    BOB_SEED,
    CAROL_SEED,
    GAME_ID,
    INITIATOR_EPHEMERAL,
    RESPONDER_EPHEMERAL,
    load,
)

ALICE, BOB = public_key(ALICE_SEED), public_key(BOB_SEED)


def recorded_bodies() -> list[bytes]:
    stream = b"".join(load(f"channel_{n}") for n in
                      ("1_init", "2_reply", "3_finish", "4_ping", "5_pong", "6_envelope"))
    return split_frames(stream)


def test_the_recorded_handshake_follows_section_5_byte_for_byte() -> None:
    init, reply, finish, *_ = recorded_bodies()
    hello = identify(init, HANDSHAKE)
    assert hello.fields == {"versions": (1,), "identity": ALICE,
                            "ephemeral": x25519_public(INITIATOR_EPHEMERAL)}
    answer = identify(reply, HANDSHAKE)
    assert answer["version"] == 1
    assert answer["identity"] == BOB
    assert answer["ephemeral"] == x25519_public(RESPONDER_EPHEMERAL)
    # Ed25519 signatures are deterministic: signing what §5 says must give the recorded bytes.
    assert answer["signature"] == sign(BOB_SEED, RESPONDER_CONTEXT, responder_signed_bytes(
        init, 1, BOB, x25519_public(RESPONDER_EPHEMERAL)))
    assert identify(finish, HANDSHAKE)["signature"] == sign(
        ALICE_SEED, INITIATOR_CONTEXT, initiator_signed_bytes(init, reply))


def test_the_key_schedule_derives_the_recorded_session_and_opens_every_frame() -> None:
    init, reply, _, ping, pong, envelope = recorded_bodies()
    shared = x25519(INITIATOR_EPHEMERAL, x25519_public(RESPONDER_EPHEMERAL))
    assert shared == x25519(RESPONDER_EPHEMERAL, x25519_public(INITIATOR_EPHEMERAL))
    keys = key_schedule(shared, init, reply)
    assert keys.session_id == load("channel_session_id")
    alice_to_bob = ChaCha20Poly1305(keys.initiator_to_responder)
    bob_to_alice = ChaCha20Poly1305(keys.responder_to_initiator)
    # §6: each direction counts its own frames from 0.
    assert identify(alice_to_bob.decrypt(nonce(0), ping, b""), DIRECT).fields == {"nonce": 1}
    assert identify(bob_to_alice.decrypt(nonce(0), pong, b""), DIRECT).fields == {"nonce": 1}
    sealed = identify(alice_to_bob.decrypt(nonce(1), envelope, b""), DIRECT)
    assert sealed.name == "Envelope"
    assert sealed["author"] == ALICE
    assert sealed["game"] == bytes(16)
    payload = sealed["payload"]
    assert isinstance(payload, bytes)
    assert identify(payload, SIGNED).fields == {"seq": 1, "entry_hash": bytes(32),
                                                "state_hash": bytes(32)}


def test_a_replayed_or_reordered_recorded_frame_fails_its_tag() -> None:
    init, reply, _, ping, _, envelope = recorded_bodies()
    keys = key_schedule(x25519(INITIATOR_EPHEMERAL, x25519_public(RESPONDER_EPHEMERAL)),
                        init, reply)
    inbound = Direction(keys.initiator_to_responder)
    inbound.open(ping)
    with pytest.raises(SpecRefusal, match="BAD_FRAME"):
        inbound.open(ping)  # the same frame again: counter 1 now
    inbound = Direction(keys.initiator_to_responder)
    with pytest.raises(SpecRefusal, match="BAD_FRAME"):
        inbound.open(envelope)  # frame 1 where frame 0 is due


def drive(reference: PeerConnection, data: bytes) -> list[object]:
    """Feed bytes to the reference and collect its events until it needs more."""
    reference.receive_data(data)
    events: list[object] = []
    for _ in range(100):
        event = reference.next_event()
        if event is NEED_DATA or isinstance(event, ConnectionClosed):
            return events
        events.append(event)
        if isinstance(event, Error):  # the last message on a connection (§12)
            return events
    raise AssertionError(f"the reference keeps producing events: {events[-3:]}")


@pytest.mark.parametrize("offered", [(1,), (1, 2), (1, 7, 300)])
def test_clean_room_initiator_opens_a_channel_with_the_reference_responder(
        offered: tuple[int, ...]) -> None:
    reference = PeerConnection(Identity.from_seed(BOB_SEED), Role.RESPONDER)
    mine = Initiator(ALICE_SEED, CAROL_SEED, versions=offered, expected_peer=BOB)
    [request] = drive(reference, frame(mine.hello()))
    assert isinstance(request, HandshakeRequest)
    assert request.claimed_peer.key == ALICE
    assert request.version == 1
    [reply] = split_frames(reference.send(AcceptHandshake()))
    finish, channel = mine.on_reply(reply)
    [opened] = drive(reference, frame(finish))
    assert isinstance(opened, ChannelOpened)
    assert opened.session_id == channel.session_id
    assert channel.version == 1
    # Encrypted both ways, counters running.
    for number in (5, 6):
        [ping] = drive(reference, frame(channel.send.seal(write((64, 1, number)))))
        assert ping == Ping(number)
        [body] = split_frames(reference.send(Pong(number)))
        assert identify(channel.receive.open(body), DIRECT).fields == {"nonce": number}


def test_clean_room_responder_opens_a_channel_with_the_reference_initiator() -> None:
    reference = PeerConnection(Identity.from_seed(ALICE_SEED), Role.INITIATOR,
                               expected_peer=Identity.from_seed(BOB_SEED).peer_id)
    mine = Responder(BOB_SEED, CAROL_SEED)
    [init] = split_frames(reference.send(StartHandshake()))
    reply = mine.on_init(init)
    [response] = drive(reference, frame(reply))
    assert isinstance(response, HandshakeResponse)
    assert response.peer.key == BOB
    # Appendix A: the initiator's node accepts the proven peer to send HandshakeFinish.
    [finish] = split_frames(reference.send(AcceptHandshake()))
    channel = mine.on_finish(finish)
    assert reference.session_id == channel.session_id
    [body] = split_frames(reference.send(Ping(9)))
    assert identify(channel.receive.open(body), DIRECT).fields == {"nonce": 9}
    [pong] = drive(reference, frame(channel.send.seal(write((65, 1, 9)))))
    assert pong == Pong(9)


def refusal_of(reference: PeerConnection, data: bytes) -> RemoteProtocolError:
    with pytest.raises(RemoteProtocolError) as caught:
        drive(reference, data)
    return caught.value


def test_no_common_version_is_refused_with_unsupported_version() -> None:
    """§5 responder step 1 / §13: the reference refuses what the spec says it refuses."""
    reference = PeerConnection(Identity.from_seed(BOB_SEED), Role.RESPONDER)
    error = refusal_of(reference, frame(Initiator(ALICE_SEED, CAROL_SEED, (2, 3)).hello()))
    assert error.code.name == "UNSUPPORTED_VERSION"
    # ... and says so in a plaintext Error the clean-room reader understands (§12).
    said = identify(reference.error_for(error).encode(), HANDSHAKE)
    assert said.name == "Error"
    assert said["code"] == 2


def test_a_claim_of_the_responders_own_identity_is_wrong_identity() -> None:
    reference = PeerConnection(Identity.from_seed(BOB_SEED), Role.RESPONDER)
    error = refusal_of(reference, frame(Initiator(BOB_SEED, CAROL_SEED).hello()))
    assert error.code.name == "WRONG_IDENTITY"


def test_a_finish_signed_over_other_bytes_is_bad_signature() -> None:
    reference = PeerConnection(Identity.from_seed(BOB_SEED), Role.RESPONDER)
    mine = Initiator(ALICE_SEED, CAROL_SEED)
    drive(reference, frame(mine.hello()))
    [reply] = split_frames(reference.send(AcceptHandshake()))
    mine.on_reply(reply)
    forged = write((3, 1, sign(ALICE_SEED, INITIATOR_CONTEXT,
                                initiator_signed_bytes(mine.init, reply + b"x"))))
    assert refusal_of(reference, frame(forged)).code.name == "BAD_SIGNATURE"


def open_channel_to_reference() -> tuple[PeerConnection, Channel]:
    reference = PeerConnection(Identity.from_seed(BOB_SEED), Role.RESPONDER)
    mine = Initiator(ALICE_SEED, CAROL_SEED)
    drive(reference, frame(mine.hello()))
    [reply] = split_frames(reference.send(AcceptHandshake()))
    finish, channel = mine.on_reply(reply)
    drive(reference, frame(finish))
    return reference, channel


def test_a_replayed_encrypted_frame_is_bad_frame_at_the_reference() -> None:
    reference, channel = open_channel_to_reference()
    ping = frame(channel.send.seal(write((64, 1, 1))))
    drive(reference, ping)
    assert refusal_of(reference, ping).code.name == "BAD_FRAME"


def test_the_clean_room_initiator_refuses_a_reply_from_someone_else() -> None:
    reference = PeerConnection(Identity.from_seed(CAROL_SEED), Role.RESPONDER)
    mine = Initiator(ALICE_SEED, BOB_SEED, expected_peer=BOB)
    drive(reference, frame(mine.hello()))
    [reply] = split_frames(reference.send(AcceptHandshake()))
    with pytest.raises(SpecRefusal, match="WRONG_IDENTITY"):
        mine.on_reply(reply)


def test_a_plaintext_error_instead_of_the_reply_ends_the_handshake() -> None:
    """§5: "Either side MAY send a plaintext Error instead of its next handshake message;
    receiving one ends the connection"."""
    reference = PeerConnection(Identity.from_seed(ALICE_SEED), Role.INITIATOR)
    split_frames(reference.send(StartHandshake()))
    refusal = write((4, 1, 9, "not welcome"))  # Error(REFUSED), §7.1 and §12
    [error] = drive(reference, frame(refusal))
    assert isinstance(error, Error)
    assert error.code.name == "REFUSED"
    with pytest.raises(LocalProtocolError):
        reference.send(Ping(1))  # the connection is over
    assert reference.session_id is None


def test_a_join_request_naming_another_identity_is_wrong_identity() -> None:
    """§9 step 3: JoinRequest.identity must be the channel peer's proven identity."""
    reference, channel = open_channel_to_reference()
    rules_hash = bytes(32)
    honest = write((49, 1, GAME_ID, 1, rules_hash, "Alice", ALICE, 0))
    [request] = drive(reference, frame(channel.send.seal(honest)))
    assert request.identity.key == ALICE  # type: ignore[attr-defined]
    forged = write((49, 1, GAME_ID, 1, rules_hash, "Carol", public_key(CAROL_SEED), 0))
    error = refusal_of(reference, frame(channel.send.seal(forged)))
    assert error.code.name == "WRONG_IDENTITY"


def test_an_envelope_at_an_unknown_schema_version_is_unsupported_version() -> None:
    """§7 step 2 / §13 on an open channel, where Envelope's tag is known at version 1."""
    reference, channel = open_channel_to_reference()
    future = write((5, 2, ALICE, GAME_ID, b"\x01", bytes(64)))
    error = refusal_of(reference, frame(channel.send.seal(future)))
    assert error.code.name == "UNSUPPORTED_VERSION"


def message_of_size(size: int) -> bytes:
    """A CatchUpResponse (§7.6) of exactly `size` bytes: one item padded to fit."""
    overhead = len(write((33, 1, GAME_ID, 0, (b"",), False)))
    item = bytes(size - overhead)
    data = write((33, 1, GAME_ID, 0, (item,), False))
    shrink = len(data) - size  # a longer bin header than the empty one's
    data = write((33, 1, GAME_ID, 0, (item[shrink:],), False))
    assert len(data) == size
    return data


def test_the_largest_plaintext_fits_one_frame_and_one_byte_more_does_not() -> None:
    """§6 and §14: plaintext ≤ 1 MiB − 16, so that the sealed frame is ≤ 1 MiB (§4)."""
    reference, channel = open_channel_to_reference()
    largest = channel.send.seal(message_of_size(1024 * 1024 - 16))
    assert len(largest) == 1024 * 1024
    [response] = drive(reference, frame(largest))
    assert type(response).__name__ == "CatchUpResponse"
    too_large = channel.send.seal(message_of_size(1024 * 1024 - 15))
    header = len(too_large).to_bytes(4, "big")
    assert refusal_of(reference, header + too_large).code.name == "FRAME_TOO_LARGE"


def test_a_frame_past_the_counter_limit_is_nonce_exhausted() -> None:
    """§6: a receiver refuses a frame beyond the counter limit (2⁶⁴ on the wire; the reference
    lets a test lower it to 2 to reach it)."""
    reference = PeerConnection(Identity.from_seed(BOB_SEED), Role.RESPONDER, nonce_limit=2)
    mine = Initiator(ALICE_SEED, CAROL_SEED)
    drive(reference, frame(mine.hello()))
    [reply] = split_frames(reference.send(AcceptHandshake()))
    finish, channel = mine.on_reply(reply)
    drive(reference, frame(finish))
    for number in (1, 2):
        [ping] = drive(reference, frame(channel.send.seal(write((64, 1, number)))))
        assert ping == Ping(number)
    third = frame(channel.send.seal(write((64, 1, 3))))
    assert refusal_of(reference, third).code.name == "NONCE_EXHAUSTED"


@pytest.mark.parametrize(("length", "verdict"), [(1024, "MALFORMED"), (1025, "FRAME_TOO_LARGE")])
def test_frames_before_the_channel_opens_are_at_most_1024_bytes(length: int, verdict: str) -> None:
    """§4: until the channel is open L ≤ 1024, refused from the header; 1024 bytes of zeros
    are read (and are not a message: MALFORMED)."""
    reference = PeerConnection(Identity.from_seed(BOB_SEED), Role.RESPONDER)
    header = length.to_bytes(4, "big")
    data = header + bytes(length) if length <= 1024 else header
    assert refusal_of(reference, data).code.name == verdict
