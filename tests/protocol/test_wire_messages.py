"""Message schemas: validation in constructors, strict decoding, versioned tags."""

from __future__ import annotations

import dataclasses
import hashlib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from wire_support import ALICE, BOB, GAME, RULES, RULES_HASH, all_samples, sample_payloads

from p2p_durak.protocol import codec
from p2p_durak.protocol.channel import CHANNEL_MESSAGES
from p2p_durak.protocol.envelope import Envelope
from p2p_durak.protocol.errors import ErrorCode, LocalProtocolError, RemoteProtocolError
from p2p_durak.protocol.messages import (
    DIRECT_MESSAGES,
    HANDSHAKE_MESSAGES,
    MAX_CATCH_UP_ENTRIES,
    MAX_RULES_BYTES,
    SIGNED_MESSAGES,
    Ack,
    Catalogue,
    CatchUpResponse,
    Entry,
    Error,
    FairnessWindow,
    HandshakeInit,
    Intent,
    IntentId,
    JoinRequest,
    Message,
    Ping,
    PlayerInfo,
    Record,
    RefuseCode,
    Reject,
    RejectCode,
    Start,
    TableInfo,
    TimeoutPolicy,
    TurnTimer,
    catalogue,
    chunk_catch_up,
    decode_message,
    describe_catalogue,
)

SPEC = Path(__file__).parents[2] / "docs" / "protocol.md"


def catalogue_for(message: Message) -> Catalogue:
    key = (message.TAG, message.VERSION)
    for table in (HANDSHAKE_MESSAGES, SIGNED_MESSAGES, CHANNEL_MESSAGES):
        if key in table:
            return table
    raise AssertionError(message)


def every_sample() -> dict[str, Message]:
    return {**all_samples(), **sample_payloads()}


@pytest.mark.parametrize(("name", "message"), every_sample().items(), ids=every_sample().keys())
def test_every_sample_round_trips(name: str, message: Message) -> None:
    data = message.encode()
    assert data[1:3] == bytes([message.TAG, message.VERSION])
    decoded = decode_message(data, catalogue_for(message))
    assert decoded == message
    assert decoded.encode() == data


def test_tags_are_unique_and_catalogues_disjoint() -> None:
    classes = {
        cls
        for table in (HANDSHAKE_MESSAGES, SIGNED_MESSAGES, CHANNEL_MESSAGES)
        for cls in table.values()
    }
    assert len({cls.TAG for cls in classes}) == len(classes)
    assert not set(SIGNED_MESSAGES) & set(CHANNEL_MESSAGES)
    assert set(HANDSHAKE_MESSAGES) & set(CHANNEL_MESSAGES) == {(Error.TAG, 1)}
    with pytest.raises(LocalProtocolError):
        catalogue(Ping, Ping)


def test_wrong_catalogue_is_unexpected() -> None:
    with pytest.raises(RemoteProtocolError) as info:
        decode_message(Ping(1).encode(), SIGNED_MESSAGES)
    assert info.value.code is ErrorCode.UNEXPECTED_MESSAGE


def test_unknown_version_is_unsupported() -> None:
    data = codec.encode((Ping.TAG, 2, 5))
    with pytest.raises(RemoteProtocolError) as info:
        decode_message(data, DIRECT_MESSAGES)
    assert info.value.code is ErrorCode.UNSUPPORTED_VERSION


@pytest.mark.parametrize(
    "value",
    [
        (),
        (64,),
        ("64", 1, 5),
        (64, True, 5),
        (64, 1),
        (64, 1, 5, 6),
        (64, 1, True),
        (64, 1, -1),
        (64, 1, b"\x05"),
        (64, 1, None),
        (64, 1, (5,)),
        5,
    ],
)
def test_off_schema_ping_is_refused(value: codec.Value) -> None:
    with pytest.raises(RemoteProtocolError):
        decode_message(codec.encode(value), DIRECT_MESSAGES)


JOIN = (JoinRequest.TAG, 1, GAME, 1, RULES_HASH, "Carol", ALICE.peer_id.key, 0)


