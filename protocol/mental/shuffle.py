"""A verifiable shuffle of ElGamal ciphertexts: Terelius–Wikström (2010), non-interactive.

The prover takes ciphertexts ``e`` and publishes ``e'_i = e_{π(i)} + (ρ_i·G, ρ_i·H)``; the proof
shows that ``e'`` is a re-masked permutation of ``e`` without telling π or ρ. Structure after
Haenni, Locher, Koenig, Dubuis, "Pseudo-code algorithms for verifiable re-encryption mix-nets"
(FC 2017 workshops), in additive notation:

* a commitment to the permutation matrix, ``c_j = r_j·G + h_{π⁻¹(j)}``, with generators ``h_i``
  hashed to the group so nobody knows their logarithms;
* challenges ``u_j`` hashed from the statement and the commitment;
* a commitment chain ``ĉ_i = r̂_i·G + u_{π(i)}·ĉ_{i−1}`` from ``ĉ_0 = h`` proving
  ``Π u_{π(i)} = Π u_j`` (so the committed matrix is a permutation);
* one sigma protocol for the five linear relations plus the n chain links.

Verification folds all 5 + n relations into one with weights hashed after the whole proof,
responses included (a false relation then survives with probability 1/ℓ; weights drawn before
the responses let a prover choose responses that cancel it), so every distinct point costs one
scalar multiplication: 8n + 7 variable-base and one fixed-base multiplication (7n + 8 when the
input is the public initial deck, whose c1 are all G). The prover pays 4n variable-base and 3n
fixed-base multiplications.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from p2p_durak.protocol.mental import group as g
from p2p_durak.protocol.mental.elgamal import (
    Ciphertext,
    ciphertexts_to_bytes,
    remask,
)
from p2p_durak.protocol.mental.transcript import ProofContext, Transcript

GENERATOR_DOMAIN = b"p2p-durak/shuffle-generators"
_T_POINTS = 5  # t1, t2, t3, t41, t42
_S_SCALARS = 4  # s1..s4


def _generators(n: int) -> tuple[bytes, tuple[bytes, ...]]:
    gens = g.generators(GENERATOR_DOMAIN, n + 1)
    return gens[0], gens[1:]


@dataclass(frozen=True, slots=True)
class ShuffleProof:
    commitments: tuple[bytes, ...]  # c_j, n points
    chain: tuple[bytes, ...]  # ĉ_1..ĉ_n
    t: tuple[bytes, ...]  # t1, t2, t3, t41, t42
    t_hat: tuple[bytes, ...]  # n points
    s: tuple[int, ...]  # s1..s4
    s_hat: tuple[int, ...]  # n scalars
    s_prime: tuple[int, ...]  # n scalars

    @staticmethod
    def size(n: int) -> int:
        """The bytes of a proof for a shuffle of n ciphertexts."""
        return 32 * (3 * n + _T_POINTS + 2 * n + _S_SCALARS)

    def to_bytes(self) -> bytes:
        points = b"".join(self.commitments + self.chain + self.t + self.t_hat)
        scalars = b"".join(g.encode_scalar(k) for k in self.s + self.s_hat + self.s_prime)
        return points + scalars

    @classmethod
    def from_bytes(cls, data: object, n: int) -> ShuffleProof:
        n_points = 3 * n + _T_POINTS
        n_scalars = 2 * n + _S_SCALARS
        if not isinstance(data, bytes) or len(data) != 32 * (n_points + n_scalars):
            raise ValueError(f"a shuffle proof of {n} ciphertexts has {n_points + n_scalars} items")
        pts = g.decode_points(data[: 32 * n_points], n_points)
        ks = g.decode_scalars(data[32 * n_points :], n_scalars)
        return cls(
            commitments=pts[:n],
            chain=pts[n : 2 * n],
            t=pts[2 * n : 2 * n + _T_POINTS],
            t_hat=pts[2 * n + _T_POINTS :],
            s=ks[:_S_SCALARS],
            s_hat=ks[_S_SCALARS : _S_SCALARS + n],
            s_prime=ks[_S_SCALARS + n :],
        )


def _statement(
    ctx: ProofContext,
    key: bytes,
    inputs: Sequence[Ciphertext],
    outputs: Sequence[Ciphertext],
    commitments: Sequence[bytes],
) -> tuple[Transcript, list[int]]:
    t = ctx.for_kind("shuffle")
    t.append(b"key", key)
    t.append(b"inputs", ciphertexts_to_bytes(inputs))
    t.append(b"outputs", ciphertexts_to_bytes(outputs))
    t.append_points(b"permutation-commitment", list(commitments))
    return t, t.challenges(b"u", len(inputs))


def _absorb_proof(
    t: Transcript, chain: Sequence[bytes], ts: Sequence[bytes], t_hat: Sequence[bytes]
) -> int:
    t.append_points(b"chain", list(chain))
    t.append_points(b"t", list(ts))
    t.append_points(b"t-hat", list(t_hat))
    return t.challenge(b"c")


def shuffle(
    ctx: ProofContext,
    key: bytes,
    inputs: Sequence[Ciphertext],
    permutation: Sequence[int],
    rerandomizers: Sequence[int],
    rng: g.Rng,
) -> tuple[list[Ciphertext], ShuffleProof]:
    """Re-mask and permute ``inputs`` (output i is input ``permutation[i]``) and prove it."""
    n = len(inputs)
    if sorted(permutation) != list(range(n)) or len(rerandomizers) != n:
        raise ValueError("not a permutation of the inputs")
    outputs = remask([inputs[j] for j in permutation], key, rerandomizers)
    return outputs, prove_shuffle(ctx, key, inputs, outputs, permutation, rerandomizers, rng)


def prove_shuffle(
    ctx: ProofContext,
    key: bytes,
    inputs: Sequence[Ciphertext],
    outputs: Sequence[Ciphertext],
    permutation: Sequence[int],
    rerandomizers: Sequence[int],
    rng: g.Rng,
) -> ShuffleProof:
    n = len(inputs)
    q = g.ORDER
    h, hs = _generators(n)
    inverse = [0] * n
    for i, j in enumerate(permutation):
        inverse[j] = i
    r = [g.random_scalar(rng) for _ in range(n)]
    commitments = tuple(g.add(g.base_mul(r[j]), hs[inverse[j]]) for j in range(n))
    t, u = _statement(ctx, key, inputs, outputs, commitments)
    u_out = [u[j] for j in permutation]

    r_hat = [g.random_scalar(rng) for _ in range(n)]
    chain: list[bytes] = []
    prev = h
    for i in range(n):
        prev = g.add(g.base_mul(r_hat[i]), g.mul(u_out[i], prev))
        chain.append(prev)
    chain_r = 0
    tail = 1
    for i in reversed(range(n)):
        chain_r = (chain_r + r_hat[i] * tail) % q
        tail = tail * u_out[i] % q
    r_bar = sum(r) % q
    r_tilde = sum(uj * rj for uj, rj in zip(u, r, strict=True)) % q
    rho_bar = sum(ui * rho for ui, rho in zip(u_out, rerandomizers, strict=True)) % q

    w1, w2, w3, w4 = (g.random_scalar(rng) for _ in range(4))
    w_hat = [g.random_scalar(rng) for _ in range(n)]
    w_prime = [g.random_scalar(rng) for _ in range(n)]
    ts = (
        g.base_mul(w1),
        g.base_mul(w2),
        g.add(g.base_mul(w3), g.lincomb(w_prime, hs)),
        g.sub(g.lincomb(w_prime, [ct.c1 for ct in outputs]), g.base_mul(w4)),
        g.sub(g.lincomb(w_prime, [ct.c2 for ct in outputs]), g.mul(w4, key)),
    )
    t_hat = tuple(
        g.add(g.base_mul(w_hat[i]), g.mul(w_prime[i], h if i == 0 else chain[i - 1]))
        for i in range(n)
    )
    c = _absorb_proof(t, chain, ts, t_hat)
    return ShuffleProof(
        commitments=commitments,
        chain=tuple(chain),
        t=ts,
        t_hat=t_hat,
        s=(
            (w1 + c * r_bar) % q,
            (w2 + c * chain_r) % q,
            (w3 + c * r_tilde) % q,
            (w4 + c * rho_bar) % q,
        ),
        s_hat=tuple((w_hat[i] + c * r_hat[i]) % q for i in range(n)),
        s_prime=tuple((w_prime[i] + c * u_out[i]) % q for i in range(n)),
    )


def _fold(
    ctx: ProofContext,
    key: bytes,
    inputs: Sequence[Ciphertext],
    outputs: Sequence[Ciphertext],
    proof: ShuffleProof,
) -> tuple[dict[bytes, int], int] | None:
    """The proof's 5 + n verification equations folded into one: {point: coefficient} whose
    weighted sum must be the identity, and a scalar that binds the whole claim (statement,
    proof, responses) for `verify_shuffles`' merge weights. None if malformed."""
    n = len(inputs)
    if n == 0 or len(outputs) != n:
        return None
    if not (
        len(proof.commitments) == len(proof.chain) == len(proof.t_hat) == n
        and len(proof.s_hat) == len(proof.s_prime) == n
        and len(proof.t) == _T_POINTS
        and len(proof.s) == _S_SCALARS
    ):
        return None
    q = g.ORDER
    h, hs = _generators(n)
    t, u = _statement(ctx, key, inputs, outputs, proof.commitments)
    c = _absorb_proof(t, proof.chain, proof.t, proof.t_hat)
    # The weights are drawn after the responses are bound: drawn before, they let a prover
    # pick responses that cancel a false equation in the fold (issue #22, hole 1).
    t.append(b"responses", b"".join(g.encode_scalar(k)
                                    for k in proof.s + proof.s_hat + proof.s_prime))
    b1, b2, b3, b41, b42, *alpha = t.challenges(b"fold", n + _T_POINTS)
    s1, s2, s3, s4 = proof.s
    sp = proof.s_prime
    u_prod = 1
    for uj in u:
        u_prod = u_prod * uj % q

    # Coefficients per distinct point: equal points (the public initial deck has c1 = G in
    # every card; consecutive shuffles share a deck) cost one multiplication together.
    coefficients: dict[bytes, int] = {}

    def term(k: int, p: bytes) -> None:
        coefficients[p] = coefficients.get(p, 0) + k

    term(-b42 * s4, key)
    term(b2 * c * u_prod + alpha[0] * sp[0], h)
    for i in range(n):
        term(b1 * c + b3 * sp[i], hs[i])
        term(-c * (b1 + b3 * u[i]), proof.commitments[i])
        term(-b41 * c * u[i], inputs[i].c1)
        term(-b42 * c * u[i], inputs[i].c2)
        term(b41 * sp[i], outputs[i].c1)
        term(b42 * sp[i], outputs[i].c2)
        link = -alpha[i] * c + (alpha[i + 1] * sp[i + 1] if i + 1 < n else -b2 * c)
        term(link, proof.chain[i])
        term(-alpha[i], proof.t_hat[i])
    for beta, ti in zip((b1, b2, b3, b41, b42), proof.t, strict=True):
        term(-beta, ti)
    term(
        b1 * s1
        + b2 * s2
        + b3 * s3
        - b41 * s4
        + sum(a * sh for a, sh in zip(alpha, proof.s_hat, strict=True)),
        g.GENERATOR,
    )
    return coefficients, t.challenge(b"merge")


