"""The message tables of docs/protocol.md §7 (and the code tables of §12), transcribed by hand.

`identify(data, catalogue)` reads one message with the clean-room msgpack reader, finds its
schema by `(tag, schema_version)`, checks every field against the spec's schema column and
returns a `SpecMessage` with named fields, or raises `SpecRefusal` carrying the `ErrorCode` name
the spec says a receiver answers with.
"""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from .cleanroom_crypto import ENVELOPE_CONTEXT, key_problem, verify
from .cleanroom_msgpack import SpecDecodeError, Value, read

U16, U32, U64 = 2**16 - 1, 2**32 - 1, 2**64 - 1

# §12: the code tables (values of the reason-code fields; unknown values are refused).
ERROR_CODES = {
    "MALFORMED": 1, "UNSUPPORTED_VERSION": 2, "WRONG_IDENTITY": 3, "BAD_SIGNATURE": 4,
    "BAD_FRAME": 5, "FRAME_TOO_LARGE": 6, "UNEXPECTED_MESSAGE": 7, "NONCE_EXHAUSTED": 8,
    "REFUSED": 9, "GOING_AWAY": 10, "TRUNCATED": 11, "INTERNAL": 12,
}
REJECT_CODES = {
    "ILLEGAL_ACTION": 1, "STALE": 2, "NOT_YOUR_TURN": 3, "LIMIT_REACHED": 4, "DUPLICATE": 5,
    "BAD_SIGNATURE": 6, "MALFORMED": 7,
}
REFUSE_CODES = {
    "TABLE_FULL": 1, "RULES_MISMATCH": 2, "VERSION_MISMATCH": 3, "ALREADY_STARTED": 4,
    "NAME_TAKEN": 5, "NOT_WELCOME": 6, "UNKNOWN_GAME": 7,
}
TIMEOUT_POLICIES = {"BOT": 1, "LOSE": 2}


class SpecRefusal(Exception):
    """A receiver following the spec refuses the message with `code` (an ErrorCode name)."""

    def __init__(self, code: str, reason: str) -> None:
        super().__init__(f"{code}: {reason}")
        self.code = code
        self.reason = reason


Check = Callable[[Value], str | None]  # the problem with a value, or None


def integer(low: int, high: int) -> Check:
    def check(value: Value) -> str | None:
        # §7: booleans are not integers (Python's bool is an int: test it first).
        if isinstance(value, bool) or not isinstance(value, int):
            return f"{_kind(value)}, not an integer"
        return None if low <= value <= high else f"{value} outside {low}..{high}"
    return check


def binary(low: int, high: int | None = None) -> Check:
    top = low if high is None else high

    def check(value: Value) -> str | None:
        if not isinstance(value, bytes):
            return f"{_kind(value)}, not bytes"
        return None if low <= len(value) <= top else f"{len(value)} bytes, not {low}..{top}"
    return check


def key(value: Value) -> str | None:
    if not isinstance(value, bytes):
        return f"{_kind(value)}, not a key"
    if len(value) != 32:
        return f"{len(value)} bytes, not a key"
    problem = key_problem(value)
    # §2 / §7 step 3: a key of the right shape that is not a valid point is WRONG_IDENTITY.
    return None if problem is None else f"{WRONG_IDENTITY_MARK}{problem}"


WRONG_IDENTITY_MARK = "invalid key: "


def boolean(value: Value) -> str | None:
    return None if isinstance(value, bool) else f"{_kind(value)}, not a boolean"


# §3 display-safe text, with the character sets spelled out as the spec lists them.
_CONTROLS = {*range(0x20), *range(0x7F, 0xA0)}  # Cc
_BIDI_CONTROLS = {0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A)}
_SPACES = {0x20, 0xA0, 0x1680, *range(0x2000, 0x200B), 0x202F, 0x205F, 0x3000}  # Zs


