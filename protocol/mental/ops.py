"""Deck operations, as the caller starts them at every party with the same arguments.

Operations are decided outside the deck (by the rules engine, from the shared log), so every
party begins the same operation with the same step id; the deck checks that the arguments make
sense for its state. The journal records them next to the messages so an auditor can replay.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Op:
    step: str


@dataclass(frozen=True, slots=True)
class KeysOp(Op):
    """Per-game keys by commit-reveal, each revealed key with a Schnorr proof."""


@dataclass(frozen=True, slots=True)
class CoinOp(Op):
    """A joint random value by commit-reveal."""


@dataclass(frozen=True, slots=True)
class ShuffleOp(Op):
    """Every active seat in seat order re-masks and permutes these slots (all of them first).

    ``blocks`` (sizes, summing to the number of slots): a partitioned shuffle, in which each run
    of consecutive slots is permuted only within itself, with one shuffle proof per block in
    one message (албанский: suits are shuffled within each rank of a pre-sorted deck).
    ``initial`` (the first shuffle only): the public card each slot starts as, a permutation of
    the card ids (by default slot i starts as card i).
    ``by`` (a later shuffle only): this seat alone re-masks and permutes (a hand's re-mask, верю
    не верю: masking needs only the joint public key, and the owner's permutation is the one
    secret that unlinks his slots from every other party; one shuffle instead of one per seat)."""

    slots: tuple[int, ...]
    blocks: tuple[int, ...] = ()
    initial: tuple[int, ...] = ()
    by: int | None = None


@dataclass(frozen=True, slots=True)
class ShowOp(Op):
    """Let seats open slots privately: ``grants`` is ((slot, (viewer, ...)), ...)."""

    grants: tuple[tuple[int, tuple[int, ...]], ...]


@dataclass(frozen=True, slots=True)
class RevealOp(Op):
    """Open slots to everyone. With ``by``, that seat's own view is used, so a card in its hand
    opens with its token alone (the current owner of a passed card, not the previous one)."""

    slots: tuple[int, ...]
    by: int | None = None


@dataclass(frozen=True, slots=True)
class ClassOp(Op):
    """``prover`` shows that the card in ``slot`` is one of ``candidates``, and nothing more."""

    slot: int
    prover: int
    candidates: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class LeaveOp(Op):
    """``seat`` strips its key layer from every card and leaves."""

    seat: int


@dataclass(frozen=True, slots=True)
class AuditOp(Op):
    """Every active seat publishes its per-game secret key."""
