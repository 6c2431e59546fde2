"""Protocol errors: who misbehaved, and why.

Modelled on h11: a `LocalProtocolError` means *this* program tried something the protocol does
not allow (a bug here, or a value that cannot be encoded); a `RemoteProtocolError` means the
bytes that arrived from a peer are not acceptable (malformed, off-schema, forged, replayed, out of
order). Receive paths never raise anything else for bad input.

Every error carries a wire `ErrorCode`, so the node can tell the peer why it is hanging up with an
`Error` message, and a human-readable `reason`. A `RemoteProtocolError` also names the peer once the
layer that knows it (the channel) has seen the error.
"""

from __future__ import annotations

from enum import IntEnum


class ErrorCode(IntEnum):
    """Why a connection is being refused or closed; carried by the `Error` message."""

    MALFORMED = 1
    """Bytes that do not decode, or that decode to something off-schema."""
    UNSUPPORTED_VERSION = 2
    """No protocol version in common, or an unknown message schema version."""
    WRONG_IDENTITY = 3
    """The peer is not the identity we expected (or claims to be us)."""
    BAD_SIGNATURE = 4
    """A signature (handshake or envelope) does not verify."""
    BAD_FRAME = 5
    """An encrypted frame failed authentication: forged, replayed, reordered or corrupted."""
    FRAME_TOO_LARGE = 6
    """A frame or message exceeds the size bounds."""
    UNEXPECTED_MESSAGE = 7
    """A well-formed message that is not allowed in the current connection state."""
    NONCE_EXHAUSTED = 8
    """The channel has used up its frame counter; reconnect for fresh keys."""
    REFUSED = 9
    """The peer is not welcome here (policy, not a protocol fault)."""
    GOING_AWAY = 10
    """Orderly shutdown."""
    TRUNCATED = 11
    """The connection ended in the middle of a frame."""
    INTERNAL = 12
    """The sender hit an internal error; nothing the receiver did wrong."""


class ProtocolError(Exception):
    """Base class: a reason (for humans) and an `ErrorCode` (for the wire)."""

    def __init__(self, reason: str, *, code: ErrorCode = ErrorCode.MALFORMED) -> None:
        super().__init__(reason)
        self.reason = reason
        self.code = code


class LocalProtocolError(ProtocolError):
    """This side tried to do something the protocol forbids (or to build an invalid message)."""

    def to_remote(self, *, peer: str | None = None) -> RemoteProtocolError:
        """Re-label a validation failure found while decoding peer bytes as the peer's fault."""
        error = RemoteProtocolError(self.reason, peer=peer, code=self.code)
        error.__cause__ = self
        return error


class RemoteProtocolError(ProtocolError):
    """The peer sent something unacceptable. `peer` names it once known (fingerprint or label)."""

    def __init__(
        self, reason: str, *, peer: str | None = None, code: ErrorCode = ErrorCode.MALFORMED
    ) -> None:
        super().__init__(reason, code=code)
        self.peer = peer

    def with_peer(self, peer: str) -> RemoteProtocolError:
        """The same error, attributed to `peer` (used by layers that know who sent the bytes)."""
        if self.peer is not None:
            return self
        error = RemoteProtocolError(self.reason, peer=peer, code=self.code)
        error.__cause__ = self.__cause__
        return error

    def __str__(self) -> str:
        who = self.peer if self.peer is not None else "unknown peer"
        return f"{who}: {self.reason} ({self.code.name})"
