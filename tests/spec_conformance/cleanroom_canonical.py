"""The engine's canonical encoding as docs/protocol.md Appendix B describes it (rules bytes and
the engine's state hash), written from the spec: one type letter, then a length or a value."""

from __future__ import annotations

import struct

from .cleanroom_msgpack import SpecDecodeError

Canonical = None | bool | int | str | bytes | tuple["Canonical", ...]


def encode(value: object) -> bytes:
    if value is None:
        return b"N"
    if value is True:
        return b"T"
    if value is False:
        return b"F"
    if isinstance(value, int):
        digits = str(int(value)).encode("ascii")  # an IntEnum counts as its number
        return b"i" + struct.pack(">I", len(digits)) + digits
    if isinstance(value, str):
        raw = value.encode("utf-8")
        return b"s" + struct.pack(">I", len(raw)) + raw
    if isinstance(value, bytes):
        return b"b" + struct.pack(">I", len(value)) + value
    if isinstance(value, (tuple, list)):  # a record (NamedTuple) is the tuple of its fields
        return b"l" + struct.pack(">I", len(value)) + b"".join(encode(v) for v in value)
    raise TypeError(f"{type(value).__name__} has no canonical encoding")


def decode(data: bytes) -> Canonical:
    value, end = _at(data, 0)
    if end != len(data):
        raise SpecDecodeError("trailing bytes")
    if encode(value) != data:  # e.g. "i" with a leading zero or "+": not the one spelling
        raise SpecDecodeError("not canonical")
    return value


def _at(data: bytes, pos: int) -> tuple[Canonical, int]:
    tag = data[pos:pos + 1]
    simple = {b"N": None, b"T": True, b"F": False}
    if tag in simple:
        return simple[tag], pos + 1
    if tag not in (b"i", b"s", b"b", b"l") or pos + 5 > len(data):
        raise SpecDecodeError(f"bad tag {tag!r} at {pos}")
    (size,) = struct.unpack_from(">I", data, pos + 1)
    pos += 5
    if tag == b"l":
        items = []
        for _ in range(size):
            item, pos = _at(data, pos)
            items.append(item)
        return tuple(items), pos
    body = data[pos:pos + size]
    if len(body) != size:
        raise SpecDecodeError("truncated")
    if tag == b"i":
        return int(body.decode("ascii")), pos + size
    if tag == b"s":
        return body.decode("utf-8"), pos + size
    return body, pos + size
