"""The deck's bytes and proofs as docs/protocol-deck.md gives them, written from that text alone.

libsodium (through `rbcl`, the binding the project uses) supplies the raw ristretto255
operations only — add, subtract, multiply, validity, the one-way map; the encodings, the
hash-to-group framing, the Fiat–Shamir transcripts and every verification equation are here.
Nothing is imported from `p2p_durak.protocol.mental`.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import rbcl

from .cleanroom_msgpack import Value

ORDER = 2**252 + 27742317777372353535851937790883648493  # D.1 ℓ
IDENTITY = bytes(32)
G = bytes.fromhex("e2f2ae0a6abc4e71a884a961c500515f58e30b6aa582dd8db6a65945e08d2d76")


class DeckFormatError(ValueError):
    """A deck message off D.3/D.4."""


# ---- D.1 group, D.2 hashing ---------------------------------------------------------------


def mul(k: int, point: bytes) -> bytes:
    k %= ORDER
    if k == 0:
        return IDENTITY
    try:
        return bytes(rbcl.crypto_scalarmult_ristretto255(k.to_bytes(32, "little"), point))
    except RuntimeError:  # libsodium refuses to return the identity
        return IDENTITY


def add(p: bytes, q: bytes) -> bytes:
    return bytes(rbcl.crypto_core_ristretto255_add(p, q))


def sub(p: bytes, q: bytes) -> bytes:
    return bytes(rbcl.crypto_core_ristretto255_sub(p, q))


def total(points: Sequence[bytes]) -> bytes:
    acc = IDENTITY
    for point in points:
        acc = add(acc, point)
    return acc


def combination(scalars: Sequence[int], points: Sequence[bytes]) -> bytes:
    assert len(scalars) == len(points)
    return total([mul(k, p) for k, p in zip(scalars, points, strict=True)])


def hash_to_point(domain: bytes, *parts: bytes) -> bytes:
    h = hashlib.sha512(len(domain).to_bytes(4, "big") + domain)
    for part in parts:
        h.update(len(part).to_bytes(4, "big") + part)
    return bytes(rbcl.crypto_core_ristretto255_from_hash(h.digest()))


def card_point(card: int) -> bytes:
    return hash_to_point(b"p2p-durak/card", card.to_bytes(4, "big"))


def shuffle_generators(n: int) -> tuple[bytes, list[bytes]]:
    """(h, [h_1 … h_n])."""
    gens = [hash_to_point(b"p2p-durak/shuffle-generators", i.to_bytes(4, "big"))
            for i in range(n + 1)]
    return gens[0], gens[1:]


def points(data: Value, count: int, what: str) -> list[bytes]:
    if not isinstance(data, bytes) or len(data) != 32 * count:
        raise DeckFormatError(f"{what}: {count} points are {32 * count} bytes")
    out = [data[i:i + 32] for i in range(0, len(data), 32)]
    for point in out:
        # D.1: bit 255 set is not canonical, though libsodium 1.0.18's validity check ignores it
        if (point == IDENTITY or point[31] & 0x80
                or not rbcl.crypto_core_ristretto255_is_valid_point(point)):
            raise DeckFormatError(f"{what}: not a canonical non-identity element")
    return out


def scalars(data: Value, count: int, what: str) -> list[int]:
    if not isinstance(data, bytes) or len(data) != 32 * count:
        raise DeckFormatError(f"{what}: {count} scalars are {32 * count} bytes")
    out = [int.from_bytes(data[i:i + 32], "little") for i in range(0, len(data), 32)]
    if any(k >= ORDER for k in out):
        raise DeckFormatError(f"{what}: a scalar not below ℓ")
    return out


def ciphertexts(data: Value, count: int, what: str) -> list[tuple[bytes, bytes]]:
    flat = points(data, 2 * count, what)
    return [(flat[i], flat[i + 1]) for i in range(0, len(flat), 2)]


# ---- D.3/D.4 messages ----------------------------------------------------------------------


@dataclass(frozen=True)
class ShuffleProofParts:
    commitments: list[bytes]
    chain: list[bytes]
    t: list[bytes]
    t_hat: list[bytes]
    s: list[int]
    s_hat: list[int]
    s_prime: list[int]


def shuffle_proof(data: Value, n: int) -> ShuffleProofParts:
    if not isinstance(data, bytes) or len(data) != 32 * (5 * n + 9):
        raise DeckFormatError(f"a shuffle proof of {n} is {32 * (5 * n + 9)} bytes")
    pts = points(data[:32 * (3 * n + 5)], 3 * n + 5, "shuffle proof")
    ks = scalars(data[32 * (3 * n + 5):], 2 * n + 4, "shuffle proof")
    return ShuffleProofParts(pts[:n], pts[n:2 * n], pts[2 * n:2 * n + 5], pts[2 * n + 5:],
                             ks[:4], ks[4:4 + n], ks[4 + n:])


def _ints(value: Value, what: str, low: int = 0, high: int = 65536) -> list[int]:
    if not isinstance(value, tuple) or not all(
            type(v) is int and low <= v < high for v in value):
        raise DeckFormatError(f"{what}: an array of ints in [{low}, {high})")
    return [v for v in value if isinstance(v, int)]


def _bin32(value: Value, what: str) -> bytes:
    if not isinstance(value, bytes) or len(value) != 32:
        raise DeckFormatError(f"{what}: bin[32]")
    return value


FIELD_COUNTS = {"key-commit": 1, "key-reveal": 2, "coin-commit": 1, "coin-reveal": 1,
                "token-commit": 1,
                "shuffle": 3, "block-shuffle": 3, "rerandomize": 4, "tokens": 4,
                "class-proof": 3, "audit-key": 1}


@dataclass(frozen=True)
class DeckMsg:
    kind: str
    game_id: bytes
    step: str
    seat: int
    fields: dict[str, object]


def parse(message: Value) -> DeckMsg:
    """D.3 and D.4: a decoded deck message into named, checked fields."""
    if not (isinstance(message, tuple) and len(message) >= 4):
        raise DeckFormatError("[kind, game_id, step, seat, ...]")
    kind, game_id, step, seat, *rest = message
    if not (isinstance(kind, str) and kind in FIELD_COUNTS):
        raise DeckFormatError(f"unknown kind {kind!r}")
    if not (isinstance(game_id, bytes) and 1 <= len(game_id) <= 64):
        raise DeckFormatError("game_id: bin[1..64]")
    if not (isinstance(step, str) and len(step) <= 200):
        raise DeckFormatError("step: text of at most 200 characters")
    if not (type(seat) is int and isinstance(seat, int) and 0 <= seat < 256):
        raise DeckFormatError("seat: int 0..255")
    if len(rest) != FIELD_COUNTS[kind]:
        raise DeckFormatError(f"{kind} has {FIELD_COUNTS[kind]} fields")
    fields: dict[str, object] = {}
    if kind in ("key-commit", "coin-commit", "token-commit"):
        fields["commitment"] = _bin32(rest[0], "commitment")
    elif kind == "coin-reveal":
        fields["value"] = _bin32(rest[0], "value")
    elif kind == "key-reveal":
        fields["public_key"] = points(rest[0], 1, "public_key")[0]
        fields["proof"] = scalars(rest[1], 2, "proof")
    elif kind == "shuffle":
        n = rest[0]
        if not (type(n) is int and isinstance(n, int) and 1 <= n < 65536):
            raise DeckFormatError("n: int 1..65535")
        fields["deck"] = ciphertexts(rest[1], n, "deck")
        fields["proof"] = shuffle_proof(rest[2], n)
    elif kind == "block-shuffle":
        blocks = _ints(rest[0], "blocks", 1)
        if not blocks or sum(blocks) >= 65536:
            raise DeckFormatError("blocks: at least one, summing below 65536")
        fields["blocks"] = blocks
        fields["deck"] = ciphertexts(rest[1], sum(blocks), "deck")
        data = rest[2]
        if not isinstance(data, bytes) or len(data) != sum(32 * (5 * b + 9) for b in blocks):
            raise DeckFormatError("proofs: one shuffle proof per block, nothing left over")
        proofs, at = [], 0
        for b in blocks:
            proofs.append(shuffle_proof(data[at:at + 32 * (5 * b + 9)], b))
            at += 32 * (5 * b + 9)
        fields["proofs"] = proofs
    elif kind == "rerandomize":
        slots = _ints(rest[0], "slots")
        if not slots:
            raise DeckFormatError("slots: non-empty")
        fields["slots"] = slots
        fields["delta1"] = points(rest[1], len(slots), "delta1")
        fields["delta2"] = points(rest[2], len(slots), "delta2")
        fields["proof"] = scalars(rest[3], 2, "proof")
    elif kind == "tokens":
        slots = _ints(rest[0], "slots")
        views = _ints(rest[1], "views", -1, 256)
        if not slots or len(views) != len(slots):
            raise DeckFormatError("slots and views: non-empty, of equal length")
        fields["slots"], fields["views"] = slots, views
        fields["tokens"] = points(rest[2], len(slots), "tokens")
        fields["proof"] = scalars(rest[3], 2, "proof")
    elif kind == "class-proof":
        slot = rest[0]
        candidates = _ints(rest[1], "candidates")
        if not (type(slot) is int and isinstance(slot, int) and 0 <= slot < 65536) \
                or not candidates:
            raise DeckFormatError("slot: int; candidates: non-empty")
        fields["slot"], fields["candidates"] = slot, candidates
        fields["proof"] = scalars(rest[2], 2 * len(candidates), "proof")
    else:  # audit-key
        fields["secret"] = scalars(rest[0], 1, "secret")[0]
    return DeckMsg(kind, game_id, step, seat, fields)


# ---- D.5 transcripts -----------------------------------------------------------------------


class Transcript:
    def __init__(self, kind: str, game_id: bytes | None, step: str = "", seat: int = 0) -> None:
        """A proof's transcript (D.5 steps 1–5); `game_id` None: only steps 1–2 (the
        verifier's `shuffle-batch`, D.6.5 step 5)."""
        self.h = hashlib.sha512()
        self.append(b"protocol", b"p2p-durak/mental-poker/v1")
        self.append(b"kind", kind.encode())
        if game_id is not None:
            self.append(b"game", game_id)
            self.append(b"step", step.encode())
            self.append(b"seat", seat.to_bytes(4, "big", signed=True))

    def append(self, label: bytes, data: bytes) -> None:
        self.h.update(len(label).to_bytes(2, "big") + label + len(data).to_bytes(4, "big") + data)

    def challenge(self, label: bytes) -> int:
        self.append(b"challenge", label)
        return int.from_bytes(self.h.copy().digest(), "little") % ORDER

    def challenges(self, label: bytes, count: int) -> list[int]:
        self.append(b"challenges", label + count.to_bytes(4, "big"))
        out = []
        for i in range(count):
            h = self.h.copy()
            h.update(i.to_bytes(4, "big"))
            out.append(int.from_bytes(h.digest(), "little") % ORDER)
        return out