@pytest.mark.parametrize(
    ("index", "value", "what"),
    [
        (5, b"Carol", "text sent as bin"),
        (2, GAME.hex()[:16], "bin sent as text"),
        (6, ALICE.peer_id.key.hex(), "key sent as text"),
        (3, True, "boolean for an integer"),
        (7, False, "boolean for an integer (listen_port)"),
        (4, None, "nil for a non-optional field"),
        (5, ("Carol",), "array around a text"),
    ],
)
def test_the_same_value_in_another_wire_type_is_refused(
    index: int, value: codec.Value, what: str
) -> None:
    """docs/protocol.md §7: booleans are not integers, bytes are not text; a field is exactly
    its msgpack type (the codec alone keeps them apart; the schema refuses the wrong one)."""
    assert decode_message(codec.encode(JOIN), DIRECT_MESSAGES) == JoinRequest(
        GAME, 1, RULES_HASH, "Carol", ALICE.peer_id
    )
    changed = (*JOIN[:index], value, *JOIN[index + 1 :])
    with pytest.raises(RemoteProtocolError) as info:
        decode_message(codec.encode(changed), DIRECT_MESSAGES)
    assert info.value.code is ErrorCode.MALFORMED


def test_a_flag_is_a_boolean_not_an_integer() -> None:
    response = CatchUpResponse(GAME, 5, (), more=False)
    fields = codec.decode(response.encode())
    assert isinstance(fields, tuple)
    for value in (0, 1, None, b"\x00"):
        with pytest.raises(RemoteProtocolError):
            decode_message(codec.encode((*fields[:-1], value)), DIRECT_MESSAGES)


def test_constructors_validate() -> None:
    with pytest.raises(LocalProtocolError):
        Ping(-1)
    with pytest.raises(LocalProtocolError):
        Ping(True)
    with pytest.raises(LocalProtocolError):
        Ack(1, b"short", bytes(32))
    with pytest.raises(LocalProtocolError):
        Intent(GAME, 6, 0, 0, b"x")  # seats are 0..5
    with pytest.raises(LocalProtocolError):
        Intent(GAME, 0, 0, 0, b"")  # an action is never empty
    with pytest.raises(LocalProtocolError):
        Reject((0, 1), RejectCode.STALE, "")  # type: ignore[arg-type]
    with pytest.raises(LocalProtocolError):
        Error(3, "")  # type: ignore[arg-type]
    with pytest.raises(LocalProtocolError):
        HandshakeInit((2, 1), ALICE.peer_id, bytes(32))
    with pytest.raises(LocalProtocolError):
        HandshakeInit((), ALICE.peer_id, bytes(32))
    with pytest.raises(LocalProtocolError):
        Entry(1, bytes(32), 0, (), None)
    with pytest.raises(LocalProtocolError):
        Entry(1, bytes(32), 0, (b"x",), FairnessWindow(50, 2))
    with pytest.raises(LocalProtocolError):
        Entry(1, bytes(32), 0, [b"x"], None)  # type: ignore[arg-type]
    players = (PlayerInfo(ALICE.peer_id, "A"), PlayerInfo(ALICE.peer_id, "B"))
    with pytest.raises(LocalProtocolError, match="twice"):
        Start(GAME, RULES_HASH, players)
    with pytest.raises(LocalProtocolError):
        Start(GAME, RULES_HASH, players[:1])
    with pytest.raises(LocalProtocolError, match="hash"):
        TableInfo(GAME, "t", bytes(32), RULES, 2, (), started=False)
    seated = (PlayerInfo(BOB.peer_id, "B"), PlayerInfo(ALICE.peer_id, "A"))
    with pytest.raises(LocalProtocolError, match="exceeds"):
        TableInfo(GAME, "t", RULES_HASH, RULES, 2, (*seated, PlayerInfo(ALICE.peer_id, "C")), False)
    with pytest.raises(LocalProtocolError, match="twice"):
        TableInfo(GAME, "t", RULES_HASH, RULES, 4, (*seated, PlayerInfo(ALICE.peer_id, "C")), False)


@pytest.mark.parametrize(
    "name",
    [
        "",
        " Bob",
        "Bob ",
        "Bob\n",
        "\x1b[31mBob",
        "Bob\u202egnp.exe",
        "\u2066Bob",
        "x" * 65,
        "ж" * 33,
        "\ud800",
    ],
    ids=repr,
)
def test_unsafe_names_are_refused(name: str) -> None:
    with pytest.raises(LocalProtocolError):
        PlayerInfo(ALICE.peer_id, name)
    raw = codec.encode((JoinRequest.TAG, 1, GAME, 1, RULES_HASH, "ok", ALICE.peer_id.key, 0))
    if name != "\ud800":
        bad = codec.encode((JoinRequest.TAG, 1, GAME, 1, RULES_HASH, name, ALICE.peer_id.key, 0))
        with pytest.raises(RemoteProtocolError):
            decode_message(bad, DIRECT_MESSAGES)
    assert decode_message(raw, DIRECT_MESSAGES) == JoinRequest(
        GAME, 1, RULES_HASH, "ok", ALICE.peer_id
    )


