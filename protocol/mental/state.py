"""The public state of a mental-poker deck, and the verification of every message against it.

:class:`DeckState` holds no secret: it is what any observer of the transcript can compute, and it
checks every proof. :class:`~p2p_durak.protocol.mental.deck.DeckParty` adds a seat's secret key
and makes that seat's messages. An auditor replays a journal into a bare ``DeckState``.

Every incoming message is checked completely before anything changes: a :class:`DeckError`
(naming the seat and the step) means the state is exactly as it was.

Slots. After the first shuffle, slot ``i`` holds a masked card. A slot's *base* ciphertext is
shared; a seat that may open it is a *viewer*. The first viewer uses the base ciphertext (every
other seat publishes its reveal token on it); each further viewer makes a private re-randomised
*copy* (only it knows the offset) and every other seat publishes tokens on the copy. A party can
open a ciphertext only with every key holder's token on that ciphertext's ``c1``, so a viewer's
own token is the one thing nobody else gets.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from p2p_durak.protocol.mental import group as g
from p2p_durak.protocol.mental.elgamal import CardCodec, Ciphertext, unmask
from p2p_durak.protocol.mental.errors import (
    DeckError,
    DeckUsageError,
    InvalidProof,
    UnexpectedMessage,
)
from p2p_durak.protocol.mental.events import (
    NO_CARD,
    AuditDone,
    CardRevealed,
    ClassShown,
    Event,
    KeysReady,
    RandomValue,
    SeatLeft,
    ShuffleDone,
    ShuffleVerified,
    SlotBroken,
    SlotShown,
    StepDone,
)
from p2p_durak.protocol.mental.messages import (
    BASE_VIEW,
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
from p2p_durak.protocol.mental.ops import (
    AuditOp,
    ClassOp,
    CoinOp,
    KeysOp,
    LeaveOp,
    Op,
    RevealOp,
    ShowOp,
    ShuffleOp,
)
from p2p_durak.protocol.mental.proofs import (
    verify_key,
    verify_one_of,
    verify_rerandomization,
    verify_tokens,
)
from p2p_durak.protocol.mental.shuffle import (
    ShuffleClaim,
    ShuffleProof,
    verify_shuffle,
    verify_shuffles,
)
from p2p_durak.protocol.mental.tracing import first_false_shuffle
from p2p_durak.protocol.mental.transcript import ProofContext

MAX_SEATS = 16
Item = tuple[int, int]  # (slot, view): view is BASE_VIEW or the seat whose copy it is


@dataclass
class View:
    ct: Ciphertext
    tokens: dict[int, bytes] = field(default_factory=dict)


@dataclass
class SlotState:
    base: View
    base_viewer: int | None = None
    copies: dict[int, View] = field(default_factory=dict)
    viewers: set[int] = field(default_factory=set)
    card: int | None = None  # set once the slot is open to everyone

    def copy(self) -> SlotState:
        """An independent copy (ciphertexts and tokens are immutable values and are shared)."""
        return SlotState(View(self.base.ct, dict(self.base.tokens)), self.base_viewer,
                         {k: View(v.ct, dict(v.tokens)) for k, v in self.copies.items()},
                         set(self.viewers), self.card)

    def view(self, index: int) -> View:
        return self.base if index == BASE_VIEW else self.copies[index]

    def view_of(self, seat: int) -> tuple[int, View] | None:
        """The ciphertext a viewer opens: the base if it was the first viewer, else its copy."""
        if self.base_viewer == seat:
            return BASE_VIEW, self.base
        if seat in self.copies:
            return seat, self.copies[seat]
        return None


@dataclass
class Pending:
    """An operation in progress: which message kind is due now, and from whom."""

    op: Op
    phase: str
    due: list[int]
    got: set[int] = field(default_factory=set)
    commits: dict[int, bytes] = field(default_factory=dict)
    reveals: dict[int, bytes] = field(default_factory=dict)
    order: list[int] = field(default_factory=list)
    current: list[Ciphertext] = field(default_factory=list)
    base_grants: dict[int, int] = field(default_factory=dict)  # slot -> first viewer
    copy_grants: dict[int, list[int]] = field(default_factory=dict)  # viewer -> slots
    items: list[tuple[Item, int | None]] = field(default_factory=list)  # (item, exempt seat)
    owed: dict[int, list[Item]] = field(default_factory=dict)
    secret_value: bytes = b""  # a party's own coin value while the coin is open
    unverified: list[UnverifiedShuffle] = field(default_factory=list)


@dataclass
class UnverifiedShuffle:
    """A shuffle accepted provisionally (folded verification), and how to undo it."""

    seat: int
    claim: ShuffleClaim
    current_before: list[Ciphertext]
    got_before: set[int]
    due_before: list[int]
    journal_before: int


def block_context(game_id: bytes, step: str, seat: int, index: int) -> ProofContext:
    """The context a partitioned shuffle's proof of block `index` is bound to: a proof made
    for one block verifies for no other."""
    return ProofContext(game_id, f"{step}#block{index}", seat)


def block_claims(game_id: bytes, step: str, seat: int, blocks: Sequence[int],
                 inputs: Sequence[Ciphertext], outputs: Sequence[Ciphertext],
                 proofs: Sequence[ShuffleProof]) -> list[ShuffleClaim]:
    """The shuffle statements of a partitioned shuffle, one per block."""
    claims: list[ShuffleClaim] = []
    at = 0
    for index, (size, proof) in enumerate(zip(blocks, proofs, strict=True)):
        claims.append((block_context(game_id, step, seat, index), inputs[at:at + size],
                       outputs[at:at + size], proof))
        at += size
    return claims


def tokens_committed(msg: Tokens) -> bytes:
    """What a `token-commit` binds: each item's slot with its token, then the proof (whose
    random response keeps the tokens hidden until they are sent: a token alone is one of a
    few dozen values a party could try, given the card)."""
    items = b"".join(slot.to_bytes(4, "big") + token
                     for slot, token in zip(msg.slots, msg.tokens, strict=True))
    return items + msg.proof.to_bytes()


def commitment(kind: str, game_id: bytes, step: str, seat: int, data: bytes) -> bytes:
    h = hashlib.sha256()
    for part in (kind.encode(), game_id, step.encode(), seat.to_bytes(4, "big"), data):
        h.update(len(part).to_bytes(4, "big") + part)
    return h.digest()


class DeckState:
    """Public deck state of one game; verifies and applies every message."""

    def __init__(
        self, game_id: bytes, n_seats: int, n_cards: int, fold_shuffle_proofs: bool = True
    ) -> None:
        if not 2 <= n_seats <= MAX_SEATS:
            raise DeckUsageError(f"2..{MAX_SEATS} seats, not {n_seats}")
        if not 1 <= len(game_id) <= 64:
            raise DeckUsageError("game id must be 1..64 bytes")
        self.game_id = game_id
        self.n_seats = n_seats
        self.n_cards = n_cards
        self.codec = CardCodec(n_cards)
        self.active: list[int] = list(range(n_seats))
        self.public_keys: dict[int, bytes] = {}
        self.joint_key: bytes | None = None
        self.slots: list[SlotState] = []
        # Copy on write: after `share_slots_with` (a fork), the slots are shared with the twin, and
        # a slot is copied the first time this state changes it (`_own_slot`); None: every
        # slot is this state's own. A fork copied all 36 slots, some 2.6 times per entry.
        self._owned_slots: set[int] | None = None
        self.shuffled = False
        self.pending: Pending | None = None
        self.finished_steps: set[str] = set()
        self.journal: list[Op | Message] = []
        self.audit_secrets: dict[int, int] = {}
        # Folded: the shuffles of one operation are verified together when the last one
        # arrives (a third cheaper; a cheater is still named before any card is dealt).
        # Unfolded: each shuffle is verified on receipt.
        self.fold_shuffle_proofs = fold_shuffle_proofs

    # -- helpers ------------------------------------------------------------------------------

    def ctx(self, step: str, seat: int) -> ProofContext:
        return ProofContext(self.game_id, step, seat)

    def _key(self) -> bytes:
        if self.joint_key is None:
            raise DeckUsageError("the game keys are not established yet")
        return self.joint_key

    def _slot(self, slot: int) -> SlotState:
        if not self.shuffled:
            raise DeckUsageError("the deck has not been shuffled yet")
        if not 0 <= slot < self.n_cards:
            raise DeckUsageError(f"no slot {slot}")
        return self.slots[slot]

    def share_slots_with(self, twin: DeckState) -> None:
        """Give a fork of this state the same slots, shared: each is copied by whichever of
        the two changes it first."""
        twin.slots = list(self.slots)
        twin._owned_slots = set()
        self._owned_slots = set()

    def _own_slot(self, slot: int) -> SlotState:
        """Slot `slot`, this state's own, to be changed."""
        st = self.slots[slot]
        owned = self._owned_slots
        if owned is not None and slot not in owned:
            st = self.slots[slot] = st.copy()
            owned.add(slot)
        return st

    def _fresh_slots(self) -> None:
        """The unshuffled deck under the joint key, all slots this state's own."""
        assert self.joint_key is not None
        self.slots = [SlotState(View(ct)) for ct in self.codec.initial_deck(self.joint_key)]
        self._owned_slots = None

    def _seat(self, seat: int) -> int:
        if seat not in self.active:
            raise DeckUsageError(f"seat {seat} is not playing")
        return seat

    # -- starting operations ------------------------------------------------------------------

    def begin(self, op: Op) -> list[Event]:
        """Start an operation (every party starts the same one); returns what follows at once."""
        if self.pending is not None:
            raise DeckUsageError(f"step {self.pending.op.step!r} is still open")
        if op.step in self.finished_steps:
            raise DeckUsageError(f"step {op.step!r} was already used")
        planners: dict[type[Op], Callable[[Op], Pending]] = {
            KeysOp: self._plan_keys,
            CoinOp: self._plan_coin,
            ShuffleOp: self._plan_shuffle,
            ShowOp: self._plan_show,
            RevealOp: self._plan_reveal,
            ClassOp: self._plan_class,
            LeaveOp: self._plan_leave,
            AuditOp: self._plan_audit,
        }
        pending = planners[type(op)](op)
        self.pending = pending
        self.journal.append(op)
        if not pending.due:  # e.g. a seat leaving before the deck exists owes no tokens
            return self._finish_tokens(pending)
        try:
            return self._progress()
        except DeckUsageError:
            if self.journal[-1] is op:  # this seat could not make its first message: undo
                self.journal.pop()
                self.pending = None
            raise

    def _plan_keys(self, op: Op) -> Pending:
        if self.public_keys:
            raise DeckUsageError("the game keys exist already")
        return Pending(op, KeyCommit.KIND, list(self.active))

    def _plan_coin(self, op: Op) -> Pending:
        return Pending(op, CoinCommit.KIND, list(self.active))

    def _plan_shuffle(self, op: Op) -> Pending:
        assert isinstance(op, ShuffleOp)
        key = self._key()
        slots = op.slots
        if len(set(slots)) != len(slots) or not all(0 <= s < self.n_cards for s in slots):
            raise DeckUsageError("shuffle slots must be distinct slot numbers")
        if op.blocks and (min(op.blocks) < 1 or sum(op.blocks) != len(slots)):
            raise DeckUsageError("the blocks of a partitioned shuffle cover its slots")
        if not self.shuffled:
            if sorted(slots) != list(range(self.n_cards)):
                raise DeckUsageError("the first shuffle takes the whole deck")
            initial = op.initial or tuple(range(self.n_cards))
            if sorted(initial) != list(range(self.n_cards)):
                raise DeckUsageError("the initial deck is a permutation of the cards")
            deck = self.codec.initial_deck(key)
            current = [deck[card] for card in initial]
        else:
            if len(slots) < 2:
                raise DeckUsageError("shuffling fewer than two slots does nothing")
            if op.initial:
                raise DeckUsageError("only the first shuffle lays out the initial deck")
            current = [self.slots[s].base.ct for s in slots]
        if op.by is None:
            order = list(self.active)
        elif not self.shuffled:
            raise DeckUsageError("the first shuffle is every seat's")
        else:
            order = [self._seat(op.by)]
        phase = BlockShuffle.KIND if op.blocks else Shuffle.KIND
        return Pending(op, phase, [order[0]], order=order, current=current)

    def _plan_show(self, op: Op) -> Pending:
        assert isinstance(op, ShowOp)
        self._key()
        base_grants: dict[int, int] = {}
        copy_grants: dict[int, list[int]] = {}
        seen_slots: set[int] = set()
        for slot, viewers in op.grants:
            st = self._slot(slot)
            if slot in seen_slots:
                raise DeckUsageError(f"slot {slot} granted twice")
            seen_slots.add(slot)
            if st.card is not None:
                raise DeckUsageError(f"slot {slot} is already open to everyone")
            for viewer in sorted(set(viewers)):
                self._seat(viewer)
                if viewer in st.viewers:
                    continue
                if st.base_viewer is None and slot not in base_grants:
                    base_grants[slot] = viewer
                else:
                    copy_grants.setdefault(viewer, []).append(slot)
        if not base_grants and not copy_grants:
            raise DeckUsageError("nothing to show")
        pending = Pending(op, Rerandomize.KIND, sorted(copy_grants))
        pending.base_grants = base_grants
        pending.copy_grants = copy_grants
        if not copy_grants:
            self._enter_token_phase(pending, self._show_items(pending))
        return pending

    def _show_items(self, p: Pending) -> list[tuple[Item, int | None]]:
        items: list[tuple[Item, int | None]] = [
            ((s, BASE_VIEW), v) for s, v in p.base_grants.items()
        ]
        items += [((s, v), v) for v, slots in p.copy_grants.items() for s in slots]
        return sorted(items)

    def _plan_reveal(self, op: Op) -> Pending:
        assert isinstance(op, RevealOp)
        self._key()
        if not op.slots or len(set(op.slots)) != len(op.slots):
            raise DeckUsageError("reveal needs distinct slots")
        items: list[tuple[Item, int | None]] = []
        for slot in op.slots:
            st = self._slot(slot)
            if st.card is not None:
                raise DeckUsageError(f"slot {slot} is already open to everyone")
            found = st.view_of(op.by) if op.by is not None else None
            if op.by is not None and found is None:
                raise DeckUsageError(f"seat {op.by} has no view of slot {slot}")
            views = [(BASE_VIEW, st.base), *sorted(st.copies.items())]
            # Otherwise the view that needs the fewest tokens: a hand card opens with one token.
            index, _ = found or min(views, key=lambda iv: (self._missing(iv[1]), iv[0]))
            items.append(((slot, index), None))
        pending = Pending(op, Tokens.KIND, [])
        self._enter_token_phase(pending, sorted(items))
        if op.by is None and len(pending.due) >= 2:
            # A public reveal: every seat owing tokens first commits to them, so that the last
            # to send cannot open the card before everyone is bound to show it.
            pending.phase = TokenCommit.KIND
        return pending

    def _missing(self, view: View) -> int:
        return sum(1 for s in self.active if s not in view.tokens)

    def _plan_class(self, op: Op) -> Pending:
        assert isinstance(op, ClassOp)
        self._key()
        st = self._slot(op.slot)
        self._seat(op.prover)
        cands = op.candidates
        if not cands or list(cands) != sorted(set(cands)) or cands[-1] >= self.n_cards:
            raise DeckUsageError("candidates must be distinct card ids in increasing order")
        found = st.view_of(op.prover)
        if found is None or self._missing(found[1]) != 1 or op.prover in found[1].tokens:
            raise DeckUsageError(f"seat {op.prover} cannot open slot {op.slot} privately")
        return Pending(op, ClassProof.KIND, [op.prover])

    def _plan_leave(self, op: Op) -> Pending:
        assert isinstance(op, LeaveOp)
        self._key()
        self._seat(op.seat)
        if len(self.active) <= 2:
            raise DeckUsageError("a game needs two seats: end it instead")
        items: list[tuple[Item, int | None]] = []
        if self.shuffled:
            for slot, st in enumerate(self.slots):
                if st.card is not None:
                    continue
                for index, view in [(BASE_VIEW, st.base), *sorted(st.copies.items())]:
                    if op.seat not in view.tokens:
                        items.append(((slot, index), None))
        pending = Pending(op, Tokens.KIND, [])
        owed_by_leaver = {op.seat: [item for item, _ in items]} if items else {}
        pending.items = items
        pending.owed = owed_by_leaver
        pending.due = sorted(owed_by_leaver)
        return pending

    def _plan_audit(self, op: Op) -> Pending:
        self._key()
        return Pending(op, AuditKey.KIND, list(self.active))

    def _enter_token_phase(self, p: Pending, items: list[tuple[Item, int | None]]) -> None:
        owed: dict[int, list[Item]] = {}
        for item, exempt in items:
            slot, index = item
            view = self.slots[slot].view(index)
            for seat in self.active:
                if seat != exempt and seat not in view.tokens:
                    owed.setdefault(seat, []).append(item)
        p.phase = Tokens.KIND
        p.items = items
        p.owed = owed
        p.due = sorted(owed)
        p.got = set()

    # -- receiving ----------------------------------------------------------------------------

    def receive(self, msg: Message) -> list[Event]:
        """Verify a peer's message and apply it; raise DeckError with nothing applied."""
        events = self._accept(msg, verify=True)
        return events + self._progress()

    def _accept(self, msg: Message, verify: bool) -> list[Event]:
        if msg.game_id != self.game_id:
            raise UnexpectedMessage(msg.seat, msg.step, "message belongs to another game")
        p = self.pending
        if p is None or p.op.step != msg.step:
            why = (
                "step already finished (replay?)"
                if msg.step in self.finished_steps
                else ("no such step is open")
            )
            raise UnexpectedMessage(msg.seat, msg.step, why)
        if p.phase != msg.KIND:
            raise UnexpectedMessage(msg.seat, msg.step, f"expected {p.phase!r}, got {msg.KIND!r}")
        if msg.seat in p.got:
            raise UnexpectedMessage(msg.seat, msg.step, f"duplicate {msg.KIND!r} (replay?)")
        if msg.seat not in p.due:
            raise UnexpectedMessage(msg.seat, msg.step, f"no {msg.KIND!r} is due from this seat")
        handlers: dict[type[Message], Callable[[Pending, Message, bool], list[Event]]] = {
            KeyCommit: self._on_commit,
            CoinCommit: self._on_commit,
            TokenCommit: self._on_token_commit,
            KeyReveal: self._on_key_reveal,
            CoinReveal: self._on_coin_reveal,
            Shuffle: self._on_shuffle,
            BlockShuffle: self._on_block_shuffle,
            Rerandomize: self._on_rerandomize,
            Tokens: self._on_tokens,
            ClassProof: self._on_class,
            AuditKey: self._on_audit_key,
        }
        events = handlers[type(msg)](p, msg, verify)
        self.journal.append(msg)
        return events

    def _progress(self) -> list[Event]:
        """Hook for a seat to add the messages that have become due from it."""
        return []

    def _phase_complete(self, p: Pending) -> bool:
        return p.got.issuperset(p.due)

    def _finish(self, p: Pending) -> list[Event]:
        self.pending = None
        self.finished_steps.add(p.op.step)
        return [StepDone(p.op.step)]

    def _on_commit(self, p: Pending, msg: Message, verify: bool) -> list[Event]:
        assert isinstance(msg, KeyCommit | CoinCommit)
        p.commits[msg.seat] = msg.commitment
        p.got.add(msg.seat)
        if self._phase_complete(p):
            p.phase = KeyReveal.KIND if isinstance(msg, KeyCommit) else CoinReveal.KIND
            p.got = set()
        return []

    def _on_token_commit(self, p: Pending, msg: Message, verify: bool) -> list[Event]:
        assert isinstance(msg, TokenCommit)
        p.commits[msg.seat] = msg.commitment
        p.got.add(msg.seat)
        if self._phase_complete(p):  # everyone owing tokens is bound: they may be sent
            p.phase = Tokens.KIND
            p.got = set()
        return []

    def _on_key_reveal(self, p: Pending, msg: Message, verify: bool) -> list[Event]:
        assert isinstance(msg, KeyReveal)
        step, seat = msg.step, msg.seat
        if verify:
            if commitment("key", self.game_id, step, seat, msg.public_key) != p.commits[seat]:
                raise InvalidProof(seat, step, "revealed key does not match its commitment")
            if not verify_key(self.ctx(step, seat), msg.public_key, msg.proof):
                raise InvalidProof(seat, step, "no proof of knowledge of the key (rogue key)")
            if msg.public_key in p.reveals.values():
                raise InvalidProof(seat, step, "key copied from another seat")
        p.reveals[seat] = msg.public_key
        p.got.add(seat)
        if not self._phase_complete(p):
            return []
        self.public_keys = dict(sorted(p.reveals.items()))
        self.joint_key = g.total(self.public_keys.values())
        self._fresh_slots()
        return [KeysReady(step, self.joint_key), *self._finish(p)]

    def _on_coin_reveal(self, p: Pending, msg: Message, verify: bool) -> list[Event]:
        assert isinstance(msg, CoinReveal)
        step, seat = msg.step, msg.seat
        if verify and commitment("coin", self.game_id, step, seat, msg.value) != p.commits[seat]:
            raise InvalidProof(seat, step, "coin value does not match its commitment")
        p.reveals[seat] = msg.value
        p.got.add(seat)
        if not self._phase_complete(p):
            return []
        h = hashlib.sha512(b"p2p-durak/coin" + self.game_id + step.encode())
        for s in sorted(p.reveals):
            h.update(s.to_bytes(4, "big") + p.reveals[s])
        return [RandomValue(step, h.digest()), *self._finish(p)]

    def _on_shuffle(self, p: Pending, msg: Message, verify: bool) -> list[Event]:
        assert isinstance(msg, Shuffle)
        assert isinstance(p.op, ShuffleOp)
        step, seat = msg.step, msg.seat
        if len(msg.deck) != len(p.current):
            raise InvalidProof(
                seat, step, f"shuffle of {len(msg.deck)} cards, {len(p.current)} due"
            )
        claim = (self.ctx(step, seat), p.current, msg.deck, msg.proof)
        events: list[Event] = []
        if verify and self.fold_shuffle_proofs:
            p.unverified.append(
                UnverifiedShuffle(
                    seat, claim, p.current, set(p.got), list(p.due), len(self.journal)
                )
            )
        elif verify and not verify_shuffle(claim[0], self._key(), *claim[1:]):
            raise InvalidProof(seat, step, "shuffle proof does not verify")
        else:
            events.append(ShuffleVerified(step, seat))
        return events + self._shuffled_by(p, seat, msg.deck)

    def _shuffled_by(self, p: Pending, seat: int, deck: Sequence[Ciphertext]) -> list[Event]:
        """`seat`'s shuffle is accepted: the next shuffler's turn, or the step is done."""
        assert isinstance(p.op, ShuffleOp)
        step = p.op.step
        p.current = list(deck)
        p.got.add(seat)  # kept across turns: a second shuffle from a seat is a replay
        turn = p.order.index(seat) + 1
        if turn < len(p.order):
            p.due = [p.order[turn]]
            return []
        events = self._verify_folded(p)
        for slot, ct in zip(p.op.slots, p.current, strict=True):
            self.slots[slot] = SlotState(View(ct))
            if self._owned_slots is not None:
                self._owned_slots.add(slot)
        self.shuffled = True
        self._on_slots_reset(p.op.slots)
        return [*events, ShuffleDone(step, p.op.slots), *self._finish(p)]

    def _on_block_shuffle(self, p: Pending, msg: Message, verify: bool) -> list[Event]:
        """A partitioned shuffle: each block's proof shows that the block's outputs are a
        re-masked permutation of that block's inputs, so no card moves to another block."""
        assert isinstance(msg, BlockShuffle)
        assert isinstance(p.op, ShuffleOp)
        step, seat = msg.step, msg.seat
        if msg.blocks != p.op.blocks or len(msg.deck) != len(p.current):
            raise InvalidProof(seat, step, f"blocks {msg.blocks}, {p.op.blocks} due")
        claims = block_claims(self.game_id, step, seat, p.op.blocks, p.current, msg.deck,
                              msg.proofs)
        if verify and not verify_shuffles(self._key(), claims):
            bad = next(i for i, claim in enumerate(claims)
                       if not verify_shuffle(claim[0], self._key(), *claim[1:]))
            raise InvalidProof(seat, step, f"shuffle proof of block {bad} does not verify "
                               "(a card left its block, or the proof is false)")
        return [ShuffleVerified(step, seat), *self._shuffled_by(p, seat, msg.deck)]

    def _verify_folded(self, p: Pending) -> list[Event]:
        """Check the provisionally accepted shuffles in one folded equation; on failure find
        the first bad one, undo everything from it on, and name its seat."""
        pending, p.unverified = p.unverified, []
        if not pending:
            return []
        step, key = p.op.step, self._key()
        if verify_shuffles(key, [u.claim for u in pending]):
            return [ShuffleVerified(step, u.seat) for u in pending]
        for u in pending:
            if not verify_shuffle(u.claim[0], key, *u.claim[1:]):
                # copies: a table forks its deck, and the fork must not alter these
                p.current, p.got, p.due = (
                    list(u.current_before), set(u.got_before), list(u.due_before))
                del self.journal[u.journal_before :]
                raise InvalidProof(u.seat, step, "shuffle proof does not verify")
        raise DeckError(None, step, "folded shuffle check failed but every proof verifies")

    def _on_rerandomize(self, p: Pending, msg: Message, verify: bool) -> list[Event]:
        assert isinstance(msg, Rerandomize)
        step, seat = msg.step, msg.seat
        if list(msg.slots) != p.copy_grants[seat]:
            raise InvalidProof(
                seat, step, f"copies of slots {msg.slots}, {p.copy_grants[seat]} due"
            )
        if verify and not verify_rerandomization(
            self.ctx(step, seat), self._key(), msg.delta1, msg.delta2, msg.proof
        ):
            raise InvalidProof(seat, step, "re-randomisation proof does not verify")
        for slot, d1, d2 in zip(msg.slots, msg.delta1, msg.delta2, strict=True):
            st = self._own_slot(slot)
            base = st.base.ct
            st.copies[seat] = View(Ciphertext(g.add(base.c1, d1), g.add(base.c2, d2)))
        p.got.add(seat)
        if self._phase_complete(p):
            self._enter_token_phase(p, self._show_items(p))
        return []

    def _on_tokens(self, p: Pending, msg: Message, verify: bool) -> list[Event]:
        assert isinstance(msg, Tokens)
        step, seat = msg.step, msg.seat
        items = list(zip(msg.slots, msg.views, strict=True))
        if items != p.owed[seat]:
            raise InvalidProof(seat, step, "tokens for other cards than the ones due")
        if verify and seat in p.commits and commitment(
                "tokens", self.game_id, step, seat, tokens_committed(msg)) != p.commits[seat]:
            raise InvalidProof(seat, step, "tokens do not match the seat's commitment")
        views = [self.slots[s].view(v) for s, v in items]
        if verify and not verify_tokens(
            self.ctx(step, seat),
            self.public_keys[seat],
            [view.ct.c1 for view in views],
            msg.tokens,
            msg.proof,
        ):
            raise InvalidProof(seat, step, "reveal-token proof does not verify")
        for (slot, index), token in zip(items, msg.tokens, strict=True):
            self._own_slot(slot).view(index).tokens[seat] = token
        p.got.add(seat)
        if not self._phase_complete(p):
            return []
        return self._finish_tokens(p)

    def _finish_tokens(self, p: Pending) -> list[Event]:
        finishers: dict[type[Op], Callable[[Pending], list[Event]]] = {
            ShowOp: self._finish_show,
            RevealOp: self._finish_reveal,
            LeaveOp: self._finish_leave,
        }
        return finishers[type(p.op)](p)

    def _finish_show(self, p: Pending) -> list[Event]:
        shown: dict[int, set[int]] = {}
        for (slot, index), viewer in p.items:
            assert viewer is not None
            st = self._own_slot(slot)
            if index == BASE_VIEW:
                st.base_viewer = viewer
            st.viewers.add(viewer)
            shown.setdefault(slot, set()).add(viewer)
        events: list[Event] = []
        for slot in sorted(shown):
            events.append(SlotShown(p.op.step, slot, frozenset(self.slots[slot].viewers)))
            events += self._on_slot_opened(p.op.step, slot)
        return events + self._finish(p)

    def _on_slots_reset(self, slots: Sequence[int]) -> None:
        """Hook: these slots were shuffled back and are hidden from everyone again."""

    def _on_slot_opened(self, step: str, slot: int) -> list[Event]:
        """Hook: a seat learns the cards it may now open."""
        return []

    def _open_public(self, step: str, slot: int, view: View) -> list[Event]:
        card = self.codec.decode(unmask(view.ct, list(view.tokens.values())))
        if card is None:
            # Every token was proven, so the fault is not the token senders': the step is
            # done (the tokens stand) and the slot stays closed; the caller decides.
            return [SlotBroken(step, slot, self.broken_slot_error(slot), public=True)]
        self._own_slot(slot).card = card
        return [CardRevealed(step, slot, card)]

    def shuffler_of(self, slot: int) -> tuple[int, str] | None:
        """(seat, step) of the shuffle whose output the slot's shared ciphertext is: the last
        shuffler of the last shuffle operation that took the slot in."""
        found: tuple[int, str] | None = None
        op: ShuffleOp | None = None
        for entry in self.journal:
            if isinstance(entry, Op):
                op = entry if isinstance(entry, ShuffleOp) else None
            elif isinstance(entry, Shuffle | BlockShuffle) and op is not None \
                    and slot in op.slots:
                found = (entry.seat, entry.step)
        return found

    def broken_slot_error(self, slot: int) -> DeckError:
        """A slot opens to a point that is no card although every token on it was proven: the
        shuffle that output it is false, and its author is named (whether an earlier shuffler
        poisoned the slot only the audit can tell, by opening every shuffle)."""
        origin = self.shuffler_of(slot)
        if origin is None:  # the public initial deck: nobody's output
            return DeckError(None, "shuffle", f"slot {slot} opens to no card")
        seat, step = origin
        return InvalidProof(seat, step, f"slot {slot} opens to no card: it is seat {seat}'s "
                            "shuffle output, and every token on it was proven")

    def _finish_reveal(self, p: Pending) -> list[Event]:
        events: list[Event] = []
        for (slot, index), _ in p.items:
            events += self._open_public(p.op.step, slot, self.slots[slot].view(index))
        return events + self._finish(p)

    def _finish_leave(self, p: Pending) -> list[Event]:
        assert isinstance(p.op, LeaveOp)
        leaver, step = p.op.seat, p.op.step
        events: list[Event] = []
        for slot, shared in enumerate(self.slots if self.shuffled else []):
            if shared.card is not None:
                continue
            st = self._own_slot(slot)
            for view in [st.base, *st.copies.values()]:
                token = view.tokens.pop(leaver)
                view.ct = Ciphertext(view.ct.c1, g.sub(view.ct.c2, token))
            st.viewers.discard(leaver)
            for view in [st.base, *st.copies.values()]:
                if self._missing_after(view, leaver) == 0:
                    events += self._open_public(step, slot, view)
                    break
        self.active.remove(leaver)
        self.joint_key = g.sub(self._key(), self.public_keys[leaver])
        if not self.shuffled:
            self._fresh_slots()
        for slot, st in enumerate(self.slots if self.shuffled else []):
            if st.card is not None:
                # An open slot's ciphertext still carries the leaver's layer, which the keys
                # left cannot remove; a later shuffle that takes the slot in (a hand's re-mask,
                # отбойный's reshuffle) needs a masking of its card under the new key: the
                # public one, which everyone computes alike (the card is known to all).
                self._own_slot(slot).base = View(Ciphertext(
                    g.GENERATOR, g.add(self.codec.encode(st.card), self.joint_key)))
        return [*events, SeatLeft(step, leaver), *self._finish(p)]

    def _missing_after(self, view: View, leaver: int) -> int:
        return sum(1 for s in self.active if s != leaver and s not in view.tokens)

    def _on_class(self, p: Pending, msg: Message, verify: bool) -> list[Event]:
        assert isinstance(msg, ClassProof)
        assert isinstance(p.op, ClassOp)
        step, seat = msg.step, msg.seat
        if msg.slot != p.op.slot or msg.candidates != p.op.candidates:
            raise InvalidProof(seat, step, "class proof for another slot or class than due")
        if verify:
            c1, targets = self.class_statement(p.op.slot, seat, p.op.candidates)
            if not verify_one_of(
                self.ctx(step, seat), self.public_keys[seat], c1, targets, msg.proof
            ):
                raise InvalidProof(seat, step, "the card is not of the claimed class")
        p.got.add(seat)
        return [ClassShown(step, msg.slot, seat, msg.candidates), *self._finish(p)]

    def class_statement(
        self, slot: int, seat: int, candidates: Sequence[int]
    ) -> tuple[bytes, list[bytes]]:
        """(c1, [D − M_i]) where D = c2 − Σ other seats' tokens = M + x_seat·c1."""
        found = self.slots[slot].view_of(seat)
        assert found is not None
        view = found[1]
        partial = unmask(view.ct, [t for s, t in view.tokens.items() if s != seat])
        return view.ct.c1, [g.sub(partial, self.codec.encode(c)) for c in candidates]

    def _on_audit_key(self, p: Pending, msg: Message, verify: bool) -> list[Event]:
        assert isinstance(msg, AuditKey)
        if verify and g.base_mul(msg.secret) != self.public_keys[msg.seat]:
            raise InvalidProof(msg.seat, msg.step, "published secret does not match the key")
        self.audit_secrets[msg.seat] = msg.secret
        p.got.add(msg.seat)
        if not self._phase_complete(p):
            return []
        x = sum(self.audit_secrets[s] for s in self.active) % g.ORDER
        cards: list[int] = []
        for st in self.slots:
            if st.card is not None:
                # opened to all with proven tokens already; after a leave its ciphertext still
                # carries the leaver's layer, which the remaining keys cannot remove
                cards.append(st.card)
                continue
            card = self.codec.decode(g.sub(st.base.ct.c2, g.mul(x, st.base.ct.c1)))
            cards.append(NO_CARD if card is None else card)
        false_shuffle = None
        if sorted(cards) != list(range(self.n_cards)):
            # a point that is no card, or a card twice: a shuffle was false; the keys are
            # public, so every shuffle is opened to find the first false one (one bad card
            # does not stop the audit: the caller still checks what it can)
            false_shuffle = first_false_shuffle(self.journal, self.n_cards,
                                                self.audit_secrets)
            if false_shuffle is None:
                false_shuffle = DeckError(None, msg.step, "audit: the cards are not the deck, "
                                          "and no shuffle that can be opened is false")
        return [AuditDone(msg.step, tuple(cards), false_shuffle), *self._finish(p)]
