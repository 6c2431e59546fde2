"""Versioned message schemas: the catalogue of everything that travels between nodes.

Rules for this file:

1. Every message is a frozen dataclass validated in its constructor. Building an invalid message
   raises `LocalProtocolError`; decoding one from peer bytes raises `RemoteProtocolError`. Do not
   subclass the concrete messages.
2. A message is encoded as a canonical msgpack array ``[tag, version, field1, ...]`` with the
   fields in declaration order. `(tag, version)` selects the schema; an unknown pair is refused.
3. Each field declares its wire schema with `wire(...)`; the same declarations drive validation,
   encoding, decoding and the message table in ``docs/protocol.md`` (see `describe_catalogue`).
4. Nested records (`PlayerInfo`, `IntentId`, `FairnessWindow`, `TurnTimer`) are untagged arrays
   of their fields.
5. Nothing here knows about connection state or signatures: `envelope.py` signs, `channel.py`
   decides what may arrive when.
"""

from __future__ import annotations

import dataclasses
import unicodedata
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import IntEnum
from typing import Any, ClassVar, Final, Self

from p2p_durak.protocol import codec
from p2p_durak.protocol.codec import MAX_FRAME_SIZE, Value
from p2p_durak.protocol.errors import ErrorCode, LocalProtocolError, RemoteProtocolError
from p2p_durak.protocol.identity import PUBLIC_KEY_SIZE, SIGNATURE_SIZE, PeerId, peer_id_of

# --- Protocol constants -------------------------------------------------------------------------

PROTOCOL_VERSION: Final = 1
SUPPORTED_VERSIONS: Final = (1,)

GAME_ID_SIZE: Final = 16
HASH_SIZE: Final = 32
EPHEMERAL_KEY_SIZE: Final = 32
MAX_SEATS: Final = 6
MIN_SEATS: Final = 2
U16_MAX: Final = (1 << 16) - 1
U32_MAX: Final = (1 << 32) - 1
U64_MAX: Final = (1 << 64) - 1
MAX_NAME_BYTES: Final = 64
MAX_DETAIL_BYTES: Final = 256
MAX_RULES_BYTES: Final = 16 * 1024
MAX_ACTION_BYTES: Final = 64 * 1024
MAX_DECK_DATA_BYTES: Final = 512 * 1024
MAX_INTENTS_PER_ENTRY: Final = 32
MAX_CATCH_UP_ENTRIES: Final = 256
MAX_FAIRNESS_WINDOW_MS: Final = 10_000
MAX_OFFERED_VERSIONS: Final = 8
MAX_TURN_SECONDS: Final = 3600
MAX_GRACE_SECONDS: Final = 3600
DEFAULT_GRACE_SECONDS: Final = 60

# Characters that would let a peer rewrite what other people see: bidirectional overrides and
# isolates, and the invisible direction marks. C0/C1 controls are refused by category (Cc).
_BIDI_CONTROLS: Final = frozenset(
    "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
)


# --- Reason codes carried by messages -----------------------------------------------------------


class RejectCode(IntEnum):
    """Why an intent was rejected (advisory; carried by `Reject`)."""

    ILLEGAL_ACTION = 1
    STALE = 2
    NOT_YOUR_TURN = 3
    LIMIT_REACHED = 4
    DUPLICATE = 5
    BAD_SIGNATURE = 6
    MALFORMED = 7


class TimeoutPolicy(IntEnum):
    """What a table does when a player's turn timer runs out."""

    BOT = 1  # a bot plays the move for the player
    LOSE = 2  # the player concedes the game (the engine's concede action)


class RefuseCode(IntEnum):
    """Why a join request was refused (carried by `JoinRefused`)."""

    TABLE_FULL = 1
    RULES_MISMATCH = 2
    VERSION_MISMATCH = 3
    ALREADY_STARTED = 4
    NAME_TAKEN = 5
    NOT_WELCOME = 6
    UNKNOWN_GAME = 7


# --- Field schemas -----------------------------------------------------------------------------


class FieldSpec(ABC):
    """The wire schema of one field: validation, conversion to and from wire values, docs."""

    @abstractmethod
    def check(self, value: object, name: str) -> None:
        """Raise `LocalProtocolError` unless `value` is a valid Python value for this field."""

    def to_wire(self, value: Any) -> Value:
        return value  # type: ignore[no-any-return]

    def from_wire(self, value: Value, name: str) -> object:
        self.check(value, name)
        return value

    @abstractmethod
    def describe(self) -> str:
        """Human-readable schema for the message table in docs/protocol.md."""


