"""Canonical msgpack codec: exact bytes, strict refusal, bounded resources."""

from __future__ import annotations

import tracemalloc

import msgpack
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from p2p_durak.protocol import codec
from p2p_durak.protocol.codec import Limits, decode, encode
from p2p_durak.protocol.errors import ErrorCode, LocalProtocolError, RemoteProtocolError

FUZZ = settings(derandomize=True, max_examples=120, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (None, "c0"),
        (False, "c2"),
        (True, "c3"),
        (0, "00"),
        (127, "7f"),
        (128, "cc80"),
        (256, "cd0100"),
        (65536, "ce00010000"),
        (2**32, "cf0000000100000000"),
        (2**64 - 1, "cfffffffffffffffff"),
        (-1, "ff"),
        (-32, "e0"),
        (-33, "d0df"),
        (-129, "d1ff7f"),
        (-(2**31) - 1, "d3ffffffff7fffffff"),
        (-(2**63), "d38000000000000000"),
        ("", "a0"),
        ("ab", "a26162"),
        ("x" * 32, "d920" + "78" * 32),
        (b"", "c400"),
        (b"\x01", "c40101"),
        ((), "90"),
        ((1, (b"", "a")), "920192c400a161"),
        (tuple(range(16)), "dc0010" + "".join(f"{i:02x}" for i in range(16))),
    ],
)
def test_canonical_bytes(value: codec.Value, expected: str) -> None:
    assert encode(value).hex() == expected
    assert decode(bytes.fromhex(expected)) == value


def test_lists_encode_as_arrays() -> None:
    assert encode([1, [2]]) == encode((1, (2,)))


@pytest.mark.parametrize(
    ("hex_bytes", "what"),
    [
        ("cc01", "1 as uint8"),
        ("cd0001", "1 as uint16"),
        ("cc7f", "127 (fixint) as uint8"),
        ("cd00ff", "255 (uint8) as uint16"),
        ("ce0000ffff", "65535 (uint16) as uint32"),
        ("cf00000000ffffffff", "2**32 - 1 (uint32) as uint64"),
        ("d001", "1 in a signed form"),
        ("d10080", "128 (uint8) in a signed form"),
        ("d300000000000000ff", "255 as int64"),
        ("d0ff", "-1 as int8"),
        ("d0e0", "-32 (negative fixint) as int8"),
        ("d1ff80", "-128 (int8) as int16"),
        ("d2ffff8000", "-32768 (int16) as int32"),
        ("d1ff7f00", "trailing byte"),
        ("d3ffffffffffffffff", "-1 as int64"),
        ("d90161", "short string as str8"),
        ("da000161", "short string as str16"),
        ("db0000000161", "short string as str32"),
        ("d91f" + "61" * 31, "31-byte string as str8 (fixstr holds 31)"),
        ("c5000161", "short bin as bin16"),
        ("c600000000", "empty bin as bin32"),
        ("dc000101", "one-element array as array16"),
        ("dd0000000101", "one-element array as array32"),
        ("dc000f" + "00" * 15, "15-element array as array16 (fixarray holds 15)"),
    ],
)
def test_non_canonical_spellings_are_refused(hex_bytes: str, what: str) -> None:
    with pytest.raises(RemoteProtocolError):
        decode(bytes.fromhex(hex_bytes))


@pytest.mark.parametrize(
    ("hex_bytes", "what"),
    [
        ("", "empty"),
        ("cb3ff0000000000000", "float64"),
        ("ca3f800000", "float32"),
        ("80", "empty map"),
        ("81a161a162", "map"),
        ("d4ff00", "fixext1"),
        ("d6ffffffffff", "timestamp ext"),
        ("c7000f", "ext8"),
        ("c1", "never-used byte"),
        ("a3616263ff", "trailing garbage"),
        ("92", "truncated array"),
        ("a2c328", "invalid UTF-8"),
        ("a3eda080", "UTF-8 surrogate"),
        ("dd7fffffff", "array32 header claiming 2**31 items"),
        ("c6ffffffff", "bin32 header claiming 4 GiB"),
        ("dbffffffff", "str32 header claiming 4 GiB"),
    ],
)
def test_off_subset_input_is_refused(hex_bytes: str, what: str) -> None:
    with pytest.raises(RemoteProtocolError):
        decode(bytes.fromhex(hex_bytes))