# ---- D.6 proofs ----------------------------------------------------------------------------


def verify_key(game_id: bytes, step: str, seat: int, pk: bytes, proof: Sequence[int]) -> bool:
    c, s = proof
    t = Transcript("key", game_id, step, seat)
    t.append(b"pk", pk)
    t.append(b"commitment", sub(mul(s, G), mul(c, pk)))
    return t.challenge(b"schnorr") == c


def _dleq(t: Transcript, a: bytes, b: bytes, p: bytes, q: bytes, proof: Sequence[int]) -> bool:
    c, s = proof
    t.append(b"dleq-statement", a + b + p + q)
    t.append(b"dleq-commitments", sub(mul(s, a), mul(c, p)) + sub(mul(s, b), mul(c, q)))
    return t.challenge(b"dleq") == c


def _batch(kind: str, ctx: tuple[bytes, str, int], key: bytes, first: Sequence[bytes],
           second: Sequence[bytes]) -> tuple[Transcript, list[int]]:
    t = Transcript(kind, *ctx)
    t.append(b"key", key)
    t.append(b"first", b"".join(first))
    t.append(b"second", b"".join(second))
    return t, ([1] if len(first) == 1 else t.challenges(b"batch", len(first)))


def verify_tokens(ctx: tuple[bytes, str, int], pk: bytes, bases: Sequence[bytes],
                  tokens: Sequence[bytes], proof: Sequence[int]) -> bool:
    t, w = _batch("tokens", ctx, pk, bases, tokens)
    return _dleq(t, G, combination(w, bases), pk, combination(w, tokens), proof)


