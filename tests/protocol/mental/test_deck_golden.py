"""Golden byte vectors for every deck message kind (docs/protocol.md §11, §16).

A deck message travels as ``codec.encode(message.to_wire())`` inside a table intent, so its
canonical bytes are part of the wire format like any other message's. One tiny deterministic
table (two seats, four cards, the SHAKE-256 byte source of `table.drbg`) produces one message
of every kind; `tests/protocol/golden/deck/<kind>.hex` holds their bytes. Both directions are
checked: our encoder must produce the stored bytes, and the stored bytes must decode to the
same message. The list of kinds is read from the code, so a new kind without a vector fails.
The same samples, mutated byte by byte or field by field, are what the fuzz tests at the end
feed to the table's deck decoder: only protocol or deck refusals may come out.

A deliberate wire change regenerates them with::

    P2P_DURAK_REGENERATE_GOLDEN=1 pytest tests/protocol/mental/test_deck_golden.py
"""

from __future__ import annotations

import functools
import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from wire_support import GOLDEN_DIR, read_golden, write_golden

from p2p_durak.protocol import codec
from p2p_durak.protocol.errors import LocalProtocolError, RemoteProtocolError
from p2p_durak.protocol.mental import messages as deck_messages
from p2p_durak.protocol.mental.errors import MalformedMessage
from p2p_durak.protocol.mental.messages import Message, message_from_wire
from p2p_durak.protocol.mental.ops import (
    AuditOp,
    ClassOp,
    CoinOp,
    KeysOp,
    RevealOp,
    ShowOp,
    ShuffleOp,
)
from p2p_durak.protocol.table import deck_message

from .table import Table

DECK_DIR = GOLDEN_DIR / "deck"
REGENERATE = os.environ.get("P2P_DURAK_REGENERATE_GOLDEN") == "1"


def every_kind() -> set[str]:
    """Every deck message kind the code defines (each concrete class has a non-empty KIND)."""
    kinds: set[str] = set()
    pending = list(Message.__subclasses__())
    while pending:
        cls = pending.pop()
        pending += cls.__subclasses__()
        if cls.KIND:
            kinds.add(cls.KIND)
    return kinds


@functools.cache
def first_of_each_kind() -> dict[str, bytes]:
    """Play one scripted deck session and keep the canonical bytes of each kind's first message."""
    table = Table(2, 4, b"p2p-durak deck golden", game_id=b"p2p-durak golden")
    table.run(KeysOp("keys"))
    table.run(ShuffleOp("blocks", (0, 1, 2, 3), (2, 2), (0, 1, 2, 3)))
    table.run(ShuffleOp("shuffle", (0, 1, 2, 3)))
    table.run(CoinOp("coin"))
    seen = table.deal("deal", {0: [0], 1: [1]})
    card = seen[0][0]
    table.run(ClassOp("suit", 0, 0, tuple(c for c in range(4) if c % 2 == card % 2)))
    table.run(RevealOp("trump", (2,)))
    table.run(ShowOp("pass", ((1, (0,)),)))  # seat 1's card shown to seat 0: a rerandomize
    table.run(AuditOp("audit"))
    first: dict[str, bytes] = {}
    for wire in table.wire:
        kind = wire[0]
        assert isinstance(kind, str)
        first.setdefault(kind, codec.encode(wire))
    return first


def as_lists(value: object) -> object:
    """The deck layer's wire form uses lists where the codec decodes arrays as tuples."""
    if isinstance(value, tuple):
        return [as_lists(item) for item in value]
    return value


def test_the_script_produces_every_kind_the_code_defines() -> None:
    assert every_kind() == set(deck_messages._PARSERS)
    assert set(first_of_each_kind()) == every_kind()


@pytest.mark.parametrize("kind", sorted(every_kind()))
def test_deck_vector(kind: str) -> None:
    data = first_of_each_kind()[kind]
    if REGENERATE:
        write_golden(f"deck/{kind}", f"deck message {kind!r}: codec.encode(to_wire()), no frame "
                     "header", data)
    stored = read_golden(f"deck/{kind}")
    assert stored == data, f"deck message {kind!r} differs from golden/deck/{kind}.hex"
    message = message_from_wire(as_lists(codec.decode(stored)))
    assert kind == message.KIND
    assert codec.encode(message.to_wire()) == stored


def test_no_stale_deck_vectors() -> None:
    assert {path.stem for path in DECK_DIR.glob("*.hex")} == every_kind()


# --- Hostile deck bytes: only the two kinds of refusal the table turns into a diagnosis ---------

KINDS = sorted(every_kind())
deck_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 70_000)
    | st.binary(max_size=70)
    | st.sampled_from([bytes(32), b"\xff" * 32, bytes(64)])
    | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=4).map(tuple),
    max_leaves=8,
)


def refused_or_accepted(data: bytes) -> None:
    """`deck_message` (what the table calls on a deck step's bytes) accepts, or refuses with a
    `RemoteProtocolError` (not canonical msgpack) or `MalformedMessage` (not a deck message)."""
    try:
        message = deck_message(data)
    except (RemoteProtocolError, MalformedMessage):
        return
    assert codec.encode(message.to_wire()) == data  # what it accepts is the canonical form


@settings(derandomize=True, max_examples=150)
@given(st.sampled_from(KINDS), st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 255),
                                                  st.sampled_from(["flip", "insert", "delete"])),
                                        min_size=1, max_size=4))
def test_mutated_deck_bytes_are_refused_as_protocol_or_deck_errors(
    kind: str, edits: list[tuple[int, int, str]]
) -> None:
    raw = bytearray(first_of_each_kind()[kind])
    for position, byte, action in edits:
        at = position % (len(raw) + 1)
        if action == "insert":
            raw[at:at] = bytes([byte])
        elif at < len(raw):
            if action == "flip":
                raw[at] ^= byte or 1
            else:
                del raw[at]
    refused_or_accepted(bytes(raw))


@settings(derandomize=True, max_examples=150)
@given(st.sampled_from(KINDS), st.integers(0, 20), deck_values)
def test_deck_messages_with_a_field_replaced_are_refused_as_deck_errors(
    kind: str, index: int, value: codec.Value
) -> None:
    fields = codec.decode(first_of_each_kind()[kind])
    assert isinstance(fields, tuple)
    at = index % (len(fields) + 1)
    changed = (*fields[:at], value, *fields[at + 1 :])
    try:
        data = codec.encode(changed)
    except LocalProtocolError:  # nested deeper than the codec encodes
        return
    refused_or_accepted(data)