@dataclass(frozen=True, slots=True)
class UInt(FieldSpec):
    low: int = 0
    high: int = U64_MAX

    def check(self, value: object, name: str) -> None:
        if type(value) is not int:
            raise LocalProtocolError(f"{name}: expected an integer, got {type(value).__name__}")
        if not self.low <= value <= self.high:
            raise LocalProtocolError(f"{name}: {value} outside [{self.low}, {self.high}]")

    def describe(self) -> str:
        names = {U16_MAX: "u16", U32_MAX: "u32", U64_MAX: "u64"}
        if self.low == 0 and self.high in names:
            return names[self.high]
        return f"int {self.low}..{self.high}"


@dataclass(frozen=True, slots=True)
class Flag(FieldSpec):
    def check(self, value: object, name: str) -> None:
        if type(value) is not bool:
            raise LocalProtocolError(f"{name}: expected a boolean, got {type(value).__name__}")

    def describe(self) -> str:
        return "bool"


@dataclass(frozen=True, slots=True)
class Blob(FieldSpec):
    min_len: int
    max_len: int

    def check(self, value: object, name: str) -> None:
        if type(value) is not bytes:
            raise LocalProtocolError(f"{name}: expected bytes, got {type(value).__name__}")
        if not self.min_len <= len(value) <= self.max_len:
            if self.min_len == self.max_len:
                raise LocalProtocolError(f"{name}: expected {self.min_len} bytes, got {len(value)}")
            raise LocalProtocolError(
                f"{name}: {len(value)} bytes outside [{self.min_len}, {self.max_len}]",
                code=ErrorCode.FRAME_TOO_LARGE
                if len(value) > self.max_len
                else ErrorCode.MALFORMED,
            )

    def describe(self) -> str:
        if self.min_len == self.max_len:
            return f"bin[{self.min_len}]"
        return f"bin[{self.min_len}..{self.max_len}]"


@dataclass(frozen=True, slots=True)
class Text(FieldSpec):
    """UTF-8 text that is safe to show: no control characters, no bidi overrides."""

    max_bytes: int
    min_chars: int = 0

    def check(self, value: object, name: str) -> None:
        if type(value) is not str:
            raise LocalProtocolError(f"{name}: expected a string, got {type(value).__name__}")
        try:
            size = len(value.encode("utf-8"))
        except UnicodeEncodeError as exc:
            raise LocalProtocolError(f"{name}: not valid Unicode text") from exc
        if size > self.max_bytes:
            raise LocalProtocolError(f"{name}: {size} UTF-8 bytes exceed {self.max_bytes}")
        if len(value) < self.min_chars:
            raise LocalProtocolError(f"{name}: shorter than {self.min_chars} characters")
        for char in value:
            if unicodedata.category(char) == "Cc" or char in _BIDI_CONTROLS:
                raise LocalProtocolError(f"{name}: control character U+{ord(char):04X}")
        if value and (_is_space(value[0]) or _is_space(value[-1])):
            raise LocalProtocolError(f"{name}: leading or trailing space")

    def describe(self) -> str:
        least = f", at least {self.min_chars} char" if self.min_chars else ""
        return f"text (UTF-8 ≤ {self.max_bytes} B{least})"


def _is_space(char: str) -> bool:
    return unicodedata.category(char) == "Zs"


@dataclass(frozen=True, slots=True)
class Code(FieldSpec):
    """A closed set of integer codes; unknown codes are off-schema."""

    enum: type[IntEnum]

    def check(self, value: object, name: str) -> None:
        if not isinstance(value, self.enum):
            raise LocalProtocolError(f"{name}: expected a {self.enum.__name__}")

    def to_wire(self, value: Any) -> Value:
        return int(value)

    def from_wire(self, value: Value, name: str) -> object:
        UInt(0, U16_MAX).check(value, name)
        assert type(value) is int
        try:
            return self.enum(value)
        except ValueError as exc:
            raise LocalProtocolError(f"{name}: unknown {self.enum.__name__} {value}") from exc

    def describe(self) -> str:
        return f"{self.enum.__name__} (u16)"


@dataclass(frozen=True, slots=True)
class Key(FieldSpec):
    """An Ed25519 public key (`PeerId`) as 32 raw bytes."""

    def check(self, value: object, name: str) -> None:
        if not isinstance(value, PeerId):
            raise LocalProtocolError(f"{name}: expected a PeerId, got {type(value).__name__}")

    def to_wire(self, value: Any) -> Value:
        return bytes(value.key)

    def from_wire(self, value: Value, name: str) -> object:
        Blob(PUBLIC_KEY_SIZE, PUBLIC_KEY_SIZE).check(value, name)
        assert isinstance(value, bytes)
        try:
            return peer_id_of(value)
        except LocalProtocolError as exc:
            raise LocalProtocolError(
                f"{name}: {exc.reason}", code=ErrorCode.WRONG_IDENTITY
            ) from exc

    def describe(self) -> str:
        return "key (bin[32], Ed25519)"


