"""The bot peer interface: one object per seat that sees only what that seat may see.

A bot is fed exactly what a node learns from the network: every committed public action of
the game log (`observe`, chance reveals and lots included) and the cards privately dealt or
drawn to its own seat (`learn`). From these it keeps its *own* partial view — built with
`new_game(game, None)`, so every other hand and the stock start unknown — and asks itself for
a move with `choose`. It is never given a full state, so it cannot read another hand: that is
the isolation guarantee, by construction, and `tests/bots/test_isolation.py` checks it.

The same object serves the local arena (a driver feeds it from a full state) and a networked
table (the node feeds it from the committed log and the mental-poker deck).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from p2p_durak.bots.blind import blind_action
from p2p_durak.bots.dummy import dummy_action
from p2p_durak.engine import (
    CHANCE,
    Action,
    Game,
    IllegalAction,
    Result,
    State,
    learn,
    legal_actions,
    new_game,
    state_hash,
    step,
)
from p2p_durak.engine.actions import PASS, THROW, pass_
from p2p_durak.engine.state import BOUT, LEAD


class BotDesync(RuntimeError):
    """The bot's own view disagrees with the table it is asked to play at."""


class Bot:
    """Base class: keeps the seat's partial view; subclasses implement `decide`."""

    level = "base"
    plays_blind = True  # оборотный: decide by `blind.blind_action` (the random bot does not)
    plays_dummy = True  # с болваном: the dummy's seat decides by `dummy.dummy_action` (idem)

    def __init__(self, seat: int, rng: random.Random) -> None:
        self.seat = seat
        self.rng = rng
        self._view: State | None = None
        self.deliberated = False  # whether the last `choose` had to weigh several options
        self._leads_seen: set[tuple[object, ...]] = set()  # positions of this game's leads

    # ---- feeding -------------------------------------------------------------------------

    def new_game(self, game: Game) -> None:
        """Start a game: a partial view in which every card is unknown."""
        self._view = new_game(game, None)
        self._leads_seen = set()
        self.on_new_game(game)

    def observe(self, action: Action) -> None:
        """Apply one committed public log entry (any seat's action, or a chance action)."""
        before = self.view
        try:
            after = step(before, action)
        except IllegalAction as error:
            raise BotDesync(f"seat {self.seat}: the committed action {action} does not fit "
                            f"this bot's view ({error})") from error
        self._view = after
        self.on_observed(before, action, after)

    def learn(self, cards: Sequence[int]) -> None:
        """The cards privately dealt or drawn to this bot's own seat."""
        self._view = learn(self.view, self.seat, tuple(cards))

    def learn_hand(self, seat: int, cards: Sequence[int]) -> None:
        """оборотный: cards of another seat's hand, which this seat sees and that one does
        not (its own it is never told)."""
        self._view = learn(self.view, seat, tuple(cards))

    def choose(self, view: State | None = None) -> Action:
        """One of `legal_actions(view, seat)`.

        The bot decides from its own view only. A caller may pass the seat's partial view it
        holds itself; it must equal the bot's (same known cards everywhere, same public state
        hash), which catches a desynchronised feed and refuses a view that shows more than the
        seat may know (a full state); it is never read for the decision.
        """
        own = self.view
        self.deliberated = False
        if view is not None:
            if view.hands != own.hands or view.hidden != own.hidden or view.stock != own.stock:
                raise BotDesync(f"seat {self.seat}: the view offered shows cards this seat "
                                f"cannot know, or misses its own")
            if state_hash(view) != state_hash(own):
                raise BotDesync(f"seat {self.seat}: the table's public state and the bot's "
                                f"differ")
        options = legal_actions(own, self.seat)
        if not options:
            raise ValueError(f"seat {self.seat} has no legal action now")
        blind = own.game.tables.blind
        if own.hidden[self.seat] and not blind:
            raise BotDesync(f"seat {self.seat} has not been told all its own cards")
        if len(options) == 1:
            return options[0]
        if blind and self.plays_blind:
            # оборотный: his own cards are not in his view; plays are picks by position
            self.deliberated = True
            return blind_action(own, self.seat, options, self.rng)
        if waiting_thrower(own, self.seat) and pass_(self.seat) in options:
            # The defender still has cards to answer: a pass holds only until the table
            # changes, so passing now is waiting, and throwing after the beat sees more.
            return pass_(self.seat)
        if self.seat == own.game.dummy and self.plays_dummy and throws_only(options):
            return dummy_action(own, self.seat, options)
        self.deliberated = True
        if own.phase == LEAD and not own.stock:
            # Without a stock, bots that all lead what the next seat cannot beat pass the same
            # cards round the table for ever; a lead from a position this bot has led from
            # before is drawn at random instead, which breaks the cycle.
            position = (own.hands[self.seat], tuple(own.hand_size(s)
                                                     for s in range(own.n_players)),
                        own.out, own.discard, own.attacker)
            if position in self._leads_seen:
                return options[self.rng.randrange(len(options))]
            self._leads_seen.add(position)
        return self.decide(own, options)

    def choose_dummy(self) -> Action:
        """с болваном: the dummy's throw-in or pass, for the controller this bot plays (its
        view holds the dummy's hand, shown to the controller: `learn_hand`)."""
        own = self.view
        dummy = own.game.dummy
        if dummy < 0 or own.controller != self.seat:
            raise ValueError(f"seat {self.seat} does not control a dummy now")
        options = legal_actions(own, dummy)
        if not options:
            raise ValueError("the dummy has no legal action now")
        if own.hidden[dummy]:
            raise BotDesync(f"seat {self.seat} has not been shown all the dummy's cards")
        if len(options) == 1:
            return options[0]
        if waiting_thrower(own, dummy) and pass_(dummy) in options:
            return pass_(dummy)  # (as for its own seat: throwing after the beat sees more)
        if not self.plays_dummy:
            return options[self.rng.randrange(len(options))]
        if not throws_only(options):
            # the agreed variant («по согласованию между игроками болван имеет право» ходить и
            # отбиваться): the dummy leads or defends, played by this bot's own policy on the
            # dummy's cards, which the controller sees
            self.deliberated = True
            return self.decide_dummy(own, dummy, options)
        return dummy_action(own, dummy, options)

    def decide_dummy(self, view: State, dummy: int, options: tuple[Action, ...]) -> Action:
        """The dummy's lead or defence (the agreed variant) by this level's policy; a level
        without one plays at random."""
        return options[self.rng.randrange(len(options))]

    @property
    def view(self) -> State:
        if self._view is None:
            raise RuntimeError("new_game() first")
        return self._view

    # ---- for subclasses ------------------------------------------------------------------

    def on_new_game(self, game: Game) -> None:
        """Reset per-game memory."""

    def on_observed(self, before: State, action: Action, after: State) -> None:
        """Update card memory after a public action."""

    def decide(self, view: State, options: tuple[Action, ...]) -> Action:
        raise NotImplementedError


def throws_only(options: Sequence[Action]) -> bool:
    """Whether a seat's options are a thrower's (throw-ins and a pass), not a lead or a
    defence."""
    return all(a.kind in (THROW, PASS) for a in options)


def waiting_thrower(state: State, seat: int) -> bool:
    """A thrower asked while the defender still has uncovered cards to answer."""
    return (state.phase == BOUT and seat != state.defender and not state.taking
            and -1 in state.covers)


def priority_actor(state: State) -> int:
    """The seat simulations let act next: the defender while he has cards to answer, then
    the throwers from the lead attacker clockwise (the engine's `actors` order); CHANCE in
    chance phases. Everyone else in `to_act` would only pass, which is waiting."""
    actors = state.actors
    if not actors:
        raise ValueError("nobody acts in a finished game")
    if CHANCE in actors:
        return CHANCE
    if state.phase == BOUT and state.defender in actors:
        return state.defender
    return actors[0]


def outcome(result: Result, seat: int, team: Sequence[int]) -> float:
    """1 when `seat` (or its team) is not a durak, 0.5 on a draw, 0 when it lost."""
    if result.draw:
        return 0.5
    mine = team[seat]
    return 0.0 if any(team[d] == mine for d in result.durak) else 1.0
