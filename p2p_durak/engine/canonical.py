"""A tiny canonical encoding for hashing engine values.

Nodes must derive identical bytes for the rule set and the public state on every machine and
Python version, so only exact types are accepted: None, bool, int, str, bytes and tuples or
lists of them. Dicts, sets and floats are refused because their order or value is not exact.
The encoding is self-delimiting: a type tag, then a length or value.
"""

from __future__ import annotations

import struct

_U32 = struct.Struct(">I")


def encode(value: object) -> bytes:
    out = bytearray()
    _encode_into(value, out)
    return bytes(out)


def _encode_into(value: object, out: bytearray) -> None:
    if value is None:
        out += b"N"
    elif value is True:
        out += b"T"
    elif value is False:
        out += b"F"
    elif isinstance(value, int):
        digits = str(int(value)).encode("ascii")
        out += b"i" + _U32.pack(len(digits)) + digits
    elif isinstance(value, str):
        data = value.encode("utf-8")
        out += b"s" + _U32.pack(len(data)) + data
    elif isinstance(value, bytes):
        out += b"b" + _U32.pack(len(value)) + value
    elif isinstance(value, (tuple, list)):
        out += b"l" + _U32.pack(len(value))
        for item in value:
            _encode_into(item, out)
    else:
        raise TypeError(f"cannot encode {type(value).__name__} canonically")


def decode(data: bytes) -> object:
    """The value `encode` produced (tuples for arrays); ValueError for anything else."""
    value, end = _decode_at(data, 0, 0)
    if end != len(data):
        raise ValueError("trailing bytes after a canonical value")
    return value


_MAX_DEPTH = 16


def _decode_at(data: bytes, pos: int, depth: int) -> tuple[object, int]:
    if depth > _MAX_DEPTH or pos >= len(data):
        raise ValueError("canonical value truncated or nested too deep")
    tag = data[pos:pos + 1]
    pos += 1
    if tag == b"N":
        return None, pos
    if tag == b"T":
        return True, pos
    if tag == b"F":
        return False, pos
    if tag not in (b"i", b"s", b"b", b"l"):
        raise ValueError(f"unknown canonical tag {tag!r}")
    if pos + 4 > len(data):
        raise ValueError("canonical length truncated")
    (size,) = _U32.unpack_from(data, pos)
    pos += 4
    if tag == b"l":
        items = []
        for _ in range(size):
            item, pos = _decode_at(data, pos, depth + 1)
            items.append(item)
        return tuple(items), pos
    body = data[pos:pos + size]
    if len(body) != size:
        raise ValueError("canonical value truncated")
    pos += size
    if tag == b"b":
        return bytes(body), pos
    text = body.decode("utf-8")
    if tag == b"s":
        return text, pos
    if not text or text != str(int(text)):
        raise ValueError("not a canonical integer")
    return int(text), pos
