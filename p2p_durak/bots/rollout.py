"""Determinized rollout search with paired comparisons.

Each iteration samples one deal consistent with the bot's knowledge and plays every option
out on that same deal with the heuristic policy for all seats. Comparing options on common
deals cancels the luck of the deal, which dominates Durak's variance: on a given deal the
playouts are deterministic, so two options that lead to the same result differ by exactly 0.
The heuristic's own choice is the default, and another option replaces it only when its
paired advantage is clear (`z` standard errors) — so a short budget never makes the bot worse
than its heuristic, and a long one makes it the one-step policy improvement of it.
Options clearly behind the leader are dropped along the way to spend the time on the rest,
and the search stops before its deadline once the choice is settled: one option is left, or
every option has tied on every deal so far (the choice does not matter here).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from p2p_durak.bots.base import outcome
from p2p_durak.bots.heuristic import Style, play_out
from p2p_durak.engine import Action, State, step


@dataclass
class RolloutResult:
    action: Action
    iterations: int  # deals sampled
    playouts: int
    means: dict[Action, float]
    advantage: dict[Action, float]  # mean paired advantage over the default
    stderr: dict[Action, float]
    settled: bool = False  # stopped before the deadline: the choice was clear


def rollout_search(seat: int, options: tuple[Action, ...], default: Action,
                   sample: Callable[[random.Random], State], rng: random.Random, *,
                   deadline: float, max_iterations: int, style: Style, z: float = 1.0,
                   prune_every: int = 8, prune_z: float = 3.0,
                   clock: Callable[[], float] = time.perf_counter,
                   exact: bool = False, settle_after: int = 0,
                   policies: Callable[[random.Random], Sequence[tuple[Style, bool]]] | None
                   = None) -> RolloutResult:
    """Search until `deadline` (by `clock`) or `max_iterations` deals. `exact`: the deal is
    known (every sample is the same), so one pass suffices and its differences are exact.
    `settle_after` (0: never): from that many deals on, stop at a pruning step once a single
    option is left or every option has tied with the default on every deal. `policies`:
    draws, with each deal, per seat the playouts' (style, sees the deal) instead of `style`
    seeing it for all."""
    if exact:
        max_iterations = 1
    alive = list(options)
    if default not in alive:
        raise ValueError("the default must be one of the options")
    totals = dict.fromkeys(options, 0.0)
    counts = dict.fromkeys(options, 0)
    diff_sum = dict.fromkeys(options, 0.0)
    diff_sq = dict.fromkeys(options, 0.0)
    deals = playouts = 0
    settled = False
    while deals < max_iterations and (deals == 0 or clock() < deadline):
        deal = sample(rng)
        drawn = policies(rng) if policies is not None else None
        rewards: dict[Action, float] = {}
        for action in alive:
            if deals and clock() >= deadline:
                break  # a deal is only counted whole
            rewards[action] = playout(step(deal, action), seat, style, drawn)
            playouts += 1
        if len(rewards) < len(alive):
            break
        deals += 1
        base = rewards[default]
        for action, reward in rewards.items():
            totals[action] += reward
            counts[action] += 1
            diff = reward - base
            diff_sum[action] += diff
            diff_sq[action] += diff * diff
        if deals % prune_every == 0 and len(alive) > 2:
            leader = max(alive, key=lambda a: diff_sum[a])
            alive = [a for a in alive if a in (leader, default)
                     or not _behind(diff_sum, diff_sq, counts, a, leader, prune_z)]
        if settle_after and deals >= settle_after and deals % prune_every == 0:
            settled = _settled(alive, default, diff_sum, diff_sq, counts, prune_z)
            if settled:
                break
    means = {a: totals[a] / counts[a] for a in options if counts[a]}
    advantage = {a: diff_sum[a] / counts[a] for a in options if counts[a]}
    stderr = {a: _stderr(diff_sum[a], diff_sq[a], counts[a]) for a in options if counts[a]}
    best = max(alive, key=lambda a: (advantage[a], a == default))
    if best != default and not exact and advantage[best] <= z * stderr[best]:
        best = default
    return RolloutResult(best, deals, playouts, means, advantage, stderr, settled)


def _settled(alive: list[Action], default: Action, diff_sum: dict[Action, float],
             diff_sq: dict[Action, float], counts: dict[Action, int], z: float) -> bool:
    """Whether more deals would hardly change the choice: only the default is left, every
    option left has tied with the default on every deal so far, or one other is left and it
    is `z` standard errors better or worse than the default."""
    others = [a for a in alive if a != default]
    if not others or all(diff_sq[a] == 0.0 for a in others):
        return True
    if len(others) != 1:
        return False
    (other,) = others
    n = counts[other]
    return abs(diff_sum[other]) / n > z * _stderr(diff_sum[other], diff_sq[other], n)


def _stderr(total: float, squares: float, n: int) -> float:
    if n < 2:
        return math.inf
    mean = total / n
    var = max(squares / n - mean * mean, 0.0) * n / (n - 1)
    return math.sqrt(var / n) if var > 0 else 1.0 / n  # all equal: trust only with volume


def _behind(diff_sum: dict[Action, float], diff_sq: dict[Action, float],
            counts: dict[Action, int], action: Action, leader: Action, z: float) -> bool:
    """Whether `action` is clearly worse than `leader` (both measured against the default on
    the same deals, so their difference is paired too; a conservative bound)."""
    n = counts[action]
    gap = (diff_sum[leader] - diff_sum[action]) / n
    spread = _stderr(diff_sum[action], diff_sq[action], n) + \
        _stderr(diff_sum[leader], diff_sq[leader], n)
    return gap > z * spread


def playout(state: State, seat: int, style: Style,
            policies: Sequence[tuple[Style, bool]] | None = None) -> float:
    """The heuristic game from `state` on, scored for `seat`: 1 not the durak, ½ a draw or a
    playout too long, 0 the durak."""
    final = play_out(state, style, True, policies)
    if final.result is None:
        return 0.5
    return outcome(final.result, seat, final.game.team)
