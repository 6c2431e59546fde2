"""Unbiased values derived from a joint random seed (seat order, the first-dealer lot, ties).

The seed comes out of a commit-reveal round (see deck.py): no player can bias it except by
refusing to reveal, which is visible and attributable. These helpers turn the 64-byte seed into
integers and permutations without modulo bias (rejection sampling over a SHA-512 stream).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator


def _stream(seed: bytes, label: str) -> Iterator[int]:
    counter = 0
    while True:
        block = hashlib.sha512(
            b"p2p-durak/coins"
            + len(label).to_bytes(2, "big")
            + label.encode()
            + seed
            + counter.to_bytes(8, "big")
        ).digest()
        for i in range(0, 64, 8):
            yield int.from_bytes(block[i : i + 8], "big")
        counter += 1


def _below(stream: Iterator[int], bound: int) -> int:
    if not 0 < bound <= 1 << 32:
        raise ValueError("bound out of range")
    limit = (1 << 64) - (1 << 64) % bound
    for word in stream:
        if word < limit:
            return word % bound
    raise AssertionError("unreachable")  # pragma: no cover


def random_below(seed: bytes, bound: int, label: str = "int") -> int:
    """A uniform integer in range(bound)."""
    return _below(_stream(seed, label), bound)


def random_permutation(seed: bytes, n: int, label: str = "permutation") -> list[int]:
    """A uniform permutation of range(n) (Fisher–Yates)."""
    stream = _stream(seed, label)
    items = list(range(n))
    for i in range(n - 1, 0, -1):
        j = _below(stream, i + 1)
        items[i], items[j] = items[j], items[i]
    return items
