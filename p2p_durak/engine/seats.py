"""Seat arithmetic: who sits next, who is an opponent, whose turn it is to claim."""

from __future__ import annotations

from p2p_durak.engine.state import State
from p2p_durak.engine.tables import GameTables


def next_active_of(n: int, out: int, seat: int, direction: int) -> int:
    """The next seat in `direction` (1 clockwise, -1 anticlockwise) not in the `out` mask."""
    for step_ in range(1, n + 1):
        other = (seat + direction * step_) % n
        if not (out >> other) & 1:
            return other
    return seat


def next_opponent_of(t: GameTables, out: int, seat: int) -> int:
    n = t.n_players
    team = t.team
    for step_ in range(1, n):
        other = (seat + step_) % n
        if not (out >> other) & 1 and team[seat] != team[other]:
            return other
    return seat


def defender_for(t: GameTables, out: int, attacker: int) -> int:
    """Whom `attacker` attacks: the next active opponent or the next active seat."""
    if t.attack_next_opponent:
        return next_opponent_of(t, out, attacker)
    return next_active_of(t.n_players, out | t.dummy_skip, attacker, 1)


def transfer_target_of(t: GameTables, out: int, defender: int) -> int:
    """Whom a transfer by `defender` passes the attack to."""
    if t.transfer_next_opponent:
        return next_opponent_of(t, out, defender)
    return next_active_of(t.n_players, out | t.dummy_skip, defender, 1)


def next_active(state: State, seat: int, direction: int) -> int:
    return next_active_of(state.game.n_players, state.out, seat, direction)


def next_opponent(state: State, seat: int) -> int:
    return next_opponent_of(state.game.tables, state.out, seat)


def neighbours(state: State, seat: int) -> tuple[int, int]:
    return (next_active(state, seat, -1), next_active(state, seat, 1))


def claimant(state: State) -> int:
    seats = state.game.claim_seats
    if len(state.claims) >= len(seats) and state.actors:
        return state.actors[0]  # щелковский's tie-break rounds (setup.claim_round)
    return seats[len(state.claims)]


def acting_party(state: State, seat: int) -> int:
    """The player who acts for `seat`: himself, or (с болваном) for the dummy its current
    controller, whose node sends the dummy's throw-ins and passes."""
    return state.controller if seat == state.game.dummy else seat
