"""Following card movements: which physical slot lies where.

`Layout` keeps, for every zone, the slots that lie there in order (a slot is one physical
card: the networked table's deck slot, or a card id where the cards are known). It moves
them as a game family's movements (`engine/moves.py`) say and reports each arrival with who
must see it, so a table can run the deck step it needs without knowing the game.

A `CARDS` pick needs to know which slot holds an open card (`card_of`); a `NAMED` pick takes
the slots the action named (the intent's, in order: верю не верю's cover, покерный's
exchange). A movement the layout cannot follow (a card that is not where the movement says,
too few cards) raises `LayoutError`: the engine and the table disagree, which is a bug, never
a peer's fault — the table has checked the move against the deck before.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import NamedTuple

from p2p_durak.engine.moves import END, EVERY_SEAT, Move, Movement, Pick, Seen, Zone


class LayoutError(Exception):
    """A movement names cards that do not lie where it says."""


class Arrival(NamedTuple):
    """Cards that arrived in `zone` from `source` and who must see them (`Move.seen`,
    `Move.by`)."""

    slots: tuple[int, ...]
    zone: Zone
    seen: Seen
    by: int = EVERY_SEAT
    source: Zone | None = None


class Layout:
    """Zones of slots, each in order (a stock top first, a hand in the order it got them)."""

    __slots__ = ("labels", "zones")

    def __init__(self, zones: dict[Zone, list[int]] | None = None) -> None:
        self.zones: dict[Zone, list[int]] = {} if zones is None else zones
        # a slot laid at a named place of its zone (верю не верю's cover on attack card i)
        self.labels: dict[tuple[Zone, int], int] = {}

    @classmethod
    def of(cls, zones: Iterable[tuple[Zone, Sequence[int]]]) -> Layout:
        return cls({zone: list(slots) for zone, slots in zones})

    def copy(self) -> Layout:
        twin = Layout({zone: list(slots) for zone, slots in self.zones.items()})
        twin.labels = dict(self.labels)
        return twin

    def slots(self, zone: Zone) -> tuple[int, ...]:
        return tuple(self.zones.get(zone, ()))

    def labelled(self, zone: Zone, label: int) -> int:
        """The slot laid at `label` in `zone` (LayoutError when there is none)."""
        slot = self.labels.get((zone, label))
        if slot is None:
            raise LayoutError(f"no card lies at place {label} of {zone}")
        return slot

    def zone_of(self, slot: int) -> Zone | None:
        for zone, slots in self.zones.items():
            if slot in slots:
                return zone
        return None

    def follow(self, movement: Movement, card_of: Callable[[int], int | None],
               named: list[int] | None = None) -> list[Arrival]:
        """Carry out one movement (every move picks first, then every move places); the
        arrivals in move order. `NAMED` picks take their slots off the front of `named`."""
        queue = [] if named is None else named
        picked = [self._pick(move, card_of, queue) for move in movement]
        for move, slots in zip(movement, picked, strict=True):
            source = self.zones.get(move.source, [])
            for slot in slots:
                source.remove(slot)
        gone = {s for slots in picked for s in slots}
        if gone:
            self.labels = {key: s for key, s in self.labels.items() if s not in gone}
        out: list[Arrival] = []
        for move, slots in zip(movement, picked, strict=True):
            if move.seen == Seen.NOBODY:
                slots = sorted(slots)  # a reshuffle permutes cards among slots, not slots
            target = self.zones.setdefault(move.target, [])
            where = len(target) if move.into == END else move.into
            target[where:where] = slots
            if move.label >= 0:
                for slot in slots:
                    self.labels[(move.target, move.label)] = slot
            if slots:
                out.append(Arrival(tuple(slots), move.target, move.seen, move.by, move.source))
        return out

    def _pick(self, move: Move, card_of: Callable[[int], int | None],
              named: list[int]) -> list[int]:
        source = self.zones.get(move.source, [])
        kind = move.pick
        if kind == Pick.ALL:
            return list(source)
        if kind == Pick.CARDS:
            wanted = set(move.cards)
            found = [s for s in source if card_of(s) in wanted]
            if len(found) != len(wanted):
                raise LayoutError(f"cards {sorted(move.cards)} are not all open in "
                                  f"{move.source}")
            return found
        if kind == Pick.NAMED:
            slots, named[:move.n] = named[:move.n], []
            if len(slots) != move.n or any(s not in source for s in slots):
                raise LayoutError(f"the action's slots {slots} are not in {move.source}")
            return slots
        if move.n > len(source):
            raise LayoutError(f"{move.source} holds {len(source)} cards, not {move.n}")
        if kind == Pick.FIRST:
            return source[:move.n]
        if kind == Pick.LAST:
            return source[len(source) - move.n:]
        if move.at + move.n > len(source):
            raise LayoutError(f"{move.source} has no position {move.at + move.n - 1}")
        return source[move.at:move.at + move.n]
