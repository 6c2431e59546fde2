"""What every node agrees on (the public view and its hash) and one seat's partial view."""

from __future__ import annotations

import hashlib
from dataclasses import replace

from p2p_durak.engine.canonical import encode
from p2p_durak.engine.games.chukhonsky.state import UNKNOWN, State


def public_view(state: State) -> tuple[object, ...]:
    """The public facts of a state: equal for the full state and every seat's partial view of
    it. Hands appear as counts and their face-up cards (taken from the pile)."""
    result = state.result
    return (
        "chukhonsky", state.game.key(), int(state.phase),
        tuple(state.hand_size(s) for s in range(state.n_players)),
        tuple(h & state.shown for h in state.hands), state.pile, state.discard,
        state.set_aside, state.turn, state.out, state.finish, state.idle,
        None if result is None else (result.durak, result.draw, result.finish,
                                     int(result.reason)),
    )


def state_hash(state: State) -> bytes:
    return hashlib.sha256(encode(public_view(state))).digest()


def private_view(state: State, seat: int) -> State:
    """`seat`'s partial view of a full state: its own hand, the others' face-up cards and
    counts; the deck order and the cards set aside unknown."""
    hands, hidden = [], []
    for other, hand in enumerate(state.hands):
        known = hand if other == seat else hand & state.shown
        hands.append(known)
        hidden.append(state.hidden[other] + (hand & ~known).bit_count())
    return replace(state, stock=(UNKNOWN,) * len(state.stock), hands=tuple(hands),
                   hidden=tuple(hidden), set_aside_cards=0)
