"""Identities, signatures and fingerprints as docs/protocol.md §2 and §8 describe them.

`cryptography` supplies the Ed25519 and X25519 primitives only; the key validation of §2 (a
canonical y, a point on the curve, no negative zero, no small order) is done here with the
RFC 8032 field arithmetic, since the spec makes it a receiver's duty.
"""

from __future__ import annotations

import base64
import hashlib

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

ENVELOPE_CONTEXT = b"p2p-durak/1 envelope\x00"
RESPONDER_CONTEXT = b"p2p-durak/1 handshake responder\x00"
INITIATOR_CONTEXT = b"p2p-durak/1 handshake initiator\x00"
FINGERPRINT_PREFIX = b"p2p-durak/1 fingerprint\x00"

_P = 2**255 - 19
_D = (-121665 * pow(121666, _P - 2, _P)) % _P
_SQRT_M1 = pow(2, (_P - 1) // 4, _P)

Point = tuple[int, int, int, int]  # extended coordinates (X, Y, Z, T)


def key_problem(key: bytes) -> str | None:
    """Why §2 refuses this public key, or None when it is acceptable."""
    if len(key) != 32:
        return f"{len(key)} bytes, not 32"
    encoded = int.from_bytes(key, "little")
    sign = encoded >> 255
    y = encoded & ((1 << 255) - 1)
    if y >= _P:
        return "y coordinate is not canonical"
    x = _recover_x(y, sign)
    if x is None:
        return "not a point on edwards25519"
    if x == 0 and sign:
        return "x = 0 with the sign bit set"
    point = (x, y, 1, x * y % _P)
    for _ in range(3):
        point = _add(point, point)
    if point[0] % _P == 0 and (point[1] - point[2]) % _P == 0:
        return "small order"
    return None


def _recover_x(y: int, sign: int) -> int | None:
    u = (y * y - 1) % _P
    v = (_D * y * y + 1) % _P
    x2 = u * pow(v, _P - 2, _P) % _P
    if x2 == 0:
        return 0
    x = pow(x2, (_P + 3) // 8, _P)
    if (x * x - x2) % _P != 0:
        x = x * _SQRT_M1 % _P
    if (x * x - x2) % _P != 0:
        return None
    if x & 1 != sign:
        x = _P - x
    return x


def _add(a: Point, b: Point) -> Point:
    # RFC 8032 §5.1.4 addition in extended coordinates.
    x1, y1, z1, t1 = a
    x2, y2, z2, t2 = b
    aa = (y1 - x1) * (y2 - x2) % _P
    bb = (y1 + x1) * (y2 + x2) % _P
    cc = 2 * t1 * t2 * _D % _P
    dd = 2 * z1 * z2 % _P
    e, f, g, h = bb - aa, dd - cc, dd + cc, bb + aa
    return (e * f % _P, g * h % _P, f * g % _P, e * h % _P)


def verify(key: bytes, context: bytes, message: bytes, signature: bytes) -> bool:
    """Ed25519 verification of `context ‖ message` (§2)."""
    try:
        Ed25519PublicKey.from_public_bytes(key).verify(signature, context + message)
    except InvalidSignature:
        return False
    return True


def sign(seed: bytes, context: bytes, message: bytes) -> bytes:
    return Ed25519PrivateKey.from_private_bytes(seed).sign(context + message)


def public_key(seed: bytes) -> bytes:
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

    return Ed25519PrivateKey.from_private_bytes(seed).public_key().public_bytes(
        Encoding.Raw, PublicFormat.Raw)


def fingerprint(key: bytes) -> str:
    """§2: base32 of the first 10 bytes of SHA-256(prefix ‖ key), in four groups of four."""
    digest = hashlib.sha256(FINGERPRINT_PREFIX + key).digest()[:10]
    text = base64.b32encode(digest).decode("ascii").rstrip("=")
    return "-".join(text[i:i + 4] for i in range(0, 16, 4))


def sha256(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()