def text(limit: int, nonempty: bool = False) -> Check:
    def check(value: Value) -> str | None:
        if not isinstance(value, str):
            return f"{_kind(value)}, not text"
        if len(value.encode("utf-8")) > limit:
            return f"text over {limit} bytes"
        if nonempty and not value:
            return "empty name"
        # §3 display-safe text.
        if any(ord(c) in _CONTROLS or ord(c) in _BIDI_CONTROLS for c in value):
            return "control or bidi character"
        if value and (ord(value[0]) in _SPACES or ord(value[-1]) in _SPACES):
            return "starts or ends with a space separator"
        return None
    return check


def code(table: Mapping[str, int]) -> Check:
    known = set(table.values())

    def check(value: Value) -> str | None:
        problem = integer(0, U16)(value)
        if problem is not None:
            return problem
        return None if value in known else f"unknown code {value!r}"
    return check


def array(low: int, high: int, item: Check) -> Check:
    def check(value: Value) -> str | None:
        if not isinstance(value, tuple):
            return f"{_kind(value)}, not an array"
        if not low <= len(value) <= high:
            return f"{len(value)} elements, not {low}..{high}"
        for index, element in enumerate(value):
            problem = item(element)
            if problem is not None:
                return f"[{index}]: {problem}"
        return None
    return check


def nil_or(inner: Check) -> Check:
    def check(value: Value) -> str | None:
        return None if value is None else inner(value)
    return check


Fields = tuple[tuple[str, Check], ...]


def record(fields: Fields) -> Check:
    def check(value: Value) -> str | None:
        if not isinstance(value, tuple):
            return f"{_kind(value)}, not a record"
        if len(value) != len(fields):
            return f"{len(value)} fields, not {len(fields)}"
        for (name, field_check), element in zip(fields, value, strict=True):
            problem = field_check(element)
            if problem is not None:
                return f"{name}: {problem}"
        return None
    return check


def _kind(value: Value) -> str:
    return "nil" if value is None else type(value).__name__


SEAT = integer(0, 5)
GAME = binary(16)
HASH = binary(32)
DETAIL = text(256)
NAME = text(64, nonempty=True)
ENVELOPE_BYTES = binary(1, 1048576)

# §7.4 nested records.
PLAYER_INFO = record((("identity", key), ("name", NAME), ("endpoint", text(64))))
INTENT_ID = record((("seat", SEAT), ("counter", integer(0, U64))))
FAIRNESS_WINDOW = record((("window_ms", integer(0, 10000)), ("ordered", integer(0, 32))))
TURN_TIMER = record((("turn_seconds", integer(0, 3600)),
                     ("on_timeout", code(TIMEOUT_POLICIES)),
                     ("grace_seconds", integer(1, 3600))))


@dataclass(frozen=True)
class Schema:
    name: str
    tag: int
    version: int
    fields: Fields


