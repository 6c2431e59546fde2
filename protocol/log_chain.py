"""The chain rules of the ordered log: what makes an entry valid, and what it does.

Pure and deterministic. A peer validating a live entry, a peer catching up and an auditor reading
a transcript all run `check_entry`, so they accept exactly the same entries and reach exactly the
same state. Rules (numbered as in docs/protocol.md § 10):

R1. The genesis is the `Start` envelope; its digest is the hash of position 0.
R2. Entry ``seq`` is signed by ``players[sequencer(state after seq-1)]``, names that seat in
    `Entry.sequencer`, and links ``prev_hash`` to the digest of entry ``seq-1``'s envelope bytes.
R3. Every item is an `Intent` envelope for this game by a seated player, for that player's own
    seat, with ``based_on == seq - 1`` and ``counter == last committed counter of the seat + 1``
    (so an intent is valid for one position only: replays and counter grinding are refused).
R4. At most one item per author.
R5. An entry of several items lists them in fair order: strictly ascending
    ``SHA-256(prev_hash || SHA-256(intent payload bytes))``, with ``fairness.ordered`` covering
    all of them. (The key hashes the signed payload, not the envelope: an author can re-sign the
    same intent with another nonce, and must not be able to grind its place.)
R6. Items apply in order through the machine; an item the machine refuses is skipped, and every
    peer reports it rejected with the machine's reason. Skipped intents still consume their
    counter. The entry's state hash is the machine's hash of the resulting state.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Generic

from p2p_durak.protocol.codec import sha256
from p2p_durak.protocol.envelope import Envelope, decode_envelope
from p2p_durak.protocol.errors import LocalProtocolError, RemoteProtocolError
from p2p_durak.protocol.identity import PeerId
from p2p_durak.protocol.machine import Machine, MachineReject, S
from p2p_durak.protocol.messages import (
    MAX_INTENTS_PER_ENTRY,
    Ack,
    Entry,
    Intent,
    IntentId,
    RejectCode,
    Start,
)

OpenEnvelope = Callable[[bytes], Envelope]
"""Decode and verify envelope bytes (raising `RemoteProtocolError`); the log passes a cache."""


@dataclass(frozen=True, slots=True)
class Genesis:
    """The `Start` envelope: game id, players in seat order, and the chain's anchor hash."""

    envelope: Envelope
    data: bytes
    start: Start
    hash: bytes
    players: tuple[PeerId, ...]
    seats: dict[bytes, int]

    @classmethod
    def open(cls, start: Envelope | bytes) -> Genesis:
        """The genesis of a game from its (verified) `Start` envelope."""
        try:
            envelope = start if isinstance(start, Envelope) else decode_envelope(start)
        except RemoteProtocolError as exc:
            raise LocalProtocolError(f"Start envelope: {exc.reason}", code=exc.code) from exc
        message = envelope.message
        if not isinstance(message, Start):
            raise LocalProtocolError("the genesis must be a Start envelope")
        data = envelope.encode()
        players = tuple(player.identity for player in message.players)
        seats = {peer.key: seat for seat, peer in enumerate(players)}
        return cls(envelope, data, message, sha256(data), players, seats)

    @property
    def game(self) -> bytes:
        return self.start.game

    @property
    def n(self) -> int:
        return len(self.players)

    def seat_of(self, peer: PeerId) -> int | None:
        return self.seats.get(peer.key)


@dataclass(frozen=True, slots=True)
class Item:
    """A verified intent envelope from a seated player, as carried (bytes) and as read."""

    data: bytes
    envelope: Envelope
    seat: int
    intent: Intent
    digest: bytes
    """SHA-256 of the signed payload: names the intent whatever signature it carries."""

    @property
    def intent_id(self) -> IntentId:
        return self.intent.intent_id


class ItemError(Exception):
    """An envelope that cannot be an item of this game's log (not a fault of the game state)."""

    def __init__(self, code: RejectCode, reason: str) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason


