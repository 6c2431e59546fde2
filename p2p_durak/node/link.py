"""An open, authenticated, encrypted channel to one peer over a trio byte stream.

The thin I/O adapter around the sans-IO `PeerConnection` (in the manner of h11's trio example and
trio-websocket): the handshake runs under a deadline, one task at a time writes (a
`StrictFIFOLock`), and `receive` returns the peer's next message or None at a clean close. A peer
that sends anything unacceptable raises `PeerFault`, which names the peer and the reason; we tell
the peer why with an `Error` message before hanging up.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass

import trio

from p2p_durak.protocol.channel import (
    AcceptHandshake,
    ChannelOpened,
    HandshakeRequest,
    HandshakeResponse,
    PeerConnection,
    Role,
    StartHandshake,
)
from p2p_durak.protocol.errors import ErrorCode, LocalProtocolError, RemoteProtocolError
from p2p_durak.protocol.framing import ConnectionClosed, NeedData
from p2p_durak.protocol.identity import Identity, PeerId
from p2p_durak.protocol.messages import Error, Message

HANDSHAKE_TIMEOUT = 10.0
RECEIVE_CHUNK = 65536
FRAME_SECONDS = 20.0
"""A frame begun must be complete within this (a mebibyte at half a megabit a second). Without a
bound, one injected frame header would swallow the peer's next frames as its body: the peer would
seem silent until the grace period ended the game."""


class PeerFault(Exception):
    """The peer broke the protocol (or the connection); `peer` names it, `reason` says how."""

    def __init__(self, peer: str, reason: str, code: ErrorCode = ErrorCode.MALFORMED) -> None:
        super().__init__(f"{peer}: {reason}")
        self.peer = peer
        self.reason = reason
        self.code = code


class SilentHangUp(PeerFault):
    """Connected and hung up without sending a byte: a lobby knocking to see that a listed
    table's host is alive (`liveness.py`), not a fault worth a stranger's log line."""

    def __init__(self, peer: str) -> None:
        super().__init__(peer, "hung up without a word (a liveness knock)", ErrorCode.GOING_AWAY)


@dataclass(eq=False)
class Link:
    stream: trio.abc.Stream
    conn: PeerConnection
    peer: PeerId
    label: str

    def __post_init__(self) -> None:
        self._send_lock = trio.StrictFIFOLock()
        self.closed = False
        self._frame_began: float | None = None  # when the incomplete frame buffered began

    async def send(self, message: Message, encoded: bytes | None = None) -> None:
        """Encrypt and write one message (`encoded`: its bytes, if the caller has them). Raises
        `PeerFault` if the connection is gone."""
        await self.send_many([(message, encoded)])

    async def send_many(self, messages: Sequence[tuple[Message, bytes | None]]) -> None:
        """Encrypt several messages (each with its bytes, if the caller has them) and write
        their frames at once. Raises `PeerFault` if the connection is gone."""
        async with self._send_lock:
            if self.closed:
                raise PeerFault(self.label, "connection already closed", ErrorCode.GOING_AWAY)
            frames: list[bytes] = []
            refused: LocalProtocolError | None = None
            for message, encoded in messages:
                try:
                    frames.append(self.conn.send(message, encoded))
                except LocalProtocolError as exc:  # the frames before it are numbered: send them
                    refused = exc
                    break
            try:
                if frames:
                    await self.stream.send_all(b"".join(frames))
            except (trio.BrokenResourceError, trio.ClosedResourceError) as exc:
                self.closed = True
                raise PeerFault(self.label, f"connection lost ({exc!r})",
                                ErrorCode.GOING_AWAY) from exc
            if refused is not None:
                raise refused

    async def receive(self) -> Message | None:
        """The peer's next message; None when the peer closed the connection cleanly."""
        while True:
            try:
                event = self.conn.next_event()
            except RemoteProtocolError as exc:
                await self._refuse(exc.code, exc.reason)
                raise PeerFault(self.label, exc.reason, exc.code) from exc
            if isinstance(event, NeedData):
                await self._fill_frame()
                continue
            self._frame_began = None  # a whole frame came: what is buffered begins the next
            if isinstance(event, ConnectionClosed):
                self.closed = True
                return None
            if isinstance(event, Error):
                self.closed = True
                raise PeerFault(self.label, f"peer closed with {event.code.name}: {event.detail}",
                                event.code)
            if isinstance(event, Message):
                return event
            raise PeerFault(self.label, f"unexpected event {type(event).__name__}")

    async def _fill_frame(self) -> None:
        """Read more; a frame begun `FRAME_SECONDS` ago and still incomplete is a fault."""
        if not self.conn.buffered:
            await self._fill()
            return
        if self._frame_began is None:
            self._frame_began = trio.current_time()
        with trio.move_on_at(self._frame_began + FRAME_SECONDS):
            await self._fill()
            return
        reason = (f"a frame stayed incomplete for {FRAME_SECONDS:g} s "
                  f"({self.conn.buffered} bytes of it arrived)")
        await self._refuse(ErrorCode.TRUNCATED, reason)
        raise PeerFault(self.label, reason, ErrorCode.TRUNCATED)

    async def _fill(self) -> None:
        try:
            data = await self.stream.receive_some(RECEIVE_CHUNK)
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            data = b""
        self.conn.receive_data(bytes(data))

    async def _refuse(self, code: ErrorCode, reason: str) -> None:
        """Best effort: tell the peer why we hang up, then close."""
        if self.closed:  # the peer hung up first (or the line broke): the socket is still ours
            await trio.aclose_forcefully(self.stream)
            return
        self.closed = True
        try:
            with trio.move_on_after(1):
                # Under the send lock: another task may be writing a frame right now (a stream
                # allows one writer at a time; trio raises BusyResourceError otherwise).
                async with self._send_lock:
                    try:
                        data = self.conn.send(Error(code, reason[:200]))
                        await self.stream.send_all(data)
                    except (LocalProtocolError, trio.BrokenResourceError,
                            trio.ClosedResourceError):
                        pass
        finally:  # also when cancelled (a joiner who gives up): never leak the socket
            await trio.aclose_forcefully(self.stream)

    async def close(self, reason: str = "bye") -> None:
        await self._refuse(ErrorCode.GOING_AWAY, reason)


