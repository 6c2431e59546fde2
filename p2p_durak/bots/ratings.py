"""Win rates with Wilson intervals, and Elo: pairwise from the win rate, and a Bradley–Terry
fit over every pair with bootstrap intervals."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

Z95 = 1.959963984540054


def wilson(wins: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a binomial proportion (0..1); (0, 1) when n == 0."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def elo_diff(p: float) -> float:
    """The Elo difference that predicts win rate `p` (clamped to ±1200 at 0 and 1)."""
    p = min(max(p, 1e-3), 1 - 1e-3)
    return 400.0 * math.log10(p / (1 - p))


Pair = tuple[int, int, int, int]
"""(i, j, wins of i, wins of j) over decided games between levels i and j."""


def bradley_terry(n_levels: int, pairs: Sequence[Pair], anchor: int = 0,
                  anchor_elo: float = 1000.0, prior: float = 0.5) -> list[float]:
    """Elo ratings maximising the Bradley–Terry likelihood (MM iterations, Hunter 2004).

    `prior` virtual wins are added to both sides of every pair played, so that a level that
    won every game still gets a finite rating; the anchor level is held at `anchor_elo`."""
    wins = [[0.0] * n_levels for _ in range(n_levels)]
    for i, j, wi, wj in pairs:
        if wi + wj == 0:
            continue
        wins[i][j] += wi + prior
        wins[j][i] += wj + prior
    strength = [1.0] * n_levels
    for _ in range(2000):
        new = []
        for i in range(n_levels):
            total = sum(wins[i])
            denom = sum((wins[i][j] + wins[j][i]) / (strength[i] + strength[j])
                        for j in range(n_levels) if j != i)
            new.append(total / denom if denom > 0 and total > 0 else strength[i])
        scale = new[anchor]
        new = [s / scale for s in new]
        converged = max(abs(a - b) for a, b in zip(new, strength, strict=True)) < 1e-10
        strength = new
        if converged:
            break
    return [anchor_elo + 400.0 * math.log10(s) for s in strength]


def bootstrap_elo(n_levels: int, games: Sequence[tuple[int, int, int]], anchor: int = 0,
                  rounds: int = 200, seed: int = 0) -> list[tuple[float, float]]:
    """95% intervals of the Bradley–Terry ratings, resampling the decided games (each as
    (winner level, loser level, 1)) with replacement."""
    if not games:
        return [(math.nan, math.nan)] * n_levels
    rng = random.Random(seed)
    samples: list[list[float]] = [[] for _ in range(n_levels)]
    for _ in range(rounds):
        counts: dict[tuple[int, int], list[int]] = {}
        for _k in range(len(games)):
            winner, loser, _one = games[rng.randrange(len(games))]
            i, j = min(winner, loser), max(winner, loser)
            entry = counts.setdefault((i, j), [0, 0])
            entry[0 if winner == i else 1] += 1
        ratings = bradley_terry(n_levels, [(i, j, a, b) for (i, j), (a, b) in counts.items()],
                                anchor)
        for level, rating in enumerate(ratings):
            samples[level].append(rating)
    out = []
    for values in samples:
        values.sort()
        out.append((values[int(0.025 * (len(values) - 1))], values[int(0.975 * (len(values) - 1))]))
    return out
