"""What an `OrderingLog` asks its node to do, and what it reports: small frozen effect records.

Effects are returned, in order, by every input method of the log. The node executes them in that
order: `Broadcast` and `SendTo` carry a message (and its exact bytes) to put on the wire;
`Committed`, `Rejected`, `Waiting` and `Dropped` are reports for the UI, the bots and the journal;
`Halted` is final — the log applies nothing more (it only shows its evidence again to players
still talking to it).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Generic, TypeAlias

from p2p_durak.protocol.envelope import Envelope
from p2p_durak.protocol.log_chain import Outcome
from p2p_durak.protocol.machine import S
from p2p_durak.protocol.messages import IntentId, Message, RejectCode


@dataclass(frozen=True, slots=True)
class Broadcast:
    """Send `message` (encoded as `data`) to every other player."""

    message: Message
    data: bytes


@dataclass(frozen=True, slots=True)
class SendTo:
    """Send `message` (encoded as `data`) to the player in `seat`."""

    seat: int
    message: Message
    data: bytes


@dataclass(frozen=True, slots=True)
class Committed(Generic[S]):
    """Entry `seq` is committed: every player acknowledged the same entry and state hash."""

    seq: int
    entry: Envelope
    data: bytes
    state: S
    state_hash: bytes
    outcomes: tuple[Outcome, ...]
    """Each intent of the entry in order: applied, or skipped with the machine's reason."""


@dataclass(frozen=True, slots=True)
class Rejected:
    """An intent will not take effect.

    `seq` is the entry that consumed it (skipped there: every peer reports the same), or None when
    this peer dropped it before it was ordered (illegal at its position, or stale and no longer
    legal for its author to re-issue).
    """

    seat: int
    intent: IntentId
    code: RejectCode
    detail: str
    seq: int | None


class DiagnosisKind(Enum):
    EQUIVOCATION = "two different signed entries (or acks) for one position"
    DIVERGENCE = "a player acknowledged a different state hash for the same entry"
    INVALID_ENTRY = "the sequencer signed an entry that breaks the chain rules"
    BOGUS_ACK = "a player acknowledged an entry nobody could produce"
    CENSORSHIP = "the sequencer did not order a live intent in time"


@dataclass(frozen=True, slots=True)
class Diagnosis:
    """Why the log stopped: the kind, the offending seat, and the signed evidence.

    `seat` is None only when this node disagrees with every other player at once (its own
    machine diverged). `evidence` holds envelope bytes as received: two entries for one position,
    two acks, the omitted intent and the entry that left it out, ...
    """

    kind: DiagnosisKind
    seat: int | None
    seq: int
    detail: str
    evidence: tuple[bytes, ...]


@dataclass(frozen=True, slots=True)
class Halted:
    """The log stopped for good: nothing more is applied or ordered."""

    diagnosis: Diagnosis


@dataclass(frozen=True, slots=True)
class Waiting:
    """The log has been blocked on `seats` since `since_ms` (empty: no longer blocked)."""

    seats: frozenset[int]
    since_ms: int


@dataclass(frozen=True, slots=True)
class Dropped:
    """An input was refused and nothing was applied: who sent it, who signed it, and why.

    Not a verdict: a late retransmission looks like a replay. Faults that are proven (signed
    evidence) or that break the timing assumption end in `Halted` instead.
    """

    from_seat: int
    author: int | None
    detail: str


Effect: TypeAlias = (
    "Broadcast | SendTo | Committed[S] | Rejected | Halted | Waiting | Dropped"
)
