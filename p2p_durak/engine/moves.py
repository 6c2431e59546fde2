"""Card movements: where cards go, in one form every game family reports and every table follows.

A game family's engine owns where every card lies. Each transition it makes can be described
as movements: cards leave one zone (the stock, a hand, the table …) and enter another (or the
same one, at another place), and afterwards somebody may see them who did not before. The
networked table does not know any game: it keeps one deck slot per physical card, moves the
slots as the movements say (`engine/layout.py`), and runs the deck step each movement needs —
a private show for a draw, nothing for a card already face up, a re-mask for a reshuffle.

The records are small frozen tuples, made only when somebody asks for them (the playout never
does): `engine/durak_moves.py` derives the attack/defend family's from the state before, the
action and the events.

How a movement picks its cards and where it puts them:

- `Move.pick` says which cards of the source: its first `n` (`FIRST`: the stock's top; the
  table's oldest card, as zones list cards in the order they came), its last `n` (`LAST`:
  the stock's bottom; the newest card on a pile), the open cards named in `cards` (`CARDS`:
  a card face up on the table, or one the move itself opened; taken in the order they lie
  in the source), the face-down cards the action
  named by their slot (`NAMED`: верю не верю's cover, покерный's exchange — only the intent
  knows the slots, the engine's partial view not even the cards), `ALL`, or the `n` cards
  from position `at` (`AT`: a spread's or a hand's position, a tableau column).
- `Move.label` names the place a card takes in its target, where a later step must find it
  again (верю не верю's face-down cover on attack card i, opened if doubted).
- `Move.into` is the index in the target the cards are inserted at, in the order picked: 0 on
  top (the stock's top, a hand's front), `END` (-1) after the last.
- `Move.seen` says who sees the cards once they arrive: nobody new (`KEEP`: a public card stays
  public, a closed one closed), the target zone's seat (`OWNER`: a private draw), every seat
  but him (`OTHERS`: оборотный, where a player never sees his own hand), everybody (`ALL`:
  face up, opened before or by this move), or nobody at all (`NOBODY`: re-masked and permuted,
  `by` one seat or every seat (`EVERY_SEAT`); the moved slots lie in ascending order, because
  a reshuffle permutes cards among slots, not slots).

A `Movement` is the moves that happen at once: every move picks from the zones as they were
before the movement, then every move places its cards, in order. (A hand rotation — each hand
to the next seat — is one movement; so is козырной's swap of the bout's last card with the
trump card.) A transition reports a tuple of movements, one after another.
"""

from __future__ import annotations

from enum import IntEnum
from typing import Final, NamedTuple


class ZoneKind(IntEnum):
    STOCK = 0  # the face-down stock, top first; a turned trump card lies at its bottom
    HAND = 1  # a seat's hand (its seat: `Zone.seat`)
    LOCKED = 2  # a seat's cards dealt face down that nobody sees yet (магаданский)
    TABLE = 3  # the cards in play, in the order they came: a bout, a chain, a trick, a pile
    DISCARD = 4  # out of play (face up, or buried face down)
    SET_ASIDE = 5  # one face-down card set apart from the stock (потайной's hidden trump)
    OUT_OF_PLAY = 6  # cards laid out before the deal and never dealt (Длинный's ladders)
    TABLEAU = 7  # a seat's tableau column `Zone.column`, bottom card first (армянский 2)
    SPREAD = 8  # face-down cards drawn by position, blind (польский)
    WON = 9  # a seat's won tricks or collected cards (Скитгаб's first phase, армянский 2)


class Zone(NamedTuple):
    kind: ZoneKind
    seat: int = -1  # the owner, for a seat's zones
    column: int = 0  # a tableau's column


class Pick(IntEnum):
    FIRST = 0
    LAST = 1
    CARDS = 2
    NAMED = 3
    ALL = 4
    AT = 5


class Seen(IntEnum):
    KEEP = 0
    OWNER = 1
    OTHERS = 2
    ALL = 3
    NOBODY = 4


END: Final = -1
"""`Move.into`: after the last card of the target."""
EVERY_SEAT: Final = -1
"""`Move.by`: a reshuffle every seat takes part in."""

STOCK: Final = Zone(ZoneKind.STOCK)
TABLE: Final = Zone(ZoneKind.TABLE)
DISCARD: Final = Zone(ZoneKind.DISCARD)
SET_ASIDE: Final = Zone(ZoneKind.SET_ASIDE)
OUT_OF_PLAY: Final = Zone(ZoneKind.OUT_OF_PLAY)
SPREAD: Final = Zone(ZoneKind.SPREAD)


def hand(seat: int) -> Zone:
    return Zone(ZoneKind.HAND, seat)


def locked(seat: int) -> Zone:
    return Zone(ZoneKind.LOCKED, seat)


def tableau(seat: int, column: int) -> Zone:
    return Zone(ZoneKind.TABLEAU, seat, column)


def won(seat: int) -> Zone:
    return Zone(ZoneKind.WON, seat)


class Move(NamedTuple):
    source: Zone
    target: Zone
    pick: Pick
    n: int = 0  # FIRST, LAST, AT, NAMED: how many cards
    cards: tuple[int, ...] = ()  # CARDS: the open cards; NAMED: the cards where this state
    # knows them (the author's own view), else empty
    at: int = 0  # AT: the position in the source
    into: int = END
    seen: Seen = Seen.KEEP
    by: int = EVERY_SEAT  # NOBODY: the seat that re-masks, or every seat
    label: int = -1  # a named place in the target (верю не верю: the attack card covered),
    # for a later step to find the card by (`Layout.labelled`)


Movement = tuple[Move, ...]
"""Moves that happen at once (see the module's docstring)."""


def first(source: Zone, target: Zone, count: int = 1, *, into: int = END,
        seen: Seen = Seen.KEEP) -> Move:
    return Move(source, target, Pick.FIRST, count, into=into, seen=seen)


def last(source: Zone, target: Zone, count: int = 1, *, into: int = END,
           seen: Seen = Seen.KEEP) -> Move:
    return Move(source, target, Pick.LAST, count, into=into, seen=seen)


def cards(source: Zone, target: Zone, of: tuple[int, ...], *, into: int = END,
          seen: Seen = Seen.KEEP) -> Move:
    return Move(source, target, Pick.CARDS, len(of), of, into=into, seen=seen)


def every(source: Zone, target: Zone, *, into: int = END, seen: Seen = Seen.KEEP,
          by: int = EVERY_SEAT) -> Move:
    return Move(source, target, Pick.ALL, into=into, seen=seen, by=by)


def named(source: Zone, target: Zone, count: int, known: tuple[int, ...] = (), *,
          into: int = END, seen: Seen = Seen.KEEP, label: int = -1) -> Move:
    return Move(source, target, Pick.NAMED, count, known, into=into, seen=seen, label=label)


def at(source: Zone, target: Zone, position: int, count: int = 1, *, into: int = END,
       seen: Seen = Seen.KEEP) -> Move:
    return Move(source, target, Pick.AT, count, at=position, into=into, seen=seen)


def reshuffle(zone: Zone, count: int, *, by: int = EVERY_SEAT) -> Move:
    """The top `n` cards of `zone` re-masked and permuted (by one seat or every seat)."""
    return Move(zone, zone, Pick.FIRST, count, into=0, seen=Seen.NOBODY, by=by)
