"""docs/protocol.md §3 and §7 against the reference decoder: the same bytes, the same verdict.

The clean-room reader (written from the spec) and `p2p_durak.protocol` must accept the same
bytes as the same value or message, and refuse the same bytes with the same `ErrorCode`. Each
crafted case below is a question the spec answers; where the two disagreed the spec was fixed
(the case says which sentence now answers it). Random values, random bytes and one-byte
mutations of the golden vectors then look for disagreements nobody thought to ask about.
"""

from __future__ import annotations

import hashlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from p2p_durak.protocol import codec
from p2p_durak.protocol.channel import CHANNEL_MESSAGES
from p2p_durak.protocol.errors import LocalProtocolError, RemoteProtocolError
from p2p_durak.protocol.framing import ConnectionClosed, Framer
from p2p_durak.protocol.messages import HANDSHAKE_MESSAGES, SIGNED_MESSAGES, decode_message

from .cleanroom_channel import split_frames
from .cleanroom_crypto import public_key
from .cleanroom_msgpack import SpecDecodeError, Value, read, write
from .cleanroom_schema import DIRECT, HANDSHAKE, SIGNED, SpecRefusal, identify, open_envelope
from .vectors import ALICE_SEED, BOB_SEED, GAME_ID, load, names

CATALOGUES = {"handshake": (HANDSHAKE, HANDSHAKE_MESSAGES),
              "direct": (DIRECT, CHANNEL_MESSAGES),  # §7's "direct" catalogue holds Envelope
              "signed": (SIGNED, SIGNED_MESSAGES)}


def spec_verdict(data: bytes, catalogue: str) -> str:
    try:
        message = identify(data, CATALOGUES[catalogue][0])
        if message.name == "Envelope":
            open_envelope(message)  # §8: an envelope is received only once it verifies
        return message.name
    except SpecRefusal as refusal:
        return refusal.code


def code_verdict(data: bytes, catalogue: str) -> str:
    try:
        return type(decode_message(data, CATALOGUES[catalogue][1])).__name__
    except RemoteProtocolError as error:
        return error.code.name


A, B = public_key(ALICE_SEED), public_key(BOB_SEED)
G, H = GAME_ID, bytes(32)
TIMER = (0, 1, 60)
ALICE_INFO, BOB_INFO = (A, "Alice", ""), (B, "Bob", "")
IDENTITY_POINT = (1).to_bytes(32, "little")  # small order (§2 d)
NONCANONICAL_Y = (2**255 - 19 + 1).to_bytes(32, "little")  # §2 a
EMPTY_RULES_HASH = hashlib.sha256(b"").digest()

