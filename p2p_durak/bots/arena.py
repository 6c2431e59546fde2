"""The arena: bot levels play each other in parallel processes; win rates and Elo.

Every pair of levels plays `games` games. Games come in twos on the same deal with the seats
swapped (duplicate format), so the luck of the deal cancels out. Seeds are derived from the
arena seed, the pair and the game number, so a run is reproducible whatever the number of
worker processes. A game that exceeds the action cap is aborted and counted, never scored.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from p2p_durak.bots import chukhonsky as chukhonsky_bots
from p2p_durak.bots.chukhonsky_table import LocalTable as ChukhonskyTable
from p2p_durak.bots.chukhonsky_table import deal_for
from p2p_durak.bots.levels import LEVELS, make_bot
from p2p_durak.bots.ratings import bootstrap_elo, bradley_terry, elo_diff, wilson
from p2p_durak.bots.table import MAX_SEAT_ACTIONS, LocalTable
from p2p_durak.engine import Result, make_game
from p2p_durak.engine.games import chukhonsky as C
from p2p_durak.engine.games.catalogue import GAMES
from p2p_durak.engine.presets import get_preset


@dataclass(frozen=True)
class GameSpec:
    preset: str
    players: int
    seat_levels: tuple[str, ...]
    seed: str  # the deal's seed (shared by the two games of a duplicate pair)
    bot_seed: str
    hard_options: tuple[tuple[str, Any], ...] = ()
    max_seat_actions: int = MAX_SEAT_ACTIONS


@dataclass
class GameRecord:
    seat_levels: tuple[str, ...]
    durak: tuple[int, ...]
    draw: bool
    aborted: bool
    seat_actions: int
    decision_times: dict[str, list[float]]  # level -> wall seconds per decision with a choice
    decision_cpu: dict[str, list[float]]  # level -> thread CPU seconds of the same


def play_spec(spec: GameSpec) -> GameRecord:
    """Play one arena game (in a worker process)."""
    if spec.preset in GAMES:
        return play_game_spec(spec)
    rules = get_preset(spec.preset).rules
    deal_rng = random.Random(spec.seed)
    game = make_game(rules, spec.players, deal_rng.randrange(spec.players))
    deck = list(range(game.n_cards))
    deal_rng.shuffle(deck)
    bot_rng = random.Random(spec.bot_seed)
    options = dict(spec.hard_options)
    bots = [make_bot(level, seat, random.Random(bot_rng.getrandbits(64)),
                     **(options if level == "hard" else {}))
            for seat, level in enumerate(spec.seat_levels)]
    table = LocalTable(game, deck, bots, random.Random(deal_rng.getrandbits(64)))
    clocks = DecisionClocks(spec.seat_levels)
    table.on_decision = clocks.record
    played = table.play(spec.max_seat_actions)
    return clocks.game_record(played.final.result, played.aborted, played.seat_actions)


class DecisionClocks:
    """Each level's wall and thread-CPU seconds per decision of one game."""

    def __init__(self, seat_levels: tuple[str, ...]) -> None:
        self.seat_levels = seat_levels
        self.times: dict[str, list[float]] = {}
        self.cpu: dict[str, list[float]] = {}

    def record(self, seat: int, seconds: float, cpu_seconds: float) -> None:
        self.times.setdefault(self.seat_levels[seat], []).append(seconds)
        self.cpu.setdefault(self.seat_levels[seat], []).append(cpu_seconds)

    def game_record(self, result: Result | C.Result | None, aborted: bool,
                    seat_actions: int) -> GameRecord:
        return GameRecord(self.seat_levels, () if result is None else result.durak,
                          bool(result and result.draw), aborted, seat_actions, self.times,
                          self.cpu)


def play_game_spec(spec: GameSpec) -> GameRecord:
    """One arena game of a game with its own engine (Дурак чухонский): the same seeds, the
    same record."""
    deal_rng = random.Random(spec.seed)
    game, deck = deal_for(C.ChukhonskyRules(), spec.players, deal_rng)
    bot_rng = random.Random(spec.bot_seed)
    options = dict(spec.hard_options)
    bots = [chukhonsky_bots.make_bot(level, seat, random.Random(bot_rng.getrandbits(64)),
                                     **(options if level == "hard" else {}))
            for seat, level in enumerate(spec.seat_levels)]
    table = ChukhonskyTable(game, deck, bots)
    clocks = DecisionClocks(spec.seat_levels)
    table.on_decision = clocks.record
    # (its own cap: a game's moves are cards, far more than an attack/defend game's)
    played = table.play()
    return clocks.game_record(played.final.result, played.aborted, played.seat_moves)


@dataclass
class PairStats:
    a: str
    b: str
    games: int = 0
    wins_a: int = 0
    wins_b: int = 0
    draws: int = 0
    aborted: int = 0

    @property
    def decided(self) -> int:
        return self.wins_a + self.wins_b

    def summary(self) -> dict[str, Any]:
        low, high = wilson(self.wins_a, self.decided)
        rate = self.wins_a / self.decided if self.decided else math.nan
        return {
            "a": self.a, "b": self.b, "games": self.games, "wins_a": self.wins_a,
            "wins_b": self.wins_b, "draws": self.draws, "aborted": self.aborted,
            "win_rate_a": _round(rate), "win_rate_a_ci95": [_round(low), _round(high)],
            "elo_a_minus_b": _round(elo_diff(rate)) if self.decided else None,
            "elo_a_minus_b_ci95": [_round(elo_diff(low)), _round(elo_diff(high))]
            if self.decided else None,
        }


