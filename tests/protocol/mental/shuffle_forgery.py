"""A shuffle-proof forger against the verifier of 1b24ba3, and the proof's equations one by one.

Issue #22, hole 1: the folded verification drew its weights (and `verify_shuffles` its merge
weights) from a transcript that had not absorbed the responses s, ŝ, s'. A prover who knows
the weights before choosing the responses can shift one response so that a false equation's
error, weighted, is cancelled in the fold. Here the prover runs the honest algorithm on a
poisoned output deck (one output's c2 moved by δ·G, so it opens to a point that is no card),
which leaves exactly one false equation (#5, error c·u_{π(k)}·δ·G), and then moves s1 so that
the old fold of the weights known in advance is the identity.

`residuals` is docs/protocol-deck.md D.6.5 step 4 written out: for each of the 5 + n equations
the difference of its two sides (the identity when it holds), from the spec's transcript.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from p2p_durak.protocol.mental import group as g
from p2p_durak.protocol.mental.elgamal import Ciphertext, ciphertexts_to_bytes, remask
from p2p_durak.protocol.mental.shuffle import GENERATOR_DOMAIN, ShuffleProof, prove_shuffle
from p2p_durak.protocol.mental.transcript import ProofContext, Transcript

N_T = 5  # t1, t2, t3, t41, t42


def _challenges(ctx: ProofContext, key: bytes, inputs: Sequence[Ciphertext],
                outputs: Sequence[Ciphertext], proof: ShuffleProof
                ) -> tuple[Transcript, list[int], int]:
    """D.6.5 steps 1–3: the transcript after c, the u_j and c."""
    t = ctx.for_kind("shuffle")
    t.append(b"key", key)
    t.append(b"inputs", ciphertexts_to_bytes(inputs))
    t.append(b"outputs", ciphertexts_to_bytes(outputs))
    t.append_points(b"permutation-commitment", list(proof.commitments))
    u = t.challenges(b"u", len(inputs))
    t.append_points(b"chain", list(proof.chain))
    t.append_points(b"t", list(proof.t))
    t.append_points(b"t-hat", list(proof.t_hat))
    return t, u, t.challenge(b"c")


def residuals(ctx: ProofContext, key: bytes, inputs: Sequence[Ciphertext],
              outputs: Sequence[Ciphertext], proof: ShuffleProof) -> list[bytes]:
    """Right side minus left side of each of the 5 + n equations of D.6.5 step 4."""
    n = len(inputs)
    _, u, c = _challenges(ctx, key, inputs, outputs, proof)
    gens = g.generators(GENERATOR_DOMAIN, n + 1)
    h, hs = gens[0], gens[1:]
    s1, s2, s3, s4 = proof.s
    sp, chain = proof.s_prime, proof.chain
    product = 1
    for uj in u:
        product = product * uj % g.ORDER
    t1, t2, t3, t41, t42 = proof.t
    rhs = [
        g.sub(g.base_mul(s1), g.mul(c, g.sub(g.total(proof.commitments), g.total(hs)))),
        g.sub(g.base_mul(s2), g.mul(c, g.sub(chain[-1], g.mul(product, h)))),
        g.sub(g.add(g.base_mul(s3), g.lincomb(list(sp), list(hs))),
              g.mul(c, g.lincomb(u, list(proof.commitments)))),
        g.sub(g.sub(g.lincomb(list(sp), [e.c1 for e in outputs]), g.base_mul(s4)),
              g.mul(c, g.lincomb(u, [e.c1 for e in inputs]))),
        g.sub(g.sub(g.lincomb(list(sp), [e.c2 for e in outputs]), g.mul(s4, key)),
              g.mul(c, g.lincomb(u, [e.c2 for e in inputs]))),
    ]
    out = [g.sub(r, lhs) for r, lhs in zip(rhs, (t1, t2, t3, t41, t42), strict=True)]
    for i in range(n):
        previous = h if i == 0 else chain[i - 1]
        link = g.sub(g.add(g.base_mul(proof.s_hat[i]), g.mul(sp[i], previous)),
                     g.mul(c, chain[i]))
        out.append(g.sub(link, proof.t_hat[i]))
    return out


def equations_hold(ctx: ProofContext, key: bytes, inputs: Sequence[Ciphertext],
                   outputs: Sequence[Ciphertext], proof: ShuffleProof) -> list[bool]:
    """Whether each equation of D.6.5 holds, one by one (no folding)."""
    return [r == g.IDENTITY for r in residuals(ctx, key, inputs, outputs, proof)]


def old_fold_weights(ctx: ProofContext, key: bytes, inputs: Sequence[Ciphertext],
                     outputs: Sequence[Ciphertext], proof: ShuffleProof) -> tuple[list[int], int]:
    """1b24ba3's fold weights (b1, b2, b3, b41, b42, α_1 … α_n), drawn right after c — before
    the responses — and c."""
    t, _, c = _challenges(ctx, key, inputs, outputs, proof)
    return t.challenges(b"fold", len(inputs) + N_T), c


def old_folded_sum(ctx: ProofContext, key: bytes, inputs: Sequence[Ciphertext],
                   outputs: Sequence[Ciphertext], proof: ShuffleProof) -> bytes:
    """The old verifier's folded equation: Σ weight·residual (the identity means accepted)."""
    weights, _ = old_fold_weights(ctx, key, inputs, outputs, proof)
    return g.lincomb(weights, residuals(ctx, key, inputs, outputs, proof))


