"""Signed envelopes: a payload message, its author and game, and the author's signature.

The author signs the exact payload bytes, prefixed by the envelope context and the game id:

    signature = Ed25519(author, ENVELOPE_CONTEXT || game (16 bytes) || payload)

The payload travels verbatim inside the envelope as a `bin` field, so a verifier checks the bytes
it received and never re-encodes anything. An `Envelope` object exists only if its signature
verifies and its payload decodes to one of the signed message types: construction checks both.
Because the codec is canonical, `Envelope.encode()` reproduces the received bytes exactly, so an
envelope can be forwarded (inside an `Entry` or a `CatchUpResponse`) and hashed as received.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from p2p_durak.protocol import codec
from p2p_durak.protocol.errors import ErrorCode, LocalProtocolError, RemoteProtocolError
from p2p_durak.protocol.identity import ENVELOPE_CONTEXT, Identity, PeerId
from p2p_durak.protocol.messages import (
    ENVELOPE_BYTES,
    GAME,
    KEY,
    SIGNATURE,
    SIGNED_MESSAGES,
    Message,
    catalogue,
    decode_message,
    wire,
)


@dataclass(frozen=True, slots=True)
class Envelope(Message):
    """A payload signed by its author for one game; verified on construction."""

    TAG: ClassVar[int] = 5
    VERSION: ClassVar[int] = 1
    author: PeerId = field(metadata=wire(KEY, "author's identity"))
    game: bytes = field(metadata=wire(GAME, "game id"))
    payload: bytes = field(metadata=wire(ENVELOPE_BYTES, "canonical bytes of a signed message"))
    signature: bytes = field(metadata=wire(SIGNATURE, "author's Ed25519 signature (see Envelopes)"))
    message: Message = field(init=False, repr=False, compare=False)
    """The decoded payload (one of `SIGNED_MESSAGES`)."""
    _encoded: bytes = field(init=False, repr=False, compare=False)
    """This envelope's bytes, once known: the log hashes, forwards and journals an envelope
    as the bytes it came in (set from the bytes it was decoded from, else on the first
    `encode`; the codec is canonical, so both are the same bytes)."""

    def _check_invariants(self) -> None:
        if not self.author.verify(ENVELOPE_CONTEXT, self.game + self.payload, self.signature):
            raise LocalProtocolError(
                f"envelope signature by {self.author.fingerprint} does not verify",
                code=ErrorCode.BAD_SIGNATURE,
            )
        try:
            message = decode_message(self.payload, SIGNED_MESSAGES)
        except RemoteProtocolError as exc:
            raise LocalProtocolError(f"envelope payload: {exc.reason}", code=exc.code) from exc
        payload_game = getattr(message, "game", self.game)
        if payload_game != self.game:
            raise LocalProtocolError("envelope game differs from its payload's game")
        object.__setattr__(self, "message", message)

    def encode(self) -> bytes:
        try:
            return self._encoded
        except AttributeError:
            data = Message.encode(self)  # (slots=True: no zero-argument super here)
            object.__setattr__(self, "_encoded", data)
            return data

    def _decoded_from(self, data: bytes) -> None:
        object.__setattr__(self, "_encoded", data)

    @classmethod
    def seal(cls, identity: Identity, game: bytes, message: Message) -> Envelope:
        """Sign `message` for `game` as `identity`."""
        if (message.TAG, message.VERSION) not in SIGNED_MESSAGES:
            raise LocalProtocolError(f"{type(message).__name__} is not a signed message type")
        GAME.check(game, "Envelope.game")
        if getattr(message, "game", game) != game:
            raise LocalProtocolError("envelope game differs from its payload's game")
        payload = message.encode()
        signature = identity.sign(ENVELOPE_CONTEXT, game + payload)
        # We built every field ourselves and hold the decoded payload already: skip the
        # constructor's signature check (an Ed25519 verify on the critical path of each entry).
        envelope = object.__new__(cls)
        for name, value in (("author", identity.peer_id), ("game", game), ("payload", payload),
                            ("signature", signature), ("message", message)):
            object.__setattr__(envelope, name, value)
        return envelope

    @property
    def digest(self) -> bytes:
        """SHA-256 of the envelope's bytes as carried (``entry_hash`` for entry envelopes)."""
        return codec.sha256(self.encode())


ENVELOPE_MESSAGES = catalogue(Envelope)


def decode_envelope(data: bytes) -> Envelope:
    """Decode and verify envelope bytes (for example an `Entry`'s intents), or raise
    `RemoteProtocolError` naming what is wrong (the caller adds who sent it)."""
    message = decode_message(data, ENVELOPE_MESSAGES)
    assert isinstance(message, Envelope)
    return message
