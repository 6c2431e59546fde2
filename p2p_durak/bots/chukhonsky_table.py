"""A local table of Дурак чухонский: a full state, and bots fed only what their seat sees
(every public move; its own deal) — the arena's and the simulator's driver, as
`bots/table.py` is for attack/defend."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from p2p_durak.bots.chukhonsky import ChukhonskyBot
from p2p_durak.engine.cards import cards_of
from p2p_durak.engine.games import chukhonsky as C

MAX_SEAT_MOVES = 25_000
"""A game longer than this is aborted (the stall limit ends every game well before)."""


@dataclass
class Played:
    final: C.State
    seat_moves: int
    aborted: bool
    leads: int  # ladders started


class LocalTable:
    def __init__(self, game: C.Game, deck_order: Sequence[int],
                 bots: Sequence[ChukhonskyBot]) -> None:
        if len(bots) != game.n_players:
            raise ValueError(f"{game.n_players} seats need {game.n_players} bots")
        self.state = C.new_game(game, deck_order)
        self.bots = list(bots)
        self.log: list[C.Move] = []
        self.on_decision: Callable[[int, float, float], None] | None = None
        for seat, bot in enumerate(self.bots):
            if bot.seat != seat:
                raise ValueError(f"the bot for seat {seat} plays seat {bot.seat}")
            bot.new_game(game)

    def commit(self, move: C.Move) -> None:
        self.state = C.step(self.state, move)
        self.log.append(move)
        for bot in self.bots:
            bot.observe(move)
        if move.kind is C.MoveKind.DEAL:
            for seat, bot in enumerate(self.bots):
                bot.learn(cards_of(self.state.hands[seat]))

    def play(self, max_seat_moves: int = MAX_SEAT_MOVES) -> Played:
        moves = leads = 0
        while not C.is_over(self.state):
            if moves >= max_seat_moves:
                return Played(self.state, moves, True, leads)
            (seat,) = C.to_act(self.state)
            if seat == C.CHANCE:
                move = C.chance_outcome(self.state)
                assert move is not None
            else:
                bot = self.bots[seat]
                start, start_cpu = time.perf_counter(), time.thread_time()
                move = bot.choose()
                if self.on_decision is not None and bot.deliberated:
                    self.on_decision(seat, time.perf_counter() - start,
                                     time.thread_time() - start_cpu)
                moves += 1
                leads += not self.state.pile
            self.commit(move)
        return Played(self.state, moves, False, leads)


def deal_for(rules: C.ChukhonskyRules, n_players: int, rng: random.Random,
             previous: C.State | None = None) -> tuple[C.Game, list[int]]:
    """A game (the first dealer by lot, «Первый сдатчик определяется жребием»; in a series
    the durak deals) and a shuffled deck."""
    game = C.next_game(previous) if previous is not None else \
        C.make_game(rules, n_players, rng.randrange(n_players))
    deck = list(range(game.n_cards))
    rng.shuffle(deck)
    return game, deck
