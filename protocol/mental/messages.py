"""Deck messages: small frozen dataclasses with a strict, canonical wire form.

``to_wire()`` gives a list of str/int/bytes (msgpack-ready): ``[kind, game_id, step, seat,
*fields]``. Group elements and scalars are bytes (vectors of them are concatenated). ``from_wire``
accepts exactly that shape and validates every element: any deviation raises
:class:`MalformedMessage` naming the claimed seat and step when they can be read.

The ``seat`` field is a claim: the node layer must check it against the authenticated sender of
the log entry before handing the message to a party.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar, Self, TypeVar

from p2p_durak.protocol.mental import group as g
from p2p_durak.protocol.mental.elgamal import (
    Ciphertext,
    ciphertexts_from_bytes,
    ciphertexts_to_bytes,
)
from p2p_durak.protocol.mental.errors import MalformedMessage
from p2p_durak.protocol.mental.proofs import OneOfProof, Proof
from p2p_durak.protocol.mental.shuffle import ShuffleProof

MAX_STEP_LENGTH = 200
MAX_GAME_ID_LENGTH = 64
MAX_ITEMS = 1 << 16

Wire = list[object]


def _int(value: object, what: str, low: int = 0, high: int = MAX_ITEMS) -> int:
    if type(value) is not int or not low <= value < high:
        raise ValueError(f"{what} must be an int in [{low}, {high})")
    return value


def _bytes(value: object, what: str, length: int | None = None) -> bytes:
    if type(value) is not bytes or (length is not None and len(value) != length):
        raise ValueError(f"{what} must be {length if length is not None else 'some'} bytes")
    return value


def _ints(value: object, what: str, low: int = 0, high: int = MAX_ITEMS) -> tuple[int, ...]:
    if type(value) is not list or len(value) > MAX_ITEMS:
        raise ValueError(f"{what} must be a list of ints")
    return tuple(_int(v, what, low, high) for v in value)


@dataclass(frozen=True, slots=True)
class Message:
    """Common header of every deck message."""

    KIND: ClassVar[str] = ""
    game_id: bytes
    step: str
    seat: int

    def _header(self) -> Wire:
        return [self.KIND, self.game_id, self.step, self.seat]

    def to_wire(self) -> Wire:
        raise NotImplementedError

    @classmethod
    def from_wire(cls, obj: object) -> Self:
        """Parse and check that the message is of this class."""
        msg = message_from_wire(obj)
        if not isinstance(msg, cls):
            raise MalformedMessage(msg.seat, msg.step, f"expected a {cls.KIND!r} message")
        return msg


M = TypeVar("M", bound=Message)
_PARSERS: dict[str, Callable[[bytes, str, int, list[object]], Message]] = {}


def _register(
    kind: str, n_fields: int
) -> Callable[
    [Callable[[bytes, str, int, list[object]], M]], Callable[[bytes, str, int, list[object]], M]
]:
    def deco(
        parse: Callable[[bytes, str, int, list[object]], M],
    ) -> Callable[[bytes, str, int, list[object]], M]:
        def checked(game_id: bytes, step: str, seat: int, fields: list[object]) -> M:
            if len(fields) != n_fields:
                raise ValueError(f"{kind} has {n_fields} fields, got {len(fields)}")
            return parse(game_id, step, seat, fields)

        _PARSERS[kind] = checked
        return checked

    return deco


def message_from_wire(obj: object) -> Message:
    """Parse any deck message; raise MalformedMessage (with seat/step when readable)."""
    seat: int | None = None
    step = "?"
    try:
        if type(obj) is not list or len(obj) < 4:
            raise ValueError("a message is a list [kind, game_id, step, seat, ...]")
        kind, game_id, raw_step, raw_seat, *fields = obj
        if type(raw_step) is str and len(raw_step) <= MAX_STEP_LENGTH:
            step = raw_step
        else:
            raise ValueError("bad step id")
        seat = _int(raw_seat, "seat", 0, 256)
        gid = _bytes(game_id, "game id")
        if not 1 <= len(gid) <= MAX_GAME_ID_LENGTH:
            raise ValueError("bad game id length")
        if type(kind) is not str or kind not in _PARSERS:
            raise ValueError(f"unknown message kind {kind!r}")
        return _PARSERS[kind](gid, step, seat, fields)
    except ValueError as exc:
        raise MalformedMessage(seat, step, str(exc)) from None


@dataclass(frozen=True, slots=True)
class KeyCommit(Message):
    KIND: ClassVar[str] = "key-commit"
    commitment: bytes

    def to_wire(self) -> Wire:
        return [*self._header(), self.commitment]


@_register(KeyCommit.KIND, 1)
def _(gid: bytes, step: str, seat: int, f: list[object]) -> KeyCommit:
    return KeyCommit(gid, step, seat, _bytes(f[0], "commitment", 32))


@dataclass(frozen=True, slots=True)
class KeyReveal(Message):
    KIND: ClassVar[str] = "key-reveal"
    public_key: bytes
    proof: Proof

    def to_wire(self) -> Wire:
        return [*self._header(), self.public_key, self.proof.to_bytes()]


@_register(KeyReveal.KIND, 2)
def _(gid: bytes, step: str, seat: int, f: list[object]) -> KeyReveal:
    return KeyReveal(gid, step, seat, g.decode_point(f[0]), Proof.from_bytes(f[1]))


@dataclass(frozen=True, slots=True)
class CoinCommit(Message):
    KIND: ClassVar[str] = "coin-commit"
    commitment: bytes

    def to_wire(self) -> Wire:
        return [*self._header(), self.commitment]


@_register(CoinCommit.KIND, 1)
def _(gid: bytes, step: str, seat: int, f: list[object]) -> CoinCommit:
    return CoinCommit(gid, step, seat, _bytes(f[0], "commitment", 32))


@dataclass(frozen=True, slots=True)
class CoinReveal(Message):
    KIND: ClassVar[str] = "coin-reveal"
    value: bytes

    def to_wire(self) -> Wire:
        return [*self._header(), self.value]


@_register(CoinReveal.KIND, 1)
def _(gid: bytes, step: str, seat: int, f: list[object]) -> CoinReveal:
    return CoinReveal(gid, step, seat, _bytes(f[0], "coin value", 32))


@dataclass(frozen=True, slots=True)
class Shuffle(Message):
    """A re-masked, permuted copy of the step's slots, with its shuffle proof."""

    KIND: ClassVar[str] = "shuffle"
    deck: tuple[Ciphertext, ...]
    proof: ShuffleProof

    def to_wire(self) -> Wire:
        return [
            *self._header(),
            len(self.deck),
            ciphertexts_to_bytes(self.deck),
            self.proof.to_bytes(),
        ]


