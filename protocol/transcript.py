"""The game transcript: the committed log as one canonical file, and its audit.

A transcript is the `Start` envelope (the genesis), every committed entry envelope in order, and
the certificate of the last entry (every player's ack of it). Everything is carried as the exact
signed bytes, so the file proves itself: `audit` re-verifies every signature, every hash link and
every chain rule, re-applies every entry through the machine, and checks that every player
acknowledged the final state. The file is canonical msgpack::

    ["p2p-durak transcript", 1, start_envelope, [entry_envelope, ...], [ack_envelope, ...]]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Generic, TypeGuard

from p2p_durak.protocol import codec
from p2p_durak.protocol.envelope import Envelope, decode_envelope
from p2p_durak.protocol.errors import LocalProtocolError, RemoteProtocolError
from p2p_durak.protocol.log_chain import (
    CertificateError,
    EntryFault,
    Genesis,
    Head,
    Outcome,
    check_certificate,
    check_entry,
)
from p2p_durak.protocol.machine import Machine, S, members
from p2p_durak.protocol.messages import Entry

TRANSCRIPT_MAGIC: Final = "p2p-durak transcript"
TRANSCRIPT_VERSION: Final = 1
MAX_TRANSCRIPT_BYTES: Final = 256 << 20
MAX_TRANSCRIPT_ENTRIES: Final = 1 << 20

_LIMITS: Final = codec.Limits(
    max_size=MAX_TRANSCRIPT_BYTES,
    max_depth=2,
    max_array_len=MAX_TRANSCRIPT_ENTRIES,
    max_str_bytes=len(TRANSCRIPT_MAGIC),
    max_bin_bytes=codec.MAX_FRAME_SIZE,
)


class TranscriptError(Exception):
    """The bytes are not a transcript file (before any signature or rule is looked at)."""


class AuditError(Exception):
    """The transcript is not a valid committed log: `seq` is the first bad position, `seat` the
    player who signed the bad entry or ack (None when nobody in particular can be named)."""

    def __init__(self, seq: int, seat: int | None, reason: str) -> None:
        who = f"seat {seat}" if seat is not None else "nobody in particular"
        super().__init__(f"position {seq} ({who}): {reason}")
        self.seq = seq
        self.seat = seat
        self.reason = reason


@dataclass(frozen=True, slots=True)
class Transcript:
    """The signed bytes of a committed log (see the module docstring)."""

    start: bytes
    entries: tuple[bytes, ...]
    acks: tuple[bytes, ...]

    def save(self) -> bytes:
        return codec.encode(
            (TRANSCRIPT_MAGIC, TRANSCRIPT_VERSION, self.start, self.entries, self.acks)
        )

    @classmethod
    def load(cls, data: bytes) -> Transcript:
        try:
            value = codec.decode(data, _LIMITS)
        except RemoteProtocolError as exc:
            raise TranscriptError(f"not a transcript: {exc.reason}") from exc
        if not (isinstance(value, tuple) and len(value) == 5):
            raise TranscriptError("a transcript is an array of 5 items")
        magic, version, start, entries, acks = value
        if magic != TRANSCRIPT_MAGIC:
            raise TranscriptError("not a p2p-durak transcript")
        if version != TRANSCRIPT_VERSION:
            raise TranscriptError(f"unsupported transcript version {version!r}")
        if type(start) is not bytes or not _blobs(entries) or not _blobs(acks):
            raise TranscriptError("transcript fields must be envelope bytes")
        return cls(start, entries, acks)

    @property
    def seq(self) -> int:
        """The last committed position."""
        return len(self.entries)


def _blobs(value: object) -> TypeGuard[tuple[bytes, ...]]:
    return isinstance(value, tuple) and all(type(item) is bytes for item in value)


@dataclass(frozen=True, slots=True)
class AuditReport(Generic[S]):
    """A transcript that passed `audit`: the final head, its certificate, what was skipped."""

    genesis: Genesis
    head: Head[S]
    certificate: tuple[bytes, ...]
    rejected: tuple[tuple[int, Outcome], ...]
    """Every intent an entry consumed without applying it, with the entry's position."""

    @property
    def state(self) -> S:
        return self.head.state


def audit(transcript: Transcript, machine: Machine[S], initial_state: S) -> AuditReport[S]:
    """Check everything; `AuditError` names the first bad position and its signer."""
    try:
        genesis = Genesis.open(transcript.start)
    except LocalProtocolError as exc:
        raise AuditError(0, None, f"genesis: {exc.reason}") from exc
    head = Head(
        0, genesis.hash, initial_state, machine.state_hash(initial_state), (0,) * genesis.n
    )
    rejected: list[tuple[int, Outcome]] = []
    for seq, raw in enumerate(transcript.entries, start=1):
        envelope = _open_entry(genesis, seq, raw)
        try:
            step = check_entry(genesis, machine, head, envelope, raw)
        except EntryFault as fault:
            raise AuditError(seq, fault.seat, fault.reason) from fault
        rejected.extend((seq, o) for o in step.outcomes if not o.applied)
        head = step.head
    certificate = _check_final_acks(genesis, head, transcript.acks,
                                    members(machine, head.state, genesis.n))
    return AuditReport(genesis, head, certificate, tuple(rejected))


def replay(transcript: Transcript, machine: Machine[S], initial_state: S) -> S:
    """The final state of an audited transcript (`AuditError` if it does not audit)."""
    return audit(transcript, machine, initial_state).state


def _open_entry(genesis: Genesis, seq: int, raw: bytes) -> Envelope:
    try:
        envelope = decode_envelope(raw)
    except RemoteProtocolError as exc:
        raise AuditError(seq, None, f"entry envelope: {exc.reason}") from exc
    seat = genesis.seat_of(envelope.author)
    if seat is None:
        raise AuditError(seq, None, f"entry signed by {envelope.author}, who is not seated")
    if not isinstance(envelope.message, Entry):
        raise AuditError(seq, seat, f"{type(envelope.message).__name__} where an entry belongs")
    return envelope


def _check_final_acks(
    genesis: Genesis, head: Head[S], acks: Sequence[bytes], seats: Sequence[int]
) -> tuple[bytes, ...]:
    if head.seq == 0:
        if acks:
            raise AuditError(0, None, "acks without entries")
        return ()
    try:
        return check_certificate(genesis, head, acks, members=seats)
    except CertificateError as exc:
        raise AuditError(head.seq, exc.seat, exc.reason) from exc