@dataclass(frozen=True, slots=True)
class Nested(FieldSpec):
    """An untagged record, encoded as the array of its fields."""

    record: type[Record]

    def check(self, value: object, name: str) -> None:
        if type(value) is not self.record:
            raise LocalProtocolError(f"{name}: expected a {self.record.__name__}")

    def to_wire(self, value: Any) -> Value:
        assert isinstance(value, Record)
        return value.to_wire()

    def from_wire(self, value: Value, name: str) -> object:
        return self.record.from_wire(value, name)

    def describe(self) -> str:
        return self.record.__name__


@dataclass(frozen=True, slots=True)
class ArrayOf(FieldSpec):
    item: FieldSpec
    min_len: int
    max_len: int

    def check(self, value: object, name: str) -> None:
        if type(value) is not tuple:
            raise LocalProtocolError(f"{name}: expected a tuple, got {type(value).__name__}")
        if not self.min_len <= len(value) <= self.max_len:
            raise LocalProtocolError(
                f"{name}: {len(value)} items outside [{self.min_len}, {self.max_len}]"
            )
        for index, item in enumerate(value):
            self.item.check(item, f"{name}[{index}]")

    def to_wire(self, value: Any) -> Value:
        return tuple(self.item.to_wire(item) for item in value)

    def from_wire(self, value: Value, name: str) -> object:
        if type(value) is not tuple:
            raise LocalProtocolError(f"{name}: expected an array, got {type(value).__name__}")
        items = tuple(self.item.from_wire(item, f"{name}[{i}]") for i, item in enumerate(value))
        self.check(items, name)
        return items

    def describe(self) -> str:
        return f"array[{self.min_len}..{self.max_len}] of {self.item.describe()}"


@dataclass(frozen=True, slots=True)
class Maybe(FieldSpec):
    """Either nil or a value of `inner`."""

    inner: FieldSpec

    def check(self, value: object, name: str) -> None:
        if value is not None:
            self.inner.check(value, name)

    def to_wire(self, value: Any) -> Value:
        return None if value is None else self.inner.to_wire(value)

    def from_wire(self, value: Value, name: str) -> object:
        return None if value is None else self.inner.from_wire(value, name)

    def describe(self) -> str:
        return f"nil or {self.inner.describe()}"


def wire(spec: FieldSpec, doc: str) -> Mapping[str, object]:
    """Field metadata declaring a wire schema and its one-line description for the docs.

    Used as ``name: type = field(metadata=wire(SPEC, "meaning"))``.
    """
    return {"wire": spec, "doc": doc}


# Shared field shapes.
GAME: Final = Blob(GAME_ID_SIZE, GAME_ID_SIZE)
HASH: Final = Blob(HASH_SIZE, HASH_SIZE)
SIGNATURE: Final = Blob(SIGNATURE_SIZE, SIGNATURE_SIZE)
SEAT: Final = UInt(0, MAX_SEATS - 1)
U16: Final = UInt(0, U16_MAX)
U32: Final = UInt(0, U32_MAX)
U64: Final = UInt(0, U64_MAX)
NAME: Final = Text(MAX_NAME_BYTES, min_chars=1)
ENDPOINT: Final = Text(MAX_NAME_BYTES)
DETAIL: Final = Text(MAX_DETAIL_BYTES)
# Envelopes nest inside entries and catch-up responses; the frame bound is the real limit.
ENVELOPE_BYTES: Final = Blob(1, MAX_FRAME_SIZE)
KEY: Final = Key()
FLAG: Final = Flag()
EPHEMERAL_KEY: Final = Blob(EPHEMERAL_KEY_SIZE, EPHEMERAL_KEY_SIZE)
ERROR_CODE: Final = Code(ErrorCode)
REJECT_CODE: Final = Code(RejectCode)
REFUSE_CODE: Final = Code(RefuseCode)
TIMEOUT_POLICY: Final = Code(TimeoutPolicy)


# --- Records and messages ------------------------------------------------------------------------


