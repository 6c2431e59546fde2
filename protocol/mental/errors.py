"""Errors of the mental-poker deck.

A :class:`DeckError` is what a peer caused: it names the seat that sent the bad input and the
step it belonged to, and it is raised before anything is applied. A :class:`DeckUsageError` is what
the local caller did wrong (an operation out of order, a slot that does not exist).
"""

from __future__ import annotations


class DeckError(Exception):
    """A peer's message was rejected; the party's state is unchanged."""

    def __init__(self, seat: int | None, step: str, reason: str) -> None:
        self.seat = seat
        self.step = step
        self.reason = reason
        who = "unknown seat" if seat is None else f"seat {seat}"
        super().__init__(f"{who}, step {step!r}: {reason}")


class MalformedMessage(DeckError):
    """The message does not parse: wrong shape, type, length, or an invalid group element."""


class UnexpectedMessage(DeckError):
    """Well formed, but not expected now: another game, an unknown step, out of turn, a replay."""


class InvalidProof(DeckError):
    """A zero-knowledge proof, commitment or claimed value does not verify."""


class DeckUsageError(Exception):
    """The local caller used the party wrongly; nothing was sent or applied."""
