"""Playing the dummy's cards (Дурак с болваном) for its controller.

The dummy never attacks, defends or loses, so its cards are a free resource of whoever controls
it: every card of it thrown in loads the defender and costs the controller nothing. The policy
throws in the dummy's lowest card that fits (plain cards before trumps, which load the defender
the most when the bout is nearly over), and never throws at the controller himself, who
defends in some bouts under `game_first_attacker` control. It reads only the public state and
the dummy's hand, both of which the controller sees, so a bot seated at the dummy's seat plays
it as the controller's own bot would.
"""

from __future__ import annotations

from p2p_durak.engine import Action, State
from p2p_durak.engine import actions as A


def dummy_action(view: State, seat: int, options: tuple[Action, ...]) -> Action:
    """The dummy's throw-in or pass among `options` (the dummy seat's legal actions)."""
    passing = A.pass_(seat)
    throws = [a for a in options if a.kind == A.THROW]
    if not throws or view.defender == view.controller:
        return passing if passing in options else options[0]
    game = view.game
    trumps = game.trump_mask(view.trump)
    return min(throws, key=lambda a: (sum((trumps >> c) & 1 for c in a.cards),
                                      sum(game.rank[c] for c in a.cards), a.cards))
