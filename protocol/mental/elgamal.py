"""ElGamal "masking" of cards under a joint key, and the card encoding.

A card is a group element M. A masked card under the joint key H = Σ pk_j is the pair
``(c1, c2) = (r·G, M + r·H)``. Anyone can re-mask it (add ``(s·G, s·H)``); opening it needs
``x·c1 = Σ x_j·c1``, i.e. a reveal token ``x_j·c1`` from every key holder.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from p2p_durak.protocol.mental import group as g

CARD_DOMAIN = b"p2p-durak/card"


class Ciphertext(NamedTuple):
    c1: bytes
    c2: bytes

    def to_bytes(self) -> bytes:
        return self.c1 + self.c2


def ciphertexts_to_bytes(cts: Sequence[Ciphertext]) -> bytes:
    return b"".join(ct.c1 + ct.c2 for ct in cts)


def ciphertexts_from_bytes(data: object, count: int) -> tuple[Ciphertext, ...]:
    points = g.decode_points(data, 2 * count)
    return tuple(Ciphertext(points[i], points[i + 1]) for i in range(0, 2 * count, 2))


class CardCodec:
    """card_id ↔ group element. Every physical card (copy, joker, blank) gets its own element,
    so duplicates are indistinguishable only while masked."""

    def __init__(self, n_cards: int) -> None:
        if n_cards < 1:
            raise ValueError("a deck needs at least one card")
        self.points = tuple(
            g.hash_to_point(CARD_DOMAIN, i.to_bytes(4, "big")) for i in range(n_cards)
        )
        self._ids = {p: i for i, p in enumerate(self.points)}
        if len(self._ids) != n_cards:  # a hash collision in ristretto255 would be news
            raise AssertionError("card encodings collide")

    def __len__(self) -> int:
        return len(self.points)

    def encode(self, card_id: int) -> bytes:
        return self.points[card_id]

    def decode(self, point: bytes) -> int | None:
        return self._ids.get(point)

    def initial_deck(self, joint_key: bytes) -> tuple[Ciphertext, ...]:
        """The public, unshuffled deck: each card masked with randomness 1, which everyone can
        compute. (Randomness 0 would make c1 the identity, which is banned on the wire.)"""
        return tuple(Ciphertext(g.GENERATOR, g.add(m, joint_key)) for m in self.points)


def remask(cts: Sequence[Ciphertext], joint_key: bytes, rs: Sequence[int]) -> list[Ciphertext]:
    return [
        Ciphertext(g.add(ct.c1, g.base_mul(r)), g.add(ct.c2, g.mul(r, joint_key)))
        for ct, r in zip(cts, rs, strict=True)
    ]


def unmask(ct: Ciphertext, tokens: Sequence[bytes]) -> bytes:
    """c2 − Σ tokens: the card if the tokens are x_j·c1 for every key holder."""
    return g.sub(ct.c2, g.total(tokens)) if tokens else ct.c2