async def _receive_chunk(stream: trio.abc.Stream) -> bytes:
    """What the peer sent next; b"" once it closed or the connection broke."""
    try:
        return bytes(await stream.receive_some(RECEIVE_CHUNK))
    except (trio.BrokenResourceError, trio.ClosedResourceError):
        return b""


async def _pump_handshake(conn: PeerConnection, stream: trio.abc.Stream) -> object:
    while True:
        event = conn.next_event()
        if not isinstance(event, NeedData):
            return event
        conn.receive_data(await _receive_chunk(stream))


def _off_script(conn: PeerConnection, event: object) -> PeerFault:
    """The handshake did not go on as it must: say so naming the peer (as far as it got)."""
    if isinstance(event, ConnectionClosed):
        return PeerFault(conn.peer_name, "hung up during the handshake")
    return PeerFault(conn.peer_name, f"unexpected handshake event {type(event).__name__}")


@contextlib.asynccontextmanager
async def _handshake(stream: trio.abc.Stream, conn: PeerConnection, label: str,
                     seconds: float) -> AsyncIterator[None]:
    """Every way a handshake can fail, as one `PeerFault` naming the peer (with the identity
    it claimed, if it got that far); the stream closed."""
    try:
        with trio.fail_after(seconds):
            yield
    except trio.TooSlowError as exc:
        await trio.aclose_forcefully(stream)
        raise PeerFault(conn.peer_name, f"handshake timed out after {seconds:g} s") from exc
    except RemoteProtocolError as exc:
        with trio.move_on_after(1):  # best effort: tell the peer why, in the clear (§12)
            with contextlib.suppress(LocalProtocolError, trio.BrokenResourceError,
                                     trio.ClosedResourceError):
                await stream.send_all(conn.send(conn.error_for(exc)))
        await trio.aclose_forcefully(stream)
        raise PeerFault(exc.peer or label, exc.reason, exc.code) from exc
    except (trio.BrokenResourceError, trio.ClosedResourceError) as exc:
        await trio.aclose_forcefully(stream)
        raise PeerFault(label, "connection lost during the handshake") from exc


async def open_link(stream: trio.abc.Stream, identity: Identity, *, expected: PeerId | None,
                    label: str, handshake_seconds: float = HANDSHAKE_TIMEOUT,
                    expected_fingerprint: str | None = None) -> Link:
    """Initiator side: run the handshake and return the open link, or raise `PeerFault`.
    `expected_fingerprint`: refuse a peer with another fingerprint (an mDNS advertisement names
    the host by fingerprint only)."""
    conn = PeerConnection(identity, Role.INITIATOR, expected_peer=expected,
                          expected_fingerprint=expected_fingerprint, peer_label=label)
    async with _handshake(stream, conn, label, handshake_seconds):
        await stream.send_all(conn.send(StartHandshake()))
        event = await _pump_handshake(conn, stream)
        if isinstance(event, Error):
            raise PeerFault(label, f"refused: {event.code.name} {event.detail}", event.code)
        if not isinstance(event, HandshakeResponse):
            raise _off_script(conn, event)
        await stream.send_all(conn.send(AcceptHandshake()))
        return Link(stream, conn, event.peer, f"{label} ({event.peer.fingerprint})")
    raise AssertionError("unreachable")  # pragma: no cover (the block returns or raises)


async def accept_link(stream: trio.abc.Stream, identity: Identity, *,
                      admit: Callable[[PeerId], str | None], label: str,
                      handshake_seconds: float = HANDSHAKE_TIMEOUT) -> Link:
    """Responder side. `admit(peer)` returns None to accept, or the reason for refusing."""
    conn = PeerConnection(identity, Role.RESPONDER, peer_label=label)
    async with _handshake(stream, conn, label, handshake_seconds):
        first = await _receive_chunk(stream)
        if not first:
            raise SilentHangUp(label)
        conn.receive_data(first)
        event = await _pump_handshake(conn, stream)
        if not isinstance(event, HandshakeRequest):
            raise _off_script(conn, event)
        refusal = admit(event.claimed_peer)
        if refusal is not None:
            await stream.send_all(conn.send(Error(ErrorCode.REFUSED, refusal[:200])))
            await trio.aclose_forcefully(stream)
            raise PeerFault(label, f"refused: {refusal}", ErrorCode.REFUSED)
        await stream.send_all(conn.send(AcceptHandshake()))
        event = await _pump_handshake(conn, stream)
        if not isinstance(event, ChannelOpened):
            raise _off_script(conn, event)
        return Link(stream, conn, event.peer, f"{label} ({event.peer.fingerprint})")
    raise AssertionError("unreachable")  # pragma: no cover (the block returns or raises)