class Record:
    """Base of every schema'd dataclass: validation in the constructor, array encoding."""

    __slots__ = ()

    def __post_init__(self) -> None:
        for name, spec in _wire_fields(type(self)).items():
            spec.check(getattr(self, name), f"{type(self).__name__}.{name}")
        self._check_invariants()

    def _check_invariants(self) -> None:
        """Cross-field rules; raise `LocalProtocolError`."""

    def to_wire(self) -> tuple[Value, ...]:
        return tuple(
            spec.to_wire(getattr(self, name)) for name, spec in _wire_fields(type(self)).items()
        )

    @classmethod
    def from_wire(cls, value: Value, name: str | None = None) -> Self:
        """Build from the array of field values (no tag); `LocalProtocolError` if off-schema."""
        label = name or cls.__name__
        specs = _wire_fields(cls)
        if type(value) is not tuple:
            raise LocalProtocolError(f"{label}: expected an array")
        if len(value) != len(specs):
            raise LocalProtocolError(f"{label}: expected {len(specs)} fields, got {len(value)}")
        kwargs = {
            field: spec.from_wire(item, f"{label}.{field}")
            for (field, spec), item in zip(specs.items(), value, strict=True)
        }
        if not _built_from_wire_fields(cls):
            factory: Callable[..., Self] = cls
            return factory(**kwargs)
        # Every spec's `from_wire` returns only values its `check` accepts, so the
        # constructor's field checks would repeat them on every message received: set the
        # fields and run only the cross-field rules (for an envelope, its signature).
        record = object.__new__(cls)
        for name, item in kwargs.items():
            object.__setattr__(record, name, item)
        record._check_invariants()
        return record


class Message(Record):
    """A top-level message: encoded as ``[TAG, VERSION, *fields]``."""

    __slots__ = ()
    TAG: ClassVar[int]
    VERSION: ClassVar[int]

    def encode(self) -> bytes:
        """The canonical bytes of this message."""
        return codec.encode((self.TAG, self.VERSION, *self.to_wire()))

    def _decoded_from(self, data: bytes) -> None:
        """Hook: `data` are the canonical bytes this message was just decoded from (so they
        are what `encode` returns)."""


_WIRE_FIELDS: dict[type[Record], Mapping[str, FieldSpec]] = {}


def _built_from_wire_fields(cls: type[Record]) -> bool:
    """Whether the constructor of `cls` only sets its wire fields and checks them, so that a
    record made of checked wire values may skip it (fields outside the wire, such as an
    envelope's decoded payload, are set by `_check_invariants` and have no default); cached."""
    known = _FROM_WIRE_FIELDS.get(cls)
    if known is None:
        fields = dataclasses.fields(cls)  # type: ignore[arg-type]
        known = cls.__post_init__ is Record.__post_init__ and all(
            "wire" in item.metadata if item.init
            else item.default is dataclasses.MISSING
            and item.default_factory is dataclasses.MISSING
            for item in fields)
        _FROM_WIRE_FIELDS[cls] = known
    return known


_FROM_WIRE_FIELDS: dict[type[Record], bool] = {}


def _wire_fields(cls: type[Record]) -> Mapping[str, FieldSpec]:
    """The wire fields of a record class, in order (cached: looked up on every construction)."""
    specs = _WIRE_FIELDS.get(cls)
    if specs is None:
        specs = {
            item.name: item.metadata["wire"]
            for item in dataclasses.fields(cls)  # type: ignore[arg-type]
            if "wire" in item.metadata
        }
        _WIRE_FIELDS[cls] = specs
    return specs


# --- Nested records ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PlayerInfo(Record):
    """A seated (or waiting) player: identity and display name."""

    identity: PeerId = field(metadata=wire(KEY, "the player's installation key"))
    name: str = field(metadata=wire(NAME, "display name"))
    endpoint: str = field(
        default="", metadata=wire(ENDPOINT, "host:port where the player accepts peers, or empty")
    )


@dataclass(frozen=True, slots=True)
class IntentId(Record):
    """Names an intent: its author's seat and the author's own intent counter."""

    seat: int = field(metadata=wire(SEAT, "author seat"))
    counter: int = field(metadata=wire(U64, "author's intent counter"))


@dataclass(frozen=True, slots=True)
class FairnessWindow(Record):
    """Marks the first `ordered` intents of an entry as collected inside a fairness window.

    Those intents must appear sorted by ``SHA-256(prev_hash || SHA-256(intent payload bytes))``;
    the ordered-log section of the spec defines when a sequencer must use a window.
    """

    window_ms: int = field(
        metadata=wire(UInt(0, MAX_FAIRNESS_WINDOW_MS), "window length in milliseconds")
    )
    ordered: int = field(
        metadata=wire(UInt(0, MAX_INTENTS_PER_ENTRY), "how many leading intents it covers")
    )