def verify_rerandomize(ctx: tuple[bytes, str, int], joint: bytes, d1: Sequence[bytes],
                       d2: Sequence[bytes], proof: Sequence[int]) -> bool:
    t, w = _batch("rerandomize", ctx, joint, d1, d2)
    return _dleq(t, G, joint, combination(w, d1), combination(w, d2), proof)


Ciphertext = tuple[bytes, bytes]


def _shuffle_transcript(ctx: tuple[bytes, str, int], joint: bytes, inputs: Sequence[Ciphertext],
                        outputs: Sequence[Ciphertext],
                        proof: ShuffleProofParts) -> tuple[Transcript, list[int], int]:
    """D.6.5 steps 1–3: the transcript after them, the challenges u_1 … u_n and c."""
    t = Transcript("shuffle", *ctx)
    t.append(b"key", joint)
    t.append(b"inputs", b"".join(c1 + c2 for c1, c2 in inputs))
    t.append(b"outputs", b"".join(c1 + c2 for c1, c2 in outputs))
    t.append(b"permutation-commitment", b"".join(proof.commitments))
    u = t.challenges(b"u", len(inputs))
    t.append(b"chain", b"".join(proof.chain))
    t.append(b"t", b"".join(proof.t))
    t.append(b"t-hat", b"".join(proof.t_hat))
    return t, u, t.challenge(b"c")