def read_item(genesis: Genesis, envelope: Envelope, data: bytes) -> Item:
    """The item an envelope carries, or `ItemError` (rule R3's static part)."""
    seat = genesis.seat_of(envelope.author)
    if seat is None:
        raise ItemError(RejectCode.MALFORMED, f"intent by {envelope.author}, who is not seated")
    if envelope.game != genesis.game:
        raise ItemError(RejectCode.MALFORMED, "intent for another game")
    message = envelope.message
    if not isinstance(message, Intent):
        raise ItemError(RejectCode.MALFORMED, f"{type(message).__name__} is not an intent")
    if message.seat != seat:
        raise ItemError(
            RejectCode.MALFORMED, f"seat {seat} signed an intent naming seat {message.seat}"
        )
    return Item(data, envelope, seat, message, sha256(envelope.payload))


def fairness_key(prev_hash: bytes, item: Item) -> bytes:
    """Rule R5's sort key."""
    return sha256(prev_hash + item.digest)


@dataclass(frozen=True, slots=True)
class Head(Generic[S]):
    """The last committed (or tentatively validated) position of the chain."""

    seq: int
    hash: bytes
    state: S
    state_hash: bytes
    counters: tuple[int, ...]
    """Per seat, the counter of its last intent in the chain (0: none yet)."""


class Fit(Enum):
    """How an intent relates to a head (rule R3's dynamic part)."""

    FITS = "fits"
    FUTURE = "based on a position this peer has not reached"
    STALE = "based on an earlier position"
    REPLAY = "its counter was already used"
    GAP = "its counter skips ahead"


def intent_fit(head: Head[S], item: Item) -> Fit:
    intent = item.intent
    if intent.based_on > head.seq:
        return Fit.FUTURE
    last = head.counters[item.seat]
    if intent.counter <= last:
        return Fit.REPLAY
    if intent.based_on < head.seq:
        return Fit.STALE
    if intent.counter != last + 1:
        return Fit.GAP
    return Fit.FITS


@dataclass(frozen=True, slots=True)
class Outcome:
    """One item of an entry after application: applied, or skipped with the machine's reason."""

    item: Item
    reject: MachineReject | None

    @property
    def applied(self) -> bool:
        return self.reject is None


@dataclass(frozen=True, slots=True)
class Step(Generic[S]):
    """A validated entry and the head it leads to."""

    envelope: Envelope
    data: bytes
    entry: Entry
    head: Head[S]
    outcomes: tuple[Outcome, ...]


class EntryFault(Exception):
    """A signed entry breaks a chain rule: its signer (`seat`) is at fault."""

    def __init__(self, seat: int, reason: str) -> None:
        super().__init__(f"seat {seat}: {reason}")
        self.seat = seat
        self.reason = reason


def check_entry(
    genesis: Genesis,
    machine: Machine[S],
    head: Head[S],
    envelope: Envelope,
    data: bytes,
    open_envelope: OpenEnvelope = decode_envelope,
) -> Step[S]:
    """Validate the entry after `head` (rules R2-R6) and apply it; `EntryFault` if invalid.

    `envelope` must carry an `Entry` by a seated author; `data` are its bytes as received.
    """
    entry = envelope.message
    assert isinstance(entry, Entry), "check_entry takes Entry envelopes"
    signer = genesis.seat_of(envelope.author)
    assert signer is not None, "check_entry takes envelopes by seated authors"

    def fault(reason: str) -> EntryFault:
        return EntryFault(signer, f"entry {entry.seq}: {reason}")

    if envelope.game != genesis.game:
        raise fault("signed for another game")
    if entry.seq != head.seq + 1:
        raise fault(f"expected position {head.seq + 1}")
    sequencer = machine.sequencer(head.state)
    if entry.sequencer != sequencer or signer != sequencer:
        raise fault(
            f"sequencer is seat {sequencer}; the entry names {entry.sequencer}, signed by {signer}"
        )
    if entry.prev_hash != head.hash:
        raise fault("prev_hash does not link to the previous entry")
    items = _read_items(genesis, head, entry, open_envelope, fault)
    _check_order(entry, items, fault)
    state = head.state
    counters = list(head.counters)
    outcomes = []
    for item in items:
        counters[item.seat] = item.intent.counter
        try:
            state = machine.apply(state, item.seat, item.intent)
        except MachineReject as reject:
            outcomes.append(Outcome(item, reject))
        else:
            outcomes.append(Outcome(item, None))
    new_head = Head(
        entry.seq, sha256(data), state, machine.state_hash(state), tuple(counters)
    )
    return Step(envelope, data, entry, new_head, tuple(outcomes))


