"""Fixed identities, sample messages and a back-to-back channel pair for the wire-protocol tests.

Everything here is deterministic (keys come from fixed seeds), so the golden vectors built from
these samples are reproducible byte for byte.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey
from hypothesis import strategies as st

from p2p_durak.protocol import codec
from p2p_durak.protocol.channel import (
    AcceptHandshake,
    ChannelOpened,
    HandshakeRequest,
    HandshakeResponse,
    PeerConnection,
    Role,
    StartHandshake,
)
from p2p_durak.protocol.codec import sha256
from p2p_durak.protocol.envelope import Envelope
from p2p_durak.protocol.errors import ErrorCode
from p2p_durak.protocol.framing import NEED_DATA
from p2p_durak.protocol.identity import Identity
from p2p_durak.protocol.messages import (
    Ack,
    CatchUpRequest,
    CatchUpResponse,
    DeckMessage,
    Entry,
    Error,
    FairnessWindow,
    HandshakeFinish,
    HandshakeInit,
    HandshakeReply,
    Intent,
    IntentId,
    JoinAccepted,
    JoinRefused,
    JoinRequest,
    Leave,
    Message,
    Ping,
    PlayerInfo,
    Pong,
    RefuseCode,
    Reject,
    RejectCode,
    Start,
    TableInfo,
    TimeoutPolicy,
    TurnTimer,
)

GOLDEN_DIR = Path(__file__).parent / "golden"

ALICE = Identity.from_seed(sha256(b"p2p-durak test identity alice"))
BOB = Identity.from_seed(sha256(b"p2p-durak test identity bob"))
CAROL = Identity.from_seed(sha256(b"p2p-durak test identity carol"))
GAME = sha256(b"p2p-durak test game")[:16]
RULES = b"\x93\x01\x24\xc3"  # stands in for the engine's canonical rules bytes
RULES_HASH = sha256(RULES)


def ephemeral(label: str) -> X25519PrivateKey:
    """A fixed X25519 key, so handshake transcripts are reproducible."""
    return X25519PrivateKey.from_private_bytes(
        sha256(b"p2p-durak test ephemeral " + label.encode())
    )


def _intent(seat: int, counter: int, author: Identity) -> Envelope:
    return Envelope.seal(author, GAME, Intent(GAME, seat, counter, 7, bytes([0x92, seat, counter])))


def sample_payloads() -> dict[str, Message]:
    """One instance of every signed payload type (they travel inside envelopes)."""
    first = _intent(0, 1, ALICE)
    second = _intent(1, 4, BOB)
    entry = Entry(
        seq=8,
        prev_hash=sha256(b"entry 7"),
        sequencer=1,
        intents=(first.encode(), second.encode()),
        fairness=FairnessWindow(window_ms=75, ordered=2),
    )
    return {
        "intent": first.message,
        "entry": entry,
        "entry_no_window": Entry(9, sha256(b"entry 8"), 0, (first.encode(),), None),
        "ack": Ack(8, sha256(b"entry 8 envelope"), sha256(b"state after 8")),
        "reject": Reject(
            IntentId(2, 3), RejectCode.LIMIT_REACHED, "six cards already on the table"
        ),
        "deck_message": DeckMessage(step=3, data=bytes(range(256)) * 2),
        "start": Start(
            GAME,
            RULES_HASH,
            (PlayerInfo(ALICE.peer_id, "Алиса"), PlayerInfo(BOB.peer_id, "Bob")),
            TurnTimer(30, TimeoutPolicy.LOSE, 90),
        ),
    }


def sample_envelopes() -> dict[str, Envelope]:
    """Every signed payload type, sealed (deterministic: Ed25519 signatures are)."""
    return {
        f"envelope_{name}": Envelope.seal(BOB, GAME, payload)
        for name, payload in sample_payloads().items()
    }


def sample_direct() -> dict[str, Message]:
    """One instance of every message carried directly in a channel frame, plus handshakes."""
    players = (PlayerInfo(ALICE.peer_id, "Алиса"), PlayerInfo(BOB.peer_id, "Bob"))
    entries = tuple(env.encode() for env in sample_envelopes().values())[:2]
    return {
        "handshake_init": HandshakeInit((1,), ALICE.peer_id, bytes(range(32))),
        "handshake_reply": HandshakeReply(1, BOB.peer_id, bytes(range(32, 64)), bytes(64)),
        "handshake_finish": HandshakeFinish(bytes(range(64))),
        "error": Error(ErrorCode.BAD_FRAME, "frame 3 failed authentication"),
        "catch_up_request": CatchUpRequest(GAME, 5),
        "catch_up_response": CatchUpResponse(GAME, 5, entries, more=True),
        "table_info": TableInfo(GAME, "Кухня", RULES_HASH, RULES, 4, players, False,
                                TurnTimer(15, TimeoutPolicy.BOT, 60)),
        "join_request": JoinRequest(GAME, 1, RULES_HASH, "Carol", CAROL.peer_id),
        "join_accepted": JoinAccepted(GAME, 2),
        "join_refused": JoinRefused(GAME, RefuseCode.TABLE_FULL, "all four seats are taken"),
        "leave": Leave(GAME, "bye"),
        "ping": Ping(0xDEADBEEF),
        "pong": Pong(0xDEADBEEF),
    }


def all_samples() -> dict[str, Message]:
    return {**sample_direct(), **sample_envelopes()}


# --- Two channel objects wired back to back (h11's ConnectionPair) ------------------------------


@dataclass
class ChannelPair:
    """An initiator and a responder, with helpers to move bytes between them."""

    initiator: PeerConnection
    responder: PeerConnection
    wire_log: list[tuple[str, bytes]] = field(default_factory=list)

    @classmethod
    def create(
        cls,
        initiator: Identity = ALICE,
        responder: Identity = BOB,
        *,
        deterministic: bool = True,
        **options: Any,
    ) -> ChannelPair:
        keys_i = {"ephemeral_key": ephemeral("initiator")} if deterministic else {}
        keys_r = {"ephemeral_key": ephemeral("responder")} if deterministic else {}
        return cls(
            PeerConnection(initiator, Role.INITIATOR, **keys_i, **options),
            PeerConnection(responder, Role.RESPONDER, **keys_r, **options),
        )

    def handshake(self) -> ChannelOpened:
        """Run the whole handshake, checking each step's event; returns the responder's."""
        self.to_responder(self.initiator.send(StartHandshake()))
        request = self.responder.next_event()
        assert isinstance(request, HandshakeRequest), request
        self.to_initiator(self.responder.send(AcceptHandshake()))
        response = self.initiator.next_event()
        assert isinstance(response, HandshakeResponse), response
        self.to_responder(self.initiator.send(AcceptHandshake()))
        opened = self.responder.next_event()
        assert isinstance(opened, ChannelOpened), opened
        return opened

    def to_responder(self, data: bytes) -> None:
        self.wire_log.append(("i->r", data))
        self.responder.receive_data(data)

    def to_initiator(self, data: bytes) -> None:
        self.wire_log.append(("r->i", data))
        self.initiator.receive_data(data)


def drain(connection: PeerConnection) -> Iterator[object]:
    """Every event available now."""
    while (event := connection.next_event()) is not NEED_DATA:
        yield event


def read_golden(name: str) -> bytes:
    text = (GOLDEN_DIR / f"{name}.hex").read_text(encoding="ascii")
    return bytes.fromhex("".join(line for line in text.splitlines() if not line.startswith("#")))


def write_golden(name: str, comment: str, data: bytes) -> None:
    hexed = data.hex()
    lines = [f"# {comment}"] + [hexed[i : i + 64] for i in range(0, len(hexed), 64)]
    (GOLDEN_DIR / f"{name}.hex").write_text("\n".join(lines) + "\n", encoding="ascii")


def hostile_values(*, max_leaves: int = 12) -> st.SearchStrategy[codec.Value]:
    """Random wire values a hostile peer might send in a message's fields: every wire type,
    small integers and lengths near the schemas' (16, 32, 64 bytes, real keys) so that some of
    them get past the first checks."""
    scalars = (
        st.none()
        | st.booleans()
        | st.integers(min_value=codec.INT_MIN, max_value=codec.INT_MAX)
        | st.integers(0, 70)
        | st.binary(max_size=70)
        | st.sampled_from([GAME, bytes(16), bytes(32), bytes(64), ALICE.peer_id.key,
                           BOB.peer_id.key])
        | st.text(max_size=8)
    )
    return st.recursive(scalars, lambda inner: st.lists(inner, max_size=6).map(tuple),
                        max_leaves=max_leaves)