@dataclass(frozen=True, slots=True)
class TurnTimer(Record):
    """The table's clocks: the turn timer, what its expiry does, and the grace period."""

    turn_seconds: int = field(
        default=0,
        metadata=wire(UInt(0, MAX_TURN_SECONDS), "seconds a player has for a move; 0: no timer"),
    )
    on_timeout: TimeoutPolicy = field(
        default=TimeoutPolicy.BOT,
        metadata=wire(TIMEOUT_POLICY, "what happens when the turn timer runs out"),
    )
    grace_seconds: int = field(
        default=DEFAULT_GRACE_SECONDS,
        metadata=wire(
            UInt(1, MAX_GRACE_SECONDS),
            "how long the others wait for a party that went away or fell silent",
        ),
    )

    def describe(self) -> str:
        """One line for people: "30 s per move, a bot moves; grace 60 s"."""
        if not self.turn_seconds:
            timer = "no turn timer"
        else:
            then = "a bot moves" if self.on_timeout is TimeoutPolicy.BOT else "the player loses"
            timer = f"{self.turn_seconds} s per move, then {then}"
        return f"{timer}; grace {self.grace_seconds} s"


NO_TURN_TIMER: Final = TurnTimer()


# --- Channel handshake (plaintext) ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class HandshakeInit(Message):
    """Initiator → responder: offered versions, identity and a fresh X25519 public key."""

    TAG: ClassVar[int] = 1
    VERSION: ClassVar[int] = 1
    versions: tuple[int, ...] = field(
        metadata=wire(
            ArrayOf(UInt(1, U16_MAX), 1, MAX_OFFERED_VERSIONS), "protocol versions, ascending"
        )
    )
    identity: PeerId = field(metadata=wire(KEY, "initiator's identity"))
    ephemeral: bytes = field(metadata=wire(EPHEMERAL_KEY, "X25519 public key"))

    def _check_invariants(self) -> None:
        if list(self.versions) != sorted(set(self.versions)):
            raise LocalProtocolError("HandshakeInit.versions must be strictly ascending")


@dataclass(frozen=True, slots=True)
class HandshakeReply(Message):
    """Responder → initiator: chosen version, identity, X25519 key, transcript signature."""

    TAG: ClassVar[int] = 2
    VERSION: ClassVar[int] = 1
    version: int = field(metadata=wire(UInt(1, U16_MAX), "chosen protocol version"))
    identity: PeerId = field(metadata=wire(KEY, "responder's identity"))
    ephemeral: bytes = field(metadata=wire(EPHEMERAL_KEY, "X25519 public key"))
    signature: bytes = field(metadata=wire(SIGNATURE, "responder's signature (see Handshake)"))


@dataclass(frozen=True, slots=True)
class HandshakeFinish(Message):
    """Initiator → responder: signature over the whole transcript."""

    TAG: ClassVar[int] = 3
    VERSION: ClassVar[int] = 1
    signature: bytes = field(metadata=wire(SIGNATURE, "initiator's signature (see Handshake)"))


@dataclass(frozen=True, slots=True)
class Error(Message):
    """Fatal: the sender is closing the connection, and says why."""

    TAG: ClassVar[int] = 4
    VERSION: ClassVar[int] = 1
    code: ErrorCode = field(metadata=wire(ERROR_CODE, "reason code"))
    detail: str = field(metadata=wire(DETAIL, "free text for logs"))


# --- Signed payloads (carried inside envelopes only) ---------------------------------------------


@dataclass(frozen=True, slots=True)
class Intent(Message):
    """A player's wish to act; sent (enveloped) by its author to every peer."""

    TAG: ClassVar[int] = 16
    VERSION: ClassVar[int] = 1
    game: bytes = field(metadata=wire(GAME, "game id (must equal the envelope's)"))
    seat: int = field(metadata=wire(SEAT, "author seat"))
    counter: int = field(metadata=wire(U64, "author's intent counter, strictly increasing"))
    based_on: int = field(metadata=wire(U64, "last committed seq the author had seen"))
    action: bytes = field(
        metadata=wire(Blob(1, MAX_ACTION_BYTES), "engine's canonical action encoding")
    )

    @property
    def intent_id(self) -> IntentId:
        return IntentId(self.seat, self.counter)


@dataclass(frozen=True, slots=True)
class Entry(Message):
    """A log entry: the sequencer's ordering of one or more intent envelopes."""

    TAG: ClassVar[int] = 17
    VERSION: ClassVar[int] = 1
    seq: int = field(metadata=wire(U64, "position in the log"))
    prev_hash: bytes = field(metadata=wire(HASH, "hash of the previous entry (see ordered log)"))
    sequencer: int = field(metadata=wire(SEAT, "seat of the sequencer that signed this entry"))
    intents: tuple[bytes, ...] = field(
        metadata=wire(
            ArrayOf(ENVELOPE_BYTES, 1, MAX_INTENTS_PER_ENTRY), "intent envelopes, verbatim"
        )
    )
    fairness: FairnessWindow | None = field(
        metadata=wire(Maybe(Nested(FairnessWindow)), "fairness window")
    )

    def _check_invariants(self) -> None:
        if self.fairness is not None and self.fairness.ordered > len(self.intents):
            raise LocalProtocolError("Entry.fairness covers more intents than the entry holds")


