"""Actions: what a seat (or chance) does. Plain tuples, so they are cheap, hashable and sortable."""

from __future__ import annotations

from enum import IntEnum
from typing import Final, NamedTuple

CHANCE: Final = -1
"""The pseudo-seat that acts in chance phases (deal, reveals, lots): OpenSpiel's chance player."""


BLIND_BASE: Final = 512
"""оборотный: a card id from here up names a position in the actor's own hand (id - BLIND_BASE)
instead of a card: the pick of a player who cannot see his cards. Only his own view lists such
picks; the networked table opens the card at that position and applies the action with the
card it holds (`resolve_pick`). The engine itself refuses them (no such card)."""


class Kind(IntEnum):
    DEAL = 0
    REVEAL = 1  # chance: a card becomes public (the trump card, the hidden trump)
    LOT = 2  # chance: a seat drawn by lot
    CLAIM = 3  # show one's lowest trump to decide who leads first
    NO_TRUMP = 4  # declare holding no trump
    LEAD = 5
    THROW = 6
    BEAT = 7
    TRANSFER = 8
    SHOW = 9  # transfer by showing a trump of the attack rank
    TAKE = 10
    PASS = 11
    SHUFFLE = 12  # chance: отбойный puts a defended bout back into the stock, shuffled
    NAME_TRUMP = 13  # Король-говно: the King names the trump suit (target: the suit)
    CONCEDE = 14  # the seat gives the game up and is the durak (never in `legal_actions`)
    LEAD_STOCK = 15  # армянский: lead the top stock card unseen (chance then reveals it)
    LEAVE = 16  # the seat leaves the table between bouts (never in `legal_actions`)
    CAPTURE = 17  # a pre-game phase: the drawn card takes this face-up card (cards: it)
    CHAIN = 18  # крестовый: lay this card for the next player, taking the first card of the move
    COVER = 19  # верю не верю: cover an attack card face down (target: its index); the card is
    # named in a full state and its author's view, not in the public form the others apply
    CHALLENGE = 20  # верю не верю: «сомневаюсь» about the cover at `target`
    EXCHANGE = 21  # покерный: the defender swaps two cards with the stock; the two he gives
    # are named in a full state and his own view, not in the public form
    SEND_BACK = 22  # щелковский (over_limit_policy: defender_chooses): the defender sends this
    # uncovered thrown-in card back to its thrower while more than the limit are thrown in


# Module-level ints: the engine's hot paths compare these, not enum members.
DEAL: Final = 0
REVEAL: Final = 1
LOT: Final = 2
CLAIM: Final = 3
NO_TRUMP: Final = 4
LEAD: Final = 5
THROW: Final = 6
BEAT: Final = 7
TRANSFER: Final = 8
SHOW: Final = 9
TAKE: Final = 10
PASS: Final = 11
SHUFFLE: Final = 12
NAME_TRUMP: Final = 13
CONCEDE: Final = 14
LEAD_STOCK: Final = 15
LEAVE: Final = 16
CAPTURE: Final = 17
CHAIN: Final = 18
COVER: Final = 19
CHALLENGE: Final = 20
EXCHANGE: Final = 21
SEND_BACK: Final = 22
N_KINDS: Final = 23


class Action(NamedTuple):
    kind: int
    seat: int
    cards: tuple[int, ...] = ()
    target: int = -1  # BEAT, COVER, CHALLENGE: index of the attack card on the table; LOT: the
    # seat drawn; NAME_TRUMP: the suit named

    def describe(self, card_text: object = None) -> str:
        name = Kind(self.kind).name.lower()
        parts = [name, f"seat={self.seat}"]
        if self.cards:
            text = card_text if callable(card_text) else str
            parts.append("cards=" + ",".join(str(text(c)) for c in self.cards))
        if self.target >= 0:
            parts.append(f"target={self.target}")
        return " ".join(parts)


def deal() -> Action:
    return Action(DEAL, CHANCE)


def announce_suit(suit: int) -> Action:
    """невидимый: chance announces only the suit of the bottom stock card (the trump)."""
    return Action(REVEAL, CHANCE, (), suit)


def shuffle(variant: int) -> Action:
    """отбойный: chance reshuffles the stock; `variant` (0..63) picks the order a full state
    (a simulation) takes — on the network the deck's shuffle decides and no view knows it."""
    return Action(SHUFFLE, CHANCE, (), variant)


def reveal(card: int) -> Action:
    return Action(REVEAL, CHANCE, (card,))


