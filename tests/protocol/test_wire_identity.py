"""Installation identities: keys, fingerprints, context-separated signatures."""

from __future__ import annotations

import re

import pytest
from wire_support import ALICE, BOB

from p2p_durak.protocol.errors import LocalProtocolError
from p2p_durak.protocol.identity import (
    ENVELOPE_CONTEXT,
    HANDSHAKE_INITIATOR_CONTEXT,
    HANDSHAKE_RESPONDER_CONTEXT,
    SIGNATURE_CONTEXTS,
    Identity,
    PeerId,
    fingerprint,
)

# The eight small-order points of edwards25519 (canonical encodings), as blocked by libsodium.
SMALL_ORDER = [
    "0100000000000000000000000000000000000000000000000000000000000000",
    "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
    "0000000000000000000000000000000000000000000000000000000000000000",
    "0000000000000000000000000000000000000000000000000000000000000080",
    "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a",
    "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac03fa",
    "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05",
    "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc85",
]


def test_fingerprint_shape_and_stability() -> None:
    text = ALICE.fingerprint
    assert re.fullmatch(r"[A-Z2-7]{4}(-[A-Z2-7]{4}){3}", text)
    assert text == fingerprint(ALICE.peer_id.key) == str(ALICE.peer_id)
    assert text == "V22I-YGMI-3SG7-4AAB"  # fixed seed: a changed fingerprint is a format change
    assert BOB.fingerprint != text
    assert repr(ALICE.peer_id) == f"PeerId({text})"


def test_seed_round_trip() -> None:
    fresh = Identity.generate()
    assert Identity.from_seed(fresh.seed).peer_id == fresh.peer_id
    assert fresh.peer_id != Identity.generate().peer_id
    with pytest.raises(LocalProtocolError):
        Identity.from_seed(b"short")


def test_signatures_are_bound_to_their_context() -> None:
    message = b"the same bytes"
    for context in SIGNATURE_CONTEXTS:
        signature = ALICE.sign(context, message)
        assert ALICE.peer_id.verify(context, message, signature)
        assert not BOB.peer_id.verify(context, message, signature)
        assert not ALICE.peer_id.verify(context, message + b"!", signature)
        for other in SIGNATURE_CONTEXTS:
            if other != context:
                assert not ALICE.peer_id.verify(other, message, signature)
    forged = bytearray(ALICE.sign(ENVELOPE_CONTEXT, message))
    forged[10] ^= 1
    assert not ALICE.peer_id.verify(ENVELOPE_CONTEXT, message, bytes(forged))
    assert not ALICE.peer_id.verify(ENVELOPE_CONTEXT, message, b"short")


def test_contexts_are_prefix_free() -> None:
    contexts = [ENVELOPE_CONTEXT, HANDSHAKE_INITIATOR_CONTEXT, HANDSHAKE_RESPONDER_CONTEXT]
    assert all(context.endswith(b"\x00") and context.count(b"\x00") == 1 for context in contexts)
    assert len(set(contexts)) == len(contexts)


def test_unknown_context_is_a_local_error() -> None:
    with pytest.raises(LocalProtocolError):
        ALICE.sign(b"made up\x00", b"x")
    with pytest.raises(LocalProtocolError):
        ALICE.peer_id.verify(b"", b"x", bytes(64))


@pytest.mark.parametrize("encoded", SMALL_ORDER)
def test_small_order_keys_are_refused(encoded: str) -> None:
    with pytest.raises(LocalProtocolError, match="small order"):
        PeerId(bytes.fromhex(encoded))


def test_malformed_keys_are_refused() -> None:
    with pytest.raises(LocalProtocolError):
        PeerId(b"\x01" * 31)
    with pytest.raises(LocalProtocolError, match="non-canonical"):
        PeerId(bytes.fromhex("ed" + "ff" * 30 + "7f"))  # y = p
    with pytest.raises(LocalProtocolError, match="non-canonical"):
        PeerId(bytes.fromhex("01" + "00" * 30 + "80"))  # x = 0 with the sign bit set
    with pytest.raises(LocalProtocolError, match="not a point"):
        PeerId((2).to_bytes(32, "little"))  # y = 2 has no x on the curve