@_register(Shuffle.KIND, 3)
def _(gid: bytes, step: str, seat: int, f: list[object]) -> Shuffle:
    n = _int(f[0], "deck size", 1)
    return Shuffle(
        gid, step, seat, ciphertexts_from_bytes(f[1], n), ShuffleProof.from_bytes(f[2], n)
    )


@dataclass(frozen=True, slots=True)
class BlockShuffle(Message):
    """A partitioned shuffle: the step's slots re-masked and permuted within each block of
    consecutive slots (``blocks`` are their sizes), with one shuffle proof per block."""

    KIND: ClassVar[str] = "block-shuffle"
    blocks: tuple[int, ...]
    deck: tuple[Ciphertext, ...]
    proofs: tuple[ShuffleProof, ...]

    def to_wire(self) -> Wire:
        return [
            *self._header(),
            list(self.blocks),
            ciphertexts_to_bytes(self.deck),
            b"".join(proof.to_bytes() for proof in self.proofs),
        ]


@_register(BlockShuffle.KIND, 3)
def _(gid: bytes, step: str, seat: int, f: list[object]) -> BlockShuffle:
    blocks = _ints(f[0], "block sizes", 1)
    if not blocks:
        raise ValueError("a partitioned shuffle has at least one block")
    n = sum(blocks)
    if n >= MAX_ITEMS:
        raise ValueError("too many cards")
    deck = ciphertexts_from_bytes(f[1], n)
    data = _bytes(f[2], "proofs")
    proofs = []
    at = 0
    for size in blocks:
        length = ShuffleProof.size(size)
        proofs.append(ShuffleProof.from_bytes(data[at:at + length], size))
        at += length
    if at != len(data):
        raise ValueError("the proofs are longer than the blocks need")
    return BlockShuffle(gid, step, seat, blocks, deck, tuple(proofs))


