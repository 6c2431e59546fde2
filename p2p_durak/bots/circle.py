"""Круговой (hands pass to the left after every bout): the medium bot's two changes.

Every card a seat still holds at the end of a bout goes to its left neighbour, so a hand is
not "yours" for longer than one bout, and heads-up the two players use both hands in turn.
What the usual heuristic is built on — keep the strong cards, throw in cheap ones, make the
defender take — mostly helps whoever holds the hand next. Two things do pay (measured in
seeded medium-vs-random arenas, docs/bots.md):

- While the stock lasts, no throw-ins before a take: a thrown card the defender beats only
  drains the stock faster (both refill), and one he cannot beat is taken and passed back on.
- Once the stock is empty and the view hides no card (heads-up, as soon as the hands have
  swapped once: each saw the hand it passed), look one move ahead: play every legal move out
  to the end with the strong heuristic for all seats and keep the move whose game ends best.
  Who goes out depends on which hand each seat holds in the last bouts, which a fixed rule
  does not see and a playout does.
"""

from __future__ import annotations

from collections.abc import Sequence

from p2p_durak.bots.base import outcome
from p2p_durak.bots.heuristic import STRONG, play_out
from p2p_durak.engine import Action, State, step
from p2p_durak.engine.actions import PASS
from p2p_durak.engine.state import BOUT
from p2p_durak.engine.state import LEAD as PHASE_LEAD


def circle_action(view: State, seat: int, options: Sequence[Action]) -> Action | None:
    """The круговой move for `seat` when one of the two changes applies, else None (play the
    usual heuristic)."""
    if view.phase not in (PHASE_LEAD, BOUT) or len(options) < 2:
        return None
    if not view.stock and not any(view.hidden):
        return _best_playout(view, seat, options)
    pass_ = Action(PASS, seat)
    if view.stock and view.phase == BOUT and seat != view.defender and not view.taking \
            and pass_ in options:
        return pass_
    return None


def _best_playout(view: State, seat: int, options: Sequence[Action]) -> Action:
    """The option whose heuristic playout ends best for `seat` (the first of equals; a playout
    cut off by its cap counts as a draw)."""
    game = view.game
    best, best_value = options[0], -1.0
    for action in options:
        end = play_out(step(view, action), STRONG, True)
        value = outcome(end.result, seat, game.team) if end.result is not None else 0.5
        if value > best_value:
            best, best_value = action, value
    return best