@dataclass
class ArenaReport:
    preset: str
    players: int
    games_per_pair: int
    seed: int
    levels: list[str]
    pairs: list[PairStats]
    elo: list[float]
    elo_ci95: list[tuple[float, float]]
    decision_times: dict[str, list[float]] = field(repr=False)
    decision_cpu: dict[str, list[float]] = field(repr=False)
    seconds: float = 0.0
    hard_options: dict[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return {
            "preset": self.preset, "players": self.players,
            "games_per_pair": self.games_per_pair, "seed": self.seed, "levels": self.levels,
            "hard_options": self.hard_options,
            "pairs": [p.summary() for p in self.pairs],
            "elo": {lv: _round(e) for lv, e in zip(self.levels, self.elo, strict=True)},
            "elo_ci95": {lv: [_round(lo), _round(hi)]
                         for lv, (lo, hi) in zip(self.levels, self.elo_ci95, strict=True)},
            "decision_seconds": {lv: _percentiles(ts) for lv, ts in
                                 sorted(self.decision_times.items())},
            "decision_cpu_seconds": {lv: _percentiles(ts) for lv, ts in
                                     sorted(self.decision_cpu.items())},
            "seconds": round(self.seconds, 1),
        }


def _round(x: float) -> float:
    return x if math.isnan(x) else round(x, 4)


def _percentiles(times: Sequence[float]) -> dict[str, float]:
    if not times:
        return {"n": 0}
    ordered = sorted(times)

    def at(q: float) -> float:
        return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))], 4)

    return {"n": len(ordered), "p50": at(0.5), "p95": at(0.95), "max": round(ordered[-1], 4)}


def arena_specs(levels: Sequence[str], games: int, seed: int, preset: str, players: int,
                hard_options: dict[str, Any], max_seat_actions: int = MAX_SEAT_ACTIONS,
                ) -> list[tuple[int, GameSpec]]:
    """Every game of the arena as (pair index, spec)."""
    specs = []
    pair_index = 0
    for i, a in enumerate(levels):
        for b in levels[i + 1:]:
            for g in range(games):
                deal = g // 2  # two games per deal, seats swapped
                first, second = (a, b) if g % 2 == 0 else (b, a)
                seat_levels = tuple(first if s % 2 == 0 else second for s in range(players))
                specs.append((pair_index, GameSpec(
                    preset, players, seat_levels,
                    seed=f"arena/{seed}/{a}/{b}/{deal}",
                    bot_seed=f"arena/{seed}/{a}/{b}/{g}/bots",
                    hard_options=tuple(sorted(hard_options.items())),
                    max_seat_actions=max_seat_actions)))
            pair_index += 1
    return specs


def run_arena(levels: Sequence[str], games: int, seed: int, *, preset: str = "app_podkidnoy",
              players: int = 2, workers: int = 2, hard_options: dict[str, Any] | None = None,
              max_seat_actions: int = MAX_SEAT_ACTIONS,
              on_game: Callable[[int, int, GameRecord], None] | None = None) -> ArenaReport:
    """Play the arena; `on_game(done, total, record)` is called as each game's record
    arrives (in game order)."""
    levels = list(levels)
    for level in levels:
        if level not in LEVELS:
            raise ValueError(f"unknown bot level {level!r} (one of {', '.join(LEVELS)})")
    if len(set(levels)) != len(levels) or len(levels) < 2:
        raise ValueError("the arena needs at least two different levels")
    if games < 1:
        raise ValueError("the arena needs at least one game per pair")
    if preset in GAMES:
        if not GAMES[preset].works:
            raise ValueError(f"preset {preset} is not playable yet")
        C.validate(C.ChukhonskyRules(), players)  # refuse a bad player count up front
    else:
        if not get_preset(preset).works:
            raise ValueError(f"preset {preset} is not playable yet")
        make_game(get_preset(preset).rules, players)  # refuse a bad player count up front
    hard_options = dict(hard_options or {})
    specs = arena_specs(levels, games, seed, preset, players, hard_options, max_seat_actions)
    pairs = [PairStats(a, b) for i, a in enumerate(levels) for b in levels[i + 1:]]
    decided: list[tuple[int, int, int]] = []
    times: dict[str, list[float]] = {}
    cpu: dict[str, list[float]] = {}
    start = time.perf_counter()
    records: list[GameRecord] = []

    def collect(results: Iterable[GameRecord]) -> None:
        for record in results:
            records.append(record)
            if on_game is not None:
                on_game(len(records), len(specs), record)

    if workers <= 1:
        collect(play_spec(spec) for _, spec in specs)
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            collect(pool.map(play_spec, [spec for _, spec in specs], chunksize=1))
    for (pair_index, _spec), record in zip(specs, records, strict=True):
        stats = pairs[pair_index]
        stats.games += 1
        for level, ts in record.decision_times.items():
            times.setdefault(level, []).extend(ts)
        for level, ts in record.decision_cpu.items():
            cpu.setdefault(level, []).extend(ts)
        if record.aborted:
            stats.aborted += 1
            continue
        if record.draw:
            stats.draws += 1
            continue
        losers = {record.seat_levels[d] for d in record.durak}
        if losers == {stats.a}:
            stats.wins_b += 1
            decided.append((levels.index(stats.b), levels.index(stats.a), 1))
        elif losers == {stats.b}:
            stats.wins_a += 1
            decided.append((levels.index(stats.a), levels.index(stats.b), 1))
        else:  # several duraks of both levels (team games mix levels only by seat parity)
            stats.draws += 1
    bt = bradley_terry(len(levels), [(levels.index(p.a), levels.index(p.b), p.wins_a, p.wins_b)
                                     for p in pairs])
    ci = bootstrap_elo(len(levels), decided, seed=seed)
    return ArenaReport(preset, players, games, seed, levels, pairs, bt, ci, times, cpu,
                       time.perf_counter() - start, hard_options)

