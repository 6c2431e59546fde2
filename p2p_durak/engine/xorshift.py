"""A tiny seeded generator for the engine's own chance in simulations (the engine imports no
`random`): splitmix64's finaliser to seed, xorshift32 to step."""

from __future__ import annotations

from typing import Final

_MASK32: Final = 0xFFFFFFFF
_MASK64: Final = 0xFFFFFFFFFFFFFFFF


def seed_state(seed: int) -> int:
    """A non-zero 32-bit generator state from any integer seed (splitmix64's finaliser)."""
    z = (seed + 0x9E3779B97F4A7C15) & _MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    z ^= z >> 31
    return (z & _MASK32) or 0x6D2B79F5


def next_state(x: int) -> int:
    """One xorshift32 step (Marsaglia 2003): a full-period generator on non-zero 32-bit ints."""
    x ^= (x << 13) & _MASK32
    x ^= x >> 17
    return x ^ ((x << 5) & _MASK32)


def shuffled(cards: list[int], seed: int) -> list[int]:
    """`cards` in the order a Fisher–Yates shuffle driven by `seed` gives."""
    out = list(cards)
    x = seed_state(seed)
    for i in range(len(out) - 1, 0, -1):
        x = next_state(x)
        j = x % (i + 1)
        out[i], out[j] = out[j], out[i]
    return out
