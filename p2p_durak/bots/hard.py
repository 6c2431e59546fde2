"""The hard bot: card accounting, determinized search, and an exact endgame.

Each decision (the only legal move aside) first checks whether the deal is known exactly —
no unknown stock card and at most one other hand hiding cards, as heads-up once the stock is
empty or down to its face-up trump card — and then solves the rest of the game with
`EndgameSolver` (alpha-beta, transposition table) within part of the budget. If that proves a
win or a draw, it plays the proving move. Otherwise — unknown cards, a position lost against
perfect play, or a search too big for the budget — it searches over deals sampled from its
`Knowledge` until the time budget (1 s by default), the iteration cap or the choice is settled:
by default the paired rollout search (`rollout.py`: every option played out on the same deals,
the heuristic's choice kept unless another is clearly better), or information-set MCTS
(`search.py`). The playouts play each other seat as its public play so far suggests
(`opponents.py`: the easy heuristic for a seat that has thrown in only what it throws in).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from p2p_durak.bots.endgame import EndgameSolver, OutOfBudget
from p2p_durak.bots.heuristic import STRONG, heuristic_action
from p2p_durak.bots.knowledge import determinize
from p2p_durak.bots.levels import MemoryBot
from p2p_durak.bots.opponents import OpponentModel, Policy
from p2p_durak.bots.rollout import RolloutResult, rollout_search
from p2p_durak.bots.search import SearchResult, ismcts
from p2p_durak.engine import UNKNOWN, Action, Game, State, step

DEFAULT_BUDGET = 1.0
"""Seconds per decision."""

PLAYOUT_STYLE = STRONG

SETTLE_AFTER = 24
MAX_DEALS = 200
"""The rollout search samples at most `MAX_DEALS` deals per decision (each played out once per
option left), and from `SETTLE_AFTER` deals on it stops as soon as its choice is settled (0:
never). Paired over 200 deals, the standard error of an option's advantage is typically about
2 points of win rate: what is still unresolved then is a near-tie, and the time is better not
spent (docs/bots.md, "Cheaper decisions")."""

NEGLIGIBLE = 0.02
"""Below this chance of playing like the easy heuristic a seat is played as strong only."""

CONFIDENT = 0.95
"""From this chance on, a proven draw is given up for a line the easy heuristic loses."""

CLOCKS = {"wall": time.perf_counter, "cpu": time.thread_time}
"""What the budget measures: wall time (play), or the CPU time of the thread that decides
(the arena on a busy machine: "one second of one core" whatever else runs; a thread's time,
so a node's event loop running beside a bot thread is not charged to the bot)."""


class HardBot(MemoryBot):
    level = "hard"

    def __init__(self, seat: int, rng: random.Random, budget: float = DEFAULT_BUDGET,
                 iterations: int = 1_000_000, endgame_nodes: int = 200_000,
                 endgame_share: float = 0.5, playout_memory: bool = True,
                 search: str = "rollout", z: float = 1.0, clock: str = "wall",
                 settle_after: int = SETTLE_AFTER, model_opponents: bool = True,
                 deals: int = MAX_DEALS) -> None:
        super().__init__(seat, rng)
        if budget <= 0 or iterations < 1:
            raise ValueError("the hard bot needs a positive time budget and iteration cap")
        self.budget = budget
        self.iterations = iterations
        self.endgame_nodes = endgame_nodes
        self.endgame_share = endgame_share
        self.playout_memory = playout_memory
        if search not in ("rollout", "ismcts"):
            raise ValueError(f"unknown search {search!r}")
        self.search = search
        self.z = z
        self.settle_after = settle_after
        self.deals = deals
        self.model_opponents = model_opponents
        self.opponents: OpponentModel | None = None
        # the model's own samples: they must not shift the search's random stream
        self.model_rng = random.Random(rng.getrandbits(64))
        if clock not in CLOCKS:
            raise ValueError(f"unknown clock {clock!r} (wall or cpu)")
        self.clock = CLOCKS[clock]
        self.last_rollout: RolloutResult | None = None
        self.last: SearchResult | None = None  # the last search, for benchmarks and tests
        self.last_solved: float | None = None  # the last exact endgame value, if any

    def on_new_game(self, game: Game) -> None:
        super().on_new_game(game)
        self.opponents = OpponentModel(game, self.seat, PLAYOUT_STYLE)

    def on_observed(self, before: State, action: Action, after: State) -> None:
        if self.model_opponents and self.opponents is not None:
            # weighed with the knowledge of just before the move
            self.opponents.update(before, action, self.memory, self.model_rng)
        super().on_observed(before, action, after)

    def policies(self) -> Callable[[random.Random], tuple[Policy, ...]] | None:
        """Draws of the playouts' policy per seat (None: `PLAYOUT_STYLE` seeing the deal for
        all, when no other seat looks like the easy heuristic at all)."""
        model = self.opponents
        if not self.model_opponents or model is None or not model.any_easy(NEGLIGIBLE):
            return None
        return model.policies

    def decide(self, view: State, options: tuple[Action, ...]) -> Action:
        start = self.clock()
        # the search must stop a little early: deciding also costs sampling and bookkeeping
        deadline = start + self.budget * 0.92
        self.last, self.last_rollout, self.last_solved = None, None, None
        known = self.known_deal(view)
        policies = self.policies()
        solved = None
        if known is not None:
            solved = self._solve(known, options, start + self.budget * self.endgame_share)
            if solved is not None and (self.last_solved == 1.0 or self.search != "rollout"
                                       or not self.opponents_easy()):
                return solved  # a proven win, or a proven draw against a strong opponent
        knowledge = self.memory
        if self.search == "rollout":
            default = heuristic_action(view, self.seat, options, knowledge.possible(view),
                                       PLAYOUT_STYLE)
            rolled = rollout_search(self.seat, options, default,
                                    lambda rng: determinize(view, knowledge, rng), self.rng,
                                    deadline=deadline,
                                    max_iterations=min(self.iterations, self.deals),
                                    style=PLAYOUT_STYLE, z=self.z, clock=self.clock,
                                    exact=known is not None, settle_after=self.settle_after,
                                    policies=policies)
            self.last_rollout = rolled
            if solved is not None and rolled.means[rolled.action] < 1.0:
                return solved  # a proven draw, unless the modelled opponent loses anyway
            return rolled.action
        result = ismcts(view, self.seat, options, lambda rng: determinize(view, knowledge, rng),
                        self.rng, deadline=deadline, max_iterations=self.iterations,
                        style=PLAYOUT_STYLE, memory=self.playout_memory, clock=self.clock)
        self.last = result
        return result.action

    def opponents_easy(self) -> bool:
        """Whether every other seat is judged to play like the easy heuristic."""
        return self.model_opponents and self.opponents is not None \
            and self.opponents.judged(CONFIDENT)

    def known_deal(self, view: State) -> State | None:
        """The one deal consistent with the view, when the cards left are all accounted for:
        no unknown stock card, and at most one other hand hiding cards."""
        if UNKNOWN in view.stock or view.hidden_trump == UNKNOWN:
            return None
        if sum(1 for s, h in enumerate(view.hidden) if h and s != self.seat) > 1:
            return None
        return determinize(view, self.memory, self.rng)

    def _solve(self, state: State, options: tuple[Action, ...], deadline: float) -> Action | None:
        solver = EndgameSolver(self.seat, self.endgame_nodes, deadline, self.clock)
        guess = heuristic_action(state, self.seat, options, state.hands, PLAYOUT_STYLE)
        ordered = [guess] + [a for a in options if a != guess]
        best, best_value = None, -1.0
        try:
            for action in ordered:
                value = solver.value(step(state, action), max(best_value, 0.0), 1.0)
                if value > best_value:
                    best, best_value = action, value
                if best_value >= 1.0:
                    break
        except OutOfBudget:
            return None
        self.last_solved = best_value
        if best_value <= 0.0:
            return None  # lost against perfect play: let the search find the best try
        return best
