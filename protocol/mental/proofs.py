"""Sigma proofs made non-interactive with Fiat–Shamir (see transcript.py).

* Schnorr proof of knowledge of a secret key (against rogue keys).
* Chaum–Pedersen / DLEQ: the same secret links two pairs of points. Used, batched, for reveal
  tokens (``T_k = x·Y_k`` for many cards under one key ``pk = x·G``) and for re-randomisations
  (``(Δ1_k, Δ2_k) = r_k·(G, H)`` for many ciphertexts). A batch is folded with weights hashed
  from the whole statement: if any single relation is false, the folded one is false except with
  probability 1/ℓ, so one two-scalar proof covers the batch and the verifier pays two
  multiplications per item instead of four.
* A one-of-many DLEQ (Cramer–Damgård–Schoenmakers OR-composition), to show a card's class
  (its suit) without showing the card.

All proofs are ``(challenge, response)`` pairs: the verifier recomputes the commitments and
checks that they hash to the challenge, so nothing the prover chose is trusted.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from p2p_durak.protocol.mental import group as g
from p2p_durak.protocol.mental.transcript import ProofContext, Transcript


@dataclass(frozen=True, slots=True)
class Proof:
    """A Fiat–Shamir sigma proof: challenge ``c`` and response ``s`` (scalars)."""

    c: int
    s: int

    def to_bytes(self) -> bytes:
        return g.encode_scalar(self.c) + g.encode_scalar(self.s)

    @classmethod
    def from_bytes(cls, data: object) -> Proof:
        c, s = g.decode_scalars(data, 2)
        return cls(c, s)


@dataclass(frozen=True, slots=True)
class OneOfProof:
    """An OR-proof: one (challenge, response) per branch; the challenges sum to the hash."""

    challenges: tuple[int, ...]
    responses: tuple[int, ...]

    def to_bytes(self) -> bytes:
        return b"".join(g.encode_scalar(k) for k in self.challenges + self.responses)

    @classmethod
    def from_bytes(cls, data: object, branches: int) -> OneOfProof:
        ks = g.decode_scalars(data, 2 * branches)
        return cls(ks[:branches], ks[branches:])


def _mul_base_or(base: bytes, k: int) -> bytes:
    return g.base_mul(k) if base == g.GENERATOR else g.mul(k, base)


def _dleq_commit(t: Transcript, a: bytes, b: bytes, p: bytes, q: bytes) -> None:
    t.append_points(b"dleq-statement", [a, b, p, q])


def _dleq_prove(t: Transcript, a: bytes, b: bytes, p: bytes, q: bytes, x: int, rng: g.Rng) -> Proof:
    _dleq_commit(t, a, b, p, q)
    w = g.random_scalar(rng)
    t.append_points(b"dleq-commitments", [_mul_base_or(a, w), g.mul(w, b)])
    c = t.challenge(b"dleq")
    return Proof(c, (w + c * x) % g.ORDER)


def _dleq_verify(t: Transcript, a: bytes, b: bytes, p: bytes, q: bytes, proof: Proof) -> bool:
    _dleq_commit(t, a, b, p, q)
    neg_c = g.ORDER - proof.c
    r1 = g.add(_mul_base_or(a, proof.s), g.mul(neg_c, p))
    r2 = g.add(g.mul(proof.s, b), g.mul(neg_c, q))
    t.append_points(b"dleq-commitments", [r1, r2])
    return t.challenge(b"dleq") == proof.c


# -- Schnorr proof of knowledge of a key -------------------------------------------------------


def prove_key(ctx: ProofContext, x: int, pk: bytes, rng: g.Rng) -> Proof:
    t = ctx.for_kind("key")
    t.append(b"pk", pk)
    w = g.random_scalar(rng)
    t.append(b"commitment", g.base_mul(w))
    c = t.challenge(b"schnorr")
    return Proof(c, (w + c * x) % g.ORDER)


def verify_key(ctx: ProofContext, pk: bytes, proof: Proof) -> bool:
    t = ctx.for_kind("key")
    t.append(b"pk", pk)
    t.append(b"commitment", g.add(g.base_mul(proof.s), g.mul(g.ORDER - proof.c, pk)))
    return t.challenge(b"schnorr") == proof.c


# -- Reveal tokens: T_k = x·Y_k with pk = x·G, batched ----------------------------------------


def _batch_transcript(
    ctx: ProofContext, kind: str, key: bytes, first: Sequence[bytes], second: Sequence[bytes]
) -> tuple[Transcript, list[int]]:
    """Absorb a batched statement (a key and two point vectors) and draw the folding weights."""
    t = ctx.for_kind(kind)
    t.append(b"key", key)
    t.append_points(b"first", list(first))
    t.append_points(b"second", list(second))
    weights = [1] if len(first) == 1 else t.challenges(b"batch", len(first))
    return t, weights


def make_tokens(
    ctx: ProofContext, x: int, pk: bytes, bases: Sequence[bytes], rng: g.Rng
) -> tuple[tuple[bytes, ...], Proof]:
    """Tokens x·Y_k for each base and one DLEQ proof that they all use the key behind pk."""
    if not bases:
        raise ValueError("no bases")
    tokens = tuple(g.mul(x, y) for y in bases)
    t, weights = _batch_transcript(ctx, "tokens", pk, bases, tokens)
    folded = bases[0] if len(bases) == 1 else g.lincomb(weights, bases)
    return tokens, _dleq_prove(t, g.GENERATOR, folded, pk, g.mul(x, folded), x, rng)


def verify_tokens(
    ctx: ProofContext, pk: bytes, bases: Sequence[bytes], tokens: Sequence[bytes], proof: Proof
) -> bool:
    if not bases or len(bases) != len(tokens):
        return False
    t, weights = _batch_transcript(ctx, "tokens", pk, bases, tokens)
    if len(bases) == 1:
        fb, ft = bases[0], tokens[0]
    else:
        fb, ft = g.lincomb(weights, bases), g.lincomb(weights, tokens)
    return _dleq_verify(t, g.GENERATOR, fb, pk, ft, proof)


# -- Re-randomisations: (Δ1_k, Δ2_k) = r_k·(G, H), batched -------------------------------------


def prove_rerandomization(
    ctx: ProofContext, key: bytes, rs: Sequence[int], rng: g.Rng
) -> tuple[tuple[bytes, ...], tuple[bytes, ...], Proof]:
    """Offsets r_k·G, r_k·H to add to ciphertexts, with one proof that each pair is well formed."""
    if not rs:
        raise ValueError("nothing to re-randomise")
    d1 = tuple(g.base_mul(r) for r in rs)
    d2 = tuple(g.mul(r, key) for r in rs)
    t, weights = _batch_transcript(ctx, "rerandomize", key, d1, d2)
    r_folded = sum(w * r for w, r in zip(weights, rs, strict=True)) % g.ORDER
    proof = _dleq_prove(
        t, g.GENERATOR, key, g.base_mul(r_folded), g.mul(r_folded, key), r_folded, rng
    )
    return d1, d2, proof


def verify_rerandomization(
    ctx: ProofContext, key: bytes, d1: Sequence[bytes], d2: Sequence[bytes], proof: Proof
) -> bool:
    if not d1 or len(d1) != len(d2):
        return False
    t, weights = _batch_transcript(ctx, "rerandomize", key, d1, d2)
    return _dleq_verify(t, g.GENERATOR, key, g.lincomb(weights, d1), g.lincomb(weights, d2), proof)


# -- One-of-many DLEQ: ∃i  log_G pk = log_B (Q_i) --------------------------------------------


def _one_of_transcript(
    ctx: ProofContext, pk: bytes, base: bytes, targets: Sequence[bytes]
) -> Transcript:
    t = ctx.for_kind("one-of")
    t.append(b"pk", pk)
    t.append(b"base", base)
    t.append_points(b"targets", list(targets))
    return t


def prove_one_of(
    ctx: ProofContext,
    x: int,
    pk: bytes,
    base: bytes,
    targets: Sequence[bytes],
    true_index: int,
    rng: g.Rng,
) -> OneOfProof:
    """Prove x·G = pk and x·base = targets[i] for some i, without telling which i."""
    k = len(targets)
    cs = [0] * k
    ss = [0] * k
    commitments: list[bytes] = []
    w = g.random_scalar(rng)
    for i, q in enumerate(targets):
        if i == true_index:
            commitments += [g.base_mul(w), g.mul(w, base)]
            continue
        cs[i], ss[i] = g.random_scalar(rng), g.random_scalar(rng)
        neg_c = g.ORDER - cs[i]
        commitments += [
            g.add(g.base_mul(ss[i]), g.mul(neg_c, pk)),
            g.add(g.mul(ss[i], base), g.mul(neg_c, q)),
        ]
    t = _one_of_transcript(ctx, pk, base, targets)
    t.append_points(b"commitments", commitments)
    c = t.challenge(b"one-of")
    cs[true_index] = (c - sum(cs)) % g.ORDER
    ss[true_index] = (w + cs[true_index] * x) % g.ORDER
    return OneOfProof(tuple(cs), tuple(ss))


def verify_one_of(
    ctx: ProofContext, pk: bytes, base: bytes, targets: Sequence[bytes], proof: OneOfProof
) -> bool:
    if not targets or len(proof.challenges) != len(targets) or len(proof.responses) != len(targets):
        return False
    commitments: list[bytes] = []
    for q, c_i, s_i in zip(targets, proof.challenges, proof.responses, strict=True):
        neg_c = g.ORDER - c_i
        commitments += [
            g.add(g.base_mul(s_i), g.mul(neg_c, pk)),
            g.add(g.mul(s_i, base), g.mul(neg_c, q)),
        ]
    t = _one_of_transcript(ctx, pk, base, targets)
    t.append_points(b"commitments", commitments)
    return t.challenge(b"one-of") == sum(proof.challenges) % g.ORDER
