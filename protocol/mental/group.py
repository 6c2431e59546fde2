"""The prime-order group ristretto255, reached through libsodium (via the ``rbcl`` binding).

Points travel and rest as their canonical 32-byte encodings; scalars are Python ints modulo
``ORDER``. Every point that comes from a peer goes through :func:`decode_point`, which rejects
non-canonical encodings (also the ones libsodium's decoder accepts) and the identity:
libsodium's ``add`` silently maps an invalid input to the identity, so an unchecked point would
turn a forged message into a wrong answer instead of an error. See
docs/decisions/0002-group-library.md for why rbcl.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Sequence

import rbcl

ORDER = 2**252 + 27742317777372353535851937790883648493
"""The prime order ℓ of ristretto255."""

POINT_BYTES = 32
SCALAR_BYTES = 32
IDENTITY = bytes(POINT_BYTES)

Rng = Callable[[int], bytes]

_smul: Callable[[bytes, bytes], bytes] = rbcl.crypto_scalarmult_ristretto255
_bmul: Callable[[bytes], bytes] = rbcl.crypto_scalarmult_ristretto255_base
_add: Callable[[bytes, bytes], bytes] = rbcl.crypto_core_ristretto255_add
_sub: Callable[[bytes, bytes], bytes] = rbcl.crypto_core_ristretto255_sub
_valid: Callable[[bytes], bool] = rbcl.crypto_core_ristretto255_is_valid_point
_from_hash: Callable[[bytes], bytes] = rbcl.crypto_core_ristretto255_from_hash


def _le(k: int) -> bytes:
    return (k % ORDER).to_bytes(SCALAR_BYTES, "little")


def mul(k: int, point: bytes) -> bytes:
    """k·P. libsodium refuses to return the identity, which is a legitimate result here."""
    try:
        return _smul(_le(k), point)
    except RuntimeError:
        return IDENTITY


def base_mul(k: int) -> bytes:
    """k·G for the standard generator G (libsodium's precomputed table makes this ~3x cheaper)."""
    try:
        return _bmul(_le(k))
    except RuntimeError:
        return IDENTITY


def add(p: bytes, q: bytes) -> bytes:
    return _add(p, q)


def sub(p: bytes, q: bytes) -> bytes:
    return _sub(p, q)


def neg(p: bytes) -> bytes:
    return _sub(IDENTITY, p)


def total(points: Iterable[bytes]) -> bytes:
    """The sum of points (identity for none)."""
    acc: bytes | None = None
    for p in points:
        acc = p if acc is None else _add(acc, p)
    return IDENTITY if acc is None else acc


def lincomb(scalars: Sequence[int], points: Sequence[bytes]) -> bytes:
    """Σ k_i·P_i. libsodium has no multi-scalar multiplication, so this is one mult per term."""
    if len(scalars) != len(points):
        raise ValueError("scalars and points differ in length")
    acc: bytes | None = None
    for k, p in zip(scalars, points, strict=True):
        term = mul(k, p)
        acc = term if acc is None else _add(acc, term)
    return IDENTITY if acc is None else acc


def point_problem(data: object) -> str | None:
    """Why `data` is not the canonical encoding of a non-identity element; None if it is.

    libsodium's decoder (rbcl 1.1.2 bundles one) ignores bit 255, so G with that bit set
    decodes as G and ``00…0080`` as the identity; RFC 9496 §4.3.1 refuses both. Such a
    second spelling would let a check that compares bytes (a copied key, a known card) be
    sidestepped, so the top bit is refused, and what libsodium decodes must re-encode to
    exactly the bytes received (adding the identity re-encodes)."""
    if not isinstance(data, bytes) or len(data) != POINT_BYTES:
        return f"a ristretto255 point is {POINT_BYTES} bytes"
    if data[-1] & 0x80:
        return "non-canonical ristretto255 encoding (bit 255 set)"
    if data == IDENTITY:
        return "the ristretto255 identity is not allowed"
    if not _valid(data) or _add(data, IDENTITY) != data:
        return "not a canonical ristretto255 encoding"
    return None


def is_point(data: object) -> bool:
    """True for a canonical encoding of a non-identity group element."""
    return point_problem(data) is None


def decode_point(data: object) -> bytes:
    """Validate a peer's point; raise ValueError (saying why) on anything but the canonical
    encoding of a non-identity group element."""
    problem = point_problem(data)
    if problem is not None:
        raise ValueError(problem)
    assert isinstance(data, bytes)
    return data


def decode_points(data: object, count: int) -> tuple[bytes, ...]:
    """Split a concatenation of exactly ``count`` points and validate each."""
    if not isinstance(data, bytes) or len(data) != count * POINT_BYTES:
        raise ValueError(f"expected {count} points ({count * POINT_BYTES} bytes)")
    points = tuple(data[i : i + POINT_BYTES] for i in range(0, len(data), POINT_BYTES))
    for index, point in enumerate(points):
        problem = point_problem(point)
        if problem is not None:
            raise ValueError(f"point {index + 1} of {count}: {problem}")
    return points


def encode_scalar(k: int) -> bytes:
    return _le(k)


def decode_scalar(data: object) -> int:
    """A canonical scalar: 32 little-endian bytes below the group order."""
    if not isinstance(data, bytes) or len(data) != SCALAR_BYTES:
        raise ValueError("a scalar is 32 bytes")
    k = int.from_bytes(data, "little")
    if k >= ORDER:
        raise ValueError("non-canonical scalar")
    return k


def decode_scalars(data: object, count: int) -> tuple[int, ...]:
    if not isinstance(data, bytes) or len(data) != count * SCALAR_BYTES:
        raise ValueError(f"expected {count} scalars ({count * SCALAR_BYTES} bytes)")
    return tuple(decode_scalar(data[i : i + SCALAR_BYTES]) for i in range(0, len(data), 32))


def random_scalar(rng: Rng) -> int:
    """A uniform non-zero scalar: 64 random bytes reduced mod ℓ (bias below 2^-250)."""
    while True:
        k = int.from_bytes(rng(64), "little") % ORDER
        if k:
            return k


def hash_to_point(domain: bytes, *parts: bytes) -> bytes:
    """A point nobody knows the discrete log of (ristretto255 hash-to-group of SHA-512)."""
    h = hashlib.sha512()
    h.update(len(domain).to_bytes(4, "big") + domain)
    for part in parts:
        h.update(len(part).to_bytes(4, "big") + part)
    return _from_hash(h.digest())


GENERATOR = base_mul(1)


def generators(domain: bytes, count: int) -> tuple[bytes, ...]:
    """``count`` independent generators for a domain (cached: shuffle proofs reuse them)."""
    cached = _GENERATOR_CACHE.get(domain)
    if cached is None or len(cached) < count:
        cached = tuple(hash_to_point(domain, i.to_bytes(4, "big")) for i in range(count))
        _GENERATOR_CACHE[domain] = cached
    return cached[:count]


_GENERATOR_CACHE: dict[bytes, tuple[bytes, ...]] = {}
