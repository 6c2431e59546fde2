"""What a deck party reports back to its caller after an operation step or a received message."""

from __future__ import annotations

from dataclasses import dataclass

from p2p_durak.protocol.mental.errors import DeckError
from p2p_durak.protocol.mental.messages import Message


@dataclass(frozen=True, slots=True)
class Event:
    step: str


@dataclass(frozen=True, slots=True)
class Send(Event):
    """A message this party must broadcast (it has already been applied locally)."""

    message: Message


@dataclass(frozen=True, slots=True)
class KeysReady(Event):
    joint_key: bytes


@dataclass(frozen=True, slots=True)
class RandomValue(Event):
    """A joint random seed nobody could bias (see coins.py to turn it into numbers)."""

    value: bytes


@dataclass(frozen=True, slots=True)
class ShuffleVerified(Event):
    seat: int


@dataclass(frozen=True, slots=True)
class ShuffleDone(Event):
    slots: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class SlotShown(Event):
    """Public fact: these seats can now open the slot (it is theirs to see)."""

    slot: int
    viewers: frozenset[int]


@dataclass(frozen=True, slots=True)
class CardSeen(Event):
    """Private to this party: it has opened the slot."""

    slot: int
    card_id: int


@dataclass(frozen=True, slots=True)
class CardRevealed(Event):
    """Public: every party has opened the slot."""

    slot: int
    card_id: int


@dataclass(frozen=True, slots=True)
class ClassShown(Event):
    """Public: the card in the slot is one of ``candidates`` (proven by ``seat``)."""

    slot: int
    seat: int
    candidates: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class SeatLeft(Event):
    seat: int


@dataclass(frozen=True, slots=True)
class SlotBroken(Event):
    """The slot opened to a point that is no card. Every token was proven, so a shuffle put
    that point there: `error` names the seat whose shuffle output the slot is (mid-game
    nobody can tell whether an earlier shuffler poisoned it; the audit's card paths can).
    Private when the slot's viewer found it; public when a reveal to all did."""

    slot: int
    error: DeckError
    public: bool


@dataclass(frozen=True, slots=True)
class AuditDone(Event):
    """Every key is public: the plaintext of every slot (`NO_CARD` for a slot that opens to
    no card), and the first shuffle, if any, whose output was not a re-masked permutation of
    its input cards (found by opening every shuffle with the published keys)."""

    cards: tuple[int, ...]
    false_shuffle: DeckError | None = None


NO_CARD = -1
"""`AuditDone.cards` of a slot that opens to a point that is no card."""


@dataclass(frozen=True, slots=True)
class StepDone(Event):
    pass
