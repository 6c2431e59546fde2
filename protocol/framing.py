"""Length-prefixed frames over a byte stream, sans-IO.

A frame is a 4-byte big-endian length L (1 <= L <= max_frame_size) followed by L bytes. The length
header comes first so an oversize frame is refused from its header alone, before a single body
byte is buffered. Frame bodies are opaque here: plaintext handshake messages or ciphertext.

Usage, in the h11 style::

    framer.receive_data(chunk)        # b"" means the peer closed its side
    while isinstance(event := framer.next_event(), Frame):
        handle(event.body)
    # event is NEED_DATA or ConnectionClosed
    wire_bytes = framer.send(body)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, final

from p2p_durak.protocol.codec import MAX_FRAME_SIZE
from p2p_durak.protocol.errors import ErrorCode, LocalProtocolError, RemoteProtocolError

HEADER_SIZE: Final = 4


@final
class NeedData:
    """Sentinel type: no complete event yet; feed more bytes with `receive_data`."""

    _instance: NeedData | None = None

    def __new__(cls) -> NeedData:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "NEED_DATA"


NEED_DATA: Final = NeedData()


@dataclass(frozen=True, slots=True)
class Frame:
    """One complete frame body."""

    body: bytes


@dataclass(frozen=True, slots=True)
class ConnectionClosed:
    """The peer ended the stream at a frame boundary."""


class Framer:
    """Splits a byte stream into frames and wraps outgoing bodies in frame headers."""

    def __init__(self, *, max_frame_size: int = MAX_FRAME_SIZE) -> None:
        if not 1 <= max_frame_size < 1 << 32:
            raise LocalProtocolError(f"max_frame_size {max_frame_size} out of range")
        self.max_frame_size = max_frame_size
        self._buffer = bytearray()
        self._start = 0  # consumed prefix of _buffer, compacted lazily
        self._eof = False
        self._failed: RemoteProtocolError | None = None

    @property
    def buffered(self) -> int:
        """Bytes received and not yet returned as frames."""
        return len(self._buffer) - self._start

    def receive_data(self, data: bytes) -> None:
        """Buffer bytes from the peer; `b""` signals end of stream (repeating it is harmless).
        After the stream failed (`next_event` raised) further bytes are dropped unread: a peer
        that keeps sending after its fault cannot make us hold on to anything."""
        if not data:
            self._eof = True
        elif self._eof:
            raise LocalProtocolError("received data after end of stream")
        elif self._failed is None:
            self._buffer += data

    def next_event(self) -> Frame | NeedData | ConnectionClosed:
        """The next complete frame, `NEED_DATA`, or `ConnectionClosed` at a clean end of stream."""
        if self._failed is not None:
            raise self._failed
        available = self.buffered
        if available >= HEADER_SIZE:
            header = self._buffer[self._start : self._start + HEADER_SIZE]
            length = int.from_bytes(header, "big")
            if length == 0:
                raise self._fail(RemoteProtocolError("zero-length frame"))
            if length > self.max_frame_size:
                raise self._fail(
                    RemoteProtocolError(
                        f"frame of {length} bytes exceeds {self.max_frame_size}",
                        code=ErrorCode.FRAME_TOO_LARGE,
                    )
                )
            if available >= HEADER_SIZE + length:
                body_start = self._start + HEADER_SIZE
                body = bytes(self._buffer[body_start : body_start + length])
                self._consume(HEADER_SIZE + length)
                return Frame(body)
        if not self._eof:
            return NEED_DATA
        if available:
            raise self._fail(
                RemoteProtocolError(
                    f"stream ended inside a frame ({available} bytes pending)",
                    code=ErrorCode.TRUNCATED,
                )
            )
        return ConnectionClosed()

    def send(self, body: bytes) -> bytes:
        """`body` with its frame header, ready to write to the stream."""
        if not body:
            raise LocalProtocolError("cannot send an empty frame")
        if len(body) > self.max_frame_size:
            raise LocalProtocolError(
                f"frame of {len(body)} bytes exceeds {self.max_frame_size}",
                code=ErrorCode.FRAME_TOO_LARGE,
            )
        return len(body).to_bytes(HEADER_SIZE, "big") + body

    def _consume(self, count: int) -> None:
        self._start += count
        # Compact once the consumed prefix dominates, so the buffer never holds more than
        # about twice the unread bytes and the copying stays amortised O(1) per byte.
        if self._start > len(self._buffer) // 2:
            del self._buffer[: self._start]
            self._start = 0

    def _fail(self, error: RemoteProtocolError) -> RemoteProtocolError:
        self._failed = error
        self._buffer.clear()
        self._start = 0
        return error
