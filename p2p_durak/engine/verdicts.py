"""Verdicts: a seat gives the game up (`CONCEDE`), or leaves the table (`LEAVE`).

A concession is not a move of the game the rules describe: it is how a table ends a game early
with a clear loser, e.g. when a player's turn timer runs out at a table whose policy is "the
player loses". `legal_actions` never lists it (a bot or a playout would never choose it), but
`apply` accepts it from any seat still in the game, in any phase until the game is over,
whoever's turn it is: the seat's own signature on the log is what makes it count.

The conceding seat is the durak; with teams its whole team (those of its members still
holding cards) loses, as a team loses when its last member is left holding cards.

A seat that leaves on purpose (`LEAVE`, also never listed) does so between bouts, when the
table is empty (phase LEAD): its whole hand, which its going shows to everyone, goes to the
discard; it is out of the game, neither a winner nor the durak; the lead passes to its left
neighbour when it was its own, and whoever it would have defended against attacks the next
seat. Where the others could not play on fairly without it, its leave is a concession (it is
the durak): with two seats left in the game, when it is the last of its team in the game, in a
scored game (the points need every seat to the end), or with locked cards before it
(магаданский). See docs/rules.md, "Leaving mid-game".

A game is also lost by forfeit (`forfeit`, not an action: the table decides it from its log):
a seat the end-of-game audit caught lying (a false «нет козыря», a trump shown that was not
the lowest), or one that abandoned the game mid-way. The forfeiting seats are the durak, with
teams their whole teams, whatever the play said; the finishing order and a scored game's
points stay as played. See docs/rules.md, "Forfeits".
"""

from __future__ import annotations

from p2p_durak.engine import events as E
from p2p_durak.engine.actions import Action
from p2p_durak.engine.bout import next_controller
from p2p_durak.engine.errors import IllegalAction, Reason
from p2p_durak.engine.events import EventSink
from p2p_durak.engine.seats import defender_for, next_active_of
from p2p_durak.engine.setup import evolve
from p2p_durak.engine.state import LEAD, OVER, Result, State


def _no_dummy(state: State, seat: int) -> None:
    """с болваном: the dummy is no player; it neither gives up nor leaves."""
    if seat == state.game.dummy:
        raise IllegalAction(Reason.NOT_YOUR_TURN, "the dummy is no player")


def on_concede(state: State, action: Action, ev: EventSink) -> State:
    seat = action.seat
    _no_dummy(state, seat)
    if state.phase == OVER:
        raise IllegalAction(Reason.GAME_OVER)
    if (state.out >> seat) & 1:
        raise IllegalAction(Reason.ALREADY_OUT, f"seat {seat}")
    game = state.game
    if game.rules.teams != "none":
        team = game.team[seat]
        durak = tuple(s for s in range(game.n_players)
                      if game.team[s] == team and not (state.out >> s) & 1)
    else:
        durak = (seat,)
    result = Result(durak, False, 0, state.finish)
    if ev is not None:
        ev.append(E.Conceded(seat))
        ev.append(E.GameOver(durak, False, 0))
    return state._replace(phase=OVER, result=result, actors=(), passed=0, taking=False)


def _leave_is_concession(state: State, seat: int) -> bool:
    game = state.game
    n = game.n_players
    in_game = [s for s in range(n) if not ((state.out | game.tables.dummy_bit) >> s) & 1]
    if len(in_game) <= 2 or game.tables.counter:
        return True
    if state.locked and state.locked[seat]:
        return True
    if game.rules.teams != "none":
        return not any(s != seat and game.team[s] == game.team[seat] for s in in_game)
    return False


def on_leave(state: State, action: Action, ev: EventSink) -> State:
    seat = action.seat
    _no_dummy(state, seat)
    if state.phase == OVER:
        raise IllegalAction(Reason.GAME_OVER)
    if (state.out >> seat) & 1:
        raise IllegalAction(Reason.ALREADY_OUT, f"seat {seat}")
    if state.phase != LEAD:
        raise IllegalAction(Reason.WRONG_PHASE, "a player leaves between bouts")
    cards = action.cards
    mask = 0
    for card in cards:
        if not 0 <= card < state.game.n_cards or (mask >> card) & 1:
            raise IllegalAction(Reason.BAD_ACTION, "the hand names each card once")
        mask |= 1 << card
    known = state.hands[seat]
    if known & ~mask or len(cards) != known.bit_count() + state.hidden[seat]:
        raise IllegalAction(Reason.NOT_IN_HAND, "a leave shows the whole hand")
    if mask & state.discard:
        raise IllegalAction(Reason.NOT_IN_HAND, "a card of that hand is in the discard")
    if _leave_is_concession(state, seat):
        return on_concede(state, action, ev)
    n = state.game.n_players
    out = state.out | (1 << seat)
    attacker = state.attacker
    t = state.game.tables
    if attacker == seat:
        attacker = next_active_of(n, out | t.dummy_skip, seat, 1)
    defender = defender_for(t, out, attacker)
    if t.dummy >= 0:
        # с болваном: a controller who leaves hands the dummy on (bout_attacker: the attacker)
        state = state._replace(controller=next_controller(t, state.controller, attacker, out))
    hands = state.hands[:seat] + (0,) + state.hands[seat + 1:]
    hidden = state.hidden[:seat] + (0,) + state.hidden[seat + 1:]
    if ev is not None:
        ev.append(E.Left(seat, cards))
    return evolve(state._replace(out=out), phase=LEAD, hands=hands, hidden=hidden,
                  attacker=attacker, defender=defender, discard=state.discard | mask)


def forfeit(state: State, seats: tuple[int, ...]) -> State:
    """The game lost by `seats` (each with its team): the game is over, they are the durak,
    nobody else is (a draw no longer), and a фигурный winner among them wins no more."""
    game = state.game
    if not seats or any(not 0 <= s < game.n_players or s == game.dummy for s in seats):
        raise ValueError(f"a forfeit names player seats, not {seats}")
    teams = {game.team[s] for s in seats}
    losers = tuple(s for s in range(game.n_players)
                   if s in seats or (game.rules.teams != "none" and game.team[s] in teams))
    before = state.result
    finish = before.finish if before is not None else state.finish
    scores = before.scores if before is not None else ()
    winners = tuple(s for s in before.winners if s not in losers) if before is not None else ()
    result = Result(losers, False, 0, finish, scores, winners)
    return state._replace(phase=OVER, result=result, actors=(), passed=0, taking=False)
