"""Дурак чухонский's values: the fixed game, the immutable state, moves, events, the result.

A card is an id into the engine's `DeckSpec` (rank-major: id = (rank - lowest) * 4 + suit),
so the next card of a suit is id + 4 and a hand is a bit mask. A state is a full state (every
hand known) or one seat's partial view (`hidden`: how many cards of a hand the view does not
know); the same transitions serve both.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from functools import cached_property
from typing import Final

from p2p_durak.engine.cards import DeckSpec
from p2p_durak.engine.games.chukhonsky.rules import ChukhonskyRules

CHANCE: Final = -1
UNKNOWN: Final = -1
ACE: Final = 14


class Phase(IntEnum):
    DEAL = 0  # chance: the whole deck is dealt
    PLAY = 1
    OVER = 2


class MoveKind(IntEnum):
    DEAL = 0  # chance
    PLAY = 1  # lay a card on the pile (a lead when the pile is empty)
    TAKE = 2  # «забирает себе верхнюю карту, а остальные карты скидывает в отбой»


@dataclass(frozen=True, slots=True)
class Move:
    kind: MoveKind
    seat: int
    card: int = -1  # PLAY: the card laid

    def encode(self) -> list[int]:
        return [int(self.kind), self.seat, self.card]


def play(seat: int, card: int) -> Move:
    return Move(MoveKind.PLAY, seat, card)


def take(seat: int) -> Move:
    return Move(MoveKind.TAKE, seat)


def deal() -> Move:
    return Move(MoveKind.DEAL, CHANCE)


class EndReason(IntEnum):
    LAST_WITH_CARDS = 0  # «пока не останется один игрок с картами на руках»
    STALLED = 1  # the stall limit: nothing reached the discard for `stall_limit` takes
    # no card left can ever go on another (every card's climbers are in the discard, no
    # ace is left): each lead is taken by the next player, so the rest is forced and the
    # engine plays it on the counts at once —
    FORCED = 2  # — until one player holds cards (as the play would end)
    CYCLE = 3  # — and the counts go round for ever (an odd number of players, none runs out)


@dataclass(frozen=True, slots=True)
class Result:
    durak: tuple[int, ...]  # empty on a draw
    draw: bool
    finish: tuple[int, ...]  # seats in the order they went out
    reason: EndReason = EndReason.LAST_WITH_CARDS


# ---- events: what a transition did, for the screen, the log and the card movements --------


@dataclass(frozen=True, slots=True)
class Dealt:
    counts: tuple[int, ...]  # cards per seat
    set_aside: int  # cards left face down out of play


@dataclass(frozen=True, slots=True)
class Played:
    seat: int
    card: int
    lead: bool  # the pile was empty: a new ladder


@dataclass(frozen=True, slots=True)
class Cleared:
    """«Тот игрок, который положит туза, скидывает в отбой всю колоду и вновь ходит первым»."""

    seat: int
    cards: tuple[int, ...]  # the pile, bottom first


@dataclass(frozen=True, slots=True)
class Took:
    seat: int
    card: int  # the pile's top card, now in the taker's hand, face up
    discarded: tuple[int, ...]  # the rest of the pile, bottom first


@dataclass(frozen=True, slots=True)
class WentOut:
    seat: int


@dataclass(frozen=True, slots=True)
class GameOver:
    result: Result


Event = Dealt | Played | Cleared | Took | WentOut | GameOver


@dataclass(frozen=True, eq=False)
class Game:
    """The fixed part of one game: options, seats, dealer and who leads first."""

    rules: ChukhonskyRules
    n_players: int
    dealer: int
    first: int  # the first player: left of the dealer, or под/из-под дурака in later games
    game_index: int = 0

    @cached_property
    def deck(self) -> DeckSpec:
        return DeckSpec(self.rules.deck_size)

    @property
    def n_cards(self) -> int:
        return self.deck.n_cards

    def rank(self, card: int) -> int:
        return card // 4 + self.deck.lowest_rank

    def suit(self, card: int) -> int:
        return card % 4

    def climbers(self, top: int) -> int:
        """The mask of the cards that may go on `top`: the next card of its suit, or
        (`any_higher_same_suit`) every higher one."""
        if self.rank(top) == ACE:
            return 0
        if self.rules.climb_rule == "strict_successor":
            return 1 << (top + 4)
        mask = 0
        for card in range(top + 4, self.n_cards, 4):
            mask |= 1 << card
        return mask

    def shares(self) -> tuple[int, ...]:
        """Cards dealt to each seat, one at a time clockwise from the dealer's left."""
        n, total = self.n_players, self.n_cards
        base, extra = divmod(total, n)
        if self.rules.deal_remainder == "out_of_play":
            extra = 0
        counts = [base] * n
        for k in range(extra):
            counts[(self.dealer + 1 + k) % n] += 1
        return tuple(counts)

    def key(self) -> tuple[object, ...]:
        """What identifies the game in a state hash."""
        return (self.rules.rules_hash(), self.n_players, self.dealer, self.first,
                self.game_index)


@dataclass(frozen=True, slots=True)
class State:
    game: Game
    phase: Phase
    stock: tuple[int, ...]  # the deck before the deal, top first (UNKNOWN in a partial view)
    hands: tuple[int, ...]  # masks of the cards this state knows in each hand
    hidden: tuple[int, ...]  # cards of each hand this state does not know
    shown: int  # cards in hands that everyone has seen (taken from the pile)
    pile: tuple[int, ...]  # the ladder, bottom first
    discard: int  # mask: «отбой», face up
    set_aside: int  # cards out of play face down (`deal_remainder: out_of_play`)
    set_aside_cards: int  # their mask, where known (a full state)
    turn: int  # the seat to act
    out: int  # mask of the seats without cards
    finish: tuple[int, ...]
    idle: int  # takes of a lone card in a row since a card last reached the discard
    result: Result | None = None

    @property
    def n_players(self) -> int:
        return self.game.n_players

    def hand_size(self, seat: int) -> int:
        return self.hands[seat].bit_count() + self.hidden[seat]

    @property
    def top(self) -> int:
        return self.pile[-1] if self.pile else -1

    @property
    def active(self) -> tuple[int, ...]:
        return tuple(s for s in range(self.n_players) if not (self.out >> s) & 1)

    @property
    def full(self) -> bool:
        """Whether this state knows every card (not a partial view)."""
        return not any(self.hidden) and UNKNOWN not in self.stock and \
            self.set_aside == self.set_aside_cards.bit_count()
