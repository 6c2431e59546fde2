"""Bot games that always end: every working preset, 2 to 6 seats, many games over every core.

Each game is a `LocalTable` (the arena's driver: bots see only their own seat's view) with
seat levels drawn from the run's seed — mostly the fast levels (random, easy), some medium,
a few hard bots on a small iteration cap. After every applied action the full state is checked
to hold every card of the deck exactly once (hands, stock, the face-up and face-down trump,
the table, the locked cards, the discard pile). A game fails if it raises, loses or duplicates
a card, exceeds the action cap (`LocalTable`'s 2,000 seat actions: bot play ends in about a
hundred) or runs longer than `--game-seconds` of wall time (a hang). Every failure is written
with the seed that replays it: `--replay PRESET SEATS INDEX` plays that game again.

The run is seeded (a game's deal and bots depend only on the run seed, the preset, the seat
count and the game's index) and resumable: finished chunks go to `--out` (JSON lines), and a
rerun with the same file skips them.

    nice -n 19 python bench/bot_games.py --games 100000 --out bot_games.jsonl --jobs 2
    python bench/bot_games.py --games 300 --out /tmp/short.jsonl    # CI's short version
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import signal
import subprocess
import sys
import time
import traceback
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from p2p_durak.bots.levels import make_bot
from p2p_durak.bots.table import MAX_SEAT_ACTIONS, LocalTable
from p2p_durak.engine import CHANCE, UNKNOWN, Game, State, is_over, make_game
from p2p_durak.engine.presets import Preset, working_presets

SEAT_COUNTS = (2, 3, 4, 5, 6)
CHUNK = 50  # games per work unit: the unit of resumption
HARD_ITERATIONS = 16  # the hard bot's search cap here (its clock budget is only a backstop)
HARD_BUDGET = 1.0
LEVEL_WEIGHTS = (("random", 500), ("easy", 420), ("medium", 78), ("hard", 2))


class GameHung(Exception):
    """A game ran past its wall-clock limit."""


class CardsNotConserved(AssertionError):
    """A state lost a card, or holds one twice."""


def _bits(mask: int) -> list[int]:
    cards = []
    while mask:
        low = mask & -mask
        cards.append(low.bit_length() - 1)
        mask ^= low
    return cards


def card_places(state: State) -> list[int]:
    """Every card the full state places, once per place it is in (a conserving state lists
    each card of the deck exactly once)."""
    places: list[int] = []
    for hand in state.hands:
        places += _bits(hand)
    # (negative entries are UNKNOWN or NO_CARD: a full state knows every card, and a check
    # that one is unknown follows in `check_conserved`)
    places += [c for c in state.stock if c >= 0]
    places += [c for c in state.table if c >= 0]
    places += [c for c in state.covers if c >= 0]
    for locked in state.locked:
        places += [c for c in locked if c >= 0]
    if state.hidden_trump >= 0:  # потайной: the face-down card under the stock
        places.append(state.hidden_trump)
    elif (state.hidden_trump == UNKNOWN and state.reveal_card >= 0
          and state.reveal_card not in places):
        places.append(state.reveal_card)  # потайной, dealt and not yet turned: the chance's card
    places += _bits(state.discard)
    places += _bits(state.buried)  # верю не верю: the cards discarded face down
    return places


def check_conserved(state: State) -> None:
    """Raise `CardsNotConserved` unless every card of the deck is in exactly one place."""
    places = card_places(state)
    expected = state.game.all_cards
    seen = 0
    twice = []
    for card in places:
        if (seen >> card) & 1:
            twice.append(card)
        seen |= 1 << card
    if twice or seen != expected or any(state.hidden):
        missing = _bits(expected & ~seen)
        extra = _bits(seen & ~expected)
        raise CardsNotConserved(
            f"bout {state.bout}: cards twice {twice}, missing {missing}, not in the deck "
            f"{extra}, unknown in hands {list(state.hidden)}")


@dataclass(frozen=True)
class Chunk:
    preset: str
    seats: int  # the engine's seats (с болваном: the dummy's too)
    first: int  # index of the chunk's first game in this preset and seat count
    count: int
    seed: int
    game_seconds: float

    @property
    def key(self) -> str:
        return f"{self.preset}/{self.seats}/{self.first}"


@dataclass
class Failure:
    preset: str
    seats: int
    index: int
    levels: tuple[str, ...]
    kind: str  # exception | hang | action-cap | cards
    detail: str


@dataclass
class ChunkResult:
    key: str
    preset: str
    seats: int
    games: int = 0
    seat_actions: int = 0
    max_seat_actions: int = 0
    levels: dict[str, int] = field(default_factory=dict)  # seats played by each level
    failures: list[Failure] = field(default_factory=list)
    seconds: float = 0.0  # process CPU time
    max_game_seconds: float = 0.0


def game_seed(run_seed: int, preset: str, seats: int, index: int) -> str:
    return f"bench/bot_games/{run_seed}/{preset}/{seats}/{index}"


def seat_levels(rng: random.Random, seats: int) -> tuple[str, ...]:
    names = [name for name, _ in LEVEL_WEIGHTS]
    weights = [weight for _, weight in LEVEL_WEIGHTS]
    return tuple(rng.choices(names, weights)[0] for _ in range(seats))


def new_table(preset: Preset, seats: int, seed: str) -> tuple[LocalTable, tuple[str, ...]]:
    rng = random.Random(seed)
    levels = seat_levels(rng, seats)
    game: Game = make_game(preset.rules, seats, rng.randrange(seats))
    deck = list(range(game.n_cards))
    rng.shuffle(deck)
    bots = [make_bot(level, seat, random.Random(rng.getrandbits(64)),
                     **({"iterations": HARD_ITERATIONS, "budget": HARD_BUDGET}
                        if level == "hard" else {}))
            for seat, level in enumerate(levels)]
    return LocalTable(game, deck, bots, random.Random(rng.getrandbits(64))), levels


def play_checked(table: LocalTable) -> int:
    """Play the table to its end, checking the cards after every action; the seat actions."""
    check_conserved(table.state)
    seat_actions = 0
    while not is_over(table.state):
        if seat_actions >= MAX_SEAT_ACTIONS:
            raise OverflowError(f"no end after {MAX_SEAT_ACTIONS} seat actions")
        action = table.next_action()
        if action.seat != CHANCE:
            seat_actions += 1
        table.commit(action)
        check_conserved(table.state)
    if table.state.result is None:
        raise AssertionError("the game is over without a result")
    return seat_actions


def _on_alarm(signum: int, frame: Any) -> None:
    raise GameHung("the game ran past its wall-clock limit")


def play_one(preset: Preset, seats: int, index: int, run_seed: int,
             game_seconds: float) -> tuple[tuple[str, ...], int, Failure | None, float]:
    """One game: its levels, seat actions, failure (None when it ended cleanly), seconds."""
    seed = game_seed(run_seed, preset.id, seats, index)
    levels: tuple[str, ...] = ()
    start = time.perf_counter()
    signal.signal(signal.SIGALRM, _on_alarm)
    signal.setitimer(signal.ITIMER_REAL, game_seconds)
    try:
        table, levels = new_table(preset, seats, seed)
        actions = play_checked(table)
        failure = None
    except GameHung as error:
        actions, failure = 0, Failure(preset.id, seats, index, levels, "hang", str(error))
    except OverflowError as error:
        actions, failure = 0, Failure(preset.id, seats, index, levels, "action-cap", str(error))
    except CardsNotConserved as error:
        actions, failure = 0, Failure(preset.id, seats, index, levels, "cards", str(error))
    except Exception:
        actions, failure = 0, Failure(preset.id, seats, index, levels, "exception",
                                      traceback.format_exc(limit=8))
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
    return levels, actions, failure, time.perf_counter() - start


def run_chunk(chunk: Chunk) -> ChunkResult:
    presets = {p.id: p for p in working_presets()}
    preset = presets[chunk.preset]
    result = ChunkResult(chunk.key, chunk.preset, chunk.seats)
    start = time.process_time()
    for index in range(chunk.first, chunk.first + chunk.count):
        levels, actions, failure, seconds = play_one(preset, chunk.seats, index, chunk.seed,
                                                     chunk.game_seconds)
        result.games += 1
        result.seat_actions += actions
        result.max_seat_actions = max(result.max_seat_actions, actions)
        result.max_game_seconds = max(result.max_game_seconds, round(seconds, 3))
        for level in levels:
            result.levels[level] = result.levels.get(level, 0) + 1
        if failure is not None:
            result.failures.append(failure)
    result.seconds = round(time.process_time() - start, 3)
    return result


def tables(presets: Sequence[Preset]) -> list[tuple[Preset, int]]:
    """Every preset with every seat count from 2 to 6 it seats."""
    return [(p, n) for p in presets for n in p.players if n in SEAT_COUNTS]


def plan(total: int, seed: int, game_seconds: float,
         presets: Sequence[Preset] | None = None) -> list[Chunk]:
    """`total` games spread evenly over every (preset, seat count), in chunks."""
    pairs = tables(presets or working_presets())
    per_table = -(-total // len(pairs))
    chunks = []
    for preset, seats in pairs:
        for first in range(0, per_table, CHUNK):
            chunks.append(Chunk(preset.id, seats, first, min(CHUNK, per_table - first), seed,
                                game_seconds))
    # interleave the tables so that a run cut short has covered every one of them
    return sorted(chunks, key=lambda c: (c.first, c.preset, c.seats))


def done_keys(out: Path) -> set[str]:
    if not out.exists():
        return set()
    keys = set()
    for line in out.read_text().splitlines():
        if line.strip():
            keys.add(json.loads(line)["key"])
    return keys


def run(chunks: Sequence[Chunk], out: Path, jobs: int) -> Iterator[ChunkResult]:
    """Play the chunks not yet in `out`, appending each result as it finishes."""
    skip = done_keys(out)
    todo = [c for c in chunks if c.key not in skip]
    with out.open("a") as sink, ProcessPoolExecutor(jobs) as pool:
        for result in pool.map(run_chunk, todo, chunksize=1):
            sink.write(json.dumps(asdict(result)) + "\n")
            sink.flush()
            yield result


def summarise(out: Path) -> dict[str, Any]:
    """Totals per preset (and per seat count) from every chunk recorded in `out`."""
    per: dict[str, dict[str, Any]] = {}
    for line in out.read_text().splitlines():
        row = json.loads(line)
        entry = per.setdefault(row["preset"], {"games": 0, "seat_actions": 0, "seats": {},
                                               "max_seat_actions": 0, "failures": [],
                                               "cpu_seconds": 0.0, "levels": {},
                                               "max_game_seconds": 0.0})
        entry["games"] += row["games"]
        entry["seat_actions"] += row["seat_actions"]
        entry["seats"][row["seats"]] = entry["seats"].get(row["seats"], 0) + row["games"]
        entry["max_seat_actions"] = max(entry["max_seat_actions"], row["max_seat_actions"])
        entry["max_game_seconds"] = max(entry["max_game_seconds"], row["max_game_seconds"])
        entry["cpu_seconds"] += row["seconds"]
        entry["failures"] += row["failures"]
        for level, n in row["levels"].items():
            entry["levels"][level] = entry["levels"].get(level, 0) + n
    return per


def commit_id() -> str:
    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True, check=True, cwd=Path(__file__).parent).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def print_summary(per: dict[str, dict[str, Any]]) -> int:
    """A table per preset; returns the number of failed games."""
    print(f"{'preset':28} {'games':>7} {'seats':>14} {'avg act':>8} {'max act':>8} "
          f"{'max s':>6} {'CPU s':>7} fail")
    failed = 0
    total = 0
    for preset, e in sorted(per.items()):
        seats = ",".join(str(n) for n in sorted(int(s) for s in e["seats"]))
        print(f"{preset:28} {e['games']:>7} {seats:>14} "
              f"{e['seat_actions'] / max(1, e['games']):>8.1f} {e['max_seat_actions']:>8} "
              f"{e['max_game_seconds']:>6.2f} {e['cpu_seconds']:>7.0f} {len(e['failures'])}")
        failed += len(e["failures"])
        total += e["games"]
    print(f"{total} games, {failed} failed")
    for e in per.values():
        for f in e["failures"][:20]:
            print(f"FAILED {f['preset']} seats={f['seats']} index={f['index']} "
                  f"levels={f['levels']} {f['kind']}: {f['detail']}")
    return failed


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300, help="games in all (default 300)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--out", type=Path, default=Path("bot_games.jsonl"),
                        help="results, one chunk a line; a rerun skips the chunks it holds")
    parser.add_argument("--game-seconds", type=float, default=120.0,
                        help="wall-clock limit of one game (a hang; default 120)")
    parser.add_argument("--preset", action="append", help="only these presets (repeatable)")
    parser.add_argument("--replay", nargs=3, metavar=("PRESET", "SEATS", "INDEX"),
                        help="play one game of the run again in this process, and say how it ends")
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    args = parser.parse_args(argv)
    presets = working_presets()
    if args.replay:
        preset = {p.id: p for p in presets}[args.replay[0]]
        levels, actions, failure, seconds = play_one(
            preset, int(args.replay[1]), int(args.replay[2]), args.seed, args.game_seconds)
        print(f"levels {levels}: {actions} seat actions, {seconds:.2f} s")
        if failure is not None:
            print(f"{failure.kind}: {failure.detail}")
        return 0 if failure is None else 1
    if args.preset:
        presets = [p for p in presets if p.id in set(args.preset)]
    chunks = plan(args.games, args.seed, args.game_seconds, presets)
    started = time.perf_counter()
    finished = 0
    for result in run(chunks, args.out, args.jobs):
        finished += result.games
        for f in result.failures:
            print(f"FAILED {f.preset} seats={f.seats} index={f.index} {f.kind}", flush=True)
        if finished % 5000 < result.games:
            print(f"... {finished} games in {time.perf_counter() - started:.0f} s", flush=True)
    per = summarise(args.out)
    if args.json:
        print(json.dumps({"commit": commit_id(), "machine": platform.processor()
                          or platform.machine(), "python": sys.version.split()[0],
                          "seed": args.seed, "presets": per}))
        return 1 if any(e["failures"] for e in per.values()) else 0
    print(f"commit {commit_id()}, seed {args.seed}, {time.perf_counter() - started:.0f} s wall")
    return 1 if print_summary(per) else 0


if __name__ == "__main__":
    sys.exit(main())
