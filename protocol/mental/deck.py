"""The sans-IO mental-poker party: one seat's view of the deck, its secret key, its messages.

Usage (every party of a game does the same, in the same order)::

    party = DeckParty(game_id, seat, n_seats, n_cards)          # rng defaults to os.urandom
    out = party.begin(KeysOp("keys"))                            # -> [Send(KeyCommit), ...]
    for event in party.receive(peer_message): ...                # verify + apply, or DeckError

``begin`` and ``receive`` return events; a :class:`~.events.Send` carries a message this party
must broadcast (already applied locally). Nothing here touches a socket or a clock; the node
delivers messages in the shared log's order and checks that ``message.seat`` is the signer.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Sequence

from p2p_durak.protocol.mental import group as g
from p2p_durak.protocol.mental.elgamal import Ciphertext, unmask
from p2p_durak.protocol.mental.errors import DeckUsageError
from p2p_durak.protocol.mental.events import CardSeen, Event, Send, SlotBroken
from p2p_durak.protocol.mental.messages import (
    AuditKey,
    BlockShuffle,
    ClassProof,
    CoinCommit,
    CoinReveal,
    KeyCommit,
    KeyReveal,
    Message,
    Rerandomize,
    Shuffle,
    TokenCommit,
    Tokens,
)
from p2p_durak.protocol.mental.ops import ClassOp, ShuffleOp
from p2p_durak.protocol.mental.proofs import (
    make_tokens,
    prove_key,
    prove_one_of,
    prove_rerandomization,
)
from p2p_durak.protocol.mental.shuffle import shuffle
from p2p_durak.protocol.mental.state import (
    DeckState,
    Pending,
    block_context,
    commitment,
    tokens_committed,
)

Rng = Callable[[int], bytes]


def random_permutation(rng: Rng, n: int) -> list[int]:
    """A uniform permutation from the party's CSPRNG (Fisher–Yates, rejection sampling)."""
    items = list(range(n))
    for i in range(n - 1, 0, -1):
        bound = i + 1
        limit = (1 << 64) - (1 << 64) % bound
        while True:
            word = int.from_bytes(rng(8), "big")
            if word < limit:
                break
        j = word % bound
        items[i], items[j] = items[j], items[i]
    return items


def _statement_rng(secret: bytes, game_id: bytes, step: str, bases: Sequence[bytes]) -> Rng:
    """Bytes that only the secret's holder can compute, fixed by the statement they serve."""
    seed = hashlib.sha512(b"p2p-durak/token-nonce\0" + secret + game_id + step.encode()
                          + b"".join(bases)).digest()
    counter = [0]

    def rng(size: int) -> bytes:
        counter[0] += 1
        return hashlib.shake_256(seed + counter[0].to_bytes(4, "big")).digest(size)

    return rng