CASES: dict[str, tuple[str, Value, str]] = {
    # name: (catalogue, message value, the verdict the spec gives)
    "versions descending (§7 cross-field rules)": ("handshake", (1, 1, (2, 1), A, H),
                                                    "MALFORMED"),
    "versions repeated": ("handshake", (1, 1, (1, 1), A, H), "MALFORMED"),
    "no versions": ("handshake", (1, 1, (), A, H), "MALFORMED"),
    "nine versions": ("handshake", (1, 1, tuple(range(1, 10)), A, H), "MALFORMED"),
    "small-order key (§2)": ("handshake", (1, 1, (1,), IDENTITY_POINT, H), "WRONG_IDENTITY"),
    "non-canonical key (§2)": ("handshake", (1, 1, (1,), NONCANONICAL_Y, H), "WRONG_IDENTITY"),
    "small-order PlayerInfo key": ("signed", (21, 2, G, H, (ALICE_INFO, (IDENTITY_POINT, "X", "")),
                                              TIMER), "WRONG_IDENTITY"),
    "unknown tag": ("direct", (99, 1), "UNEXPECTED_MESSAGE"),
    "Envelope at schema version 2 (§7)": ("direct", (5, 2, A, G, b"x", bytes(64)),
                                          "UNSUPPORTED_VERSION"),
    "a signed payload sent directly": ("direct", (16, 1, G, 0, 1, 0, b"a"), "UNEXPECTED_MESSAGE"),
    "a handshake message after the handshake": ("direct", (1, 1, (1,), A, H),
                                                "UNEXPECTED_MESSAGE"),
    "Ping during the handshake": ("handshake", (64, 1, 1), "UNEXPECTED_MESSAGE"),
    "a text tag (§7)": ("direct", ("x", 1), "MALFORMED"),
    "a boolean schema version": ("direct", (64, True, 1), "MALFORMED"),
    "tag alone": ("direct", (64,), "MALFORMED"),
    "not an array": ("direct", None, "MALFORMED"),
    "Start version 1 (§13)": ("signed", (21, 1, G, H, (ALICE_INFO, BOB_INFO)),
                              "UNSUPPORTED_VERSION"),
    "TableInfo version 1 (§13)": ("direct", (48, 1, G, "T", H, b"", 2, (), False),
                                  "UNSUPPORTED_VERSION"),
    "Start with one identity twice": ("signed", (21, 2, G, H, (ALICE_INFO, ALICE_INFO), TIMER),
                                      "MALFORMED"),
    "Start with one player": ("signed", (21, 2, G, H, (ALICE_INFO,), TIMER), "MALFORMED"),
    "TableInfo rules_hash not SHA-256(rules)": ("direct", (48, 2, G, "T", H, b"\x01", 2, (),
                                                           False, TIMER), "MALFORMED"),
    "TableInfo more players than seats": ("direct", (48, 2, G, "T", EMPTY_RULES_HASH, b"", 2,
                                                     (ALICE_INFO, BOB_INFO, (public_key(G + G),
                                                                             "C", "")),
                                                     False, TIMER), "MALFORMED"),
    "TableInfo with one identity twice": ("direct", (48, 2, G, "T", EMPTY_RULES_HASH, b"", 3,
                                                     (ALICE_INFO, ALICE_INFO), False, TIMER),
                                          "MALFORMED"),
    "Entry fairness covering more items than it holds": ("signed", (17, 1, 1, H, 0, (b"x",),
                                                                    (50, 2)), "MALFORMED"),
    "Entry fairness covering fewer items (a chain rule, R5)": ("signed", (17, 1, 1, H, 0,
                                                                          (b"x", b"y"), (50, 1)),
                                                               "Entry"),
    "extra field": ("direct", (64, 1, 1, 2), "MALFORMED"),
    "boolean for an integer": ("direct", (64, 1, True), "MALFORMED"),
    "negative u64": ("direct", (64, 1, -1), "MALFORMED"),
    "unknown ErrorCode": ("direct", (4, 1, 13, ""), "MALFORMED"),
    "newline in a detail (§3 display-safe)": ("direct", (4, 1, 1, "a\nb"), "MALFORMED"),
    "bidi override in a detail": ("direct", (4, 1, 1, "a\u202eb"), "MALFORMED"),
    "DEL (Cc) in a detail": ("direct", (4, 1, 1, "a\x7fb"), "MALFORMED"),
    "NEL (C1) in a detail": ("direct", (4, 1, 1, "a\x85b"), "MALFORMED"),
    "no-break space at the end": ("direct", (4, 1, 1, "ab\u00a0"), "MALFORMED"),
    "ideographic space at the end": ("direct", (4, 1, 1, "a\u3000"), "MALFORMED"),
    "zero-width space (Cf, allowed)": ("direct", (4, 1, 1, "a\u200bb"), "Error"),
    "line separator (Zl, allowed)": ("direct", (4, 1, 1, "a\u2028b"), "Error"),
    "empty detail": ("direct", (4, 1, 1, ""), "Error"),
    "empty name": ("direct", (49, 1, G, 1, H, "", A, 0), "MALFORMED"),
    "65-byte name": ("direct", (49, 1, G, 1, H, "a" * 65, A, 0), "MALFORMED"),
    "64-byte name of 32 Cyrillic letters": ("direct", (49, 1, G, 1, H, "я" * 32, A, 0),
                                            "JoinRequest"),
    "seat 6": ("direct", (50, 1, G, 6), "MALFORMED"),
    "grace of 0 s": ("signed", (21, 2, G, H, (ALICE_INFO, BOB_INFO), (0, 1, 0)), "MALFORMED"),
    "unknown TimeoutPolicy": ("signed", (21, 2, G, H, (ALICE_INFO, BOB_INFO), (0, 3, 60)),
                              "MALFORMED"),
    "257 catch-up items": ("direct", (33, 1, G, 0, (b"x",) * 257, False), "MALFORMED"),
    "33 intents in an entry": ("signed", (17, 1, 1, H, 0, (b"x",) * 33, None), "MALFORMED"),
    "empty deck data": ("signed", (20, 1, 0, b""), "MALFORMED"),
    "deck step beyond u32": ("signed", (20, 1, 2**32, b"x"), "MALFORMED"),
}


