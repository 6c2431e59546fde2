"""Taking cards out of hands in a full state or a partial view."""

from __future__ import annotations

from p2p_durak.engine.errors import IllegalAction, Reason
from p2p_durak.engine.state import State, known_cards


def holds(state: State, seat: int, card: int) -> bool:
    if (state.hands[seat] >> card) & 1:
        return True
    return state.hidden[seat] > 0 and not (known_cards(state) >> card) & 1


def without(hands: tuple[int, ...], hidden: tuple[int, ...], seat: int,
            card: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """`card` taken from `seat`'s hand: from the known part, or else from the hidden count."""
    hand = hands[seat]
    if (hand >> card) & 1:
        return hands[:seat] + (hand & ~(1 << card),) + hands[seat + 1:], hidden
    return hands, hidden[:seat] + (hidden[seat] - 1,) + hidden[seat + 1:]


def check_card(state: State, seat: int, card: int) -> None:
    if not 0 <= card < state.game.n_cards or not holds(state, seat, card):
        raise IllegalAction(Reason.NOT_IN_HAND, f"seat {seat}, card {card}")