def test_size_limits() -> None:
    limits = Limits(max_size=100, max_array_len=3, max_str_bytes=4, max_bin_bytes=5)
    assert decode(encode((1, 2, 3)), limits) == (1, 2, 3)
    for too_big in [(1, 2, 3, 4), "abcde", b"abcdef"]:
        with pytest.raises(RemoteProtocolError):
            decode(encode(too_big), limits)
    with pytest.raises(RemoteProtocolError) as info:
        decode(encode(b"x" * 200), limits)
    assert info.value.code is ErrorCode.FRAME_TOO_LARGE


def test_the_default_limits_are_the_specs() -> None:
    """docs/protocol.md §3 and §14: arrays of at most 256 elements, text of at most 1024 bytes,
    a message of at most 1 MiB; one past each bound is refused, from the header."""
    assert decode(encode(tuple(range(256)))) == tuple(range(256))
    assert decode(encode("ж" * 512)) == "ж" * 512
    for too_big in [b"\xdc\x01\x01" + b"\x00" * 257, b"\xda\x04\x01" + b"a" * 1025]:
        with pytest.raises(RemoteProtocolError):
            decode(too_big)
    largest = encode(b"x" * (codec.MAX_FRAME_SIZE - 5))  # bin32 header: 5 bytes
    assert len(largest) == codec.MAX_FRAME_SIZE
    assert decode(largest) == b"x" * (codec.MAX_FRAME_SIZE - 5)
    with pytest.raises(RemoteProtocolError) as info:
        decode(encode(b"x" * (codec.MAX_FRAME_SIZE - 4)))
    assert info.value.code is ErrorCode.FRAME_TOO_LARGE


def nested(depth: int) -> bytes:
    return b"\x91" * depth + b"\x00"


def test_nesting_depth_is_bounded() -> None:
    assert decode(nested(4)) == ((((0,),),),)
    with pytest.raises(RemoteProtocolError):
        decode(nested(5))
    with pytest.raises(RemoteProtocolError):  # msgpack's own stack limit, far beyond ours
        decode(nested(100_000))
    with pytest.raises(LocalProtocolError):
        encode(((((((),),),),),))
    # Limits that admit deeper nesting than the encoder still refuse what it cannot re-encode
    # (the decoder re-packs without the encoder's checks only within the encoder's depth).
    with pytest.raises(RemoteProtocolError):
        decode(nested(5), Limits(max_depth=6))


@pytest.mark.parametrize(
    "value",
    [1.5, {"a": 1}, {1, 2}, 2**64, -(2**63) - 1, "\ud800", object(), bytearray(b"x")],
    # the same ids in every process (pytest-xdist compares them): an object's repr has its address
    ids=lambda value: type(value).__name__ if type(value) is object else repr(value),
)
def test_encoder_refuses_values_outside_the_wire_subset(value: object) -> None:
    with pytest.raises(LocalProtocolError):
        encode(value)


def test_sha256() -> None:
    assert codec.sha256(b"abc").hex().startswith("ba7816bf")


# --- Property tests ----------------------------------------------------------------------------

scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=codec.INT_MIN, max_value=codec.INT_MAX)
    | st.binary(max_size=64)
    | st.text(max_size=32)
)
wire_values = st.recursive(
    scalars, lambda inner: st.lists(inner, max_size=8).map(tuple), max_leaves=40
)


def depth(value: object) -> int:
    if isinstance(value, tuple):
        return 1 + max((depth(item) for item in value), default=0)
    return 0


