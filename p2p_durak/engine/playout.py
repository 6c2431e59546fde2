"""Seeded random playouts: a full state played to the end by uniformly random legal moves.

For bots' search (Monte Carlo rollouts over determinized states) and the simulator benchmark.
Chance is an input here too: the seed drives a small xorshift generator written out below, so
the engine still imports no `random`. Each step picks a seat uniformly among those that may
act (`to_act`), then an action uniformly among that seat's `legal_actions`.

The bouts, where nearly every action of a game happens, are played on `_Board`, a mutable
working copy of the state, instead of building a new `State` per action. The legal actions
come from the generators `legal_actions` uses, the who-acts rule and the end of a bout are the
engine's own (`bout_actors_of`, `close_bout`); only the few field updates of each move are
written out here, and `tests/engine/test_engine_regressions.py` replays playouts through
`step` to hold them equal. The deal, reveals, claims and lots go through `step` itself.
"""

from __future__ import annotations

from p2p_durak.engine.actions import BEAT, CHANCE, PASS, SHOW, TAKE, Action
from p2p_durak.engine.bout import (
    bout_actors_of,
    close_bout,
    count_defence,
    covered_attacks,
    defender_options,
    lead_actions,
    lead_cap,
    lead_throwable,
    special_leads,
    swap_trump,
    throw_room,
    thrower_options,
)
from p2p_durak.engine.core import chance_outcome, legal_actions, step_any
from p2p_durak.engine.seats import transfer_target_of
from p2p_durak.engine.state import BOUT, LEAD, OVER, RESHUFFLE, UNKNOWN, Result, State
from p2p_durak.engine.tables import COUNTER_POGONY, GameTables
from p2p_durak.engine.xorshift import next_state, seed_state

__all__ = ["next_state", "random_playout", "seed_state"]

def random_playout(state: State, seed: int, log: list[Action] | None = None) -> State:
    """Play `state` (a full state) to the end with random legal moves drawn from `seed`.

    The same state and seed give the same game on every machine. `log`, when given, receives
    every action played, so the game can be replayed with `step`."""
    if not state.is_full:
        raise ValueError("a playout needs a full state (every card's place known)")
    x = seed_state(seed)
    while True:
        phase = state.phase
        if phase == OVER:
            return state
        if phase in (LEAD, BOUT) and not state.game.tables.stepwise:
            board = _Board(state)
            x = board.play(x, log)
            state = board.to_state()
            continue
        actors = state.actors
        x = next_state(x)
        seat = actors[x % len(actors)]
        action = chance_outcome(state) if seat == CHANCE else None
        if action is None:
            legal = legal_actions(state, seat)
            x = next_state(x)
            action = legal[x % len(legal)]
        state = step_any(state, action)
        if log is not None:
            log.append(action)


