"""An encrypted, mutually authenticated channel to one peer, sans-IO.

Rules for this file:

1. Everything that changes the connection state lives in the two tables below
   (`SEND_TRANSITIONS`, `RECEIVE_TRANSITIONS`); code only looks transitions up.
2. Sending something the table does not allow raises `LocalProtocolError` and changes nothing.
   Receiving something it does not allow, or anything malformed, forged, replayed or out of order,
   raises `RemoteProtocolError` naming the peer and moves the connection to `ERROR` for good.
3. No I/O: `receive_data(bytes)` buffers, `next_event()` returns one event (or `NEED_DATA`),
   `send(event) -> bytes` returns what to write.

Handshake (SIGMA-style, identities in the clear; see docs/protocol.md § Handshake)::

    initiator                                   responder
    send(StartHandshake())  --HandshakeInit-->  next_event() -> HandshakeRequest(claimed_peer)
    next_event() -> HandshakeResponse(peer) <--HandshakeReply--  send(AcceptHandshake())
    send(AcceptHandshake()) --HandshakeFinish-> next_event() -> ChannelOpened(peer)
    ... OPEN: send(message) / next_event() -> message, both ways, encrypted ...

Either side may answer a handshake event with ``send(Error(code, detail))`` instead, which refuses
the peer and closes the connection.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum, auto
from typing import Final, TypeAlias

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from p2p_durak.protocol.codec import AEAD_TAG_SIZE, MAX_FRAME_SIZE, sha256
from p2p_durak.protocol.envelope import Envelope
from p2p_durak.protocol.errors import (
    ErrorCode,
    LocalProtocolError,
    ProtocolError,
    RemoteProtocolError,
)
from p2p_durak.protocol.framing import NEED_DATA, ConnectionClosed, Frame, Framer, NeedData
from p2p_durak.protocol.identity import (
    HANDSHAKE_INITIATOR_CONTEXT,
    HANDSHAKE_RESPONDER_CONTEXT,
    Identity,
    PeerId,
)
from p2p_durak.protocol.messages import (
    DIRECT_MESSAGES,
    HANDSHAKE_MESSAGES,
    MAX_DETAIL_BYTES,
    SUPPORTED_VERSIONS,
    Error,
    HandshakeFinish,
    HandshakeInit,
    HandshakeReply,
    JoinRequest,
    Message,
    catalogue,
    decode_message,
)

NONCE_LIMIT: Final = 1 << 64
"""Frames per direction before the 64-bit counter would wrap; the channel refuses to go on."""
HANDSHAKE_MAX_FRAME: Final = 1024
"""The largest frame before the channel opens. Handshake messages and a plaintext `Error` take
under 300 bytes; a stranger that has proven nothing yet must not make us buffer a megabyte."""
KEY_SCHEDULE_INFO: Final = b"p2p-durak/1 channel keys"

CHANNEL_MESSAGES: Final = {**DIRECT_MESSAGES, **catalogue(Envelope)}
"""What may arrive in an encrypted frame."""


class Role(Enum):
    INITIATOR = auto()
    RESPONDER = auto()


class ChannelState(Enum):
    CONNECTING = auto()
    """Initiator, nothing sent yet."""
    AWAIT_REPLY = auto()
    """Initiator sent HandshakeInit."""
    REPLY_RECEIVED = auto()
    """Initiator verified HandshakeReply; the caller must accept or refuse."""
    AWAIT_INIT = auto()
    """Responder, nothing received yet."""
    INIT_RECEIVED = auto()
    """Responder got HandshakeInit; the caller must accept or refuse."""
    AWAIT_FINISH = auto()
    """Responder sent HandshakeReply."""
    OPEN = auto()
    CLOSED = auto()
    ERROR = auto()


# --- Events the caller sends ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class StartHandshake:
    """Initiator: produce HandshakeInit."""


@dataclass(frozen=True, slots=True)
class AcceptHandshake:
    """Accept the peer named by the last handshake event (HandshakeRequest or HandshakeResponse)."""


# --- Events the caller receives ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class HandshakeRequest:
    """Responder: someone claiming `claimed_peer` wants a channel. The claim is proven only by
    `ChannelOpened`; accept with `AcceptHandshake()` or refuse with an `Error`."""

    claimed_peer: PeerId
    version: int


@dataclass(frozen=True, slots=True)
class HandshakeResponse:
    """Initiator: `peer` proved its identity; confirm with `AcceptHandshake()` to open."""

    peer: PeerId
    version: int


@dataclass(frozen=True, slots=True)
class ChannelOpened:
    """Responder: `peer` proved its identity; the channel is open."""

    peer: PeerId
    version: int
    session_id: bytes


SendEvent: TypeAlias = StartHandshake | AcceptHandshake | Message
Event: TypeAlias = (
    Message | HandshakeRequest | HandshakeResponse | ChannelOpened | ConnectionClosed | NeedData
)

_S = ChannelState

_PLAINTEXT_STATES: Final = frozenset(
    {
        _S.CONNECTING,
        _S.AWAIT_REPLY,
        _S.REPLY_RECEIVED,
        _S.AWAIT_INIT,
        _S.INIT_RECEIVED,
        _S.AWAIT_FINISH,
    }
)
"""States in which frames are plaintext handshake messages."""

SEND_TRANSITIONS: Final[dict[tuple[ChannelState, type[object]], ChannelState]] = {
    (_S.CONNECTING, StartHandshake): _S.AWAIT_REPLY,
    (_S.INIT_RECEIVED, AcceptHandshake): _S.AWAIT_FINISH,
    (_S.REPLY_RECEIVED, AcceptHandshake): _S.OPEN,
    (_S.OPEN, Message): _S.OPEN,
    # An Error refuses or closes from any live state; after a peer fault it is the last word.
    **{(state, Error): _S.CLOSED for state in _PLAINTEXT_STATES | {_S.OPEN}},
    (_S.ERROR, Error): _S.ERROR,
}

RECEIVE_TRANSITIONS: Final[dict[tuple[ChannelState, type[object]], ChannelState]] = {
    (_S.AWAIT_INIT, HandshakeInit): _S.INIT_RECEIVED,
    (_S.AWAIT_REPLY, HandshakeReply): _S.REPLY_RECEIVED,
    (_S.AWAIT_REPLY, Error): _S.CLOSED,
    (_S.AWAIT_FINISH, HandshakeFinish): _S.OPEN,
    (_S.AWAIT_FINISH, Error): _S.CLOSED,
    (_S.OPEN, Message): _S.OPEN,
    (_S.OPEN, Error): _S.CLOSED,
}


def _transition(
    table: dict[tuple[ChannelState, type[object]], ChannelState],
    state: ChannelState,
    kind: type[object],
) -> ChannelState | None:
    """Exact type first, then the `Message` wildcard."""
    target = table.get((state, kind))
    if target is None and issubclass(kind, Message) and kind is not Error:
        target = table.get((state, Message))
    return target


@dataclass(slots=True)
class _Direction:
    """One direction of the encrypted channel: its key and frame counter (the implicit nonce)."""

    aead: ChaCha20Poly1305
    counter: int = 0

    def nonce(self) -> bytes:
        return b"\x00\x00\x00\x00" + self.counter.to_bytes(8, "little")


class PeerConnection:
    """One peer-to-peer channel: handshake, then encrypted frames carrying messages."""

    def __init__(
        self,
        identity: Identity,
        role: Role,
        *,
        expected_peer: PeerId | None = None,
        expected_fingerprint: str | None = None,
        peer_label: str | None = None,
        versions: tuple[int, ...] = SUPPORTED_VERSIONS,
        max_frame_size: int = MAX_FRAME_SIZE,
        ephemeral_key: X25519PrivateKey | None = None,
        nonce_limit: int = NONCE_LIMIT,
    ) -> None:
        """`expected_peer`: refuse any other identity. `expected_fingerprint`: refuse any
        identity with another fingerprint (what an mDNS advertisement names, docs/protocol.md
        §5). `peer_label`: how to name the peer in
        errors before its identity is known (for example its address). `ephemeral_key` and
        `nonce_limit` exist for deterministic test vectors and tests; leave them alone."""
        if not versions or list(versions) != sorted(set(versions)):
            raise LocalProtocolError("versions must be non-empty and strictly ascending")
        if not 1 <= nonce_limit <= NONCE_LIMIT:
            raise LocalProtocolError("nonce_limit out of range")
        self.identity = identity
        self.role = role
        self.expected_peer = expected_peer
        self.expected_fingerprint = expected_fingerprint
        self.peer_label = peer_label
        self.versions = versions
        self.state = _S.CONNECTING if role is Role.INITIATOR else _S.AWAIT_INIT
        self.peer: PeerId | None = None
        """The proven peer identity (set once its handshake signature verified)."""
        self.version: int | None = None
        self.session_id: bytes | None = None
        """32 bytes both ends derive; differs for every connection (usable as a channel binding)."""
        self._framer = Framer(max_frame_size=min(max_frame_size, HANDSHAKE_MAX_FRAME))
        self._max_frame_size = max_frame_size  # once the channel is open
        self._max_plaintext = max_frame_size - AEAD_TAG_SIZE
        self._ephemeral: X25519PrivateKey | None = ephemeral_key or X25519PrivateKey.generate()
        self._nonce_limit = nonce_limit
        self._claimed_peer: PeerId | None = None
        self._shared_secret: bytes | None = None
        self._init_bytes = b""
        self._reply_bytes = b""
        self._send: _Direction | None = None
        self._receive: _Direction | None = None
        self._error: RemoteProtocolError | None = None

    # --- sans-IO verbs -------------------------------------------------------------------------

    def receive_data(self, data: bytes) -> None:
        """Buffer bytes from the peer; `b""` means the peer closed its side. After a peer
        fault the bytes are dropped unread (the connection is over; nothing will read them)."""
        if self._error is None:
            self._framer.receive_data(data)

    def next_event(self) -> Event:
        """The next event, or `NEED_DATA`. Raises `RemoteProtocolError` for any peer fault."""
        if self._error is not None:
            raise self._error
        if self.state is _S.CLOSED:
            return ConnectionClosed()
        try:
            frame = self._framer.next_event()
            if isinstance(frame, NeedData):
                return NEED_DATA
            if isinstance(frame, ConnectionClosed):
                self.state = _S.CLOSED
                return frame
            return self._handle_frame(frame)
        except RemoteProtocolError as exc:
            self.state = _S.ERROR
            self._error = exc.with_peer(self.peer_name)
            raise self._error from exc

    def send(self, event: SendEvent, encoded: bytes | None = None) -> bytes:
        """Bytes to write for `event`; `LocalProtocolError` if it is not allowed now.

        `encoded`: the message's canonical bytes (``event.encode()``), when the caller has them
        already: a message sent to several peers is encoded once and encrypted per peer."""
        target = _transition(SEND_TRANSITIONS, self.state, type(event))
        if target is None:
            raise LocalProtocolError(
                f"cannot send {type(event).__name__} in state {self.state.name}",
                code=ErrorCode.UNEXPECTED_MESSAGE,
            )
        if isinstance(event, StartHandshake):
            data = self._send_init()
        elif isinstance(event, AcceptHandshake):
            data = self._send_reply() if self.role is Role.RESPONDER else self._send_finish()
        else:
            data = self._send_message(event, event.encode() if encoded is None else encoded)
        self.state = target
        return data

    # --- conveniences --------------------------------------------------------------------------

    @property
    def buffered(self) -> int:
        """Bytes received and not yet returned as events. Non-zero while `next_event` says
        `NEED_DATA`: a frame has begun and not arrived whole (an I/O layer may bound how long
        it waits for the rest)."""
        return self._framer.buffered

    @property
    def peer_name(self) -> str:
        """How errors name the peer: proven fingerprint, else claimed one, else the label."""
        label = self.peer_label or "unidentified peer"
        if self.peer is not None:
            return self.peer.fingerprint if self.peer_label is None else f"{label} ({self.peer})"
        if self._claimed_peer is not None:
            return f"{label} claiming {self._claimed_peer}"
        return label

    def error_for(self, error: ProtocolError) -> Error:
        """The `Error` message telling the peer about `error` (send it, then close)."""
        detail = error.reason.encode("utf-8")[:MAX_DETAIL_BYTES].decode("utf-8", "ignore")
        detail = "".join(ch if ch.isprintable() else "?" for ch in detail).strip()
        return Error(error.code, detail)

    # --- sending -------------------------------------------------------------------------------

    def _send_init(self) -> bytes:
        assert self._ephemeral is not None
        init = HandshakeInit(self.versions, self.identity.peer_id, _public_bytes(self._ephemeral))
        self._init_bytes = init.encode()
        return self._framer.send(self._init_bytes)

    def _send_reply(self) -> bytes:
        assert self.version is not None
        assert self._ephemeral is not None
        ephemeral = _public_bytes(self._ephemeral)
        signature = self.identity.sign(
            HANDSHAKE_RESPONDER_CONTEXT,
            _responder_transcript(
                self._init_bytes, self.version, self.identity.peer_id.key, ephemeral
            ),
        )
        reply = HandshakeReply(self.version, self.identity.peer_id, ephemeral, signature)
        self._reply_bytes = reply.encode()
        return self._framer.send(self._reply_bytes)

    def _send_finish(self) -> bytes:
        signature = self.identity.sign(
            HANDSHAKE_INITIATOR_CONTEXT,
            _initiator_transcript(self._init_bytes, self._reply_bytes),
        )
        data = self._framer.send(HandshakeFinish(signature).encode())
        self._derive_keys()
        return data

    def _send_message(self, message: Message, plaintext: bytes) -> bytes:
        if self._send is None:  # handshake states: only an Error goes out, in the clear
            return self._framer.send(plaintext)
        if len(plaintext) > self._max_plaintext:
            raise LocalProtocolError(
                f"{type(message).__name__} of {len(plaintext)} bytes does not fit in a frame",
                code=ErrorCode.FRAME_TOO_LARGE,
            )
        if self._send.counter >= self._nonce_limit:
            raise LocalProtocolError(
                "frame counter exhausted; open a new channel", code=ErrorCode.NONCE_EXHAUSTED
            )
        ciphertext = self._send.aead.encrypt(self._send.nonce(), plaintext, None)
        self._send.counter += 1
        return self._framer.send(ciphertext)

    # --- receiving -----------------------------------------------------------------------------

    def _handle_frame(self, frame: Frame) -> Event:
        if self.state in _PLAINTEXT_STATES:
            message = decode_message(frame.body, HANDSHAKE_MESSAGES)
        elif self.state is _S.OPEN:
            message = decode_message(self._decrypt(frame.body), CHANNEL_MESSAGES)
        else:
            raise RemoteProtocolError(
                f"data after the connection ended (state {self.state.name})",
                code=ErrorCode.UNEXPECTED_MESSAGE,
            )
        target = _transition(RECEIVE_TRANSITIONS, self.state, type(message))
        if target is None:
            raise RemoteProtocolError(
                f"{type(message).__name__} is not allowed in state {self.state.name}",
                code=ErrorCode.UNEXPECTED_MESSAGE,
            )
        event: Event
        if isinstance(message, HandshakeInit):
            event = self._receive_init(frame.body, message)
        elif isinstance(message, HandshakeReply):
            event = self._receive_reply(frame.body, message)
        elif isinstance(message, HandshakeFinish):
            event = self._receive_finish(message)
        else:
            self._check_message(message)
            event = message
        self.state = target
        return event

    def _receive_init(self, data: bytes, init: HandshakeInit) -> HandshakeRequest:
        self._claimed_peer = init.identity
        self._check_identity(init.identity)
        common = set(init.versions) & set(self.versions)
        if not common:
            raise RemoteProtocolError(
                f"no common protocol version (peer offers {list(init.versions)}, "
                f"we speak {list(self.versions)})",
                code=ErrorCode.UNSUPPORTED_VERSION,
            )
        assert self._ephemeral is not None
        self._shared_secret = _exchange(self._ephemeral, init.ephemeral)
        self._init_bytes = data
        self.version = max(common)
        return HandshakeRequest(init.identity, self.version)

    def _receive_reply(self, data: bytes, reply: HandshakeReply) -> HandshakeResponse:
        self._claimed_peer = reply.identity
        self._check_identity(reply.identity)
        if reply.version not in self.versions:
            raise RemoteProtocolError(
                f"peer chose version {reply.version}, which we did not offer",
                code=ErrorCode.UNSUPPORTED_VERSION,
            )
        transcript = _responder_transcript(
            self._init_bytes, reply.version, reply.identity.key, reply.ephemeral
        )
        if not reply.identity.verify(HANDSHAKE_RESPONDER_CONTEXT, transcript, reply.signature):
            raise RemoteProtocolError(
                "handshake signature does not verify", code=ErrorCode.BAD_SIGNATURE
            )
        assert self._ephemeral is not None
        self._shared_secret = _exchange(self._ephemeral, reply.ephemeral)
        self._reply_bytes = data
        self.peer = reply.identity
        self.version = reply.version
        return HandshakeResponse(reply.identity, reply.version)

    def _receive_finish(self, finish: HandshakeFinish) -> ChannelOpened:
        claimed = self._claimed_peer
        assert claimed is not None
        assert self.version is not None
        transcript = _initiator_transcript(self._init_bytes, self._reply_bytes)
        if not claimed.verify(HANDSHAKE_INITIATOR_CONTEXT, transcript, finish.signature):
            raise RemoteProtocolError(
                "handshake signature does not verify", code=ErrorCode.BAD_SIGNATURE
            )
        self.peer = claimed
        self._derive_keys()
        assert self.session_id is not None
        return ChannelOpened(claimed, self.version, self.session_id)

    def _check_identity(self, claimed: PeerId) -> None:
        if claimed == self.identity.peer_id:
            raise RemoteProtocolError("peer claims our own identity", code=ErrorCode.WRONG_IDENTITY)
        if self.expected_peer is not None and claimed != self.expected_peer:
            raise RemoteProtocolError(
                f"expected {self.expected_peer}, got {claimed}", code=ErrorCode.WRONG_IDENTITY
            )
        pinned = self.expected_fingerprint
        if pinned is not None and claimed.fingerprint != pinned:
            raise RemoteProtocolError(
                f"expected fingerprint {pinned}, got {claimed}",
                code=ErrorCode.WRONG_IDENTITY,
            )

    def _check_message(self, message: Message) -> None:
        if isinstance(message, JoinRequest) and message.identity != self.peer:
            raise RemoteProtocolError(
                f"JoinRequest names identity {message.identity}, not the channel's peer",
                code=ErrorCode.WRONG_IDENTITY,
            )

    def _decrypt(self, ciphertext: bytes) -> bytes:
        direction = self._receive
        assert direction is not None
        if direction.counter >= self._nonce_limit:
            raise RemoteProtocolError(
                "peer sent past the frame counter limit", code=ErrorCode.NONCE_EXHAUSTED
            )
        try:
            plaintext = direction.aead.decrypt(direction.nonce(), ciphertext, None)
        except InvalidTag as exc:
            raise RemoteProtocolError(
                f"frame {direction.counter} failed authentication "
                "(forged, replayed, reordered or corrupted)",
                code=ErrorCode.BAD_FRAME,
            ) from exc
        direction.counter += 1
        return plaintext

    # --- keys ----------------------------------------------------------------------------------

    def _derive_keys(self) -> None:
        assert self._shared_secret is not None
        material = HKDF(
            algorithm=hashes.SHA256(),
            length=96,
            salt=sha256(self._init_bytes) + sha256(self._reply_bytes),
            info=KEY_SCHEDULE_INFO,
        ).derive(self._shared_secret)
        initiator_to_responder = _Direction(ChaCha20Poly1305(material[:32]))
        responder_to_initiator = _Direction(ChaCha20Poly1305(material[32:64]))
        self.session_id = material[64:]
        self._framer.max_frame_size = self._max_frame_size  # the peer is proven now
        if self.role is Role.INITIATOR:
            self._send, self._receive = initiator_to_responder, responder_to_initiator
        else:
            self._send, self._receive = responder_to_initiator, initiator_to_responder
        # Forward secrecy: nothing that could recompute the keys outlives the key schedule.
        self._shared_secret = None
        self._ephemeral = None


def _public_bytes(key: X25519PrivateKey) -> bytes:
    return key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)


def _exchange(private: X25519PrivateKey, peer_public: bytes) -> bytes:
    try:
        return private.exchange(X25519PublicKey.from_public_bytes(peer_public))
    except ValueError as exc:  # all-zero shared secret: a low-order point
        raise RemoteProtocolError("ephemeral key is a low-order point") from exc


def _responder_transcript(
    init_bytes: bytes, version: int, identity: bytes, ephemeral: bytes
) -> bytes:
    return sha256(init_bytes) + version.to_bytes(2, "big") + identity + ephemeral


def _initiator_transcript(init_bytes: bytes, reply_bytes: bytes) -> bytes:
    return sha256(init_bytes) + sha256(reply_bytes)
