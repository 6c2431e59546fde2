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
