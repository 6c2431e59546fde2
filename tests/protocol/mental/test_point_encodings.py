"""Issue #22, hole 5: every point has one spelling (docs/protocol-deck.md D.1, RFC 9496 §4.3.1).

The libsodium that rbcl 1.1.2 bundles (1.0.18) ignores bit 255 of an encoding, so G with that
bit set decoded as G and ``00…0080`` as the identity; `group.is_point` accepted both, and a
seat could publish the identity as its key with a valid proof of knowledge of 0.
"""

from __future__ import annotations

import pytest

from p2p_durak.protocol.mental import group as g
from p2p_durak.protocol.mental.errors import MalformedMessage
from p2p_durak.protocol.mental.messages import KeyCommit, KeyReveal, message_from_wire
from p2p_durak.protocol.mental.ops import KeysOp, ShowOp, ShuffleOp
from p2p_durak.protocol.mental.proofs import prove_key
from p2p_durak.protocol.mental.state import commitment

from .table import Table, drbg

P = 2**255 - 19  # the field prime: s = p is the non-canonical spelling of s = 0
TOP = 1 << 255


def spelled(value: int) -> bytes:
    return value.to_bytes(32, "little")


IDENTITY_SPELLINGS = [spelled(0), spelled(TOP), spelled(P), spelled(P | TOP)]


def with_top_bit(point: bytes) -> bytes:
    return point[:31] + bytes([point[31] | 0x80])


def test_a_point_with_bit_255_set_is_refused_and_says_why() -> None:
    G = g.GENERATOR
    assert g.is_point(G)
    assert not g.is_point(with_top_bit(G))
    with pytest.raises(ValueError, match="bit 255"):
        g.decode_point(with_top_bit(G))
    with pytest.raises(ValueError, match=r"point 2 of 3: non-canonical .*bit 255"):
        g.decode_points(G + with_top_bit(G) + G, 3)
    for spelling in IDENTITY_SPELLINGS:
        assert not g.is_point(spelling)
    # a canonical encoding still is one (every card and generator)
    assert all(g.is_point(p) for p in g.generators(b"p2p-durak/card-test", 16))


@pytest.mark.parametrize("spelling", IDENTITY_SPELLINGS, ids=["0", "0+bit255", "p", "p+bit255"])
def test_a_seat_cannot_publish_the_identity_as_its_key_by_any_encoding(spelling: bytes) -> None:
    """Seat 2 commits to a spelling of the identity and reveals it with a valid proof of
    knowledge of x = 0: the reveal does not parse, naming seat 2, the step and the reason."""
    table = Table(3, 24)
    for party in table.parties[:2]:
        party.begin(KeysOp("keys"))
    commit = KeyCommit(b"game-1", "keys", 2, commitment("key", b"game-1", "keys", 2, spelling))
    assert message_from_wire(commit.to_wire()) == commit  # the commitment is just bytes
    proof = prove_key(table.parties[0].ctx("keys", 2), 0, spelling, drbg(b"zero key"))
    reveal = KeyReveal(b"game-1", "keys", 2, spelling, proof)
    with pytest.raises(MalformedMessage) as info:
        message_from_wire(reveal.to_wire())
    assert (info.value.seat, info.value.step) == (2, "keys")
    assert "identity" in info.value.reason or "canonical" in info.value.reason


# [kind] -> the wire positions of its point fields ([kind, game, step, seat, fields…])
POINT_FIELDS = {
    "key-reveal": (4,),
    "shuffle": (5, 6),  # the deck; the proof (its points come first)
    "block-shuffle": (5, 6),
    "rerandomize": (5, 6),
    "tokens": (6,),
}


def test_a_non_canonical_point_in_any_deck_message_is_refused_with_its_reason() -> None:
    table = Table(3, 12, seed=b"encodings")
    table.run(KeysOp("keys"))
    table.run(ShuffleOp("shuffle", tuple(range(12)), blocks=(6, 6)))
    table.run(ShuffleOp("reshuffle", tuple(range(6))))
    table.run(ShowOp("show", ((0, (0, 1)), (1, (2,)))))
    kinds_seen = set()
    for wire in table.wire:
        kind = wire[0]
        assert isinstance(kind, str)
        for at in POINT_FIELDS.get(kind, ()):
            field = wire[at]
            assert isinstance(field, bytes)
            bad = [*wire[:at], with_top_bit(field[:32]) + field[32:], *wire[at + 1:]]
            with pytest.raises(MalformedMessage) as info:
                message_from_wire(bad)
            assert (info.value.seat, info.value.step) == (wire[3], wire[2])
            assert "bit 255" in info.value.reason, (kind, at, info.value.reason)
            kinds_seen.add(kind)
        message_from_wire(wire)  # the untouched message still parses
    assert kinds_seen == set(POINT_FIELDS)