@dataclass(frozen=True, slots=True)
class Ack(Message):
    """A player's vote that entry `seq` applies cleanly and yields `state_hash`."""

    TAG: ClassVar[int] = 18
    VERSION: ClassVar[int] = 1
    seq: int = field(metadata=wire(U64, "entry being acknowledged"))
    entry_hash: bytes = field(metadata=wire(HASH, "hash of that entry's envelope bytes"))
    state_hash: bytes = field(metadata=wire(HASH, "engine state hash after applying it"))


@dataclass(frozen=True, slots=True)
class Reject(Message):
    """Advisory: an intent will not be (or was not) ordered, and why."""

    TAG: ClassVar[int] = 19
    VERSION: ClassVar[int] = 1
    intent: IntentId = field(metadata=wire(Nested(IntentId), "which intent"))
    code: RejectCode = field(metadata=wire(REJECT_CODE, "reason code"))
    detail: str = field(metadata=wire(DETAIL, "free text for logs"))


@dataclass(frozen=True, slots=True)
class DeckMessage(Message):
    """One step of the mental-poker deck protocol; `data` is defined by that layer."""

    TAG: ClassVar[int] = 20
    VERSION: ClassVar[int] = 1
    step: int = field(metadata=wire(U32, "deck protocol step id"))
    data: bytes = field(metadata=wire(Blob(1, MAX_DECK_DATA_BYTES), "opaque deck-layer bytes"))


@dataclass(frozen=True, slots=True)
class Start(Message):
    """The host starts the game: seats, rules, clocks. Its envelope is the genesis of the log."""

    TAG: ClassVar[int] = 21
    VERSION: ClassVar[int] = 2
    game: bytes = field(metadata=wire(GAME, "game id (must equal the envelope's)"))
    rules_hash: bytes = field(
        metadata=wire(HASH, "SHA-256 of the engine's canonical rules encoding")
    )
    players: tuple[PlayerInfo, ...] = field(
        metadata=wire(
            ArrayOf(Nested(PlayerInfo), MIN_SEATS, MAX_SEATS),
            "players in seat order (seat = index)",
        )
    )
    timer: TurnTimer = field(
        default=NO_TURN_TIMER,
        metadata=wire(Nested(TurnTimer), "the table's turn timer and grace period"),
    )

    def _check_invariants(self) -> None:
        _check_distinct_players(self.players, "Start.players")


# --- Direct channel messages ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CatchUpRequest(Message):
    """Ask a peer for committed entries from `from_seq` on."""

    TAG: ClassVar[int] = 32
    VERSION: ClassVar[int] = 1
    game: bytes = field(metadata=wire(GAME, "game id"))
    from_seq: int = field(metadata=wire(U64, "first seq wanted"))


@dataclass(frozen=True, slots=True)
class CatchUpResponse(Message):
    """One chunk of committed entries; `more` says another chunk follows."""

    TAG: ClassVar[int] = 33
    VERSION: ClassVar[int] = 1
    game: bytes = field(metadata=wire(GAME, "game id"))
    from_seq: int = field(metadata=wire(U64, "seq of the first entry in this chunk"))
    entries: tuple[bytes, ...] = field(
        metadata=wire(
            ArrayOf(ENVELOPE_BYTES, 0, MAX_CATCH_UP_ENTRIES),
            "entry envelopes in order, then the acks of the last one, then maybe the entry in "
            "flight (see §10)",
        )
    )
    more: bool = field(metadata=wire(FLAG, "true if the responder has entries after this chunk"))


@dataclass(frozen=True, slots=True)
class TableInfo(Message):
    """The host describes its table (sent after the channel opens, and on change)."""

    TAG: ClassVar[int] = 48
    VERSION: ClassVar[int] = 2
    game: bytes = field(metadata=wire(GAME, "game id"))
    name: str = field(metadata=wire(NAME, "table name"))
    rules_hash: bytes = field(metadata=wire(HASH, "SHA-256 of `rules`"))
    rules: bytes = field(
        metadata=wire(Blob(0, MAX_RULES_BYTES), "engine's canonical rules encoding")
    )
    seats: int = field(metadata=wire(UInt(MIN_SEATS, MAX_SEATS), "number of seats"))
    players: tuple[PlayerInfo, ...] = field(
        metadata=wire(
            ArrayOf(Nested(PlayerInfo), 0, MAX_SEATS), "players seated so far, in seat order"
        )
    )
    started: bool = field(metadata=wire(FLAG, "whether the game has started"))
    timer: TurnTimer = field(
        default=NO_TURN_TIMER,
        metadata=wire(Nested(TurnTimer), "the table's turn timer and grace period"),
    )

    def _check_invariants(self) -> None:
        if len(self.players) > self.seats:
            raise LocalProtocolError("TableInfo.players exceeds TableInfo.seats")
        if codec.sha256(self.rules) != self.rules_hash:
            raise LocalProtocolError("TableInfo.rules_hash is not the hash of TableInfo.rules")
        _check_distinct_players(self.players, "TableInfo.players")