def test_names_may_be_any_script() -> None:
    for name in ["Алиса", "鈴木", "Zoë", "👩‍🚀 Ana", "x" * 64, "ж" * 32]:
        assert PlayerInfo(ALICE.peer_id, name).name == name


def test_unknown_codes_and_bad_keys_are_refused() -> None:
    raw = (Reject.TAG, 1, (0, 1), 99, "")
    with pytest.raises(RemoteProtocolError, match="unknown RejectCode"):
        decode_message(codec.encode(raw), SIGNED_MESSAGES)
    small_order = bytes(32)
    raw_join = (JoinRequest.TAG, 1, GAME, 1, RULES_HASH, "Eve", small_order, 0)
    with pytest.raises(RemoteProtocolError) as info:
        decode_message(codec.encode(raw_join), DIRECT_MESSAGES)
    assert info.value.code is ErrorCode.WRONG_IDENTITY


def test_docs_contain_the_generated_message_tables() -> None:
    text = SPEC.read_text(encoding="utf-8")
    tables = (HANDSHAKE_MESSAGES, SIGNED_MESSAGES, CHANNEL_MESSAGES)
    classes: list[type[Record]] = sorted(
        {cls for table in tables for cls in table.values()}, key=lambda cls: cls.TAG
    )
    assert Envelope in classes
    for cls in [*classes, PlayerInfo, IntentId, FairnessWindow, TurnTimer]:
        assert describe_catalogue((cls,)) in text, f"docs/protocol.md is stale for {cls.__name__}"
    for code in [*ErrorCode, *RejectCode, *RefuseCode, *TimeoutPolicy]:
        assert f"`{code.name}` | {code.value} |" in text


# --- Structured fuzzing: valid messages with one field replaced by a random wire value ---------

wire_scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=codec.INT_MIN, max_value=codec.INT_MAX)
    | st.integers(-3, 300)
    | st.binary(max_size=40)
    | st.sampled_from([bytes(16), bytes(32), bytes(64), ALICE.peer_id.key])
    | st.text(max_size=10)
)
wire_values = st.recursive(
    wire_scalars, lambda inner: st.lists(inner, max_size=4).map(tuple), max_leaves=10
)
SAMPLES = list(every_sample().values())


def replace_at(value: codec.Value, path: list[int], new: codec.Value) -> codec.Value:
    if not path or type(value) is not tuple or not value:
        return new
    index = path[0] % len(value)
    return (*value[:index], replace_at(value[index], path[1:], new), *value[index + 1 :])


@pytest.mark.slow
@settings(derandomize=True, max_examples=200, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(range(len(SAMPLES))),
    st.lists(st.integers(0, 10), min_size=1, max_size=3),
    wire_values,
)
def test_mutated_messages_decode_or_raise_protocol_errors(
    sample: int, path: list[int], new: codec.Value
) -> None:
    message = SAMPLES[sample]
    value = codec.decode(message.encode())
    mutated = replace_at(value, path, new)
    try:
        data = codec.encode(mutated)
    except LocalProtocolError:
        return  # too deep to encode at all
    try:
        decoded = decode_message(data, catalogue_for(message))
    except RemoteProtocolError:
        return
    assert decoded.encode() == data
    for item in dataclasses.fields(decoded):  # type: ignore[arg-type]
        assert getattr(decoded, item.name) is not None or item.name == "fairness"


# --- Catch-up chunking -------------------------------------------------------------------------


def check_chunks(entries: list[bytes], max_size: int, first_seq: int = 10) -> None:
    responses = chunk_catch_up(GAME, first_seq, entries, max_size=max_size)
    assert [entry for response in responses for entry in response.entries] == entries
    assert [response.more for response in responses] == [True] * (len(responses) - 1) + [False]
    seq = first_seq
    for index, response in enumerate(responses):
        assert response.from_seq == seq
        seq += len(response.entries)
        assert len(response.encode()) <= max_size
        assert response.entries or len(responses) == 1
        if index + 1 < len(responses):  # greedy: the next entry would not have fit
            bigger = (
                CatchUpResponse(
                    GAME,
                    response.from_seq,
                    (*response.entries, responses[index + 1].entries[0]),
                    True,
                )
                if len(response.entries) < MAX_CATCH_UP_ENTRIES
                else None
            )
            assert bigger is None or len(bigger.encode()) > max_size