SCHEMAS = (
    # §7.1
    Schema("HandshakeInit", 1, 1, (("versions", array(1, 8, integer(1, U16))),
                                   ("identity", key), ("ephemeral", binary(32)))),
    Schema("HandshakeReply", 2, 1, (("version", integer(1, U16)), ("identity", key),
                                    ("ephemeral", binary(32)), ("signature", binary(64)))),
    Schema("HandshakeFinish", 3, 1, (("signature", binary(64)),)),
    Schema("Error", 4, 1, (("code", code(ERROR_CODES)), ("detail", DETAIL))),
    # §7.2
    Schema("Envelope", 5, 1, (("author", key), ("game", GAME),
                              ("payload", binary(1, 1048576)), ("signature", binary(64)))),
    # §7.3
    Schema("Intent", 16, 1, (("game", GAME), ("seat", SEAT), ("counter", integer(0, U64)),
                             ("based_on", integer(0, U64)), ("action", binary(1, 65536)))),
    Schema("Entry", 17, 1, (("seq", integer(0, U64)), ("prev_hash", HASH),
                            ("sequencer", SEAT), ("intents", array(1, 32, ENVELOPE_BYTES)),
                            ("fairness", nil_or(FAIRNESS_WINDOW)))),
    Schema("Ack", 18, 1, (("seq", integer(0, U64)), ("entry_hash", HASH),
                          ("state_hash", HASH))),
    Schema("Reject", 19, 1, (("intent", INTENT_ID), ("code", code(REJECT_CODES)),
                             ("detail", DETAIL))),
    Schema("DeckMessage", 20, 1, (("step", integer(0, U32)), ("data", binary(1, 524288)))),
    Schema("Start", 21, 2, (("game", GAME), ("rules_hash", HASH),
                            ("players", array(2, 6, PLAYER_INFO)), ("timer", TURN_TIMER))),
    # §7.5
    Schema("TableInfo", 48, 2, (("game", GAME), ("name", NAME), ("rules_hash", HASH),
                                ("rules", binary(0, 16384)), ("seats", integer(2, 6)),
                                ("players", array(0, 6, PLAYER_INFO)), ("started", boolean),
                                ("timer", TURN_TIMER))),
    Schema("JoinRequest", 49, 1, (("game", GAME), ("protocol_version", integer(1, U16)),
                                  ("rules_hash", HASH), ("name", NAME), ("identity", key),
                                  ("listen_port", integer(0, U16)))),
    Schema("JoinAccepted", 50, 1, (("game", GAME), ("seat", SEAT))),
    Schema("JoinRefused", 51, 1, (("game", GAME), ("code", code(REFUSE_CODES)),
                                  ("detail", DETAIL))),
    Schema("Leave", 52, 1, (("game", GAME), ("detail", DETAIL))),
    # §7.6
    Schema("CatchUpRequest", 32, 1, (("game", GAME), ("from_seq", integer(0, U64)))),
    Schema("CatchUpResponse", 33, 1, (("game", GAME), ("from_seq", integer(0, U64)),
                                      ("entries", array(0, 256, ENVELOPE_BYTES)),
                                      ("more", boolean))),
    # §7.7
    Schema("Ping", 64, 1, (("nonce", integer(0, U64)),)),
    Schema("Pong", 65, 1, (("nonce", integer(0, U64)),)),
)
BY_NAME = {schema.name: schema for schema in SCHEMAS}
BY_PAIR = {(schema.tag, schema.version): schema for schema in SCHEMAS}

# §7, "Where a message may appear".
HANDSHAKE = frozenset({"HandshakeInit", "HandshakeReply", "HandshakeFinish", "Error"})
DIRECT = frozenset({"Error", "Envelope", "CatchUpRequest", "CatchUpResponse", "TableInfo",
                    "JoinRequest", "JoinAccepted", "JoinRefused", "Leave", "Ping", "Pong"})
SIGNED = frozenset({"Intent", "Entry", "Ack", "Reject", "DeckMessage", "Start"})


@dataclass(frozen=True)
class SpecMessage:
    name: str
    fields: dict[str, Value]

    def __getitem__(self, field: str) -> Value:
        return self.fields[field]

    # Typed views of a field whose schema fixes its type (the schema was checked on reading).
    def blob(self, field: str) -> bytes:
        value = self.fields[field]
        if not isinstance(value, bytes):
            raise TypeError(f"{self.name}.{field} is not bytes")
        return value

    def number(self, field: str) -> int:
        value = self.fields[field]
        if not isinstance(value, int):
            raise TypeError(f"{self.name}.{field} is not an integer")
        return value

    @staticmethod
    def number_in(record: tuple[Value, ...], index: int) -> int:
        value = record[index]
        if not isinstance(value, int):
            raise TypeError(f"element {index} is not an integer")
        return value

    def items(self, field: str) -> tuple[Value, ...]:
        value = self.fields[field]
        if not isinstance(value, tuple):
            raise TypeError(f"{self.name}.{field} is not an array")
        return value