class _Board:
    """The changing part of a full state during its bouts, as mutable fields.

    A full state has no hidden cards, so `hidden` stays all zeros; the fields a bout never
    changes (trump, claims, ...) are read from `origin` when the board turns back into a
    `State`."""

    __slots__ = ("actors", "attacker", "bout", "covers", "defender", "discard", "finish",
                 "hands", "locked", "origin", "otboi", "out", "passed", "phase", "rank",
                 "ranks", "result", "shown", "size", "stock", "t", "table", "table_by", "taking",
                 "tally", "trump", "trump_card", "uncovered", "zeros")

    def __init__(self, state: State) -> None:
        self.origin: State = state
        self.t: GameTables = state.game.tables
        self.rank: tuple[int, ...] = state.game.rank
        self.phase: int = state.phase
        self.hands: list[int] = list(state.hands)
        self.zeros: list[int] = list(state.hidden)
        self.stock: tuple[int, ...] = state.stock
        self.table: list[int] = list(state.table)
        self.covers: list[int] = list(state.covers)
        self.table_by: list[int] = list(state.table_by)
        self.uncovered: int = state.covers.count(UNKNOWN)
        self.attacker: int = state.attacker
        self.defender: int = state.defender
        # the defender's hand size, which every move's who-acts check reads: kept up to date
        # move by move rather than counted each time (int.bit_count is a slow method call in
        # the compiled build); recounted when the defender or the hands change wholesale
        self.size: int = state.hands[state.defender].bit_count()
        self.taking: bool = state.taking
        self.passed: int = state.passed
        self.shown: int = state.shown
        self.out: int = state.out
        self.finish: tuple[int, ...] = state.finish
        self.discard: int = state.discard
        self.bout: int = state.bout
        self.ranks: int = state.table_ranks
        self.actors: tuple[int, ...] = state.actors
        self.result: Result | None = state.result
        self.tally: tuple[int, ...] = state.tally
        self.trump: int = state.trump  # козырной changes it between bouts
        self.trump_card: int = state.trump_card
        # магаданский: the locked piles change as bouts close; None when nothing is locked
        self.locked: list[tuple[int, ...]] | None = list(state.locked) if state.locked else None
        self.otboi: int = state.otboi

    def to_state(self) -> State:
        s = self.origin
        state: State = tuple.__new__(State, (
            s.game, self.phase, tuple(self.hands), s.hidden, self.stock, self.trump,
            self.trump_card,
            s.hidden_trump, s.reveal_card, tuple(self.table), tuple(self.covers),
            tuple(self.table_by), self.attacker, self.defender, self.taking, self.passed,
            self.shown, self.out, self.finish, self.discard, self.bout, s.claims, s.lot_among,
            self.result, self.actors, self.ranks, s.seat_trumps,
            s.locked if self.locked is None else tuple(self.locked), self.otboi, self.tally,
            s.controller, s.doubt, s.buried, s.n_buried, s.swapped))
        return state

    def play(self, x: int, log: list[Action] | None) -> int:
        """Random moves while the game is in its bouts; the generator state after them."""
        t = self.t
        while True:
            phase = self.phase
            if phase != BOUT and phase != LEAD:
                return x
            actors = self.actors
            if len(actors) == 1:
                seat = actors[0]
            else:
                x = next_state(x)
                seat = actors[x % len(actors)]
            if phase == BOUT:
                # the defender acts as a thrower once everything is beaten (американский)
                if seat == self.defender and self.uncovered:
                    options = defender_options(t, seat, self.hands[seat], self.trump, self.table,
                                               self.covers, self.out, self.shown, self.bout,
                                               self.hands, self.zeros)
                    x = next_state(x)
                    action = options[x % len(options)]
                    kind = action.kind
                    if kind == BEAT:
                        self.beat(seat, action.cards[0], action.target)
                    elif kind == TAKE:
                        self.taking = True
                        self.passed = 0
                    else:
                        self.transfer(seat, action.cards[0], kind == SHOW)
                else:
                    room = throw_room(t, self.bout, len(self.table), self.uncovered, self.size) \
                        if t.multi_throw else 1
                    options = thrower_options(t, seat, self.hands[seat] & self.ranks, room)
                    x = next_state(x)
                    action = options[x % len(options)]
                    if action.kind == PASS:
                        self.passed |= 1 << seat
                    else:
                        for card in action.cards:
                            self.throw(seat, card)
                        if t.counter == COUNTER_POGONY:
                            self.score_pairs(seat, len(action.cards))
            else:
                cap = lead_cap(t, self.bout, self.size)
                options = special_leads(t, seat, self.hands[seat], cap, self.bout) \
                    if t.lead_special else lead_actions(t, seat, self.hands[seat], cap)
                x = next_state(x)
                action = options[x % len(options)]
                self.lead(seat, action.cards)
            if log is not None:
                log.append(action)
            self.settle()

    def lead(self, seat: int, cards: tuple[int, ...]) -> None:
        n = len(cards)
        hands = self.hands
        hand = hands[seat]
        for card in cards:
            hand &= ~(1 << card)
        hands[seat] = hand  # (not `hands[seat] &= ...`: mypyc does that on boxed ints)
        if seat == self.defender:
            self.size -= n
        self.phase = BOUT
        self.table = list(cards)
        self.covers = [UNKNOWN] * n
        self.table_by = [seat] * n
        self.uncovered = n
        self.passed = 0
        self.ranks = lead_throwable(self.t, cards)
        if self.t.counter == COUNTER_POGONY:
            self.score_pairs(seat, n)

    def score_pairs(self, seat: int, n: int) -> None:
        """погонный: ⌊n/2⌋ «погоны» for n cards of one rank laid at once."""
        if n > 1:
            tally = self.tally
            self.tally = tally[:seat] + (tally[seat] + n // 2,) + tally[seat + 1:]

    def throw(self, seat: int, card: int) -> None:
        hands = self.hands
        hands[seat] = hands[seat] & ~(1 << card)
        if seat == self.defender:  # американский: the defender throws in to himself
            self.size -= 1
        self.table.append(card)
        self.covers.append(UNKNOWN)
        self.table_by.append(seat)
        self.uncovered += 1
        self.passed = 0

    def beat(self, seat: int, card: int, target: int) -> None:
        hands = self.hands
        hands[seat] = hands[seat] & ~(1 << card)
        self.size -= 1
        self.covers[target] = card
        self.uncovered -= 1
        self.passed = 0
        t = self.t
        if t.throw_beats:  # дорожный: what beats this card (the option: or an earlier one)
            self.ranks = t.beaters[self.trump + 1][card] | (self.ranks if t.throw_beats_any
                                                            else 0)
        else:
            self.ranks |= t.beat_throwable[card]
        if t.swap_trump:
            self.shown = 1 << card

    def transfer(self, seat: int, card: int, showing: bool) -> None:
        if showing:
            self.shown |= 1 << card
        else:
            hands = self.hands
            hands[seat] = hands[seat] & ~(1 << card)
            self.table.append(card)
            self.covers.append(UNKNOWN)
            self.table_by.append(seat)
            self.uncovered += 1
            if not self.t.throw_beats:
                self.ranks |= self.t.throwable[card]
        self.defender = transfer_target_of(self.t, self.out, seat)
        self.size = self.hands[self.defender].bit_count()
        self.passed = 0
        if self.origin.seat_trumps:
            self.trump = self.origin.seat_trumps[self.defender]

    def settle(self) -> None:
        """Go on with the bout while anybody may act in it, else close it."""
        hands = self.hands
        holding = 0
        for seat in range(len(hands)):
            if hands[seat]:
                holding |= 1 << seat
        actors = bout_actors_of(self.t, holding, self.size, len(self.table), self.uncovered,
                                self.attacker, self.defender, self.taking, self.passed, self.out,
                                self.bout)
        if actors:
            self.actors = actors
            return
        if self.t.rebound and not self.taking:
            self.otboi += 1
            if self.otboi % 2 == 0:  # отбойный: the bout waits for its shuffle (chance)
                self.phase = RESHUFFLE
                self.actors = (CHANCE,)
                self.passed = 0
                return
        covers = self.covers
        if self.t.count_defended and (not self.taking or self.t.count_taken):
            self.tally = count_defence(self.t, self.tally, covered_attacks(self.table, covers)
                                       if self.taking else self.table, self.defender)
        if self.t.swap_trump and not self.taking:
            stock, new_covers, self.trump, self.trump_card = swap_trump(
                self.origin.game.suit, self.stock, tuple(covers), self.shown, self.trump,
                self.trump_card, None)
            self.stock, covers = stock, list(new_covers)
        (self.phase, self.stock, self.out, self.finish, self.discard, self.result,
         self.attacker, self.defender) = close_bout(
            self.t, self.rank, self.hands, self.zeros, self.stock, self.table, covers,
            self.table_by, self.attacker, self.defender, self.taking, self.out, self.finish,
            self.discard, self.bout, self.origin.hidden_trump, None, self.locked, self.tally)
        self.bout += 1
        self.size = hands[self.defender].bit_count()
        if self.origin.seat_trumps:
            self.trump = self.origin.seat_trumps[self.defender]
        self.table = []
        self.covers = []
        self.table_by = []
        self.uncovered = 0
        self.taking = False
        self.passed = 0
        self.shown = 0
        self.ranks = 0
        self.actors = () if self.phase == OVER else (
            self.t.solo[self.attacker] if self.phase == LEAD else (CHANCE,))
