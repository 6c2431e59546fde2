"""Fiat–Shamir transcripts.

Every challenge is a hash of everything the verifier knows at that point: a protocol label, the
proof's context (game id, step id, author seat, proof kind) and every input and output of the
statement, each framed with its label and length so that no two different transcripts can hash
the same bytes. Weak Fiat–Shamir (a challenge that leaves part of the statement out) is the classic
way NIZK implementations break; appending the whole statement here is deliberate.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from p2p_durak.protocol.mental.group import ORDER

PROTOCOL_LABEL = b"p2p-durak/mental-poker/v1"


@dataclass(frozen=True, slots=True)
class ProofContext:
    """Who proves what, where: bound into every challenge so a proof cannot be replayed."""

    game_id: bytes
    step: str
    seat: int

    def for_kind(self, kind: str) -> Transcript:
        t = Transcript(kind)
        t.append(b"game", self.game_id)
        t.append(b"step", self.step.encode())
        t.append(b"seat", self.seat.to_bytes(4, "big", signed=True))
        return t


class Transcript:
    """A running SHA-512 over framed (label, data) pairs."""

    __slots__ = ("_h",)

    def __init__(self, kind: str) -> None:
        self._h = hashlib.sha512()
        self.append(b"protocol", PROTOCOL_LABEL)
        self.append(b"kind", kind.encode())

    def append(self, label: bytes, data: bytes) -> None:
        self._h.update(len(label).to_bytes(2, "big") + label + len(data).to_bytes(4, "big"))
        self._h.update(data)

    def append_points(self, label: bytes, points: tuple[bytes, ...] | list[bytes]) -> None:
        self.append(label, b"".join(points))

    def append_int(self, label: bytes, value: int) -> None:
        self.append(label, value.to_bytes(8, "big", signed=True))

    def challenge(self, label: bytes) -> int:
        """A scalar challenge; the transcript absorbs the label so later challenges differ."""
        self.append(b"challenge", label)
        return int.from_bytes(self._h.copy().digest(), "little") % ORDER

    def challenges(self, label: bytes, count: int) -> list[int]:
        """``count`` scalars derived from one state (counter mode over a snapshot)."""
        self.append(b"challenges", label + count.to_bytes(4, "big"))
        out = []
        for i in range(count):
            h = self._h.copy()
            h.update(i.to_bytes(4, "big"))
            out.append(int.from_bytes(h.digest(), "little") % ORDER)
        return out
