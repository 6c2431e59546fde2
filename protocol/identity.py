"""Installation identities: one Ed25519 key per installation, shown to people as a fingerprint.

`Identity` holds the private key (the node persists `Identity.seed`, 32 bytes, and nothing else);
`PeerId` is the public half as it travels on the wire (the raw 32-byte Ed25519 public key).

Every signature in the protocol is made over ``context || message`` where `context` is one of the
fixed, NUL-terminated labels below. The labels are distinct and prefix-free, so a signature made for
one purpose (say, a handshake transcript) can never be replayed as another (say, an envelope).

Public keys are validated when a `PeerId` is built: the encoding must be canonical, the point must
lie on the curve and must not have small order. A small-order key would let anyone "sign" for it,
which would make the owner of that identity meaningless in a transcript.
"""

from __future__ import annotations

import base64
import functools
from dataclasses import dataclass, field
from typing import Final

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import (
    Encoding,
    NoEncryption,
    PrivateFormat,
    PublicFormat,
)

from p2p_durak.protocol.codec import sha256
from p2p_durak.protocol.errors import ErrorCode, LocalProtocolError

PUBLIC_KEY_SIZE: Final = 32
SIGNATURE_SIZE: Final = 64
SEED_SIZE: Final = 32

ENVELOPE_CONTEXT: Final = b"p2p-durak/1 envelope\x00"
HANDSHAKE_RESPONDER_CONTEXT: Final = b"p2p-durak/1 handshake responder\x00"
HANDSHAKE_INITIATOR_CONTEXT: Final = b"p2p-durak/1 handshake initiator\x00"
SIGNATURE_CONTEXTS: Final = (
    ENVELOPE_CONTEXT,
    HANDSHAKE_RESPONDER_CONTEXT,
    HANDSHAKE_INITIATOR_CONTEXT,
)

FINGERPRINT_CONTEXT: Final = b"p2p-durak/1 fingerprint\x00"
FINGERPRINT_BYTES: Final = 10  # 80 bits: 16 base32 characters


@dataclass(frozen=True, slots=True)
class PeerId:
    """A validated Ed25519 public key: who authored a message, who is on the other end."""

    key: bytes
    _verifier: Ed25519PublicKey = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not isinstance(self.key, bytes) or len(self.key) != PUBLIC_KEY_SIZE:
            raise LocalProtocolError("an Ed25519 public key is 32 bytes", code=ErrorCode.MALFORMED)
        reason = _ed25519_point_problem(self.key)
        if reason is not None:
            raise LocalProtocolError(f"invalid Ed25519 public key: {reason}")
        object.__setattr__(self, "_verifier", Ed25519PublicKey.from_public_bytes(self.key))

    @property
    def fingerprint(self) -> str:
        """Short form for people: 16 base32 characters in groups of four, e.g. ``ABCD-EFGH-...``."""
        return fingerprint(self.key)

    def verify(self, context: bytes, message: bytes, signature: bytes) -> bool:
        """Whether `signature` is this key's signature over ``context || message``."""
        _check_context(context)
        if len(signature) != SIGNATURE_SIZE:
            return False
        try:
            self._verifier.verify(signature, context + message)
        except InvalidSignature:
            return False
        return True

    def __str__(self) -> str:
        return self.fingerprint

    def __repr__(self) -> str:
        return f"PeerId({self.fingerprint})"


@functools.lru_cache(maxsize=1024)
def peer_id_of(key: bytes) -> PeerId:
    """The `PeerId` of `key` (raises as `PeerId` does). Cached: every envelope names its author
    and a table has a handful of them, so the key is parsed once, not once per message."""
    return PeerId(key)


class Identity:
    """The private Ed25519 key of this installation."""

    __slots__ = ("_private", "peer_id")

    def __init__(self, private_key: Ed25519PrivateKey) -> None:
        self._private = private_key
        raw = private_key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
        self.peer_id = PeerId(raw)

    @classmethod
    def generate(cls) -> Identity:
        """A fresh identity from the operating system's CSPRNG."""
        return cls(Ed25519PrivateKey.generate())

    @classmethod
    def from_seed(cls, seed: bytes) -> Identity:
        """Rebuild the identity stored as its 32-byte seed (the RFC 8032 private key)."""
        if len(seed) != SEED_SIZE:
            raise LocalProtocolError("an Ed25519 seed is 32 bytes")
        return cls(Ed25519PrivateKey.from_private_bytes(seed))

    @property
    def seed(self) -> bytes:
        """The 32-byte private seed; what the node stores (with owner-only permissions)."""
        return self._private.private_bytes(Encoding.Raw, PrivateFormat.Raw, NoEncryption())

    @property
    def fingerprint(self) -> str:
        return self.peer_id.fingerprint

    def sign(self, context: bytes, message: bytes) -> bytes:
        """Ed25519 signature (64 bytes, deterministic) over ``context || message``."""
        _check_context(context)
        return self._private.sign(context + message)

    def __repr__(self) -> str:
        return f"Identity({self.fingerprint})"


def fingerprint(key: bytes) -> str:
    """The human-readable fingerprint of a raw public key."""
    digest = sha256(FINGERPRINT_CONTEXT + key)[:FINGERPRINT_BYTES]
    text = base64.b32encode(digest).decode("ascii")
    return "-".join(text[i : i + 4] for i in range(0, len(text), 4))


def _check_context(context: bytes) -> None:
    if context not in SIGNATURE_CONTEXTS:
        raise LocalProtocolError(f"unknown signature context {context!r}")


# --- Ed25519 point validation (RFC 8032 §5.1.3 decoding, plus a small-order check) ----------

_P: Final = 2**255 - 19
_D: Final = (-121665 * pow(121666, -1, _P)) % _P
_SQRT_M1: Final = pow(2, (_P - 1) // 4, _P)


# A table sees a handful of keys over and over; decoding a point costs ~0.15 ms in Python.
@functools.lru_cache(maxsize=1024)
def _ed25519_point_problem(encoded: bytes) -> str | None:
    """Why `encoded` is not an acceptable public key, or None if it is."""
    value = int.from_bytes(encoded, "little")
    y = value & ((1 << 255) - 1)
    x_sign = value >> 255
    if y >= _P:
        return "non-canonical y coordinate"
    u = (y * y - 1) % _P
    v = (_D * y * y + 1) % _P
    x = (u * pow(v, 3, _P) * pow(u * pow(v, 7, _P), (_P - 5) // 8, _P)) % _P
    vxx = (v * x * x) % _P
    if vxx == (-u) % _P:
        x = (x * _SQRT_M1) % _P
    elif vxx != u:
        return "not a point on the curve"
    if x == 0 and x_sign == 1:
        return "non-canonical encoding of x = 0"
    if x & 1 != x_sign:
        x = _P - x
    px, py, pz = x, y, 1
    for _ in range(3):  # 8 * P, in projective coordinates to avoid inversions
        px, py, pz = _edwards_double(px, py, pz)
    if px == 0 and py == pz:
        return "point of small order"
    return None


def _edwards_double(x: int, y: int, z: int) -> tuple[int, int, int]:
    # dbl-2008-bbjlp for the twisted Edwards curve -x^2 + y^2 = 1 + d x^2 y^2 (a = -1).
    b = (x + y) ** 2 % _P
    c = x * x % _P
    d = y * y % _P
    e = -c % _P
    f = (e + d) % _P
    j = (f - 2 * (z * z)) % _P
    return (b - c - d) * j % _P, f * (e - d) % _P, f * j % _P