def shuffle_challenge(ctx: tuple[bytes, str, int], joint: bytes, inputs: Sequence[Ciphertext],
                      outputs: Sequence[Ciphertext],
                      proof: ShuffleProofParts) -> tuple[list[int], int]:
    """D.6.5 steps 1–3: the challenges u_1 … u_n and c."""
    _, u, c = _shuffle_transcript(ctx, joint, inputs, outputs, proof)
    return u, c


def shuffle_residuals(ctx: tuple[bytes, str, int], joint: bytes, inputs: Sequence[Ciphertext],
                      outputs: Sequence[Ciphertext], proof: ShuffleProofParts) -> list[bytes]:
    """D.6.5 step 4, each of the 5 + n equations as right side − left side (the identity
    when it holds)."""
    n = len(inputs)
    u, c = shuffle_challenge(ctx, joint, inputs, outputs, proof)
    h, hs = shuffle_generators(n)
    s1, s2, s3, s4 = proof.s
    sp, chain = proof.s_prime, proof.chain
    product = 1
    for uj in u:
        product = product * uj % ORDER
    t1, t2, t3, t41, t42 = proof.t
    out = [
        sub(sub(mul(s1, G), mul(c, sub(total(proof.commitments), total(hs)))), t1),
        sub(sub(mul(s2, G), mul(c, sub(chain[-1], mul(product, h)))), t2),
        sub(sub(add(mul(s3, G), combination(sp, hs)),
                mul(c, combination(u, proof.commitments))), t3),
        sub(sub(sub(combination(sp, [e[0] for e in outputs]), mul(s4, G)),
                mul(c, combination(u, [e[0] for e in inputs]))), t41),
        sub(sub(sub(combination(sp, [e[1] for e in outputs]), mul(s4, joint)),
                mul(c, combination(u, [e[1] for e in inputs]))), t42),
    ]
    for i in range(n):
        previous = h if i == 0 else chain[i - 1]
        out.append(sub(sub(add(mul(proof.s_hat[i], G), mul(sp[i], previous)),
                           mul(c, chain[i])), proof.t_hat[i]))
    return out


def shuffle_equations(ctx: tuple[bytes, str, int], joint: bytes, inputs: Sequence[Ciphertext],
                      outputs: Sequence[Ciphertext], proof: ShuffleProofParts) -> list[bool]:
    """D.6.5 step 4: whether each of the 5 + n equations holds, unfolded."""
    return [r == IDENTITY for r in shuffle_residuals(ctx, joint, inputs, outputs, proof)]


ShuffleClaim = tuple[tuple[bytes, str, int], Sequence[Ciphertext], Sequence[Ciphertext],
                     ShuffleProofParts]


def shuffle_fold(joint: bytes, claim: ShuffleClaim) -> tuple[bytes, int]:
    """D.6.5 step 5: the claim's folded equation (Σ weight · residual) and its binding d."""
    ctx, inputs, outputs, proof = claim
    t, _, _ = _shuffle_transcript(ctx, joint, inputs, outputs, proof)
    t.append(b"responses", b"".join(k.to_bytes(32, "little")
                                    for k in [*proof.s, *proof.s_hat, *proof.s_prime]))
    weights = t.challenges(b"fold", len(inputs) + 5)
    folded = combination(weights, shuffle_residuals(ctx, joint, inputs, outputs, proof))
    return folded, t.challenge(b"merge")


