"""Seat arithmetic: who sits next, who is an opponent, whose turn it is to claim."""

from __future__ import annotations

from p2p_durak.engine.state import State


def next_active(state: State, seat: int, direction: int) -> int:
    n = state.game.n_players
    for step_ in range(1, n + 1):
        other = (seat + direction * step_) % n
        if not (state.out >> other) & 1:
            return other
    return seat


def next_opponent(state: State, seat: int) -> int:
    game = state.game
    n = game.n_players
    for step_ in range(1, n):
        other = (seat + step_) % n
        if not (state.out >> other) & 1 and game.opponents(seat, other):
            return other
    return seat


def neighbours(state: State, seat: int) -> tuple[int, int]:
    return (next_active(state, seat, -1), next_active(state, seat, 1))


def claimant(state: State) -> int:
    return (state.game.dealer + 1 + len(state.claims)) % state.game.n_players
