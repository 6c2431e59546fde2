"""Exact endgame search: alpha-beta with a transposition table over fully known positions.

Once no card is unseen but in one other hand — heads-up, as soon as the stock is empty or
down to its face-up trump card — the rest of the game has perfect information. The solver
plays it out with the same turn model as the simulations (`priority_actor`: the defender
answers, then the throwers throw or pass) and scores each position for `root`'s side: 1 when
it is not the durak, ½ for a draw, 0 when it is. With more than two seats the other seats are
assumed to play together against `root` (paranoid search), which is sound for "can I avoid
losing" and pessimistic otherwise; a position repeating on the search path (taking in turn can
cycle with three or more seats) scores ½, and the transposition table then ignores that the
value came from a repetition — an approximation only multi-seat searches meet.

Even perfect-information Durak is PSPACE-complete (Bonnet, IJCAI 2016), so the search has a
node budget and an optional deadline and gives up (returns None) rather than run long.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable

from p2p_durak.bots.base import outcome, priority_actor
from p2p_durak.bots.heuristic import STRONG, heuristic_action
from p2p_durak.engine import CHANCE, Action, State, chance_outcome, legal_actions, step
from p2p_durak.engine.state import OVER

EXACT, LOWER, UPPER = 0, 1, 2


MAX_DEPTH = 300
"""Plies the search may nest before it gives up: each is two Python frames, and a line longer
than the interpreter's recursion limit (1,000) raised `RecursionError` out of the hard bot's
move (круговой at six seats, where taking in turn keeps the cards moving without a repetition
on the path)."""


class OutOfBudget(Exception):
    pass


class EndgameSolver:
    """Solve fully known positions for `root`'s side."""

    def __init__(self, root: int, node_limit: int = 200_000,
                 deadline: float | None = None,
                 clock: Callable[[], float] = time.perf_counter,
                 max_depth: int = MAX_DEPTH) -> None:
        self.root = root
        self.max_depth = max_depth
        self._depth = 0
        self.node_limit = node_limit
        self.deadline = deadline
        self.clock = clock
        self.nodes = 0
        self.table: dict[Hashable, tuple[float, int, Action | None]] = {}
        self._path: set[Hashable] = set()

    def solve(self, state: State) -> tuple[float, Action | None] | None:
        """(value, best action of the seat to move) or None when the budget ran out."""
        if not state.is_full:
            raise ValueError("the endgame solver needs a full state")
        try:
            value = self._search(state, 0.0, 1.0)
        except OutOfBudget:
            return None
        entry = self.table.get(_key(state))
        return value, (entry[2] if entry else None)

    def root_values(self, state: State) -> dict[Action, float] | None:
        """The exact value of every option of the seat to move (None: out of budget)."""
        seat = priority_actor(state)
        values: dict[Action, float] = {}
        try:
            for action in legal_actions(state, seat):
                values[action] = self._search(step(state, action), 0.0, 1.0)
        except OutOfBudget:
            return None
        return values

    def value(self, state: State, alpha: float = 0.0, beta: float = 1.0) -> float:
        """The position's value for `root`'s side, exact when inside (alpha, beta); raises
        `OutOfBudget`."""
        return self._search(state, alpha, beta)

    def _search(self, state: State, alpha: float, beta: float) -> float:
        if self._depth >= self.max_depth:
            raise OutOfBudget
        self._depth += 1
        try:
            return self._search_deeper(state, alpha, beta)
        finally:
            self._depth -= 1

    def _search_deeper(self, state: State, alpha: float, beta: float) -> float:
        if state.phase == OVER:
            assert state.result is not None
            return outcome(state.result, self.root, state.game.team)
        self.nodes += 1
        if self.nodes > self.node_limit or (
                self.deadline is not None and not self.nodes & 255
                and self.clock() > self.deadline):
            raise OutOfBudget
        seat = priority_actor(state)
        if seat == CHANCE:  # a reveal of the потайной card: determined in a full state
            action = chance_outcome(state)
            if action is None:
                raise OutOfBudget  # a lot cannot happen after the deal
            return self._search(step(state, action), alpha, beta)
        key = _key(state)
        if key in self._path:
            # With three or more seats, taking in turn can cycle forever; a cycle decides
            # nothing. (Heads-up every bout discards cards or shrinks the attacker's hand.)
            return 0.5
        entry = self.table.get(key)
        best_move: Action | None = None
        if entry is not None:
            value, flag, best_move = entry
            if flag == EXACT:
                return value
            if flag == LOWER:
                alpha = max(alpha, value)
            else:
                beta = min(beta, value)
            if alpha >= beta:
                return value
        maximizing = state.game.team[seat] == state.game.team[self.root]
        options = legal_actions(state, seat)
        ordered = _ordered(state, seat, options, best_move)
        a0, b0 = alpha, beta
        best = -1.0 if maximizing else 2.0
        self._path.add(key)
        for action in ordered:
            try:
                value = self._search(step(state, action), alpha, beta)
            except OutOfBudget:
                self._path.discard(key)
                raise
            if maximizing:
                if value > best:
                    best, best_move = value, action
                alpha = max(alpha, best)
            else:
                if value < best:
                    best, best_move = value, action
                beta = min(beta, best)
            if alpha >= beta:
                break
        self._path.discard(key)
        flag = EXACT
        if best <= a0:
            flag = UPPER
        elif best >= b0:
            flag = LOWER
        self.table[key] = (best, flag, best_move)
        return best


def _ordered(state: State, seat: int, options: tuple[Action, ...],
             first: Action | None) -> list[Action]:
    """The stored best move first, then the heuristic's choice, then the rest."""
    guess = heuristic_action(state, seat, options, state.hands, STRONG)
    ordered = [guess] + [a for a in options if a != guess]
    if first is not None and first in options and first != guess:
        ordered.remove(first)
        ordered.insert(0, first)
    return ordered


def _key(state: State) -> Hashable:
    # Everything the rest of a game with a known stock depends on; the first bout's lower
    # limit is the only way the bout number matters.
    return (state.phase, state.hands, state.stock, state.table, state.covers, state.attacker,
            state.defender, state.taking, state.passed, state.shown, state.out,
            state.bout == 0, state.trump, state.hidden_trump, state.reveal_card)