def identify(data: bytes, catalogue: frozenset[str]) -> SpecMessage:
    """Read one message of `catalogue` as §7 says, or raise SpecRefusal with the §7 code."""
    try:
        value = read(data)
    except SpecDecodeError as exc:
        raise SpecRefusal("MALFORMED", str(exc)) from None
    if not isinstance(value, tuple) or len(value) < 2:
        raise SpecRefusal("MALFORMED", "not an array of at least tag and schema version")
    tag, version = value[0], value[1]
    if not (isinstance(tag, int) and isinstance(version, int)
            and not isinstance(tag, bool) and not isinstance(version, bool)):
        raise SpecRefusal("MALFORMED", "tag and schema version must be integers")  # §7 step 1
    schema = BY_PAIR.get((tag, version))
    if schema is None or schema.name not in catalogue:
        known_tag = any(s.tag == tag and s.name in catalogue for s in SCHEMAS)
        if known_tag:
            raise SpecRefusal("UNSUPPORTED_VERSION", f"tag {tag} at schema version {version}")
        raise SpecRefusal("UNEXPECTED_MESSAGE", f"tag {tag} version {version} is not expected")
    fields = value[2:]
    if len(fields) != len(schema.fields):
        raise SpecRefusal("MALFORMED", f"{schema.name} with {len(fields)} fields, "
                                       f"not {len(schema.fields)}")
    named: dict[str, Value] = {}
    for (name, check), field in zip(schema.fields, fields, strict=True):
        problem = check(field)
        if problem is not None:
            code = "WRONG_IDENTITY" if WRONG_IDENTITY_MARK in problem else "MALFORMED"
            raise SpecRefusal(code, f"{schema.name}.{name}: {problem}")
        named[name] = field
    _check_message_rules(schema.name, named)
    return SpecMessage(schema.name, named)


def _check_message_rules(name: str, fields: dict[str, Value]) -> None:
    """§7 "Cross-field rules" (refused as MALFORMED)."""
    message = SpecMessage(name, fields)

    def refuse(reason: str) -> None:
        raise SpecRefusal("MALFORMED", f"{name}: {reason}")

    if name == "HandshakeInit":
        versions = [v for v in message.items("versions") if isinstance(v, int)]
        if any(a >= b for a, b in itertools.pairwise(versions)):
            refuse("versions not strictly ascending")
    if name == "Entry":
        fairness = fields["fairness"]
        if isinstance(fairness, tuple) and message.number_in(fairness, 1) > len(
                message.items("intents")):
            refuse("the fairness window covers more intents than the entry holds")
    if name in ("Start", "TableInfo"):
        identities = [p[0] for p in message.items("players") if isinstance(p, tuple)]
        if len(set(identities)) != len(identities):
            refuse("one identity twice in players")
    if name == "TableInfo":
        if len(message.items("players")) > message.number("seats"):
            refuse("more players than seats")
        if message.blob("rules_hash") != hashlib.sha256(message.blob("rules")).digest():
            refuse("rules_hash is not SHA-256(rules)")


def open_envelope(envelope: SpecMessage) -> tuple[bytes, SpecMessage]:
    """§8, in its order, for an `Envelope` already read (its author key was checked then):
    the signature over context ‖ game ‖ payload as received, the payload with the signed
    catalogue, the payload's game. Returns the author and the payload message."""
    author, game, payload = envelope.blob("author"), envelope.blob("game"), envelope.blob("payload")
    if not verify(author, ENVELOPE_CONTEXT, game + payload, envelope.blob("signature")):
        raise SpecRefusal("BAD_SIGNATURE", "the envelope signature does not verify")
    inner = identify(payload, SIGNED)
    if inner.fields.get("game", game) != game:
        raise SpecRefusal("MALFORMED", "the payload's game differs from the envelope's")
    return author, inner
