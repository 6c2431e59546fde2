"""The random bot: a uniformly random legal action, from a `random.Random` it is given.

The baseline every other bot is measured against, and the driver of the simulator, the
benchmark and the engine's property tests. It owns no randomness of its own: the caller
passes the generator, so a seed reproduces every choice.
"""

from __future__ import annotations

import random

from p2p_durak.engine import Action, State, legal_actions


class RandomBot:
    """Picks uniformly among `legal_actions(state, seat)`."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, state: State, seat: int) -> Action:
        options = legal_actions(state, seat)
        if not options:
            raise ValueError(f"seat {seat} has no legal action in this state")
        return options[self.rng.randrange(len(options))]
