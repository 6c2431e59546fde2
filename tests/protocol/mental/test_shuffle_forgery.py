"""Issue #22, hole 1: a shuffle proof forged against weights drawn before the responses.

On 1b24ba3 the forged proofs below pass `verify_shuffle` and `verify_shuffles` (the helpers
assert that the old folded equation of their weights is the identity); the fold now draws its
weights after the responses, the merge from every proof's whole claim, and the folded checks
agree with the equations checked one by one as docs/protocol-deck.md D.6.5 gives them.
"""

from __future__ import annotations

import dataclasses

from hypothesis import given, settings
from hypothesis import strategies as st

from p2p_durak.protocol.mental import group as g
from p2p_durak.protocol.mental.coins import random_permutation
from p2p_durak.protocol.mental.elgamal import CardCodec, Ciphertext
from p2p_durak.protocol.mental.shuffle import ShuffleProof, shuffle, verify_shuffle, verify_shuffles
from p2p_durak.protocol.mental.transcript import ProofContext

from .shuffle_forgery import (
    equations_hold,
    forge,
    old_folded_sum,
    old_merge_weights,
    old_merged_sum,
    poisoned_proof,
    shift_s1,
)
from .table import drbg

N = 6
rng = drbg(b"shuffle-forgery")
SECRET = g.random_scalar(rng)
KEY = g.base_mul(SECRET)
CODEC = CardCodec(N)
DECK = list(CODEC.initial_deck(KEY))


def ctx(seat: int) -> ProofContext:
    return ProofContext(b"forged-game", "shuffle", seat)


def opens_to(ct: Ciphertext) -> int | None:
    return CODEC.decode(g.sub(ct.c2, g.mul(SECRET, ct.c1)))


def honest_arguments(n: int = N) -> tuple[list[int], list[int]]:
    return random_permutation(rng(32), n), [g.random_scalar(rng) for _ in range(n)]


def test_a_forged_shuffle_whose_output_is_no_card_is_refused() -> None:
    perm, rs = honest_arguments()
    forged = forge(ctx(0), KEY, DECK, perm, rs, rng, poisoned=2, delta=7)
    # a real forgery against 1b24ba3: its folded equation holds with the old weights
    assert old_folded_sum(ctx(0), KEY, DECK, forged.outputs, forged.proof) == g.IDENTITY
    # output 2 opens to a point that is no card; the others to their cards
    assert opens_to(forged.outputs[2]) is None
    assert sorted(c for c in map(opens_to, forged.outputs) if c is not None) == sorted(
        perm[i] for i in range(N) if i != 2)
    # one by one (D.6.5 step 4): the ciphertext equation is false, and so is the one whose
    # response was moved to hide it
    held = equations_hold(ctx(0), KEY, DECK, forged.outputs, forged.proof)
    assert [i for i, ok in enumerate(held) if not ok] == [0, 4]
    assert not verify_shuffle(ctx(0), KEY, DECK, forged.outputs, forged.proof)
    assert not verify_shuffles(KEY, [(ctx(0), DECK, forged.outputs, forged.proof)])


def test_a_forged_shuffle_is_refused_in_a_batch_with_an_honest_one() -> None:
    perm, rs = honest_arguments()
    honest, honest_proof = shuffle(ctx(0), KEY, DECK, perm, rs, rng)
    perm2, rs2 = honest_arguments()
    forged = forge(ctx(1), KEY, honest, perm2, rs2, rng)
    claims = [(ctx(0), DECK, honest, honest_proof), (ctx(1), honest, forged.outputs, forged.proof)]
    assert old_merged_sum(KEY, claims) == g.IDENTITY  # 1b24ba3's verify_shuffles accepted it
    assert verify_shuffle(ctx(0), KEY, DECK, honest, honest_proof)
    assert not verify_shuffles(KEY, claims)


def test_merge_weights_known_before_the_responses_let_two_false_proofs_cancel() -> None:
    """Each of the two proofs fails its own (old) fold, yet the old merge of the two holds:
    its weights were hashed from the challenges c alone, so the second proof's s1 could be
    chosen to cancel the first proof's error."""
    perm, rs = honest_arguments()
    first = poisoned_proof(ctx(0), KEY, DECK, perm, rs, rng, poisoned=0, delta=3)
    perm2, rs2 = honest_arguments()
    second = poisoned_proof(ctx(1), KEY, first.outputs, perm2, rs2, rng, poisoned=1, delta=5)
    claims = [(ctx(0), DECK, first.outputs, first.proof),
              (ctx(1), first.outputs, second.outputs, second.proof)]
    w_first, w_second = old_merge_weights(KEY, claims)  # s1 is not in them
    target = -w_first * first.fold_error * pow(w_second, -1, g.ORDER) % g.ORDER
    second = shift_s1(second, ctx(1), KEY, first.outputs, target)
    claims[1] = (ctx(1), first.outputs, second.outputs, second.proof)
    assert old_folded_sum(ctx(0), KEY, DECK, first.outputs, first.proof) != g.IDENTITY
    assert old_folded_sum(ctx(1), KEY, first.outputs, second.outputs, second.proof) != g.IDENTITY
    assert old_merged_sum(KEY, claims) == g.IDENTITY
    assert not verify_shuffles(KEY, claims)


def _tampered(kind: int, data: st.DataObject) -> tuple[list[Ciphertext], ShuffleProof, bool]:
    """A shuffle, honest or tampered in one of several ways; and whether it is honest."""
    perm, rs = honest_arguments()
    if kind == 0:
        out, proof = shuffle(ctx(0), KEY, DECK, perm, rs, rng)
        return out, proof, True
    if kind in (1, 2):  # poisoned, with (1) or without (2) the response moved
        slot = data.draw(st.integers(0, N - 1))
        delta = data.draw(st.integers(1, 2**64))
        make = forge if kind == 1 else poisoned_proof
        forged = make(ctx(0), KEY, DECK, perm, rs, rng, slot, delta)
        return forged.outputs, forged.proof, False
    out, proof = shuffle(ctx(0), KEY, DECK, perm, rs, rng)
    field = data.draw(st.sampled_from(["s", "s_hat", "s_prime"]))
    values = list(getattr(proof, field))
    i = data.draw(st.integers(0, len(values) - 1))
    values[i] = (values[i] + data.draw(st.integers(1, 2**64))) % g.ORDER
    return out, dataclasses.replace(proof, **{field: tuple(values)}), False


@settings(derandomize=True, max_examples=12, deadline=None)
@given(kind=st.integers(0, 3), data=st.data())
def test_the_folded_check_agrees_with_the_equations_one_by_one(kind: int,
                                                                data: st.DataObject) -> None:
    out, proof, honest = _tampered(kind, data)
    held = equations_hold(ctx(0), KEY, DECK, out, proof)
    assert all(held) == honest
    assert verify_shuffle(ctx(0), KEY, DECK, out, proof) == all(held)
    assert verify_shuffles(KEY, [(ctx(0), DECK, out, proof)]) == all(held)
