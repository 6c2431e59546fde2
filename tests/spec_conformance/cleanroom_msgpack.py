"""A clean-room reader of the canonical msgpack subset, written from docs/protocol.md §3 only.

It deliberately uses neither the msgpack library nor `p2p_durak.protocol.codec`: the point is to
find out whether the spec alone says enough to read and write what the reference node sends.
Values map to Python as: nil → None, booleans → bool, integers → int, text → str, bytes → bytes,
arrays → tuple (so a decoded message is hashable and cannot be confused with a list we build).

The canonical check is done while reading, header by header (each header must be the shortest
spelling of what it announces), and again by re-encoding with `write` and comparing the bytes,
the way §3 suggests.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

Value = None | bool | int | str | bytes | tuple["Value", ...]


class SpecDecodeError(Exception):
    """The bytes break a rule of docs/protocol.md §3 (the spec's `MALFORMED`)."""


@dataclass(frozen=True)
class Bounds:
    """The §3 / §14 bounds: nesting, array length, text length, whole message size."""

    max_depth: int = 4
    max_array: int = 256
    max_text: int = 1024
    max_message: int = 1024 * 1024


WIRE_BOUNDS = Bounds()


def read(data: bytes, bounds: Bounds = WIRE_BOUNDS) -> Value:
    """Decode one whole canonical value; anything off the §3 subset raises SpecDecodeError."""
    if len(data) > bounds.max_message:
        raise SpecDecodeError(f"message of {len(data)} bytes exceeds {bounds.max_message}")
    reader = _Reader(data, bounds)
    value = reader.value(depth=0)
    if reader.pos != len(data):
        raise SpecDecodeError(f"{len(data) - reader.pos} trailing bytes after the value")
    if write(value) != data:  # belt and braces: §3's suggested re-encoding check
        raise SpecDecodeError("not the canonical spelling")
    return value


class _Reader:
    def __init__(self, data: bytes, bounds: Bounds) -> None:
        self.data = data
        self.bounds = bounds
        self.pos = 0

    def take(self, count: int) -> bytes:
        # Checked against what is actually there before slicing: a header announcing 2**31
        # bytes fails here without allocating anything.
        if count > len(self.data) - self.pos:
            raise SpecDecodeError(f"needs {count} bytes at offset {self.pos}, input ends")
        chunk = self.data[self.pos:self.pos + count]
        self.pos += count
        return chunk

    def uint(self, size: int) -> int:
        return int.from_bytes(self.take(size), "big")

    def value(self, depth: int) -> Value:
        head = self.take(1)[0]
        if head <= 0x7F:
            return head
        if head >= 0xE0:
            return head - 0x100
        if 0xA0 <= head <= 0xBF:
            return self.text(head & 0x1F, minimum=0)
        if 0x90 <= head <= 0x9F:
            return self.array(head & 0x0F, depth, minimum=0)
        if head == 0xC0:
            return None
        if head in (0xC2, 0xC3):
            return head == 0xC3
        if head in _UINT_SIZES:
            return self.unsigned(_UINT_SIZES[head])
        if head in _INT_SIZES:
            return self.signed(_INT_SIZES[head])
        if head in _BIN_SIZES:
            size = _BIN_SIZES[head]
            length = self.uint(size)
            if length < _SMALLEST[size]:
                raise SpecDecodeError(f"bin{8 * size} header for {length} bytes is not shortest")
            return self.take(length)
        if head in _STR_SIZES:
            size = _STR_SIZES[head]
            return self.text(self.uint(size), minimum=_STR_SMALLEST[size])
        if head in _ARRAY_SIZES:
            size = _ARRAY_SIZES[head]
            return self.array(self.uint(size), depth, minimum=_ARRAY_SMALLEST[size])
        raise SpecDecodeError(f"byte 0x{head:02x} is outside the canonical subset")

    def unsigned(self, size: int) -> int:
        number = self.uint(size)
        # Shortest form: a uint8 must not hold a positive fixint, a uint16 a uint8 value, ...
        floor = 0x80 if size == 1 else 1 << (8 * size // 2)
        if number < floor:
            raise SpecDecodeError(f"uint{8 * size} holding {number} is not shortest")
        return number

    def signed(self, size: int) -> int:
        number = int.from_bytes(self.take(size), "big", signed=True)
        if number >= 0:
            raise SpecDecodeError(f"int{8 * size} holding non-negative {number}")
        floor = -32 if size == 1 else -(1 << (8 * size // 2 - 1))
        if number >= floor:
            raise SpecDecodeError(f"int{8 * size} holding {number} is not shortest")
        return number

    def text(self, length: int, minimum: int) -> str:
        if length < minimum:
            raise SpecDecodeError(f"str header for {length} bytes is not shortest")
        if length > self.bounds.max_text:
            raise SpecDecodeError(f"text of {length} bytes exceeds {self.bounds.max_text}")
        try:
            return self.take(length).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise SpecDecodeError(f"text is not UTF-8: {exc}") from None

    def array(self, length: int, depth: int, minimum: int) -> tuple[Value, ...]:
        if length < minimum:
            raise SpecDecodeError(f"array header for {length} elements is not shortest")
        if depth + 1 > self.bounds.max_depth:
            raise SpecDecodeError(f"arrays nested deeper than {self.bounds.max_depth}")
        if length > self.bounds.max_array:
            raise SpecDecodeError(f"array of {length} elements exceeds {self.bounds.max_array}")
        return tuple(self.value(depth + 1) for _ in range(length))


_UINT_SIZES = {0xCC: 1, 0xCD: 2, 0xCE: 4, 0xCF: 8}
_INT_SIZES = {0xD0: 1, 0xD1: 2, 0xD2: 4, 0xD3: 8}
_BIN_SIZES = {0xC4: 1, 0xC5: 2, 0xC6: 4}
_STR_SIZES = {0xD9: 1, 0xDA: 2, 0xDB: 4}
_ARRAY_SIZES = {0xDC: 2, 0xDD: 4}
# The least length a header of that many bytes may announce (anything less has a shorter form).
_SMALLEST = {1: 0, 2: 1 << 8, 4: 1 << 16}
_STR_SMALLEST = {1: 32, 2: 1 << 8, 4: 1 << 16}
_ARRAY_SMALLEST = {2: 16, 4: 1 << 16}


def write(value: Value) -> bytes:
    """Encode in the one canonical spelling of §3 (used to build messages and to check reads)."""
    if value is None:
        return b"\xc0"
    if isinstance(value, bool):
        return b"\xc3" if value else b"\xc2"
    if isinstance(value, int):
        return _write_int(value)
    if isinstance(value, str):
        raw = value.encode("utf-8")
        return _header(len(raw), fix=(0xA0, 32), sized=((0xD9, 1), (0xDA, 2), (0xDB, 4))) + raw
    if isinstance(value, bytes):
        return _header(len(value), fix=None, sized=((0xC4, 1), (0xC5, 2), (0xC6, 4))) + value
    if isinstance(value, tuple):
        head = _header(len(value), fix=(0x90, 16), sized=((0xDC, 2), (0xDD, 4)))
        return head + b"".join(write(item) for item in value)
    raise TypeError(f"{type(value).__name__} is not in the canonical subset")


def _write_int(number: int) -> bytes:
    if 0 <= number <= 0x7F or -32 <= number < 0:
        return struct.pack(">b", number) if number < 0 else bytes([number])
    if number > 0:
        for head, size in ((0xCC, 1), (0xCD, 2), (0xCE, 4), (0xCF, 8)):
            if number < 1 << (8 * size):
                return bytes([head]) + number.to_bytes(size, "big")
    else:
        for head, size in ((0xD0, 1), (0xD1, 2), (0xD2, 4), (0xD3, 8)):
            if number >= -(1 << (8 * size - 1)):
                return bytes([head]) + number.to_bytes(size, "big", signed=True)
    raise ValueError(f"integer {number} is outside −2⁶³ … 2⁶⁴ − 1")


def _header(length: int, fix: tuple[int, int] | None,
            sized: tuple[tuple[int, int], ...]) -> bytes:
    if fix is not None and length < fix[1]:
        return bytes([fix[0] | length])
    for head, size in sized:
        if length < 1 << (8 * size):
            return bytes([head]) + length.to_bytes(size, "big")
    raise ValueError(f"length {length} does not fit a header")