Claim = tuple[ProofContext, Sequence[Ciphertext], Sequence[Ciphertext], ShuffleProof]


def old_merge_weights(key: bytes, claims: Sequence[Claim]) -> list[int]:
    """1b24ba3's `verify_shuffles` weights: hashed from the contexts and challenges only."""
    t = Transcript("shuffle-batch")
    for ctx, inputs, outputs, proof in claims:
        _, c = old_fold_weights(ctx, key, inputs, outputs, proof)
        t.append(b"proof", ctx.game_id + ctx.step.encode() + g.encode_scalar(c))
    return t.challenges(b"weights", len(claims))


def old_merged_sum(key: bytes, claims: Sequence[Claim]) -> bytes:
    """The old `verify_shuffles` equation: the folds merged with the old merge weights."""
    folds = [old_folded_sum(ctx, key, inputs, outputs, proof)
             for ctx, inputs, outputs, proof in claims]
    return g.lincomb(old_merge_weights(key, claims), folds)


@dataclasses.dataclass(frozen=True)
class Forgery:
    outputs: list[Ciphertext]
    proof: ShuffleProof
    poisoned: int  # the output whose c2 was moved by δ·G
    fold_error: int  # κ: the old fold of the honest-looking proof is κ·G before the s1 shift


def poisoned_proof(ctx: ProofContext, key: bytes, inputs: Sequence[Ciphertext],
                   permutation: Sequence[int], rerandomizers: Sequence[int], rng: g.Rng,
                   poisoned: int, delta: int) -> Forgery:
    """The honest prover run on outputs whose `poisoned`-th c2 is moved by δ·G (no s1 shift:
    equation 5 fails, the others hold)."""
    outputs = remask([inputs[j] for j in permutation], key, rerandomizers)
    outputs[poisoned] = Ciphertext(outputs[poisoned].c1,
                                   g.add(outputs[poisoned].c2, g.base_mul(delta)))
    proof = prove_shuffle(ctx, key, inputs, outputs, permutation, rerandomizers, rng)
    (_, _, _, _, b42, *_), c = old_fold_weights(ctx, key, inputs, outputs, proof)
    _, u, _ = _challenges(ctx, key, inputs, outputs, proof)
    u_out = u[permutation[poisoned]]
    kappa = b42 * c * u_out * delta % g.ORDER
    return Forgery(outputs, proof, poisoned, kappa)


def shift_s1(forgery: Forgery, ctx: ProofContext, key: bytes, inputs: Sequence[Ciphertext],
             target: int) -> Forgery:
    """Move s1 so that the old fold becomes target·G (0: the old verifier accepts). The old
    weights do not depend on s1, so the shift is computed from them once."""
    (b1, *_), _ = old_fold_weights(ctx, key, inputs, forgery.outputs, forgery.proof)
    d = (target - forgery.fold_error) * pow(b1, -1, g.ORDER) % g.ORDER
    s1, s2, s3, s4 = forgery.proof.s
    proof = dataclasses.replace(forgery.proof, s=((s1 + d) % g.ORDER, s2, s3, s4))
    return dataclasses.replace(forgery, proof=proof, fold_error=target % g.ORDER)


def forge(ctx: ProofContext, key: bytes, inputs: Sequence[Ciphertext],
          permutation: Sequence[int], rerandomizers: Sequence[int], rng: g.Rng,
          poisoned: int = 0, delta: int = 1) -> Forgery:
    """A shuffle whose `poisoned` output opens to (its card + δ·G), with a proof the 1b24ba3
    `verify_shuffle` accepts."""
    honest_looking = poisoned_proof(ctx, key, inputs, permutation, rerandomizers, rng,
                                    poisoned, delta)
    return shift_s1(honest_looking, ctx, key, inputs, 0)


def old_verify_shuffle(ctx: ProofContext, key: bytes, inputs: Sequence[Ciphertext],
                       outputs: Sequence[Ciphertext], proof: ShuffleProof) -> bool:
    """1b24ba3's `verify_shuffle`: its folded equation with the weights drawn before the
    responses (to stand in for a verifier that misses a false shuffle)."""
    return old_folded_sum(ctx, key, inputs, outputs, proof) == g.IDENTITY


def old_verify_shuffles(key: bytes, claims: Sequence[Claim]) -> bool:
    """1b24ba3's `verify_shuffles`."""
    return old_merged_sum(key, claims) == g.IDENTITY
