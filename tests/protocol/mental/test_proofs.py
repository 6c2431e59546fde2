"""Unit tests of the group layer, the sigma proofs and the shuffle argument."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from p2p_durak.protocol.mental import group as g
from p2p_durak.protocol.mental.coins import random_below, random_permutation
from p2p_durak.protocol.mental.elgamal import CardCodec
from p2p_durak.protocol.mental.proofs import (
    make_tokens,
    prove_key,
    prove_one_of,
    prove_rerandomization,
    verify_key,
    verify_one_of,
    verify_rerandomization,
    verify_tokens,
)
from p2p_durak.protocol.mental.shuffle import ShuffleProof, shuffle, verify_shuffle
from p2p_durak.protocol.mental.transcript import ProofContext

from .table import drbg

CTX = ProofContext(b"game", "step", 1)
OTHER_CONTEXTS = [
    ProofContext(b"other-game", "step", 1),
    ProofContext(b"game", "other-step", 1),
    ProofContext(b"game", "step", 2),
]
rng = drbg(b"proofs")


def keypair() -> tuple[int, bytes]:
    x = g.random_scalar(rng)
    return x, g.base_mul(x)


def test_points_and_scalars_are_validated() -> None:
    p = g.base_mul(5)
    assert g.decode_point(p) == p
    for bad in (g.IDENTITY, b"\xff" * 32, p[:31], "text", bytearray(p)):
        with pytest.raises(ValueError, match="ristretto255"):
            g.decode_point(bad)
    assert g.decode_scalar(g.encode_scalar(7)) == 7
    with pytest.raises(ValueError, match="non-canonical"):
        g.decode_scalar(g.ORDER.to_bytes(32, "little"))
    assert g.mul(0, p) == g.IDENTITY
    assert g.add(g.mul(3, p), g.neg(g.mul(3, p))) == g.IDENTITY
    assert g.lincomb([2, 3], [p, p]) == g.mul(5, p)


def test_card_encoding_is_distinct_and_invertible() -> None:
    codec = CardCodec(144)
    assert len(set(codec.points)) == 144
    assert all(codec.decode(codec.encode(i)) == i for i in range(144))
    assert codec.decode(g.base_mul(3)) is None
    assert CardCodec(36).points == codec.points[:36], "a card's element does not depend on n"


def test_schnorr_key_proof_binds_key_and_context() -> None:
    x, pk = keypair()
    proof = prove_key(CTX, x, pk, rng)
    assert verify_key(CTX, pk, proof)
    assert not verify_key(CTX, g.base_mul(x + 1), proof)
    for ctx in OTHER_CONTEXTS:
        assert not verify_key(ctx, pk, proof)


@pytest.mark.parametrize("count", [1, 2, 7])
def test_batched_tokens_are_sound(count: int) -> None:
    x, pk = keypair()
    bases = [g.base_mul(g.random_scalar(rng)) for _ in range(count)]
    tokens, proof = make_tokens(CTX, x, pk, bases, rng)
    assert tokens == tuple(g.mul(x, b) for b in bases)
    assert verify_tokens(CTX, pk, bases, tokens, proof)
    for ctx in OTHER_CONTEXTS:
        assert not verify_tokens(ctx, pk, bases, tokens, proof)
    for i in range(count):
        wrong = list(tokens)
        wrong[i] = g.add(wrong[i], g.GENERATOR)
        assert not verify_tokens(CTX, pk, bases, wrong, proof)
    _, other_pk = keypair()
    assert not verify_tokens(CTX, other_pk, bases, tokens, proof)
    assert not verify_tokens(CTX, pk, bases[:-1], tokens[:-1], proof) or count == 1


def test_rerandomization_proof_rejects_a_shifted_offset() -> None:
    _, key = keypair()
    rs = [g.random_scalar(rng) for _ in range(4)]
    d1, d2, proof = prove_rerandomization(CTX, key, rs, rng)
    assert verify_rerandomization(CTX, key, d1, d2, proof)
    shifted = (*d2[:3], g.add(d2[3], g.GENERATOR))
    assert not verify_rerandomization(CTX, key, d1, shifted, proof)
    assert not verify_rerandomization(OTHER_CONTEXTS[1], key, d1, d2, proof)


def test_one_of_proof_hides_the_branch_and_needs_a_true_one() -> None:
    x, pk = keypair()
    base = g.base_mul(g.random_scalar(rng))
    targets = [g.base_mul(g.random_scalar(rng)) for _ in range(5)]
    for true_index in range(5):
        real = list(targets)
        real[true_index] = g.mul(x, base)
        proof = prove_one_of(CTX, x, pk, base, real, true_index, rng)
        assert verify_one_of(CTX, pk, base, real, proof)
        assert not verify_one_of(OTHER_CONTEXTS[2], pk, base, real, proof)
    # No branch is true: the prover's "proof" fails.
    proof = prove_one_of(CTX, x, pk, base, targets, 2, rng)
    assert not verify_one_of(CTX, pk, base, targets, proof)


def make_shuffle(n: int) -> tuple[bytes, list, list, ShuffleProof]:
    _, key = keypair()
    deck = list(CardCodec(n).initial_deck(key))
    perm = random_permutation(rng(32), n)
    rs = [g.random_scalar(rng) for _ in range(n)]
    out, proof = shuffle(CTX, key, deck, perm, rs, rng)
    return key, deck, out, proof


def test_every_element_of_a_shuffle_proof_matters() -> None:
    key, deck, out, proof = make_shuffle(5)
    assert verify_shuffle(CTX, key, deck, out, proof)
    assert ShuffleProof.from_bytes(proof.to_bytes(), 5) == proof
    for ctx in OTHER_CONTEXTS:
        assert not verify_shuffle(ctx, key, deck, out, proof)
    for field in ("commitments", "chain", "t", "t_hat"):
        points = getattr(proof, field)
        for i in range(len(points)):
            bad = list(points)
            bad[i] = g.add(bad[i], g.GENERATOR)
            assert not verify_shuffle(
                CTX, key, deck, out, dataclasses.replace(proof, **{field: tuple(bad)})
            )
    for field in ("s", "s_hat", "s_prime"):
        scalars = getattr(proof, field)
        for i in range(len(scalars)):
            bad_s = list(scalars)
            bad_s[i] = (bad_s[i] + 1) % g.ORDER
            assert not verify_shuffle(
                CTX, key, deck, out, dataclasses.replace(proof, **{field: tuple(bad_s)})
            )
    _, other_key = keypair()
    assert not verify_shuffle(CTX, other_key, deck, out, proof)
    assert not verify_shuffle(CTX, key, out, deck, proof)


@settings(derandomize=True, max_examples=15, deadline=None)
@given(n=st.integers(min_value=1, max_value=8), data=st.data())
def test_shuffle_of_any_size_verifies_and_a_duplicated_card_does_not(
    n: int, data: st.DataObject
) -> None:
    key, deck, out, proof = make_shuffle(n)
    assert verify_shuffle(CTX, key, deck, out, proof)
    if n >= 2:
        i = data.draw(st.integers(0, n - 1))
        j = data.draw(st.integers(0, n - 1).filter(lambda k: k != i))
        duplicated = list(out)
        duplicated[i] = out[j]
        assert not verify_shuffle(CTX, key, deck, duplicated, proof)


def test_coins_are_deterministic_and_in_range() -> None:
    seed = bytes(64)
    assert random_below(seed, 6) == random_below(seed, 6)
    assert all(0 <= random_below(bytes([i]) * 64, 6) < 6 for i in range(50))
    assert len({random_below(bytes([i]) * 64, 6) for i in range(60)}) == 6
    perm = random_permutation(seed, 10)
    assert sorted(perm) == list(range(10))
    assert random_permutation(seed, 10) == perm
    assert random_permutation(seed, 10, "other") != perm