def lot(seat: int) -> Action:
    return Action(LOT, CHANCE, (), seat)


def claim(seat: int, card: int) -> Action:
    return Action(CLAIM, seat, (card,))


def no_trump(seat: int) -> Action:
    return Action(NO_TRUMP, seat)


def lead(seat: int, *cards: int) -> Action:
    return Action(LEAD, seat, tuple(sorted(cards)))


def throw(seat: int, card: int) -> Action:
    return Action(THROW, seat, (card,))


def beat(seat: int, card: int, target: int) -> Action:
    return Action(BEAT, seat, (card,), target)


def transfer(seat: int, card: int) -> Action:
    return Action(TRANSFER, seat, (card,))


def show(seat: int, card: int) -> Action:
    return Action(SHOW, seat, (card,))


def cover(seat: int, card: int | None, target: int) -> Action:
    """верю не верю: a face-down cover; `card` None gives the public form (the card unnamed)."""
    return Action(COVER, seat, () if card is None else (card,), target)


def public_form(action: Action) -> Action:
    """The action as the seats other than its author see it: a cover (верю не верю) or an
    exchange (покерный) without its cards."""
    if action.kind == COVER or action.kind == EXCHANGE:
        return Action(action.kind, action.seat, (), action.target)
    return action


def exchange(seat: int, *cards: int) -> Action:
    """покерный: give `cards` (two) back to the stock for its top two; none: the public form."""
    return Action(EXCHANGE, seat, tuple(sorted(cards)))


def send_back(seat: int, card: int) -> Action:
    """щелковский, `over_limit_policy: defender_chooses`: the defender sends `card` (a thrown-in
    card on the table, not yet beaten) back to the player who threw it in."""
    return Action(SEND_BACK, seat, (card,))


def challenge(seat: int, target: int) -> Action:
    return Action(CHALLENGE, seat, (), target)


def take(seat: int) -> Action:
    return Action(TAKE, seat)


def pass_(seat: int) -> Action:
    return Action(PASS, seat)


def name_trump(seat: int, suit: int) -> Action:
    return Action(NAME_TRUMP, seat, (), suit)


def lead_stock(seat: int) -> Action:
    """армянский: «ход ... с верхней карты колоды» — blind, the card is revealed as it is led."""
    return Action(LEAD_STOCK, seat)


def capture(seat: int, card: int) -> Action:
    return Action(CAPTURE, seat, (card,))


def chain(seat: int, card: int) -> Action:
    return Action(CHAIN, seat, (card,))


def concede(seat: int) -> Action:
    return Action(CONCEDE, seat)


def pick(template: Action, position: int) -> Action:
    """оборотный: the play `template` (an action without its card) with the card at `position`
    of the actor's hand, which he does not see."""
    return Action(template.kind, template.seat, (BLIND_BASE + position,), template.target)


def pick_position(action: Action) -> int:
    """The hand position an action picks blind, or -1 when it names its cards."""
    if len(action.cards) == 1 and action.cards[0] >= BLIND_BASE:
        return action.cards[0] - BLIND_BASE
    return -1


def resolve_pick(action: Action, card: int) -> Action:
    """A blind pick with the card that turned out to be at its position."""
    return Action(action.kind, action.seat, (card,), action.target)


def leave(seat: int, cards: tuple[int, ...]) -> Action:
    """The seat leaves between bouts; `cards`: its whole hand, opened to all as it goes."""
    return Action(LEAVE, seat, tuple(sorted(cards)))


def encode_action(action: Action) -> tuple[int, int, tuple[int, ...], int]:
    """The canonical wire form (a fixed-order array); `decode_action` is strict."""
    return (action.kind, action.seat, tuple(action.cards), action.target)


def decode_action(raw: object) -> Action:
    if not (isinstance(raw, (tuple, list)) and len(raw) == 4):
        raise ValueError("an action is an array of 4 items")
    kind, seat, cards, target = raw
    if not all(type(x) is int for x in (kind, seat, target)):
        raise ValueError("action kind, seat and target are integers")
    if kind not in range(N_KINDS):
        raise ValueError(f"unknown action kind {kind}")
    if not isinstance(cards, (tuple, list)) or len(cards) > 16:
        raise ValueError("action cards are an array of at most 16 integers")
    if not all(type(c) is int and 0 <= c < 1024 for c in cards):
        raise ValueError("card ids are small non-negative integers")
    if not -1 <= seat < 16 or not -1 <= target < 64:
        raise ValueError("seat or target out of range")
    return Action(kind, seat, tuple(cards), target)
