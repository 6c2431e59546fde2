"""A local table: a full state, and bots fed only what their seat may see.

This is the arena's driver and the model of what a node does for a bot peer: every action,
once chosen, is applied to the full state and then given to *every* bot as a public log entry;
the cards a seat receives privately (its deal, its draws, from the full state's `Dealt` and
`Drew` events) go to that seat's bot alone. Bots never see the full state.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from p2p_durak.bots.base import Bot, priority_actor
from p2p_durak.bots.blind import HandOrder, blind_shares
from p2p_durak.engine import (
    CHANCE,
    Action,
    Game,
    State,
    apply,
    cards_of,
    chance_outcome,
    is_over,
    legal_actions,
    new_game,
)
from p2p_durak.engine import actions as A
from p2p_durak.engine import events as E

MAX_SEAT_ACTIONS = 2000
"""A bot game longer than this is aborted (bot play ends in about a hundred)."""


@dataclass
class Played:
    final: State
    seat_actions: int
    aborted: bool
    log: list[Action]


class LocalTable:
    """One game between bots on this machine."""

    def __init__(self, game: Game, deck_order: Sequence[int], bots: Sequence[Bot],
                 rng: random.Random) -> None:
        if len(bots) != game.n_players:
            raise ValueError(f"{game.n_players} seats need {game.n_players} bots")
        self.state = new_game(game, deck_order)
        self.bots = list(bots)
        self.rng = rng
        self.log: list[Action] = []
        self.hand_order = HandOrder()  # оборотный: the positions blind picks name
        # called with (seat, wall seconds, thread CPU seconds) after every bot decision that weighed
        # several options
        self.on_decision: Callable[[int, float, float], None] | None = None
        for seat, bot in enumerate(self.bots):
            if bot.seat != seat:
                raise ValueError(f"the bot for seat {seat} plays seat {bot.seat}")
            bot.new_game(game)

    def next_actor(self) -> int:
        """The seat asked next (`priority_actor`), CHANCE for a chance action."""
        return priority_actor(self.state)

    def next_action(self) -> Action:
        """The next action: a chance outcome, or the priority seat's bot's choice."""
        state = self.state
        seat = priority_actor(state)
        if seat == CHANCE:
            action = chance_outcome(state)
            if action is None:  # a lot
                options = legal_actions(state, CHANCE)
                action = options[self.rng.randrange(len(options))]
            return action
        bot = self.bots[seat]
        start, start_cpu = time.perf_counter(), time.thread_time()
        action = bot.choose()
        if self.on_decision is not None and bot.deliberated:
            self.on_decision(seat, time.perf_counter() - start, time.thread_time() - start_cpu)
        return self.hand_order.resolve(self.state, action)  # оборотный: a pick by position

    def commit(self, action: Action) -> None:
        """Apply an action to the full state and feed it to the bots."""
        self.state, events = apply(self.state, action)
        self.log.append(action)
        if self.state.game.tables.blind:
            self.hand_order.sync(self.state)
        for seat, bot in enumerate(self.bots):
            # верю не верю: only the author's feed names a face-down card
            bot.observe(action if seat == action.seat else A.public_form(action))
        if self.state.game.tables.blind:
            self._feed_blind(events)
            return
        for event in events:
            if isinstance(event, (E.Dealt, E.HandsRotated)):  # круговой: a new hand each
                for seat, bot in enumerate(self.bots):
                    bot.learn(cards_of(self.state.hands[seat]))
            elif isinstance(event, (E.Drew, E.Unlocked, E.Took, E.Exchanged)):
                # магаданский: an unlocked card; верю не верю: the face-down covers a doubter
                # took; круговой: a card drawn and then passed on is no longer this seat's
                hand = self.state.hands[event.seat]
                self.bots[event.seat].learn(tuple(c for c in event.cards if (hand >> c) & 1))

    def _feed_blind(self, events: tuple[E.Event, ...]) -> None:
        """оборотный: a seat's deal and draws go to every other seat's bot, never its own."""
        for holder, cards in blind_shares(self.state, events):
            for seat, bot in enumerate(self.bots):
                if seat != holder:
                    bot.learn_hand(holder, cards)

    def play(self, max_seat_actions: int = MAX_SEAT_ACTIONS) -> Played:
        seat_actions = 0
        while not is_over(self.state):
            if seat_actions >= max_seat_actions:
                return Played(self.state, seat_actions, True, self.log)
            action = self.next_action()
            if action.seat != CHANCE:
                seat_actions += 1
            self.commit(action)
        return Played(self.state, seat_actions, False, self.log)