@pytest.mark.slow
@FUZZ
@given(wire_values)
def test_round_trip(value: codec.Value) -> None:
    if depth(value) > 4:
        with pytest.raises(LocalProtocolError):
            encode(value)
        return
    data = encode(value)
    assert decode(data) == value
    assert encode(decode(data)) == data


def check_strict(data: bytes) -> None:
    """Either a protocol error, or a value whose canonical encoding is exactly `data`."""
    try:
        value = decode(data)
    except RemoteProtocolError:
        return
    assert encode(value) == data


@FUZZ
@given(st.binary(max_size=512))
def test_random_bytes_give_only_protocol_errors(data: bytes) -> None:
    check_strict(data)


@pytest.mark.slow
@FUZZ
@given(wire_values, st.data())
def test_mutated_encodings_give_only_protocol_errors(
    value: codec.Value, data: st.DataObject
) -> None:
    raw = bytearray(msgpack.packb(value, use_bin_type=True))
    for _ in range(data.draw(st.integers(1, 4))):
        position = data.draw(st.integers(0, len(raw)))
        action = data.draw(st.sampled_from(["flip", "insert", "delete"]))
        if action == "flip" and position < len(raw):
            raw[position] ^= data.draw(st.integers(1, 255))
        elif action == "insert":
            raw[position:position] = bytes([data.draw(st.integers(0, 255))])
        elif position < len(raw):
            del raw[position]
    check_strict(bytes(raw))


@pytest.mark.slow
@FUZZ
@given(
    st.recursive(
        scalars | st.floats() | st.dictionaries(st.text(max_size=3), scalars, max_size=3),
        lambda inner: st.lists(inner, max_size=6),
        max_leaves=30,
    )
)
def test_random_msgpack_structures_give_only_protocol_errors(value: object) -> None:
    check_strict(msgpack.packb(value, use_bin_type=True))


def test_hostile_headers_allocate_little() -> None:
    hostile = [
        bytes.fromhex("dd7fffffff") + b"\x00" * 64,  # array32 of 2**31 items
        bytes.fromhex("dcffff") + b"\x91" * 64,  # array16 of 65535 nested arrays
        bytes.fromhex("c6ffffffff") + b"\x00" * 64,  # bin32 of 4 GiB
        bytes.fromhex("dbffffffff") + b"a" * 64,  # str32 of 4 GiB
        bytes.fromhex("df7fffffff") + b"\x00" * 64,  # map32
        b"\x91" * 100_000,
    ]
    tracemalloc.start()
    try:
        for data in hostile:
            with pytest.raises(RemoteProtocolError):
                decode(data)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 512 * 1024


def _deepest_widest(leaf: bytes) -> bytes:
    """The largest message the limits admit made of `leaf`: arrays of 256 arrays of 256 leaves,
    nested to the depth limit, as many as fit in one frame."""

    def array(count: int) -> bytes:
        return bytes([0x90 | count]) if count < 16 else b"\xdc" + count.to_bytes(2, "big")

    inner = array(256) + leaf * 256
    middle = array(256) + inner * 256
    count = (codec.MAX_FRAME_SIZE - 3) // len(middle)
    return array(count) + middle * count


@pytest.mark.slow
@pytest.mark.parametrize("leaf", ["cd1234", "90", "a161"], ids=["uint16", "empty-array", "char"])
def test_a_worst_case_message_allocates_a_bounded_multiple(leaf: str) -> None:
    """docs/protocol.md §15: decoding a legal message made of as many small elements as fit in
    a frame costs a bounded multiple of its size (Python objects per element), under 20x."""
    data = _deepest_widest(bytes.fromhex(leaf))
    assert len(data) > codec.MAX_FRAME_SIZE * 8 // 10
    tracemalloc.start()
    try:
        decode(data)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 20 * len(data)  # measured: 15.4x (uint16), 10.1x (empty arrays), 6.2x (chars)
