"""Signed envelopes: exact payload bytes, verified on construction, bound to one game."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from wire_support import ALICE, BOB, GAME, hostile_values, sample_envelopes

from p2p_durak.protocol import codec
from p2p_durak.protocol.envelope import Envelope, decode_envelope
from p2p_durak.protocol.errors import ErrorCode, LocalProtocolError, RemoteProtocolError
from p2p_durak.protocol.identity import ENVELOPE_CONTEXT, HANDSHAKE_INITIATOR_CONTEXT
from p2p_durak.protocol.messages import Ack, Intent, Ping

ACK = Ack(3, bytes(32), bytes(range(32)))
OTHER_GAME = bytes(range(16))


def fields_of(envelope: Envelope) -> list[codec.Value]:
    value = codec.decode(envelope.encode())
    assert isinstance(value, tuple)
    return list(value)


def rebuild(fields: list[codec.Value]) -> bytes:
    return codec.encode(tuple(fields))


def test_seal_and_decode() -> None:
    envelope = Envelope.seal(ALICE, GAME, ACK)
    assert envelope.author == ALICE.peer_id
    assert envelope.message == ACK
    assert envelope.payload == ACK.encode()
    data = envelope.encode()
    again = decode_envelope(data)
    assert again == envelope
    assert again.encode() == data  # canonical: forwarding reproduces the received bytes
    assert again.digest == codec.sha256(data)


def test_signature_covers_context_game_and_exact_payload() -> None:
    envelope = Envelope.seal(ALICE, GAME, ACK)
    assert ALICE.peer_id.verify(ENVELOPE_CONTEXT, GAME + ACK.encode(), envelope.signature)


@pytest.mark.parametrize(("index", "replacement"), [(2, BOB.peer_id.key), (3, OTHER_GAME)])
def test_changed_author_or_game_breaks_the_signature(index: int, replacement: bytes) -> None:
    fields = fields_of(Envelope.seal(ALICE, GAME, ACK))
    fields[index] = replacement
    with pytest.raises(RemoteProtocolError) as info:
        decode_envelope(rebuild(fields))
    assert info.value.code is ErrorCode.BAD_SIGNATURE


def test_changed_payload_or_signature_is_refused() -> None:
    fields = fields_of(Envelope.seal(ALICE, GAME, ACK))
    tampered_payload = Ack(4, bytes(32), bytes(range(32))).encode()
    for index, value in [(4, tampered_payload), (5, bytes(64))]:
        changed = list(fields)
        changed[index] = value
        with pytest.raises(RemoteProtocolError) as info:
            decode_envelope(rebuild(changed))
        assert info.value.code is ErrorCode.BAD_SIGNATURE


def test_signed_garbage_and_unsigned_kinds_are_refused() -> None:
    for payload in [b"\xc1", Ping(1).encode(), codec.encode((Ack.TAG, 9, 1))]:
        signature = ALICE.sign(ENVELOPE_CONTEXT, GAME + payload)
        data = codec.encode((Envelope.TAG, 1, ALICE.peer_id.key, GAME, payload, signature))
        with pytest.raises(RemoteProtocolError):
            decode_envelope(data)


def test_signature_from_another_context_is_refused() -> None:
    payload = ACK.encode()
    signature = ALICE.sign(HANDSHAKE_INITIATOR_CONTEXT, GAME + payload)
    with pytest.raises(LocalProtocolError) as info:
        Envelope(ALICE.peer_id, GAME, payload, signature)
    assert info.value.code is ErrorCode.BAD_SIGNATURE


def test_payload_game_must_match_envelope_game() -> None:
    intent = Intent(OTHER_GAME, 0, 1, 0, b"a")
    with pytest.raises(LocalProtocolError, match="game"):
        Envelope.seal(ALICE, GAME, intent)
    assert Envelope.seal(ALICE, OTHER_GAME, intent).message == intent


def test_seal_refuses_unsigned_message_kinds_and_bad_games() -> None:
    with pytest.raises(LocalProtocolError):
        Envelope.seal(ALICE, GAME, Ping(1))
    with pytest.raises(LocalProtocolError):
        Envelope.seal(ALICE, b"short", ACK)


def test_every_signed_kind_seals() -> None:
    for envelope in sample_envelopes().values():
        assert decode_envelope(envelope.encode()) == envelope
        assert envelope.author == BOB.peer_id


# --- Hostile payloads under a valid signature ---------------------------------------------------
# Random envelope bytes almost never carry a valid signature, so they stop at the signature
# check. A peer can sign anything it likes, though: these payloads are signed by their author,
# so the payload decoding behind the signature check is what gets fuzzed.

def signed_envelope(payload: bytes, game: bytes = GAME) -> bytes:
    signature = ALICE.sign(ENVELOPE_CONTEXT, game + payload)
    return codec.encode((Envelope.TAG, 1, ALICE.peer_id.key, game, payload, signature))


def decodes_or_refuses(data: bytes) -> None:
    try:
        envelope = decode_envelope(data)
    except RemoteProtocolError:
        return
    assert envelope.encode() == data
    assert envelope.author == ALICE.peer_id


@settings(derandomize=True, max_examples=200)
@given(st.sampled_from([16, 17, 18, 19, 20, 21, 5, 64]), st.sampled_from([1, 2]),
       st.lists(hostile_values(), max_size=6))
def test_signed_random_structures_give_only_protocol_errors(
    tag: int, version: int, fields: list[codec.Value]
) -> None:
    try:
        payload = codec.encode((tag, version, *fields))
    except LocalProtocolError:  # deeper than the codec encodes
        return
    decodes_or_refuses(signed_envelope(payload))


@settings(derandomize=True, max_examples=200)
@given(st.binary(min_size=1, max_size=200))
def test_signed_random_bytes_give_only_protocol_errors(payload: bytes) -> None:
    decodes_or_refuses(signed_envelope(payload))
