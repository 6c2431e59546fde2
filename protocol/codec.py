"""Canonical msgpack: one byte string per value, and a decoder that accepts only that string.

The bytes produced here are what gets signed, hashed and carried, so two nodes that build the same
value must produce the same bytes, and a decoder must not accept a second spelling of a value (a
second spelling would give one message two hashes). The subset of msgpack used on the wire:

* nil, false, true;
* integers in [-2**63, 2**64 - 1], always in the shortest msgpack form;
* str (UTF-8) and bin, kept distinct, with the shortest length header;
* arrays, with the shortest length header.

Maps, floats and extension types are refused: maps because msgpack keeps insertion order (so equal
maps can encode differently), floats because they have several encodings and no business in game
state, extension types because nothing here needs them.

The decoder is strict and bounded: size, array length, string length and nesting depth are capped
before anything is allocated; any violation is a `RemoteProtocolError`. Canonical form is checked
by re-encoding the decoded value and comparing bytes, which is exact because the encoder is
deterministic and the shortest-form rule is the encoder's own behaviour.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Final, TypeAlias

import msgpack

from p2p_durak.protocol.errors import ErrorCode, LocalProtocolError, RemoteProtocolError

Value: TypeAlias = "bool | int | bytes | str | tuple[Value, ...] | None"
"""A decoded wire value. Arrays decode to tuples; encoding also accepts lists."""

MAX_FRAME_SIZE: Final = 1 << 20
"""Largest frame body in bytes (1 MiB); also the largest encoded message."""

AEAD_TAG_SIZE: Final = 16
MAX_MESSAGE_SIZE: Final = MAX_FRAME_SIZE - AEAD_TAG_SIZE
"""Largest encoded message that fits in one encrypted frame."""

INT_MIN: Final = -(1 << 63)
INT_MAX: Final = (1 << 64) - 1


@dataclass(frozen=True, slots=True)
class Limits:
    """Bounds applied by `decode` before the input is trusted with any allocation."""

    max_size: int = MAX_FRAME_SIZE
    max_depth: int = 4
    max_array_len: int = 256
    max_str_bytes: int = 1024
    max_bin_bytes: int = MAX_FRAME_SIZE


DEFAULT_LIMITS: Final = Limits()


def encode(value: object) -> bytes:
    """The canonical encoding of `value`; `LocalProtocolError` if it is outside the wire subset."""
    _check_encodable(value, depth=1)
    try:
        return bytes(msgpack.packb(value, use_bin_type=True, strict_types=False))
    except (ValueError, OverflowError, TypeError) as exc:  # pragma: no cover - pre-checked above
        raise LocalProtocolError(f"cannot encode value: {exc}") from exc


def decode(data: bytes, limits: Limits = DEFAULT_LIMITS) -> Value:
    """Decode one canonical value that spans all of `data`, or raise `RemoteProtocolError`."""
    if len(data) > limits.max_size:
        raise RemoteProtocolError(
            f"message of {len(data)} bytes exceeds {limits.max_size}",
            code=ErrorCode.FRAME_TOO_LARGE,
        )
    if not data:
        raise RemoteProtocolError("empty message")
    try:
        value = msgpack.unpackb(
            data,
            raw=False,
            use_list=False,
            strict_map_key=True,
            max_str_len=limits.max_str_bytes,
            max_bin_len=limits.max_bin_bytes,
            max_array_len=limits.max_array_len,
            max_map_len=0,
            max_ext_len=0,
        )
    except (ValueError, msgpack.UnpackException) as exc:  # includes UnicodeDecodeError
        raise RemoteProtocolError(f"undecodable msgpack: {type(exc).__name__}: {exc}") from exc
    _check_decoded(value, depth=1, limits=limits)
    if limits.max_depth <= DEFAULT_LIMITS.max_depth:
        # `_check_decoded` admitted only wire types nested no deeper than the encoder allows,
        # and msgpack yields only 64-bit integers and valid UTF-8: re-pack without the
        # encoder's second walk over the value (it found nothing here, on every message).
        canonical = bytes(msgpack.packb(value, use_bin_type=True, strict_types=False))
    else:
        try:
            canonical = encode(value)
        except LocalProtocolError as exc:  # deeper than the encoder allows
            raise exc.to_remote() from exc
    if canonical != data:
        raise RemoteProtocolError("non-canonical msgpack encoding")
    return value  # type: ignore[no-any-return]


def sha256(data: bytes) -> bytes:
    """The 32-byte SHA-256 digest used for every hash on the wire."""
    return hashlib.sha256(data).digest()


def _check_encodable(value: object, depth: int) -> None:
    if value is None or type(value) in (bool, bytes):
        return
    if type(value) is int:
        if not INT_MIN <= value <= INT_MAX:
            raise LocalProtocolError(f"integer {value} is outside the 64-bit wire range")
        return
    if type(value) is str:
        try:
            value.encode("utf-8")
        except UnicodeEncodeError as exc:
            raise LocalProtocolError("string is not encodable as UTF-8") from exc
        return
    if type(value) in (tuple, list):
        assert isinstance(value, tuple | list)
        if depth > DEFAULT_LIMITS.max_depth:
            raise LocalProtocolError(f"arrays nested deeper than {DEFAULT_LIMITS.max_depth}")
        for item in value:
            _check_encodable(item, depth + 1)
        return
    raise LocalProtocolError(f"type {type(value).__name__} is not part of the wire format")


def _check_decoded(value: object, depth: int, limits: Limits) -> None:
    # Exact types: msgpack's ExtType is a namedtuple, and must not pass for an array.
    if type(value) is tuple:
        if depth > limits.max_depth:
            raise RemoteProtocolError(f"arrays nested deeper than {limits.max_depth}")
        for item in value:
            _check_decoded(item, depth + 1, limits)
        return
    if value is None or type(value) in (bool, int, bytes, str):
        return
    # float, dict (an empty map gets past max_map_len=0), ext objects such as Timestamp.
    raise RemoteProtocolError(f"msgpack type {type(value).__name__} is not part of the wire format")
