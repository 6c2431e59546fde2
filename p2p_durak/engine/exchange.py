"""Дурак покерный: the defender swaps two cards with the stock before defending.

«Игрок, который отбивается, имеет перед тем как отбиться, поменять две свои любые карты на две
карты в колоде при условии, если у игрока не более шести карт.»
(shared/seeds/000_0a1bcdd496bc6662.txt, «Дурак покерный»)

The catalogue's reading: exactly two cards, once per bout per defender (each new defender after
a transfer too), before his first defensive move; he draws the stock's top two, and the two he
gave go into the stock's face-down part, shuffled (the turned trump card stays at the bottom;
`return_to: top | bottom` are the table's other choices). He holds at most six cards then, and
the stock has at least two face-down cards.

Like a face-down cover (верю не верю), one log entry takes two forms: a full state and the
defender's own view name the given cards (`exchange(seat, a, b)`), every other view applies the
public form `exchange(seat)` (the two leave his hand unseen; a view that knew some of his cards
no longer knows which are left). The shuffle is chance (`shuffle(k)`, phase EXCHANGE): a
simulation takes one of 64 seeded orders, the network sends `shuffle(64)`, the deck's own
order, which no view knows.
"""

from __future__ import annotations

from itertools import combinations

from p2p_durak.engine import events as E
from p2p_durak.engine.actions import CHANCE, EXCHANGE, Action, shuffle
from p2p_durak.engine.bout import DECK_ORDER, _settle
from p2p_durak.engine.cards import cards_of
from p2p_durak.engine.errors import IllegalAction, Reason
from p2p_durak.engine.events import EventSink
from p2p_durak.engine.hands import check_card, without
from p2p_durak.engine.state import BOUT, UNKNOWN, State
from p2p_durak.engine.state import EXCHANGE as PHASE_EXCHANGE
from p2p_durak.engine.xorshift import shuffled

COUNT = 2  # «поменять две свои любые карты»: exactly two (the catalogue's reading)
MAX_HAND = 6  # «при условии, если у игрока не более шести карт»


def _bottom(state: State) -> int:
    """1 while the turned trump card lies face up at the bottom of the stock, else 0."""
    stock = state.stock
    return 1 if stock and stock[-1] == state.trump_card >= 0 else 0


def may_exchange(state: State, seat: int) -> bool:
    """The defender, before his first defensive move of the bout (nothing covered, no «беру»),
    not having exchanged in this bout, with two to six cards, and two face-down stock cards."""
    return (seat == state.defender and not (state.swapped >> seat) & 1 and not state.taking
            and all(c == UNKNOWN for c in state.covers)
            and COUNT <= state.hand_size(seat) <= MAX_HAND
            and len(state.stock) - _bottom(state) >= COUNT)


def exchange_options(state: State, seat: int) -> list[Action]:
    """Every pair of the hand's cards the defender may give, sorted (none in a view of
    another seat's hand)."""
    if not may_exchange(state, seat):
        return []
    return [Action(EXCHANGE, seat, pair) for pair in combinations(cards_of(state.hands[seat]),
                                                                  COUNT)]


def on_exchange(state: State, action: Action, ev: EventSink) -> State:
    seat = action.seat
    t = state.game.tables
    if not t.exchange:
        raise IllegalAction(Reason.NO_EXCHANGE, "this variant has no exchange")
    if action.target != -1 or not may_exchange(state, seat):
        raise IllegalAction(Reason.NO_EXCHANGE)
    cards = action.cards
    if cards:
        if len(cards) != COUNT or cards[0] >= cards[1]:
            raise IllegalAction(Reason.BAD_ACTION, "two distinct cards, in ascending order")
        hands, hidden = state.hands, state.hidden
        for card in cards:
            check_card(state, seat, card)
            hands, hidden = without(hands, hidden, seat, card)
        given: tuple[int, ...] = cards
    else:
        # the public form: which cards left is unseen; the view forgets the ones it knew
        size = state.hand_size(seat)
        hands = state.hands[:seat] + (0,) + state.hands[seat + 1:]
        hidden = state.hidden[:seat] + (size - COUNT,) + state.hidden[seat + 1:]
        given = (UNKNOWN,) * COUNT
    drawn, stock = state.stock[:COUNT], state.stock[COUNT:]
    known = tuple(c for c in drawn if c >= 0)
    hand = hands[seat]
    for card in known:
        hand |= 1 << card
    hands = hands[:seat] + (hand,) + hands[seat + 1:]
    hidden = hidden[:seat] + (hidden[seat] + COUNT - len(known),) + hidden[seat + 1:]
    if ev is not None:
        ev.append(E.Exchanged(seat, COUNT, tuple(c for c in given if c >= 0), known))
    bottom = stock[len(stock) - _bottom(state):]
    face_down = stock[:len(stock) - len(bottom)]
    swapped = state.swapped | (1 << seat)
    if t.exchange_return == 1:  # on top
        stock = given + stock
    elif t.exchange_return == 2:  # at the bottom, above the turned trump card
        stock = face_down + given + bottom
    else:
        # shuffled in: the given cards wait above the others for chance's shuffle
        state = state._replace(hands=hands, hidden=hidden, stock=given + stock,
                               phase=PHASE_EXCHANGE, actors=(CHANCE,), swapped=swapped)
        return state
    state = state._replace(stock=stock, swapped=swapped)
    return _settle(state, state.phase, hands, hidden, state.table, state.covers, state.table_by,
                   state.defender, False, state.passed, state.shown, state.table_ranks, ev)


def exchange_outcomes(state: State) -> list[Action]:
    return [shuffle(k) for k in range(64)]


def on_exchange_shuffle(state: State, action: Action, ev: EventSink) -> State:
    """Chance shuffles the stock's face-down part (the given cards in it): in a full state
    the order `variant` (0..63) gives; with DECK_ORDER (the network deck's) or in a view nobody
    knows it."""
    variant = action.target
    if action.cards or not 0 <= variant <= DECK_ORDER:
        raise IllegalAction(Reason.BAD_CHANCE, "a shuffle names an order 0..64 and no card")
    stock = state.stock
    bottom = stock[len(stock) - _bottom(state):]
    face_down = list(stock[:len(stock) - len(bottom)])
    if variant == DECK_ORDER or UNKNOWN in face_down:
        new = (UNKNOWN,) * len(face_down) + bottom
    else:
        new = tuple(shuffled(face_down, variant * 4099 + state.bout)) + bottom
    if ev is not None:
        ev.append(E.StockShuffled(len(new)))
    state = state._replace(stock=new, phase=BOUT)
    return _settle(state, BOUT, state.hands, state.hidden, state.table, state.covers,
                   state.table_by, state.defender, state.taking, state.passed, state.shown,
                   state.table_ranks, ev)