@dataclass(frozen=True, slots=True)
class Rerandomize(Message):
    """The author's private copies of some slots: base + (Δ1, Δ2), proven well formed."""

    KIND: ClassVar[str] = "rerandomize"
    slots: tuple[int, ...]
    delta1: tuple[bytes, ...]
    delta2: tuple[bytes, ...]
    proof: Proof

    def to_wire(self) -> Wire:
        return [
            *self._header(),
            list(self.slots),
            b"".join(self.delta1),
            b"".join(self.delta2),
            self.proof.to_bytes(),
        ]


@_register(Rerandomize.KIND, 4)
def _(gid: bytes, step: str, seat: int, f: list[object]) -> Rerandomize:
    slots = _ints(f[0], "slots")
    if not slots:
        raise ValueError("no slots")
    return Rerandomize(
        gid,
        step,
        seat,
        slots,
        g.decode_points(f[1], len(slots)),
        g.decode_points(f[2], len(slots)),
        Proof.from_bytes(f[3]),
    )


BASE_VIEW = -1
"""The view index of a slot's shared ciphertext; other views are a viewer seat's copy."""


@dataclass(frozen=True, slots=True)
class TokenCommit(Message):
    """A public reveal's first phase: the seat's commitment to the `tokens` message it will
    send once every seat owing tokens has committed (`tokens_commitment`)."""

    KIND: ClassVar[str] = "token-commit"
    commitment: bytes

    def to_wire(self) -> Wire:
        return [*self._header(), self.commitment]


@_register(TokenCommit.KIND, 1)
def _(gid: bytes, step: str, seat: int, f: list[object]) -> TokenCommit:
    return TokenCommit(gid, step, seat, _bytes(f[0], "commitment", 32))


@dataclass(frozen=True, slots=True)
class Tokens(Message):
    """Reveal tokens x_seat·c1 for (slot, view) items, with one batched DLEQ proof."""

    KIND: ClassVar[str] = "tokens"
    slots: tuple[int, ...]
    views: tuple[int, ...]
    tokens: tuple[bytes, ...]
    proof: Proof

    def to_wire(self) -> Wire:
        return [
            *self._header(),
            list(self.slots),
            list(self.views),
            b"".join(self.tokens),
            self.proof.to_bytes(),
        ]


@_register(Tokens.KIND, 4)
def _(gid: bytes, step: str, seat: int, f: list[object]) -> Tokens:
    slots = _ints(f[0], "slots")
    views = _ints(f[1], "views", BASE_VIEW, 256)
    if not slots or len(views) != len(slots):
        raise ValueError("slots and views must be non-empty and of equal length")
    return Tokens(
        gid, step, seat, slots, views, g.decode_points(f[2], len(slots)), Proof.from_bytes(f[3])
    )


@dataclass(frozen=True, slots=True)
class ClassProof(Message):
    """The card in ``slot`` is one of ``candidates`` (e.g. one suit), proven without showing it."""

    KIND: ClassVar[str] = "class-proof"
    slot: int
    candidates: tuple[int, ...]
    proof: OneOfProof

    def to_wire(self) -> Wire:
        return [*self._header(), self.slot, list(self.candidates), self.proof.to_bytes()]


@_register(ClassProof.KIND, 3)
def _(gid: bytes, step: str, seat: int, f: list[object]) -> ClassProof:
    candidates = _ints(f[1], "candidates")
    if not candidates:
        raise ValueError("no candidates")
    return ClassProof(
        gid,
        step,
        seat,
        _int(f[0], "slot"),
        candidates,
        OneOfProof.from_bytes(f[2], len(candidates)),
    )


@dataclass(frozen=True, slots=True)
class AuditKey(Message):
    """The author's per-game secret key, published after the game for the audit."""

    KIND: ClassVar[str] = "audit-key"
    secret: int

    def to_wire(self) -> Wire:
        return [*self._header(), g.encode_scalar(self.secret)]


@_register(AuditKey.KIND, 1)
def _(gid: bytes, step: str, seat: int, f: list[object]) -> AuditKey:
    return AuditKey(gid, step, seat, g.decode_scalar(f[0]))
