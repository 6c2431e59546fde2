"""The golden channel transcript, re-derived from docs/protocol.md with raw primitives only.

Nothing from p2p_durak.protocol is used to check the bytes: plain msgpack, hashlib and
`cryptography`, following the spec's handshake and frame rules step by step. If this passes and
the golden tests pass, the implementation, the vectors and the written spec agree.
"""

from __future__ import annotations

import base64
import hashlib

import msgpack
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from wire_support import read_golden


def sha256(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()


def body(name: str) -> bytes:
    frame = read_golden(name)
    assert int.from_bytes(frame[:4], "big") == len(frame) - 4
    return frame[4:]


def nonce(counter: int) -> bytes:
    return bytes(4) + counter.to_bytes(8, "little")


def test_golden_transcript_follows_the_spec() -> None:
    alice = Ed25519PrivateKey.from_private_bytes(sha256(b"p2p-durak test identity alice"))
    bob = Ed25519PrivateKey.from_private_bytes(sha256(b"p2p-durak test identity bob"))
    alice_key = alice.public_key().public_bytes_raw()
    bob_key = bob.public_key().public_bytes_raw()
    eph_i = X25519PrivateKey.from_private_bytes(sha256(b"p2p-durak test ephemeral initiator"))

    init, reply, finish = body("channel_1_init"), body("channel_2_reply"), body("channel_3_finish")
    assert msgpack.unpackb(init) == [1, 1, [1], alice_key, eph_i.public_key().public_bytes_raw()]
    tag, schema, version, identity, eph_r, reply_signature = msgpack.unpackb(reply)
    assert (tag, schema, version, identity) == (2, 1, 1, bob_key)
    Ed25519PublicKey.from_public_bytes(bob_key).verify(
        reply_signature,
        b"p2p-durak/1 handshake responder\x00"
        + sha256(init)
        + version.to_bytes(2, "big")
        + identity
        + eph_r,
    )
    tag, schema, finish_signature = msgpack.unpackb(finish)
    assert (tag, schema) == (3, 1)
    Ed25519PublicKey.from_public_bytes(alice_key).verify(
        finish_signature,
        b"p2p-durak/1 handshake initiator\x00" + sha256(init) + sha256(reply),
    )

    shared = eph_i.exchange(X25519PublicKey.from_public_bytes(eph_r))
    material = HKDF(
        algorithm=hashes.SHA256(),
        length=96,
        salt=sha256(init) + sha256(reply),
        info=b"p2p-durak/1 channel keys",
    ).derive(shared)
    to_responder, to_initiator = ChaCha20Poly1305(material[:32]), ChaCha20Poly1305(material[32:64])
    assert material[64:] == read_golden("channel_session_id")

    ping = to_responder.decrypt(nonce(0), body("channel_4_ping"), None)
    assert ping == msgpack.packb([64, 1, 1])
    pong = to_initiator.decrypt(nonce(0), body("channel_5_pong"), None)
    assert pong == msgpack.packb([65, 1, 1])
    envelope = msgpack.unpackb(to_responder.decrypt(nonce(1), body("channel_6_envelope"), None))
    tag, schema, author, game, payload, signature = envelope
    assert (tag, schema, author, game) == (5, 1, alice_key, bytes(16))
    assert payload == msgpack.packb([18, 1, 1, bytes(32), bytes(32)], use_bin_type=True)
    Ed25519PublicKey.from_public_bytes(author).verify(
        signature, b"p2p-durak/1 envelope\x00" + game + payload
    )


def test_fingerprint_follows_the_spec() -> None:
    alice = Ed25519PrivateKey.from_private_bytes(sha256(b"p2p-durak test identity alice"))
    key = alice.public_key().public_bytes_raw()
    text = base64.b32encode(sha256(b"p2p-durak/1 fingerprint\x00" + key)[:10]).decode()
    assert "-".join(text[i : i + 4] for i in range(0, 16, 4)) == "V22I-YGMI-3SG7-4AAB"