def _read_items(
    genesis: Genesis,
    head: Head[S],
    entry: Entry,
    open_envelope: OpenEnvelope,
    fault: Callable[[str], EntryFault],
) -> list[Item]:
    items: list[Item] = []
    authors: set[int] = set()
    for index, raw in enumerate(entry.intents):
        try:
            item = read_item(genesis, open_envelope(raw), raw)
        except RemoteProtocolError as exc:
            raise fault(f"item {index}: {exc.reason}") from exc
        except ItemError as exc:
            raise fault(f"item {index}: {exc.reason}") from exc
        if item.seat in authors:
            raise fault(f"item {index}: a second intent by seat {item.seat}")
        authors.add(item.seat)
        fit = intent_fit(head, item)
        if fit is not Fit.FITS:
            intent = item.intent
            raise fault(
                f"item {index}: intent ({item.seat}, {intent.counter}) based on "
                f"{intent.based_on} does not fit: {fit.value}"
            )
        items.append(item)
    return items


def _check_order(entry: Entry, items: list[Item], fault: Callable[[str], EntryFault]) -> None:
    fairness = entry.fairness
    if len(items) == 1:
        return
    if len(items) > MAX_INTENTS_PER_ENTRY:  # pragma: no cover - the schema bounds it
        raise fault("too many items")
    if fairness is None or fairness.ordered != len(items):
        raise fault("an entry of several intents must be fair-ordered as a whole")
    keys = [fairness_key(entry.prev_hash, item) for item in items]
    if any(a >= b for a, b in itertools.pairwise(keys)):
        raise fault("intents are not in fair order")


class CertificateError(Exception):
    """The acks offered as proof that an entry was committed do not prove it.

    `seat` is the player whose ack is wrong or missing (None if no single seat can be named);
    `diverged` means the acks are genuine but name a state hash other than the one computed here.
    """

    def __init__(self, seat: int | None, reason: str, *, diverged: bool = False) -> None:
        super().__init__(reason)
        self.seat = seat
        self.reason = reason
        self.diverged = diverged


def check_certificate(
    genesis: Genesis,
    head: Head[S],
    acks: Sequence[bytes],
    open_envelope: OpenEnvelope = decode_envelope,
    members: Sequence[int] | None = None,
) -> tuple[bytes, ...]:
    """Check that `acks` are every member's ack of the entry that led to `head`, each naming
    ``head.state_hash``; return them in seat order, or raise `CertificateError`. `members`: the
    seats still at the table after that entry (default: every player).

    All players acking entry ``seq`` proves the whole chain up to it: a player acks an entry only
    after committing its predecessor, and the entry names its predecessor's hash. A player that
    left the table signed its leave into the chain, and acked everything before it.
    """
    required = range(genesis.n) if members is None else members
    by_seat: dict[int, tuple[Ack, bytes]] = {}
    for raw in acks:
        try:
            envelope = open_envelope(raw)
        except RemoteProtocolError as exc:
            raise CertificateError(None, f"certificate: {exc.reason}") from exc
        ack = envelope.message
        seat = genesis.seat_of(envelope.author)
        if seat is None or not isinstance(ack, Ack) or envelope.game != genesis.game:
            raise CertificateError(seat, "certificate: not an ack of this game by a player")
        if seat in by_seat:
            raise CertificateError(seat, f"certificate: two acks by seat {seat}")
        if ack.seq != head.seq or ack.entry_hash != head.hash:
            raise CertificateError(seat, f"certificate: seat {seat} acks another entry")
        by_seat[seat] = (ack, raw)
    missing = [seat for seat in required if seat not in by_seat]
    if missing:
        raise CertificateError(missing[0], f"certificate: no ack from seats {missing}")
    extra = [seat for seat in by_seat if seat not in required]
    if extra:
        raise CertificateError(extra[0], f"certificate: seat {extra[0]} left the table")
    differ = [seat for seat, (ack, _) in by_seat.items() if ack.state_hash != head.state_hash]
    if differ:
        raise CertificateError(
            differ[0] if len(differ) < len(required) else None,
            f"entry {head.seq}: seats {differ} acked a state hash other than "
            f"{head.state_hash.hex()[:16]}",
            diverged=True,
        )
    return tuple(by_seat[seat][1] for seat in required)