def shuffles_merged(joint: bytes, claims: Sequence[ShuffleClaim]) -> bytes:
    """D.6.5 step 5: several claims' folded equations merged into one point."""
    folds = [shuffle_fold(joint, claim) for claim in claims]
    if len(folds) == 1:
        return folds[0][0]
    t = Transcript("shuffle-batch", None)
    for _, binding in folds:
        t.append(b"proof", binding.to_bytes(32, "little"))
    return combination(t.challenges(b"weights", len(folds)), [f for f, _ in folds])


# ---- D.7 commitments and coins -------------------------------------------------------------


def commitment(kind: str, game_id: bytes, step: str, seat: int, data: bytes) -> bytes:
    h = hashlib.sha256()
    for part in (kind.encode(), game_id, step.encode(), seat.to_bytes(4, "big"), data):
        h.update(len(part).to_bytes(4, "big") + part)
    return h.digest()


def coin_value(game_id: bytes, step: str, reveals: dict[int, bytes]) -> bytes:
    h = hashlib.sha512(b"p2p-durak/coin" + game_id + step.encode())
    for seat in sorted(reveals):
        h.update(seat.to_bytes(4, "big") + reveals[seat])
    return h.digest()


def _words(seed: bytes, label: str) -> Iterator[int]:
    counter = 0
    while True:
        block = hashlib.sha512(b"p2p-durak/coins" + len(label).to_bytes(2, "big")
                               + label.encode() + seed + counter.to_bytes(8, "big")).digest()
        for i in range(0, 64, 8):
            yield int.from_bytes(block[i:i + 8], "big")
        counter += 1


def _below(words: Iterator[int], bound: int) -> int:
    limit = (1 << 64) - (1 << 64) % bound
    for word in words:
        if word < limit:
            return word % bound
    raise AssertionError("unreachable")


def random_below(seed: bytes, bound: int, label: str) -> int:
    return _below(_words(seed, label), bound)


def random_permutation(seed: bytes, n: int, label: str) -> list[int]:
    words = _words(seed, label)
    items = list(range(n))
    for i in range(n - 1, 0, -1):
        j = _below(words, i + 1)
        items[i], items[j] = items[j], items[i]
    return items


# ---- D.8: a replay of one game's deck messages ---------------------------------------------


def verify_one_of(ctx: tuple[bytes, str, int], pk: bytes, base: bytes, targets: Sequence[bytes],
                  proof: Sequence[int]) -> bool:
    """D.6.4."""
    k = len(targets)
    cs, ss = proof[:k], proof[k:]
    commitments = b"".join(
        sub(mul(s, G), mul(c, pk)) + sub(mul(s, base), mul(c, q))
        for q, c, s in zip(targets, cs, ss, strict=True))
    t = Transcript("one-of", *ctx)
    t.append(b"pk", pk)
    t.append(b"base", base)
    t.append(b"targets", b"".join(targets))
    t.append(b"commitments", commitments)
    return t.challenge(b"one-of") == sum(cs) % ORDER


