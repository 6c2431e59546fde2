"""Information-set Monte Carlo tree search (single-observer ISMCTS, Cowling et al. 2012).

One tree over public move sequences from the bot's decision. Every iteration samples a deal
consistent with the bot's knowledge (`determinize`), walks the tree using only the moves legal
in that deal (UCB with availability counts, so a move that is often impossible is not
over-rated), adds one node, plays the game out with the heuristic policy on the known deal,
and backs the result up, each node scored for the seat that made its move.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass

from p2p_durak.bots.base import outcome, priority_actor
from p2p_durak.bots.heuristic import Style, heuristic_action, play_out
from p2p_durak.engine import CHANCE, Action, State, chance_outcome, legal_actions, step
from p2p_durak.engine.state import OVER


class Node:
    __slots__ = ("avail", "children", "seat", "total", "visits")

    def __init__(self, seat: int) -> None:
        self.seat = seat  # the seat that made the move leading here
        self.children: dict[Action, Node] = {}
        self.visits = 0
        self.total = 0.0
        self.avail = 0


@dataclass
class SearchResult:
    action: Action
    iterations: int
    visits: dict[Action, int]
    values: dict[Action, float]


def ismcts(view: State, seat: int, options: tuple[Action, ...],
           sample: Callable[[random.Random], State], rng: random.Random, *,
           deadline: float, max_iterations: int, style: Style,
           exploration: float = 0.7, memory: bool = True,
           clock: Callable[[], float] = time.perf_counter) -> SearchResult:
    """The most visited of `options` after searching until `deadline` or `max_iterations`."""
    root = Node(seat)
    iterations = 0
    while iterations < max_iterations and (iterations == 0 or clock() < deadline):
        iterations += 1
        state = sample(rng)
        node = root
        path = [root]
        while state.phase != OVER:
            actor = priority_actor(state)
            if actor == CHANCE:
                state = step(state, _chance(state, rng))
                continue
            legal = legal_actions(state, actor)
            if node is root:
                legal = tuple(a for a in legal if a in options) or legal
            for action in legal:
                child = node.children.get(action)
                if child is not None:
                    child.avail += 1
            untried = [a for a in legal if a not in node.children]
            if untried:
                # expand one move, the heuristic's own choice first, then play out
                guess = heuristic_action(state, actor, legal, state.hands, style)
                action = guess if guess in untried else untried[rng.randrange(len(untried))]
                child = Node(actor)
                child.avail = 1
                node.children[action] = child
                path.append(child)
                state = step(state, action)
                break
            action = _select(node, legal, exploration)
            node = node.children[action]
            path.append(node)
            state = step(state, action)
        rewards = _playout(state, style, memory)
        for visited in path:
            visited.visits += 1
            visited.total += rewards[visited.seat]
    visits = {a: c.visits for a, c in root.children.items() if a in options}
    values = {a: c.total / c.visits for a, c in root.children.items() if a in options and c.visits}
    best = max(visits, key=lambda a: (visits[a], values.get(a, 0.0)))
    return SearchResult(best, iterations, visits, values)


def _select(node: Node, legal: tuple[Action, ...], exploration: float) -> Action:
    best, best_score = legal[0], -1.0
    for action in legal:
        child = node.children[action]
        score = child.total / child.visits + exploration * math.sqrt(
            math.log(max(child.avail, 1)) / child.visits)
        if score > best_score:
            best, best_score = action, score
    return best


def _chance(state: State, rng: random.Random) -> Action:
    action = chance_outcome(state)
    if action is None:
        options = legal_actions(state, CHANCE)
        action = options[rng.randrange(len(options))]
    return action


def _playout(state: State, style: Style, memory: bool) -> list[float]:
    """The reward of every seat after a heuristic playout (½ each if it ran too long)."""
    final = play_out(state, style, memory)
    game = final.game
    if final.result is None:
        return [0.5] * game.n_players
    return [outcome(final.result, s, game.team) for s in range(game.n_players)]