def _sum(coefficients: dict[bytes, int]) -> bytes:
    q = g.ORDER
    g_coefficient = coefficients.get(g.GENERATOR, 0)
    others = {p: k for p, k in coefficients.items() if p != g.GENERATOR}
    return g.add(
        g.lincomb([k % q for k in others.values()], list(others)),
        g.base_mul(g_coefficient % q),  # the fixed base is ~3x cheaper
    )


def verify_shuffle(
    ctx: ProofContext,
    key: bytes,
    inputs: Sequence[Ciphertext],
    outputs: Sequence[Ciphertext],
    proof: ShuffleProof,
) -> bool:
    return verify_shuffles(key, [(ctx, inputs, outputs, proof)])


ShuffleClaim = tuple[ProofContext, Sequence[Ciphertext], Sequence[Ciphertext], ShuffleProof]


def folded_equation(key: bytes, claims: Sequence[ShuffleClaim]) -> bytes | None:
    """The claims' verification equations folded into one point (docs/protocol-deck.md D.6.5
    step 5): the identity when every equation holds, anything else (but for probability 1/ℓ)
    when one does not. None when a claim is malformed.

    Each proof's folded equation gets one more weight, hashed from every proof's whole claim
    (statement, proof and responses: weights known before the responses are chosen would let
    one proof's responses cancel another's false equation), and the sums are merged. Points
    the proofs share (the generators, and the deck one shuffler outputs and the next takes as
    input) then cost one multiplication instead of one each, so a chain of shuffles costs
    about a third less than verifying them one by one."""
    folds = []
    t = Transcript("shuffle-batch")
    for ctx, inputs, outputs, proof in claims:
        folded = _fold(ctx, key, inputs, outputs, proof)
        if folded is None:
            return None
        folds.append(folded[0])
        t.append(b"proof", g.encode_scalar(folded[1]))
    if len(folds) == 1:
        return _sum(folds[0])
    merged: dict[bytes, int] = {}
    for weight, coefficients in zip(t.challenges(b"weights", len(folds)), folds, strict=True):
        for point, k in coefficients.items():
            merged[point] = merged.get(point, 0) + weight * k
    return _sum(merged)


def verify_shuffles(key: bytes, claims: Sequence[ShuffleClaim]) -> bool:
    """Verify several shuffles at once: true only if every one verifies (error 1/ℓ)."""
    return folded_equation(key, claims) == g.IDENTITY