class DeckReplay:
    """Applies one game's deck messages in log order and checks every proof by D.6–D.8: the
    first shuffle of the whole deck (laid out as `initial`), copies, tokens, class proofs and
    the audit. A failed check raises AssertionError naming the message."""

    def __init__(self, game_id: bytes, n_cards: int, initial: Sequence[int] | None = None):
        self.game_id = game_id
        self.card_points = [card_point(i) for i in range(n_cards)]
        self.initial = list(initial) if initial is not None else list(range(n_cards))
        self.keys: dict[int, bytes] = {}
        self.commits: dict[tuple[str, int], bytes] = {}
        self.committed_reveals: set[str] = set()  # steps whose tokens were committed to first
        self.slots: list[Ciphertext] = []
        self.copies: dict[tuple[int, int], Ciphertext] = {}  # (slot, viewer) → its copy
        self.tokens: dict[tuple[int, int], dict[int, bytes]] = {}  # (slot, view) → seat → T
        self.secrets: dict[int, int] = {}
        self.checked: dict[str, int] = {}
        self.classes: list[tuple[int, list[int]]] = []  # (slot, candidates) proven
        self.token_messages: list[DeckMsg] = []
        self.open: dict[int, int] = {}  # slot → its card, once open to all
        self.left: list[int] = []
        self.hands_left: dict[int, list[int]] = {}  # a leaver → the slots its leave opened

    @property
    def active(self) -> list[int]:
        return sorted(set(self.keys) - set(self.left))

    @property
    def joint(self) -> bytes:
        return total([self.keys[s] for s in self.active])

    def _views(self, slot: int) -> list[int]:
        return [-1, *sorted(v for s, v in self.copies if s == slot)]

    def _opened_to_all(self, slot: int) -> None:
        """A ciphertext of the slot with every active seat's token opens it to all (D.6.2)."""
        for view in self._views(slot):
            tokens = self.tokens.get((slot, view), {})
            if slot not in self.open and set(self.active) <= set(tokens):
                c2 = self.ciphertext(slot, view)[1]
                point = sub(c2, total([tokens[s] for s in self.active]))
                self.open[slot] = self.card_points.index(point)

    def ciphertext(self, slot: int, view: int) -> Ciphertext:
        return self.slots[slot] if view == -1 else self.copies[(slot, view)]

    def apply(self, m: DeckMsg) -> None:
        assert m.game_id == self.game_id, f"{m.kind} of another game"
        ctx = (m.game_id, m.step, m.seat)
        f = m.fields
        if m.kind in ("key-commit", "coin-commit", "token-commit"):
            commitment_ = f["commitment"]
            assert isinstance(commitment_, bytes)
            self.commits[(m.step, m.seat)] = commitment_
        elif m.kind == "key-reveal":
            pk, proof = f["public_key"], f["proof"]
            assert isinstance(pk, bytes)
            assert isinstance(proof, list)
            assert commitment("key", *ctx, pk) == self.commits[(m.step, m.seat)]
            assert verify_key(*ctx, pk, proof), f"seat {m.seat}'s key proof"
            assert pk not in self.keys.values()
            self.keys[m.seat] = pk
        elif m.kind == "coin-reveal":
            value = f["value"]
            assert isinstance(value, bytes)
            assert commitment("coin", *ctx, value) == self.commits[(m.step, m.seat)]
        elif m.kind in ("shuffle", "block-shuffle"):
            self._shuffle(m)
        elif m.kind == "rerandomize":
            slots, d1, d2, proof = (f[k] for k in ("slots", "delta1", "delta2", "proof"))
            assert isinstance(slots, list)
            assert isinstance(d1, list)
            assert isinstance(d2, list)
            assert isinstance(proof, list)
            assert verify_rerandomize(ctx, self.joint, d1, d2, proof), f"{m.step} copies"
            for slot, a, b in zip(slots, d1, d2, strict=True):
                c1, c2 = self.slots[slot]
                self.copies[(slot, m.seat)] = (add(c1, a), add(c2, b))
        elif m.kind == "tokens":
            slots, views, points_, proof = (f[k] for k in ("slots", "views", "tokens", "proof"))
            assert isinstance(slots, list)
            assert isinstance(views, list)
            assert isinstance(points_, list)
            assert isinstance(proof, list)
            bases = [self.ciphertext(s, v)[0] for s, v in zip(slots, views, strict=True)]
            assert verify_tokens(ctx, self.keys[m.seat], bases, points_, proof), \
                f"{m.step} tokens of seat {m.seat}"
            committed = self.commits.get((m.step, m.seat))
            if committed is not None:  # D.7, D.8: a public reveal's tokens, committed to first
                data = b"".join(slot.to_bytes(4, "big") + token
                                for slot, token in zip(slots, points_, strict=True))
                data += b"".join(k.to_bytes(32, "little") for k in proof)
                assert commitment("tokens", *ctx, data) == committed, \
                    f"{m.step} tokens of seat {m.seat} against its commitment"
                self.committed_reveals.add(m.step)
            if m.step == f"leave:{m.seat}":
                assert list(zip(slots, views, strict=True)) == self._leave_items(m.seat)
            for item, token in zip(zip(slots, views, strict=True), points_, strict=True):
                self.tokens.setdefault(item, {})[m.seat] = token
            self.token_messages.append(m)
            if m.step == f"leave:{m.seat}":
                self._leave(m.seat)
            for slot in slots:
                self._opened_to_all(slot)
        elif m.kind == "class-proof":
            slot, candidates, proof = f["slot"], f["candidates"], f["proof"]
            assert isinstance(slot, int)
            assert isinstance(candidates, list)
            assert isinstance(proof, list)
            view = m.seat if (slot, m.seat) in self.copies else -1
            c1, c2 = self.ciphertext(slot, view)
            others = [t for s, t in self.tokens.get((slot, view), {}).items() if s != m.seat]
            partial = sub(c2, total(others))
            targets = [sub(partial, self.card_points[c]) for c in candidates]
            assert verify_one_of(ctx, self.keys[m.seat], c1, targets, proof), "class proof"
            self.classes.append((slot, candidates))
        else:  # audit-key
            secret = f["secret"]
            assert isinstance(secret, int)
            assert mul(secret, G) == self.keys[m.seat], f"seat {m.seat}'s published secret"
            self.secrets[m.seat] = secret
        self.checked[m.kind] = self.checked.get(m.kind, 0) + 1

    def _leave_items(self, seat: int) -> list[tuple[int, int]]:
        """D.8: the leaver's tokens are due on every ciphertext of every slot not open to all,
        in slot order, the shared one first, where it has not published one yet."""
        return [(slot, view) for slot in range(len(self.slots)) if slot not in self.open
                for view in self._views(slot) if seat not in self.tokens.get((slot, view), {})]

    def _leave(self, seat: int) -> None:
        """D.8: the leaver's layer comes off every closed ciphertext; the key shrinks."""
        for slot in range(len(self.slots)):
            if slot in self.open:
                continue
            for view in self._views(slot):
                token = self.tokens[(slot, view)].pop(seat)
                c1, c2 = self.ciphertext(slot, view)
                if view == -1:
                    self.slots[slot] = (c1, sub(c2, token))
                else:
                    self.copies[(slot, view)] = (c1, sub(c2, token))
        self.left.append(seat)
        before = set(self.open)
        for slot in range(len(self.slots)):  # the cards only the leaver could open: its hand
            self._opened_to_all(slot)
        self.hands_left[seat] = sorted(set(self.open) - before)
        for slot, card in self.open.items():  # the public masking under the reduced key
            self.slots[slot] = (G, add(self.card_points[card], self.joint))

    def _shuffle(self, m: DeckMsg) -> None:
        deck = m.fields["deck"]
        assert isinstance(deck, list)
        if m.kind == "shuffle":
            proof = m.fields["proof"]
            assert isinstance(proof, ShuffleProofParts)
            blocks, proofs = [len(deck)], [proof]
        else:
            blocks_, proofs_ = m.fields["blocks"], m.fields["proofs"]
            assert isinstance(blocks_, list)
            assert isinstance(proofs_, list)
            blocks, proofs = blocks_, proofs_
        if not self.slots:  # the first shuffle: the public initial deck as laid out
            assert m.step == "shuffle"
            self.slots = [(G, add(self.card_points[card], self.joint)) for card in self.initial]
        assert len(deck) == len(self.slots), "this replay knows only whole-deck shuffles"
        at = 0
        claims: list[ShuffleClaim] = []
        for index, (size, proof) in enumerate(zip(blocks, proofs, strict=True)):
            step = m.step if m.kind == "shuffle" else f"{m.step}#block{index}"
            claim = ((m.game_id, step, m.seat), self.slots[at:at + size], deck[at:at + size],
                     proof)
            assert all(shuffle_equations(claim[0], self.joint, *claim[1:])), \
                f"seat {m.seat}'s shuffle, block {index}"
            claims.append(claim)
            at += size
        # the folded check (D.6.5 step 5) agrees: the equations hold, so the fold is zero
        assert shuffles_merged(self.joint, claims) == IDENTITY, f"seat {m.seat}'s folded check"
        self.slots = list(deck)

    def audit(self) -> list[int]:
        """After every audit key: each slot's card, c2 − x·c1 with x = Σ x_j (D.4 audit-key)."""
        assert sorted(self.secrets) == self.active
        x = sum(self.secrets.values()) % ORDER
        return [self.open[slot] if slot in self.open
                else self.card_points.index(sub(c2, mul(x, c1)))
                for slot, (c1, c2) in enumerate(self.slots)]
