"""The simulator: K local bot games from one seed, with full-information states.

Every chance event is resolved locally: the deck order is a seeded shuffle, determined
chance actions come from `chance_outcome`, and lots from the same seeded generator. When
several seats may act at once (throw-ins race the defender), the generator picks which of
them acts first, as the network's arrival order would. The same seed gives the same games.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple, Protocol

from p2p_durak.bots import chukhonsky as chukhonsky_bots
from p2p_durak.bots.chukhonsky_table import LocalTable as ChukhonskyTable
from p2p_durak.bots.chukhonsky_table import deal_for
from p2p_durak.bots.random_bot import RandomBot
from p2p_durak.engine import (
    CHANCE,
    Action,
    Game,
    State,
    chance_outcome,
    is_over,
    legal_actions,
    make_game,
    new_game,
    next_game,
    step,
    to_act,
)
from p2p_durak.engine.games import chukhonsky as C
from p2p_durak.engine.games.catalogue import GAMES
from p2p_durak.engine.presets import get_preset
from p2p_durak.engine.rules import engine_seats

MAX_ACTIONS = 100_000
"""A game longer than this is a bug (random play ends in a few hundred actions)."""


class Bot(Protocol):
    def choose(self, state: State, seat: int) -> Action: ...


BotFactory = Callable[[random.Random, int], Bot]


def random_bots(rng: random.Random, seat: int) -> Bot:
    return RandomBot(rng)


@dataclass(frozen=True)
class GameOutcome:
    dealer: int
    durak: tuple[int, ...]
    draw: bool
    pogony: int
    actions: int  # seat actions; chance actions (deal, reveals, lots) are not counted
    bouts: int


class Played(NamedTuple):
    final: State
    moves: int  # seat actions
    steps: int  # every applied action, chance included


def play_game(game: Game, deck_order: Sequence[int], rng: random.Random,
              bots: Sequence[Bot]) -> Played:
    """Play one game to the end with `step` (no events)."""
    state = new_game(game, deck_order)
    moves = 0
    for steps in range(MAX_ACTIONS):
        if is_over(state):
            return Played(state, moves, steps)
        actors = to_act(state)
        if CHANCE in actors:
            action = chance_outcome(state)
            if action is None:  # a lot: the seeded generator draws it
                options = legal_actions(state, CHANCE)
                action = options[rng.randrange(len(options))]
        else:
            seats = sorted(actors)
            seat = seats[0] if len(seats) == 1 else seats[rng.randrange(len(seats))]
            action = bots[seat].choose(state, seat)
            moves += 1
        state = step(state, action)
    raise RuntimeError(f"the game did not end within {MAX_ACTIONS} actions")


@dataclass
class Summary:
    preset: str
    players: int  # с болваном: the players, without the dummy's seat
    games: int
    seed: int
    # per player (с болваном: the seats in order, the dummy's skipped; it is nobody's)
    wins: list[int]  # games decided without this player being durak
    duraks: list[int]  # games this player lost (a team game can have several duraks)
    draws: int
    pogony: int  # epaulettes hung in total (app_pogony)
    total_actions: int
    total_bouts: int
    outcomes: list[GameOutcome] = field(default_factory=list, repr=False)

    @property
    def avg_actions(self) -> float:
        return self.total_actions / self.games if self.games else 0.0

    @property
    def avg_bouts(self) -> float:
        return self.total_bouts / self.games if self.games else 0.0

    def as_dict(self) -> dict[str, Any]:
        return {
            "preset": self.preset, "players": self.players, "games": self.games,
            "seed": self.seed, "wins": self.wins, "duraks": self.duraks, "draws": self.draws,
            "pogony": self.pogony, "avg_actions": round(self.avg_actions, 3),
            "avg_bouts": round(self.avg_bouts, 3),
        }


def simulate(preset_id: str, n_players: int, games: int, seed: int,
             bot_factory: BotFactory = random_bots) -> Summary:
    """Play `games` games of a preset; a series preset plays them as one series
    (the durak deals the next game), any other preset as independent first games.
    `n_players` counts the players: с болваном the engine seats one more, the dummy, whose
    moves its controller's bot makes (a random bot's choice is as good as another's)."""
    if games < 0:
        raise ValueError("the number of games cannot be negative")
    if preset_id in GAMES and GAMES[preset_id].works:
        return simulate_game(preset_id, n_players, games, seed)
    preset = get_preset(preset_id)
    rules = preset.rules
    rng = random.Random(f"p2p-durak/sim/{preset_id}/{n_players}/{seed}")
    seats = engine_seats(rules, n_players)
    bots = [bot_factory(rng, seat) for seat in range(seats)]
    summary = Summary(preset_id, n_players, games, seed, [0] * n_players, [0] * n_players,
                      0, 0, 0, 0)
    game: Game | None = None
    for _ in range(games):
        if game is None or rules.series != "series":
            # dealer of a first game: by lot (the catalogue's dealer_first_game)
            game = make_game(rules, seats, rng.randrange(seats))
        deck = list(range(game.n_cards))
        rng.shuffle(deck)
        final, moves, _ = play_game(game, deck, rng, bots)
        result = final.result
        assert result is not None
        summary.outcomes.append(GameOutcome(game.dealer, result.durak, result.draw,
                                            result.pogony, moves, final.bout))
        summary.total_actions += moves
        summary.total_bouts += final.bout
        summary.pogony += result.pogony
        if result.draw:
            summary.draws += 1
        else:
            players = [seat for seat in range(seats) if seat != game.dummy]
            for player, seat in enumerate(players):
                if seat in result.durak:
                    summary.duraks[player] += 1
                else:
                    summary.wins[player] += 1
        game = next_game(final)
    return summary


def simulate_game(game_id: str, n_players: int, games: int, seed: int) -> Summary:
    """A game of its own engine (`engine/games/catalogue.py`), played as a series (the durak
    deals the next game) between random bots fed only their seat's view; "bouts" counts the
    ladders led."""
    rules = C.ChukhonskyRules()
    C.validate(rules, n_players)
    rng = random.Random(f"p2p-durak/sim/{game_id}/{n_players}/{seed}")
    summary = Summary(game_id, n_players, games, seed, [0] * n_players, [0] * n_players,
                      0, 0, 0, 0)
    previous: C.State | None = None
    for _ in range(games):
        game, deck = deal_for(rules, n_players, rng, previous)
        bots = [chukhonsky_bots.make_bot("random", seat, random.Random(rng.getrandbits(64)))
                for seat in range(n_players)]
        played = ChukhonskyTable(game, deck, bots).play()
        result = played.final.result
        if result is None:
            raise RuntimeError(f"a {game_id} game did not end within {played.seat_moves} moves")
        summary.outcomes.append(GameOutcome(game.dealer, result.durak, result.draw, 0,
                                            played.seat_moves, played.leads))
        summary.total_actions += played.seat_moves
        summary.total_bouts += played.leads
        if result.draw:
            summary.draws += 1
        else:
            for seat in range(n_players):
                if seat in result.durak:
                    summary.duraks[seat] += 1
                else:
                    summary.wins[seat] += 1
        previous = played.final
    return summary