class DeckParty(DeckState):
    """One seat: its per-game secret key and the messages it owes."""

    def __init__(
        self,
        game_id: bytes,
        seat: int,
        n_seats: int,
        n_cards: int,
        rng: Rng = os.urandom,
        fold_shuffle_proofs: bool = True,
    ) -> None:
        super().__init__(game_id, n_seats, n_cards, fold_shuffle_proofs)
        if not 0 <= seat < n_seats:
            raise DeckUsageError(f"seat {seat} outside 0..{n_seats - 1}")
        self.seat = seat
        self.rng = rng
        self._secret = g.random_scalar(rng)
        self.public_key = g.base_mul(self._secret)
        self.seen: dict[int, int] = {}  # slot -> card this party has opened privately

    # -- what this party may learn ------------------------------------------------------------

    def try_open(self, slot: int) -> int | None:
        """Open a slot with everything this party holds: every published token and its own key.

        Returns the card id, or None when what it holds does not open the slot (which is what
        the privacy tests assert for every slot that is not this party's to see)."""
        st = self.slots[slot]
        for view in [st.base, *st.copies.values()]:
            tokens = [t for s, t in view.tokens.items() if s != self.seat]
            own = g.mul(self._secret, view.ct.c1) if self.seat in self.active else g.IDENTITY
            card = self.codec.decode(g.sub(unmask(view.ct, tokens), own))
            if card is not None:
                return card
        return None

    def _on_slots_reset(self, slots: Sequence[int]) -> None:
        for slot in slots:
            self.seen.pop(slot, None)

    def _on_slot_opened(self, step: str, slot: int) -> list[Event]:
        if self.seat not in self.slots[slot].viewers or slot in self.seen:
            return []
        card = self.try_open(slot)
        if card is None:
            # every token was proven, so a shuffle put a non-card here: named, not a crash
            return [SlotBroken(step, slot, self.broken_slot_error(slot), public=False)]
        self.seen[slot] = card
        return [CardSeen(step, slot, card)]

    # -- producing this seat's messages -------------------------------------------------------

    def _progress(self) -> list[Event]:
        events: list[Event] = []
        while (p := self.pending) is not None and self.seat in p.due and self.seat not in p.got:
            msg = self._contribution(p)
            events.append(Send(msg.step, msg))
            events += self._accept(msg, verify=False)
        return events

    def _block_shuffle(self, p: Pending) -> BlockShuffle:
        """A partitioned shuffle: each block permuted within itself, one proof per block, each
        bound to its block's own context (the contexts `block_claims` checks)."""
        assert isinstance(p.op, ShuffleOp)
        step, seat = p.op.step, self.seat
        deck: list[Ciphertext] = []
        proofs = []
        at = 0
        for index, size in enumerate(p.op.blocks):
            ctx = block_context(self.game_id, step, seat, index)
            rs = [g.random_scalar(self.rng) for _ in range(size)]
            perm = random_permutation(self.rng, size)
            out, proof = shuffle(ctx, self._key(), p.current[at:at + size], perm, rs,
                                 self.rng)
            deck += out
            proofs.append(proof)
            at += size
        return BlockShuffle(self.game_id, step, seat, p.op.blocks, tuple(deck), tuple(proofs))

    def _tokens(self, p: Pending) -> Tokens:
        """This seat's tokens due in the step. Those of a public reveal, committed to first,
        come with a proof whose nonce is derived from the secret key and the statement (as
        in deterministic signatures), so the message sent is the one committed to, also
        after a restart; any other proof nonce is fresh randomness."""
        step, seat = p.op.step, self.seat
        items = p.owed[seat]
        bases = [self.slots[s].view(v).ct.c1 for s, v in items]
        rng = self.rng
        if p.phase == TokenCommit.KIND or seat in p.commits:
            rng = _statement_rng(g.encode_scalar(self._secret), self.game_id, step, bases)
        tokens, proof = make_tokens(self.ctx(step, seat), self._secret, self.public_key, bases,
                                    rng)
        return Tokens(self.game_id, step, seat, tuple(s for s, _ in items),
                      tuple(v for _, v in items), tokens, proof)

    def _contribution(self, p: Pending) -> Message:
        step, seat = p.op.step, self.seat
        ctx = self.ctx(step, seat)
        if p.phase == KeyCommit.KIND:
            return KeyCommit(
                self.game_id,
                step,
                seat,
                commitment("key", self.game_id, step, seat, self.public_key),
            )
        if p.phase == KeyReveal.KIND:
            proof = prove_key(ctx, self._secret, self.public_key, self.rng)
            return KeyReveal(self.game_id, step, seat, self.public_key, proof)
        if p.phase == CoinCommit.KIND:
            p.secret_value = self.rng(32)
            return CoinCommit(
                self.game_id,
                step,
                seat,
                commitment("coin", self.game_id, step, seat, p.secret_value),
            )
        if p.phase == CoinReveal.KIND:
            return CoinReveal(self.game_id, step, seat, p.secret_value)
        if p.phase == Shuffle.KIND:
            assert isinstance(p.op, ShuffleOp)
            n = len(p.current)
            rs = [g.random_scalar(self.rng) for _ in range(n)]
            perm = random_permutation(self.rng, n)
            deck, shuffle_proof = shuffle(ctx, self._key(), p.current, perm, rs, self.rng)
            return Shuffle(self.game_id, step, seat, tuple(deck), shuffle_proof)
        if p.phase == BlockShuffle.KIND:
            return self._block_shuffle(p)
        if p.phase == Rerandomize.KIND:
            slots = p.copy_grants[seat]
            rs = [g.random_scalar(self.rng) for _ in slots]
            d1, d2, proof = prove_rerandomization(ctx, self._key(), rs, self.rng)
            return Rerandomize(self.game_id, step, seat, tuple(slots), d1, d2, proof)
        if p.phase == TokenCommit.KIND:
            data = tokens_committed(self._tokens(p))
            return TokenCommit(self.game_id, step, seat,
                               commitment("tokens", self.game_id, step, seat, data))
        if p.phase == Tokens.KIND:
            return self._tokens(p)
        if p.phase == ClassProof.KIND:
            assert isinstance(p.op, ClassOp)
            op = p.op
            card = self.seen.get(op.slot)
            if card is None or card not in op.candidates:
                raise DeckUsageError(f"the card in slot {op.slot} is not among the candidates")
            c1, targets = self.class_statement(op.slot, seat, op.candidates)
            proof1 = prove_one_of(
                ctx,
                self._secret,
                self.public_key,
                c1,
                targets,
                op.candidates.index(card),
                self.rng,
            )
            return ClassProof(self.game_id, step, seat, op.slot, op.candidates, proof1)
        if p.phase == AuditKey.KIND:
            return AuditKey(self.game_id, step, seat, self._secret)
        raise AssertionError(f"no contribution for phase {p.phase}")
