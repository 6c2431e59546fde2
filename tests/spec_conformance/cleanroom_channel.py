"""The framing, handshake and encrypted frames of docs/protocol.md §4–§6, from the spec alone.

`cryptography` gives X25519, HKDF-SHA256 and ChaCha20-Poly1305; the message layouts, transcript
hashes, signature inputs, HKDF salt/info, key split and nonce layout are the spec's.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from .cleanroom_crypto import INITIATOR_CONTEXT, RESPONDER_CONTEXT, public_key, sha256, sign, verify
from .cleanroom_msgpack import write
from .cleanroom_schema import HANDSHAKE, SpecRefusal, identify

MAX_FRAME = 1024 * 1024
HKDF_INFO = b"p2p-durak/1 channel keys"


def frame(body: bytes) -> bytes:
    """§4: a 4-byte big-endian length, then the body."""
    assert 1 <= len(body) <= MAX_FRAME
    return struct.pack(">I", len(body)) + body


def split_frames(stream: bytes) -> list[bytes]:
    """§4, for a whole recorded stream that ends at a frame boundary."""
    bodies = []
    while stream:
        if len(stream) < 4:
            raise SpecRefusal("TRUNCATED", "the stream ends inside a frame header")
        (length,) = struct.unpack(">I", stream[:4])
        if length == 0:
            raise SpecRefusal("MALFORMED", "an empty frame")
        if length > MAX_FRAME:
            raise SpecRefusal("FRAME_TOO_LARGE", f"frame length {length}")
        if len(stream) < 4 + length:
            raise SpecRefusal("TRUNCATED", "the stream ends inside a frame body")
        bodies.append(stream[4:4 + length])
        stream = stream[4 + length:]
    return bodies


def x25519_public(private: bytes) -> bytes:
    return X25519PrivateKey.from_private_bytes(private).public_key().public_bytes(
        Encoding.Raw, PublicFormat.Raw)


def x25519(private: bytes, peer_public: bytes) -> bytes:
    # OpenSSL refuses an all-zero result itself; §5 wants that refused as MALFORMED.
    try:
        shared = X25519PrivateKey.from_private_bytes(private).exchange(
            X25519PublicKey.from_public_bytes(peer_public))
    except ValueError:
        raise SpecRefusal("MALFORMED", "X25519 result is all zero") from None
    if shared == bytes(32):
        raise SpecRefusal("MALFORMED", "X25519 result is all zero")
    return shared


def responder_signed_bytes(init: bytes, version: int, identity: bytes, ephemeral: bytes) -> bytes:
    """§5: SHA-256(init) ‖ u16be(v) ‖ B ‖ e_R.pub (the context is prepended by `sign`)."""
    return sha256(init) + struct.pack(">H", version) + identity + ephemeral


def initiator_signed_bytes(init: bytes, reply: bytes) -> bytes:
    return sha256(init) + sha256(reply)


@dataclass(frozen=True)
class Keys:
    initiator_to_responder: bytes
    responder_to_initiator: bytes
    session_id: bytes


def key_schedule(shared: bytes, init: bytes, reply: bytes) -> Keys:
    okm = HKDF(algorithm=hashes.SHA256(), length=96, salt=sha256(init) + sha256(reply),
               info=HKDF_INFO).derive(shared)
    return Keys(okm[0:32], okm[32:64], okm[64:96])


def nonce(counter: int) -> bytes:
    """§6: four zero bytes, then the counter as u64 little-endian (as in Noise)."""
    return bytes(4) + struct.pack("<Q", counter)


@dataclass
class Direction:
    """One direction of an open channel: its key and its implicit frame counter."""

    key: bytes
    counter: int = field(default=0)

    def seal(self, plaintext: bytes) -> bytes:
        body = ChaCha20Poly1305(self.key).encrypt(nonce(self.counter), plaintext, b"")
        self.counter += 1
        return body

    def open(self, body: bytes) -> bytes:
        from cryptography.exceptions import InvalidTag

        try:
            plaintext = ChaCha20Poly1305(self.key).decrypt(nonce(self.counter), body, b"")
        except InvalidTag:
            raise SpecRefusal("BAD_FRAME", f"frame {self.counter} fails its tag") from None
        self.counter += 1
        return plaintext


@dataclass
class Channel:
    send: Direction
    receive: Direction
    session_id: bytes
    peer: bytes
    version: int


@dataclass
class Initiator:
    """§5 "Initiator", steps 1–3, over whole frame bodies."""

    seed: bytes
    ephemeral: bytes
    versions: tuple[int, ...] = (1,)
    expected_peer: bytes | None = None
    init: bytes = b""

    def hello(self) -> bytes:
        self.init = write((1, 1, self.versions, public_key(self.seed),
                           x25519_public(self.ephemeral)))
        return self.init

    def on_reply(self, reply: bytes) -> tuple[bytes, Channel]:
        message = identify(reply, HANDSHAKE)
        if message.name == "Error":
            raise SpecRefusal("REMOTE_ERROR", f"peer sent Error {message.fields}")
        if message.name != "HandshakeReply":
            raise SpecRefusal("UNEXPECTED_MESSAGE", message.name)
        version, identity = message.number("version"), message.blob("identity")
        ephemeral, signature = message.blob("ephemeral"), message.blob("signature")
        if identity == public_key(self.seed) or (
                self.expected_peer is not None and identity != self.expected_peer):
            raise SpecRefusal("WRONG_IDENTITY", "not the peer we dialled")
        if version not in self.versions:
            raise SpecRefusal("UNSUPPORTED_VERSION", f"{version} was not offered")
        signed = responder_signed_bytes(self.init, version, identity, ephemeral)
        if not verify(identity, RESPONDER_CONTEXT, signed, signature):
            raise SpecRefusal("BAD_SIGNATURE", "responder signature")
        shared = x25519(self.ephemeral, ephemeral)
        finish = write((3, 1, sign(self.seed, INITIATOR_CONTEXT,
                                   initiator_signed_bytes(self.init, reply))))
        keys = key_schedule(shared, self.init, reply)
        return finish, Channel(Direction(keys.initiator_to_responder),
                               Direction(keys.responder_to_initiator),
                               keys.session_id, identity, version)


@dataclass
class Responder:
    """§5 "Responder", steps 1–3."""

    seed: bytes
    ephemeral: bytes
    versions: tuple[int, ...] = (1,)
    init: bytes = b""
    reply: bytes = b""
    claimed: bytes = b""
    chosen: int = 0
    shared: bytes = b""

    def on_init(self, init: bytes) -> bytes:
        message = identify(init, HANDSHAKE)
        if message.name != "HandshakeInit":
            raise SpecRefusal("UNEXPECTED_MESSAGE", message.name)
        versions = message.items("versions")
        identity, ephemeral = message.blob("identity"), message.blob("ephemeral")
        if identity == public_key(self.seed):
            raise SpecRefusal("WRONG_IDENTITY", "a claim of our own identity")
        common = set(self.versions) & {v for v in versions if isinstance(v, int)}
        if not common:
            raise SpecRefusal("UNSUPPORTED_VERSION", f"no common version in {versions}")
        self.init, self.claimed, self.chosen = init, identity, max(common)
        self.shared = x25519(self.ephemeral, ephemeral)
        mine = x25519_public(self.ephemeral)
        me = public_key(self.seed)
        signature = sign(self.seed, RESPONDER_CONTEXT,
                         responder_signed_bytes(init, self.chosen, me, mine))
        self.reply = write((2, 1, self.chosen, me, mine, signature))
        return self.reply

    def on_finish(self, finish: bytes) -> Channel:
        message = identify(finish, HANDSHAKE)
        if message.name != "HandshakeFinish":
            raise SpecRefusal("UNEXPECTED_MESSAGE", message.name)
        if not verify(self.claimed, INITIATOR_CONTEXT,
                      initiator_signed_bytes(self.init, self.reply), message.blob("signature")):
            raise SpecRefusal("BAD_SIGNATURE", "initiator signature")
        keys = key_schedule(self.shared, self.init, self.reply)
        return Channel(Direction(keys.responder_to_initiator),
                       Direction(keys.initiator_to_responder),
                       keys.session_id, self.claimed, self.chosen)

