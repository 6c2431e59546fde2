"""The bot levels, by name: random, easy, medium, hard."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from p2p_durak.bots.base import Bot
from p2p_durak.bots.circle import circle_action
from p2p_durak.bots.heuristic import EASY, STRONG, heuristic_action
from p2p_durak.bots.knowledge import Knowledge
from p2p_durak.bots.random_bot import RandomBot as _UniformPolicy
from p2p_durak.engine import Action, Game, State


class RandomBot(Bot):
    """A uniformly random legal action (the colleague's `random_bot` policy, as a peer)."""

    level = "random"
    plays_blind = False
    plays_dummy = False

    def __init__(self, seat: int, rng: random.Random) -> None:
        super().__init__(seat, rng)
        self._policy = _UniformPolicy(rng)

    def decide(self, view: State, options: tuple[Action, ...]) -> Action:
        return self._policy.choose(view, self.seat)


class EasyBot(Bot):
    """The cheapest card that does the job, trumps kept; no card memory."""

    level = "easy"

    def decide(self, view: State, options: tuple[Action, ...]) -> Action:
        return heuristic_action(view, self.seat, options, None, EASY)

    def decide_dummy(self, view: State, dummy: int, options: tuple[Action, ...]) -> Action:
        return heuristic_action(view, dummy, options, None, EASY)


class MemoryBot(Bot):
    """A bot with card accounting: a `Knowledge` model fed by every public action."""

    def __init__(self, seat: int, rng: random.Random) -> None:
        super().__init__(seat, rng)
        self.knowledge: Knowledge | None = None

    def on_new_game(self, game: Game) -> None:
        self.knowledge = Knowledge(game, self.seat)

    def on_observed(self, before: State, action: Action, after: State) -> None:
        self.memory.update(before, action, after)

    def learn_hand(self, seat: int, cards: Sequence[int]) -> None:
        super().learn_hand(seat, cards)
        self.memory.shown(seat, cards)

    def decide_dummy(self, view: State, dummy: int, options: tuple[Action, ...]) -> Action:
        # (the hard bot too: its search is for its own seat; the dummy's moves follow the
        # heuristic with this bot's card accounting)
        return heuristic_action(view, dummy, options, self.memory.possible(view), MEDIUM)

    @property
    def memory(self) -> Knowledge:
        if self.knowledge is None:
            raise RuntimeError("new_game() first")
        return self.knowledge


MEDIUM = STRONG


class MediumBot(MemoryBot):
    """The heuristic, plus exact accounting of every public card: it leads and throws in
    what the defender cannot hold a beater for. Круговой changes two things (`circle`)."""

    level = "medium"

    def decide(self, view: State, options: tuple[Action, ...]) -> Action:
        usual = heuristic_action(view, self.seat, options, self.memory.possible(view), MEDIUM)
        if view.game.tables.rotate:
            return circle_action(view, self.seat, options, usual) or usual
        return usual


LEVELS = ("random", "easy", "medium", "hard")


def make_bot(level: str, seat: int, rng: random.Random, **options: Any) -> Bot:
    """A bot of a level; `options` go to the hard bot (budget, iterations)."""
    factories: dict[str, Callable[..., Bot]] = {
        "random": RandomBot, "easy": EasyBot, "medium": MediumBot}
    if level == "hard":
        from p2p_durak.bots.hard import HardBot
        return HardBot(seat, rng, **options)
    if level not in factories:
        raise ValueError(f"unknown bot level {level!r} (one of {', '.join(LEVELS)})")
    return factories[level](seat, rng)