@pytest.mark.parametrize("name", list(CASES))
def test_spec_and_code_give_the_same_verdict(name: str) -> None:
    catalogue, value, verdict = CASES[name]
    data = write(value)
    assert (spec_verdict(data, catalogue), code_verdict(data, catalogue)) == (verdict, verdict)


ENCODINGS: dict[str, tuple[bytes, bool]] = {
    # name: (bytes, accepted by §3)
    "uint8 holding a fixint": (b"\xcc\x05", False),
    "uint16 holding a uint8": (b"\xcd\x00\xc8", False),
    "int8 holding a negative fixint": (b"\xd0\xfb", False),
    "int8 holding a non-negative value": (b"\xd0\x05", False),
    "int8 −33": (b"\xd0\xdf", True),
    "int64 minimum": (b"\xd3\x80" + bytes(7), True),
    "uint64 maximum": (b"\xcf" + b"\xff" * 8, True),
    "str8 for one byte": (b"\xd9\x01a", False),
    "bin16 for one byte": (b"\xc5\x00\x01a", False),
    "empty bin8": (b"\xc4\x00", True),
    "array16 of one": (b"\xdc\x00\x01\x01", False),
    "array16 of sixteen": (b"\xdc\x00\x10" + b"\x01" * 16, True),
    "nesting 4": (b"\x91\x91\x91\x91\x01", True),
    "nesting 5": (b"\x91\x91\x91\x91\x91\x01", False),
    "nesting 5 by an empty array": (b"\x91\x91\x91\x91\x90", False),
    "256 elements": (b"\xdc\x01\x00" + b"\x01" * 256, True),
    "257 elements": (b"\xdc\x01\x01" + b"\x01" * 257, False),
    "1024-byte text": (b"\xda\x04\x00" + b"a" * 1024, True),
    "1025-byte text": (b"\xda\x04\x01" + b"a" * 1025, False),
    "c1": (b"\xc1", False), "float32": (b"\xca" + bytes(4), False), "empty map": (b"\x80", False),
    "fixext1": (b"\xd4\x00\x00", False), "timestamp": (b"\xd6\xff" + bytes(4), False),
    "trailing byte": (b"\x01\x02", False), "nothing": (b"", False),
    "invalid UTF-8": (b"\xa1\xff", False), "overlong UTF-8": (b"\xa2\xc0\xaf", False),
    "encoded surrogate": (b"\xa3\xed\xa0\x80", False),
    "array32 header of 2³¹": (b"\xdd\x80\x00\x00\x00", False),
    "bin32 header of 2³¹": (b"\xc6\x80\x00\x00\x00", False),
    "message of 1 MiB + 5": (b"\xc6\x00\x10\x00\x00" + bytes(1 << 20), False),
    "message of exactly 1 MiB": (b"\xc6" + (2**20 - 5).to_bytes(4, "big") + bytes(2**20 - 5),
                                 True),
    "decomposed é (no normalisation)": (b"\xa3e\xcc\x81", True),
}


def code_reads(data: bytes) -> Value | RemoteProtocolError:
    try:
        return codec.decode(data)
    except RemoteProtocolError as error:
        return error


