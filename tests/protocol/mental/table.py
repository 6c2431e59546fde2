"""In-memory table for deck tests: N parties plus an observer, messages in one shared order.

Every message goes through its wire form (to_wire → from_wire) on the way, as on the network.
The FIFO queue is a total order that respects causality, like the node's shared log.
"""

from __future__ import annotations

import hashlib
from collections import deque
from collections.abc import Callable

from p2p_durak.protocol.mental.deck import DeckParty
from p2p_durak.protocol.mental.events import CardRevealed, CardSeen, Event, Send
from p2p_durak.protocol.mental.messages import Message, message_from_wire
from p2p_durak.protocol.mental.ops import Op, ShowOp
from p2p_durak.protocol.mental.state import DeckState


def drbg(seed: bytes) -> Callable[[int], bytes]:
    """A deterministic byte source for reproducible tests (SHAKE-256 in counter mode)."""
    counter = 0

    def read(n: int) -> bytes:
        nonlocal counter
        counter += 1
        return hashlib.shake_256(seed + counter.to_bytes(8, "big")).digest(n)

    return read


class Table:
    def __init__(
        self,
        n_seats: int,
        n_cards: int,
        seed: bytes = b"seed",
        game_id: bytes = b"game-1",
        fold: bool = True,
    ) -> None:
        self.game_id = game_id
        self.parties = [
            DeckParty(
                game_id, s, n_seats, n_cards, rng=drbg(seed + bytes([s])), fold_shuffle_proofs=fold
            )
            for s in range(n_seats)
        ]
        self.observer = DeckState(game_id, n_seats, n_cards, fold_shuffle_proofs=fold)
        self.gone: set[int] = set()
        self.events: dict[int, list[Event]] = {s: [] for s in range(n_seats)}
        self.observed: list[Event] = []
        self.wire: list[list[object]] = []
        self.intercept: Callable[[Message], Message] | None = None

    def seats(self) -> list[int]:
        return [p.seat for p in self.parties if p.seat not in self.gone]

    def run(self, op: Op) -> dict[int, list[Event]]:
        """Start ``op`` everywhere and deliver until quiet; returns each seat's new events."""
        new: dict[int, list[Event]] = {s: [] for s in self.seats()}
        queue: deque[Message] = deque()
        for seat in self.seats():
            evs = self.parties[seat].begin(op)
            new[seat] += evs
            queue += [e.message for e in evs if isinstance(e, Send)]
        self.observed += self.observer.begin(op)
        while queue:
            msg = queue.popleft()
            if self.intercept is not None:
                msg = self.intercept(msg)
            wire = msg.to_wire()
            self.wire.append(wire)
            for seat in self.seats():
                if seat == msg.seat:
                    continue
                evs = self.parties[seat].receive(message_from_wire(wire))
                new[seat] += evs
                queue += [e.message for e in evs if isinstance(e, Send)]
            self.observed += self.observer.receive(message_from_wire(wire))
        for seat, evs in new.items():
            self.events[seat] += evs
        return new

    def deal(self, step: str, hands: dict[int, list[int]]) -> dict[int, dict[int, int]]:
        """Deal slots privately; returns seat -> {slot: card} as each seat saw them."""
        grants = tuple(sorted((slot, (seat,)) for seat, slots in hands.items() for slot in slots))
        new = self.run(ShowOp(step, grants))
        return {
            seat: {e.slot: e.card_id for e in evs if isinstance(e, CardSeen)}
            for seat, evs in new.items()
        }

    def revealed(self, new: dict[int, list[Event]]) -> dict[int, dict[int, int]]:
        return {
            seat: {e.slot: e.card_id for e in evs if isinstance(e, CardRevealed)}
            for seat, evs in new.items()
        }
