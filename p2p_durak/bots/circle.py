"""Круговой (hands pass to the left after every bout): the medium bot's two changes.

Every card a seat still holds at the end of a bout goes to its left neighbour, so a hand is
not "yours" for longer than one bout, and heads-up the two players use both hands in turn.
What the usual heuristic is built on — keep the strong cards, throw in cheap ones, make the
defender take — mostly helps whoever holds the hand next. Two things do pay (measured in
seeded medium-vs-random arenas, docs/bots.md):

- While the stock lasts, no throw-ins before a take: a thrown card the defender beats only
  drains the stock faster (both refill), and one he cannot beat is taken and passed back on.
- Once the view knows every card — the stock empty or down to its face-up trump card, and no
  hidden hand card (heads-up, each has seen both hands by then: the one it passed and the one
  it got) — look one move ahead: play every legal move out to the end with the strong
  heuristic for all seats and keep the move whose game ends best.
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


def circle_action(view: State, seat: int, options: Sequence[Action],
                  usual: Action) -> Action | None:
    """The круговой move for `seat` when one of the two changes applies, else None (play
    `usual`, the heuristic's move)."""
    if view.phase not in (PHASE_LEAD, BOUT) or len(options) < 2:
        return None
    if all(card >= 0 for card in view.stock) and not any(view.hidden):
        return _best_playout(view, seat, options, usual)
    pass_ = Action(PASS, seat)
    if view.stock and view.phase == BOUT and seat != view.defender and not view.taking \
            and pass_ in options:
        return pass_
    return None


def _best_playout(view: State, seat: int, options: Sequence[Action], usual: Action) -> Action:
    """The option whose heuristic playout ends best for `seat`: `usual` when it is among the
    best, else the first of them (a playout cut off by its cap counts as a draw)."""
    game = view.game
    values: dict[Action, float] = {}
    for action in options:
        end = play_out(step(view, action), STRONG, True)
        values[action] = outcome(end.result, seat, game.team) if end.result is not None else 0.5
    top = max(values.values())
    if values.get(usual) == top:
        return usual
    return next(action for action in options if values[action] == top)