def test_catch_up_chunks_respect_size_and_count() -> None:
    check_chunks([], 100)
    check_chunks([b"x" * 40] * 7, 130)
    check_chunks([b"e"] * 600, codec.MAX_MESSAGE_SIZE)
    check_chunks([b"a" * 300, b"b" * 70_000, b"c"], codec.MAX_MESSAGE_SIZE)
    with pytest.raises(LocalProtocolError):
        chunk_catch_up(GAME, 1, [b"x" * 200], max_size=100)


@settings(derandomize=True, max_examples=150)
@given(st.lists(st.integers(1, 300), max_size=60), st.integers(340, 2000), st.integers(0, 2**40))
def test_catch_up_chunking_property(sizes: list[int], max_size: int, first_seq: int) -> None:
    check_chunks([bytes([i % 256]) * size for i, size in enumerate(sizes)], max_size, first_seq)


# --- Raw bytes against every catalogue -----------------------------------------------------------


@settings(derandomize=True, max_examples=200)
@given(
    st.binary(max_size=300),
    st.sampled_from([HANDSHAKE_MESSAGES, SIGNED_MESSAGES, CHANNEL_MESSAGES]),
)
def test_random_bytes_decode_only_to_protocol_errors(data: bytes, allowed: Catalogue) -> None:
    try:
        message = decode_message(data, allowed)
    except RemoteProtocolError:
        return
    assert message.encode() == data


# ---- the table's clocks ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("fields", "complaint"),
    [
        ((3601, TimeoutPolicy.BOT, 60), "turn_seconds"),
        ((-1, TimeoutPolicy.BOT, 60), "turn_seconds"),
        ((30, TimeoutPolicy.LOSE, 0), "grace_seconds"),
        ((30, 2, 60), "on_timeout"),  # a bare int is not a policy
        ((30.0, TimeoutPolicy.BOT, 60), "turn_seconds"),
    ],
)
def test_a_turn_timer_out_of_bounds_cannot_be_built(fields: tuple[object, ...],
                                                     complaint: str) -> None:
    factory: Any = TurnTimer
    with pytest.raises(LocalProtocolError, match=complaint):
        factory(*fields)


def test_an_unknown_timeout_policy_from_a_peer_is_refused() -> None:
    start = sample_payloads()["start"]
    assert isinstance(start, Start)
    fields = list(codec.decode(start.encode()))
    fields[-1] = (30, 9, 60)  # policy 9 does not exist
    with pytest.raises(RemoteProtocolError, match="unknown TimeoutPolicy 9"):
        decode_message(codec.encode(tuple(fields)), SIGNED_MESSAGES)


def test_the_clocks_travel_in_the_start_and_the_table_info() -> None:
    start = sample_payloads()["start"]
    info = all_samples()["table_info"]
    assert isinstance(start, Start)
    assert isinstance(info, TableInfo)
    decoded = decode_message(start.encode(), SIGNED_MESSAGES)
    assert isinstance(decoded, Start)
    assert decoded.timer == TurnTimer(30, TimeoutPolicy.LOSE, 90)
    assert decoded.timer.describe() == "30 s per move, then the player loses; grace 90 s"
    assert TurnTimer().describe() == "no turn timer; grace 60 s"


@pytest.mark.parametrize("message", ["start", "table_info"])
def test_the_version_1_layouts_without_clocks_are_refused(message: str) -> None:
    sample = every_sample()[message]
    fields = list(codec.decode(sample.encode()))
    old = codec.encode((fields[0], 1, *fields[2:-1]))
    with pytest.raises(RemoteProtocolError) as info:
        decode_message(old, catalogue_for(sample))
    assert info.value.code is ErrorCode.UNSUPPORTED_VERSION


def test_every_presets_rules_fit_a_table_info_with_room_to_grow() -> None:
    """The rules travel whole in TableInfo (docs/protocol.md §14, "Rules bytes"): every preset,
    working or pending, must fit, with room for the knobs still to come."""
    from p2p_durak.engine.presets import PRESETS

    for preset in PRESETS.values():
        rules = preset.rules.canonical()
        assert len(rules) <= MAX_RULES_BYTES // 2, (preset.id, len(rules))
        info = TableInfo(GAME, "t", hashlib.sha256(rules).digest(), rules, 2, (), False)
        assert decode_message(info.encode(), catalogue_for(info)) == info
