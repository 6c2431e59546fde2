"""Opponent modelling from public play: how the hard bot's playouts play the other seats.

The paired rollout search plays every option out with a heuristic for every seat. By default
the other seats play the `STRONG` heuristic with the sampled deal in view — an opponent that
counts every card and throws in anything. Against a player who plays much worse than that
the values are pessimistic: the search avoids lines only a strong opponent would punish and
does not look for the mistakes a weaker one makes.

So the bot asks, of every decision another seat makes, which of two policies explains it
better: the `EASY` heuristic without card memory (the cheapest card that does the job, trumps
kept, throw-ins up to a ten) or the `STRONG` one seeing the deal. It samples deals consistent
with what it knew just before the move, with the cards the seat played put in its hand, and
counts how often each policy makes exactly that move there; the two frequencies (smoothed, and
each move's weight bounded) update the odds that the seat plays like the easy heuristic. Each
playout then draws the seat's policy from those odds. Before any evidence the odds favour a
strong player; moves both policies make, and a thrower's pass while the defender still has
cards to answer (every bot waits then), tell nothing.

Only public actions and the bot's own knowledge are read.
"""

from __future__ import annotations

import math
import random

from p2p_durak.bots.base import waiting_thrower
from p2p_durak.bots.heuristic import EASY, Style, heuristic_action
from p2p_durak.bots.knowledge import Knowledge, determinize
from p2p_durak.engine import CHANCE, Action, Game, State, legal_actions

Policy = tuple[Style, bool]
"""A playout policy for one seat: the heuristic's style, and whether it sees the deal."""

SAMPLES = 8
"""Deals sampled to weigh one move of another seat."""

PRIOR = -1.0
"""The log-odds before any evidence: about one chance in four of an easy player, so a strong
player is played as strong until its moves tell (misjudging a strong player costs more than
misjudging a weak one: the search then takes risks only a weak opponent fails to punish)."""

MAX_STEP = 2.0
"""The most one move may change the log-odds (the samples only approximate the seat's hand)."""


class OpponentModel:
    """Per other seat, the log-odds that it plays like the easy heuristic rather than the
    strong one."""

    def __init__(self, game: Game, seat: int, strong: Style) -> None:
        self.game = game
        self.seat = seat
        self.strong = strong
        self.log_odds = [PRIOR] * game.n_players
        self.weighed = [0] * game.n_players  # moves that told something

    def p_easy(self, s: int) -> float:
        return 1.0 / (1.0 + math.exp(-self.log_odds[s]))

    def update(self, before: State, action: Action, knowledge: Knowledge,
               rng: random.Random) -> None:
        """Weigh `action` (made in the bot's view `before`; `knowledge` as it was then)."""
        s = action.seat
        if s in (self.seat, CHANCE) or waiting_thrower(before, s):
            return
        easy = strong = 0
        for _ in range(SAMPLES):
            deal = _holding(determinize(before, knowledge, rng), before, s, action.cards, rng)
            options = legal_actions(deal, s)
            if len(options) < 2 or action not in options:
                continue  # forced there, or the sample cannot explain the move
            easy += heuristic_action(deal, s, options, None, EASY) == action
            strong += heuristic_action(deal, s, options, deal.hands, self.strong) == action
        if easy == strong:
            return
        step = math.log((easy + 0.5) / (strong + 0.5))
        self.log_odds[s] += max(-MAX_STEP, min(MAX_STEP, step))
        self.weighed[s] += 1

    def judged(self, threshold: float) -> bool:
        """Whether every other seat plays like the easy heuristic with at least this
        probability."""
        return all(self.p_easy(s) >= threshold for s in range(self.game.n_players)
                   if s != self.seat)

    def any_easy(self, threshold: float) -> bool:
        return any(self.p_easy(s) >= threshold for s in range(self.game.n_players)
                   if s != self.seat)

    def policies(self, rng: random.Random) -> tuple[Policy, ...]:
        """One draw of every seat's playout policy: the bot's own seat and the seats judged
        strong play `strong` seeing the deal; a seat plays the easy heuristic blind with the
        probability that it plays like it."""
        return tuple((EASY, False) if s != self.seat and rng.random() < self.p_easy(s)
                     else (self.strong, True) for s in range(self.game.n_players))


def _holding(deal: State, view: State, s: int, cards: tuple[int, ...],
             rng: random.Random) -> State:
    """`deal` with `cards` in seat `s`'s hand: each one it lacks trades places with one of its
    cards that `view` does not show there (a card the seat played was in its hand)."""
    hands = list(deal.hands)
    stock = list(deal.stock)
    for card in cards:
        bit = 1 << card
        if hands[s] & bit:
            continue
        free = hands[s] & ~view.hands[s] & ~_mask(cards)
        if not free:
            return deal
        spare = _pick(free, rng)
        hands[s] = hands[s] & ~(1 << spare) | bit
        for other, hand in enumerate(hands):
            if other != s and hand & bit:
                hands[other] = hand & ~bit | (1 << spare)
                break
        else:
            if card not in stock:
                return deal  # not where the sample can trade it (a locked or face-down card)
            stock[stock.index(card)] = spare
    return deal._replace(hands=tuple(hands), stock=tuple(stock))


def _mask(cards: tuple[int, ...]) -> int:
    out = 0
    for card in cards:
        out |= 1 << card
    return out


def _pick(mask: int, rng: random.Random) -> int:
    cards = [c for c in range(mask.bit_length()) if (mask >> c) & 1]
    return cards[rng.randrange(len(cards))]
