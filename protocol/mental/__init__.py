"""Mental-poker deck: ElGamal masking on ristretto255 with a k-of-k joint key, a verifiable
shuffle per seat and a DLEQ proof on every reveal token. Sans-IO; see docs/mental-poker.md."""

from p2p_durak.protocol.mental.deck import DeckParty
from p2p_durak.protocol.mental.errors import (
    DeckError,
    DeckUsageError,
    InvalidProof,
    MalformedMessage,
    UnexpectedMessage,
)
from p2p_durak.protocol.mental.events import (
    AuditDone,
    CardRevealed,
    CardSeen,
    ClassShown,
    Event,
    KeysReady,
    RandomValue,
    SeatLeft,
    Send,
    ShuffleDone,
    ShuffleVerified,
    SlotBroken,
    SlotShown,
    StepDone,
)
from p2p_durak.protocol.mental.messages import Message, message_from_wire
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
from p2p_durak.protocol.mental.state import DeckState

__all__ = [
    "AuditDone",
    "AuditOp",
    "CardRevealed",
    "CardSeen",
    "ClassOp",
    "ClassShown",
    "CoinOp",
    "DeckError",
    "DeckParty",
    "DeckState",
    "DeckUsageError",
    "Event",
    "InvalidProof",
    "KeysOp",
    "KeysReady",
    "LeaveOp",
    "MalformedMessage",
    "Message",
    "Op",
    "RandomValue",
    "RevealOp",
    "SeatLeft",
    "Send",
    "ShowOp",
    "ShuffleDone",
    "ShuffleOp",
    "ShuffleVerified",
    "SlotBroken",
    "SlotShown",
    "StepDone",
    "UnexpectedMessage",
    "message_from_wire",
]