def spec_reads(data: bytes) -> Value | SpecDecodeError:
    try:
        return read(data)
    except SpecDecodeError as error:
        return error


@pytest.mark.parametrize("name", list(ENCODINGS))
def test_the_canonical_subset_is_the_same_for_spec_and_code(name: str) -> None:
    data, accepted = ENCODINGS[name]
    mine, theirs = spec_reads(data), code_reads(data)
    assert isinstance(mine, SpecDecodeError) is (not accepted)
    assert isinstance(theirs, RemoteProtocolError) is (not accepted)
    if accepted:
        assert mine == theirs


leaves = (st.none() | st.booleans() | st.integers(-(2**63), 2**64 - 1)
          | st.text(max_size=40) | st.binary(max_size=300))
values = st.recursive(leaves, lambda inner: st.lists(inner, max_size=20).map(tuple),
                      max_leaves=25)


@settings(max_examples=100, derandomize=True)
@given(values)
def test_random_values_encode_alike_and_read_alike(value: Value) -> None:
    """§3: one spelling per value, so the spec's writer and the code's encoder agree byte for
    byte; both readers then give the value back (or both refuse it for depth)."""
    data = write(value)
    mine = spec_reads(data)
    if isinstance(mine, SpecDecodeError):  # nested too deep: the code will not even encode it
        with pytest.raises(LocalProtocolError):
            codec.encode(value)
        assert isinstance(code_reads(data), RemoteProtocolError)
        return
    assert data == codec.encode(value)
    assert mine == code_reads(data) == value


@settings(max_examples=250, derandomize=True)
@given(st.binary(max_size=64))
def test_random_bytes_get_the_same_verdict(data: bytes) -> None:
    mine, theirs = spec_reads(data), code_reads(data)
    assert isinstance(mine, SpecDecodeError) == isinstance(theirs, RemoteProtocolError)
    if not isinstance(mine, SpecDecodeError):
        assert mine == theirs


VECTORS = [(name, load(name)) for name in names() if not name.startswith("channel_")]


@settings(max_examples=200, derandomize=True)
@given(st.sampled_from(VECTORS), st.integers(min_value=0), st.integers(0, 255))
def test_one_byte_mutations_of_golden_vectors_get_the_same_verdict(
        vector: tuple[str, bytes], where: int, byte: int) -> None:
    name, data = vector
    mutated = bytearray(data)
    mutated[where % len(data)] = byte
    catalogue = "direct" if name != "handshake_init" and not name.startswith("handshake") \
        else "handshake"
    assert spec_verdict(bytes(mutated), catalogue) == code_verdict(bytes(mutated), catalogue)


STREAMS: dict[str, tuple[bytes, str]] = {
    # name: (a whole stream, then its end; the §4 verdict)
    "one frame, then the end": (b"\x00\x00\x00\x01\x01", "closed"),
    "a zero-length frame": (b"\x00\x00\x00\x00", "MALFORMED"),
    "a header announcing 1 MiB + 1": (b"\x00\x10\x00\x01", "FRAME_TOO_LARGE"),
    "the end inside a body": (b"\x00\x00\x00\x05ab", "TRUNCATED"),
    "the end inside a header": (b"\x00\x00\x00\x01\x01\x00\x00", "TRUNCATED"),
}


def code_frames(stream: bytes) -> str:
    framer = Framer()
    framer.receive_data(stream)
    framer.receive_data(b"")  # §4: the end of the stream
    try:
        while not isinstance(framer.next_event(), ConnectionClosed):
            pass
    except RemoteProtocolError as error:
        return error.code.name
    return "closed"


def spec_frames(stream: bytes) -> str:
    try:
        split_frames(stream)
    except SpecRefusal as refusal:
        return refusal.code
    return "closed"


@pytest.mark.parametrize("name", list(STREAMS))
def test_framing_verdicts_are_the_same_for_spec_and_code(name: str) -> None:
    stream, verdict = STREAMS[name]
    assert (spec_frames(stream), code_frames(stream)) == (verdict, verdict)
