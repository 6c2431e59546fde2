"""Verdicts: a seat gives the game up (`CONCEDE`).

A concession is not a move of the game the rules describe: it is how a table ends a game early
with a clear loser, e.g. when a player's turn timer runs out at a table whose policy is "the
player loses". `legal_actions` never lists it (a bot or a playout would never choose it), but
`apply` accepts it from any seat still in the game, in any phase until the game is over,
whoever's turn it is: the seat's own signature on the log is what makes it count.

The conceding seat is the durak; with teams its whole team (those of its members still
holding cards) loses, as a team loses when its last member is left holding cards.
"""

from __future__ import annotations

from p2p_durak.engine import events as E
from p2p_durak.engine.actions import Action
from p2p_durak.engine.errors import IllegalAction, Reason
from p2p_durak.engine.events import EventSink
from p2p_durak.engine.state import OVER, Result, State


def on_concede(state: State, action: Action, ev: EventSink) -> State:
    seat = action.seat
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