@dataclass(frozen=True, slots=True)
class JoinRequest(Message):
    """Ask the host for a seat. `identity` must be the channel peer's identity."""

    TAG: ClassVar[int] = 49
    VERSION: ClassVar[int] = 1
    game: bytes = field(metadata=wire(GAME, "game id"))
    protocol_version: int = field(
        metadata=wire(UInt(1, U16_MAX), "protocol version the joiner speaks")
    )
    rules_hash: bytes = field(metadata=wire(HASH, "rules the joiner agrees to"))
    name: str = field(metadata=wire(NAME, "display name"))
    identity: PeerId = field(metadata=wire(KEY, "joiner's identity"))
    listen_port: int = field(
        default=0, metadata=wire(UInt(0, U16_MAX), "TCP port the joiner accepts peers on, or 0")
    )


@dataclass(frozen=True, slots=True)
class JoinAccepted(Message):
    """The host gives the joiner a seat."""

    TAG: ClassVar[int] = 50
    VERSION: ClassVar[int] = 1
    game: bytes = field(metadata=wire(GAME, "game id"))
    seat: int = field(metadata=wire(SEAT, "assigned seat"))


@dataclass(frozen=True, slots=True)
class JoinRefused(Message):
    """The host refuses the join request."""

    TAG: ClassVar[int] = 51
    VERSION: ClassVar[int] = 1
    game: bytes = field(metadata=wire(GAME, "game id"))
    code: RefuseCode = field(metadata=wire(REFUSE_CODE, "reason code"))
    detail: str = field(metadata=wire(DETAIL, "free text for people"))


@dataclass(frozen=True, slots=True)
class Leave(Message):
    """The sender leaves the table (or the game)."""

    TAG: ClassVar[int] = 52
    VERSION: ClassVar[int] = 1
    game: bytes = field(metadata=wire(GAME, "game id"))
    detail: str = field(metadata=wire(DETAIL, "free text for people"))


@dataclass(frozen=True, slots=True)
class Ping(Message):
    """Liveness probe; answered by `Pong` with the same nonce."""

    TAG: ClassVar[int] = 64
    VERSION: ClassVar[int] = 1
    nonce: int = field(metadata=wire(U64, "echoed by Pong"))

    def response(self) -> Pong:
        return Pong(self.nonce)


@dataclass(frozen=True, slots=True)
class Pong(Message):
    """Answer to `Ping`."""

    TAG: ClassVar[int] = 65
    VERSION: ClassVar[int] = 1
    nonce: int = field(metadata=wire(U64, "the Ping's nonce"))


def chunk_catch_up(
    game: bytes,
    from_seq: int,
    entries: Sequence[bytes],
    *,
    max_size: int = codec.MAX_MESSAGE_SIZE,
) -> tuple[CatchUpResponse, ...]:
    """Split committed entry envelopes (seq `from_seq` onwards) into responses that each encode
    to at most `max_size` bytes and hold at most `MAX_CATCH_UP_ENTRIES`; only the last has
    ``more=False``. An empty list gives one empty response."""
    chunks: list[list[bytes]] = [[]]
    budget = _catch_up_budget(game, from_seq, max_size)
    for entry in entries:
        chunk = chunks[-1]
        cost = _bin_size(len(entry)) + (2 if len(chunk) == 15 else 0)  # fixarray -> array16
        if chunk and (cost > budget or len(chunk) == MAX_CATCH_UP_ENTRIES):
            chunk = []
            chunks.append(chunk)
            budget = _catch_up_budget(game, from_seq + sum(map(len, chunks[:-1])), max_size)
            cost = _bin_size(len(entry))
        if cost > budget:
            raise LocalProtocolError(
                f"entry of {len(entry)} bytes cannot fit in a catch-up response",
                code=ErrorCode.FRAME_TOO_LARGE,
            )
        chunk.append(entry)
        budget -= cost
    responses = []
    seq = from_seq
    for index, chunk in enumerate(chunks):
        more = index < len(chunks) - 1
        responses.append(CatchUpResponse(game, seq, tuple(chunk), more=more))
        seq += len(chunk)
    return tuple(responses)


def _catch_up_budget(game: bytes, from_seq: int, max_size: int) -> int:
    """Bytes left for entries after the fixed part of a response (with an empty entry array)."""
    return max_size - len(CatchUpResponse(game, from_seq, (), more=True).encode())


def _bin_size(length: int) -> int:
    header = 2 if length < 1 << 8 else 3 if length < 1 << 16 else 5
    return header + length


def _check_distinct_players(players: tuple[PlayerInfo, ...], name: str) -> None:
    if len({player.identity for player in players}) != len(players):
        raise LocalProtocolError(f"{name}: an identity appears twice")


# --- Catalogues ----------------------------------------------------------------------------------

Catalogue = Mapping[tuple[int, int], type[Message]]


def catalogue(*classes: type[Message]) -> Catalogue:
    """Index message classes by ``(TAG, VERSION)``, refusing duplicates."""
    table: dict[tuple[int, int], type[Message]] = {}
    for cls in classes:
        key = (cls.TAG, cls.VERSION)
        if key in table:
            raise LocalProtocolError(f"{cls.__name__} and {table[key].__name__} share tag {key}")
        table[key] = cls
    return table


HANDSHAKE_MESSAGES: Final = catalogue(HandshakeInit, HandshakeReply, HandshakeFinish, Error)
"""Plaintext frames before the channel is open."""

SIGNED_MESSAGES: Final = catalogue(Intent, Entry, Ack, Reject, DeckMessage, Start)
"""Payloads that travel only inside an `Envelope` (signed by their author)."""

DIRECT_MESSAGES: Final = catalogue(
    Error,
    CatchUpRequest,
    CatchUpResponse,
    TableInfo,
    JoinRequest,
    JoinAccepted,
    JoinRefused,
    Leave,
    Ping,
    Pong,
)
"""Messages carried directly in encrypted frames (the `Envelope` is added by `envelope.py`)."""


def decode_message(
    data: bytes, allowed: Catalogue, limits: codec.Limits = codec.DEFAULT_LIMITS
) -> Message:
    """Decode canonical bytes into a message from `allowed`, or raise `RemoteProtocolError`."""
    value = codec.decode(data, limits)
    message = message_from_value(value, allowed)
    message._decoded_from(data)
    return message


def message_from_value(value: Value, allowed: Catalogue) -> Message:
    """Build a message from an already decoded value, or raise `RemoteProtocolError`."""
    if type(value) is not tuple or len(value) < 2:
        raise RemoteProtocolError("a message is an array [tag, version, fields...]")
    tag, version = value[0], value[1]
    if type(tag) is not int or type(version) is not int:
        raise RemoteProtocolError("message tag and version must be integers")
    cls = allowed.get((tag, version))
    if cls is None:
        known = {t for t, _ in allowed}
        if tag in known:
            raise RemoteProtocolError(
                f"unsupported version {version} of message tag {tag}",
                code=ErrorCode.UNSUPPORTED_VERSION,
            )
        raise RemoteProtocolError(
            f"message tag {tag} is not allowed here", code=ErrorCode.UNEXPECTED_MESSAGE
        )
    try:
        return cls.from_wire(value[2:])
    except LocalProtocolError as exc:
        raise exc.to_remote() from exc


def describe_catalogue(classes: tuple[type[Record], ...]) -> str:
    """Markdown tables of the wire layouts (docs/protocol.md embeds them; a test keeps it in sync).

    Messages get their tag and schema version as elements 0 and 1; nested records are bare arrays.
    """
    lines = []
    for cls in classes:
        summary = (cls.__doc__ or "").strip().splitlines()[0]
        rows = []
        if issubclass(cls, Message):
            title = f"#### `{cls.__name__}` — tag {cls.TAG}, version {cls.VERSION}"
            rows.append(f"| 0 | *tag* | fixint | `{cls.TAG}` |")
            rows.append(f"| 1 | *schema version* | fixint | `{cls.VERSION}` |")
        else:
            title = f"#### `{cls.__name__}` — nested record (untagged array)"
        fields = dataclasses.fields(cls)  # type: ignore[arg-type]
        docs = {item.name: item.metadata.get("doc", "") for item in fields}
        for index, (name, spec) in enumerate(_wire_fields(cls).items(), start=len(rows)):
            rows.append(f"| {index} | `{name}` | {spec.describe()} | {docs[name]} |")
        lines += [title, "", summary, "", "| # | Field | Schema | Meaning |", "|---|---|---|---|"]
        lines += [*rows, ""]
    return "\n".join(lines)
