"""Bots for Дурак чухонский: random, easy, medium and hard, each fed only what its seat sees.

Like the attack/defend bots (`bots/base.py`), a bot keeps its own partial view: every committed
public move (`observe`) and the cards dealt to its seat (`learn`). With the catalogue's
default rules a player chooses only when he leads (a card that climbs must be laid), so the
levels differ in how they pick a lead:

- random: any legal move;
- easy: no memory beyond its own hand: an ace (a free discard, and he leads again) unless a
  card whose next card he holds himself, so the next player must take it;
- medium: card accounting — the discard, the cards taken face up, and what every compulsory
  take proves (who took on 8♠ holds no 9♠) — and a walk of the ladder each lead would start:
  whose card comes next, with the chance that an unseen card is in each hand, and who takes
  in the end; it leads what sheds the most of its cards against the others';
- hard: determinized search — deals sampled from medium's accounting, every lead played out
  on the same deals with medium's walk for every seat, the best mean result kept (the
  paired comparison of `bots/rollout.py`, over this game's own states).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import replace

from p2p_durak.engine.cards import bits
from p2p_durak.engine.games import chukhonsky as C
from p2p_durak.engine.games.chukhonsky.ladder import known_cards, next_active
from p2p_durak.engine.games.chukhonsky.state import ACE

LEVELS = ("random", "easy", "medium", "hard")


class ChukhonskyBot:
    """A seat's bot: its own partial view and the facts compulsory takes prove."""

    level = "base"

    def __init__(self, seat: int, rng: random.Random) -> None:
        self.seat = seat
        self.rng = rng
        self._view: C.State | None = None
        self.lacks: list[int] = []  # per seat: cards its hidden part cannot hold
        self.deliberated = False

    def new_game(self, game: C.Game) -> None:
        self._view = C.new_game(game, None)
        self.lacks = [0] * game.n_players

    def observe(self, move: C.Move) -> None:
        before = self.view
        if move.kind is C.MoveKind.TAKE and before.game.rules.play_compulsory and before.pile:
            # «Тот игрок, у которого нет необходимой карты, забирает»: he had none of them
            self.lacks[move.seat] |= before.game.climbers(before.top)
        self._view = C.step(before, move)

    def learn(self, cards: Sequence[int]) -> None:
        self._view = C.learn(self.view, self.seat, tuple(cards))

    @property
    def view(self) -> C.State:
        if self._view is None:
            raise RuntimeError("new_game() first")
        return self._view

    def choose(self) -> C.Move:
        view = self.view
        options = C.legal_actions(view, self.seat)
        if not options:
            raise ValueError(f"seat {self.seat} has no legal move now")
        if view.hidden[self.seat]:
            raise RuntimeError(f"seat {self.seat} has not been told all its own cards")
        self.deliberated = len(options) > 1
        if len(options) == 1:
            return options[0]
        return self.decide(view, options)

    def decide(self, view: C.State, options: tuple[C.Move, ...]) -> C.Move:
        return options[self.rng.randrange(len(options))]

    def possible(self, view: C.State) -> list[int]:
        """Per seat, every card it may hold: the known ones, and the unseen ones its hidden
        part is not proved to lack."""
        unseen = ((1 << view.game.n_cards) - 1) & ~known_cards(view)
        return [hand | (unseen & ~self.lacks[s] if view.hidden[s] else 0)
                for s, hand in enumerate(view.hands)]


class RandomBot(ChukhonskyBot):
    level = "random"


class EasyBot(ChukhonskyBot):
    level = "easy"

    def decide(self, view: C.State, options: tuple[C.Move, ...]) -> C.Move:
        return easy_move(view, self.seat, options)


def easy_move(view: C.State, seat: int, options: tuple[C.Move, ...]) -> C.Move:
    game = view.game
    plays = [m for m in options if m.kind is C.MoveKind.PLAY]
    if not plays:
        return options[0]
    if view.pile:  # a choice of climbers (any higher card), or to take: lay the lowest
        return plays[0]
    hand = view.hands[seat]
    blocked = [m for m in plays if game.rank(m.card) != ACE and game.climbers(m.card) & hand]
    if blocked:  # the next player cannot hold its next card: he takes it
        return blocked[-1]
    aces = [m for m in plays if game.rank(m.card) == ACE]
    return aces[0] if aces else plays[0]


class MediumBot(ChukhonskyBot):
    level = "medium"

    def decide(self, view: C.State, options: tuple[C.Move, ...]) -> C.Move:
        return best_by_walk(view, self.seat, options, self.possible(view))


def best_by_walk(view: C.State, seat: int, options: tuple[C.Move, ...],
                 possible: Sequence[int]) -> C.Move:
    """The option whose ladder walk sheds the most of `seat`'s cards against the others'."""
    def value(move: C.Move) -> float:
        if move.kind is C.MoveKind.TAKE:
            return -2.0
        return walk_value(view, seat, move.card, possible)
    return max(options, key=lambda m: (value(m), -m.card))


def walk_value(view: C.State, seat: int, card: int, possible: Sequence[int]) -> float:
    """Laying `card` now: the expected change of the others' mean hand size minus that of
    `seat`'s own, over the ladder it starts (or continues). Each next card lies where it is
    known to, or, unseen, in a hand that may hold it with the chance of that hand's share of
    the unseen cards; a player holding it lays it (the lowest of several climbers); the first
    who cannot takes the top card; an ace ends the ladder and its player leads again."""
    game = view.game
    n = game.n_players
    active = [s for s in range(n) if not (view.out >> s) & 1]
    counts = [view.hand_size(s) for s in range(n)]
    delta = [0.0] * n

    def share(holder: int, cards: int) -> float:
        """The chance `holder` holds one of `cards` (a rough independent estimate)."""
        if view.hands[holder] & cards:
            return 1.0
        if not view.hidden[holder] or not possible[holder] & cards:
            return 0.0
        rivals = sum(view.hidden[s] for s in range(n)
                     if s != seat and possible[s] & cards and not view.hands[s] & cards)
        return min(1.0, view.hidden[holder] / rivals) if rivals else 0.0

    def go(top: int, player: int, hand_out: int, weight: float, depth: int) -> None:
        # `player` is to lay on `top` (out: the seats that ran out along this line)
        if weight < 1e-3 or depth > 14:
            return
        climbers = game.climbers(top)
        p = 0.0 if player == seat else share(player, climbers)
        if player == seat:
            mine = view.hands[seat] & climbers
            p = 1.0 if mine else 0.0
        if p < 1.0:  # he takes the top card
            delta[player] += weight * (1 - p)
        if p > 0.0:
            delta[player] -= weight * p
            lowest = _lowest(climbers & possible[player]) if player != seat else \
                _lowest(view.hands[seat] & climbers)
            if lowest < 0 or game.rank(lowest) == ACE:
                return
            gone = hand_out
            if counts[player] - 1 <= 0:
                gone |= 1 << player
            go(lowest, next_active(n, view.out | gone, player), gone, weight * p, depth + 1)

    delta[seat] -= 1.0
    if game.rank(card) != ACE:
        gone = (1 << seat) if counts[seat] == 1 else 0
        go(card, next_active(n, view.out | gone, seat), gone, 1.0, 0)
    others = [s for s in active if s != seat]
    mean_others = sum(delta[s] for s in others) / len(others) if others else 0.0
    return mean_others - delta[seat]


def _lowest(mask: int) -> int:
    return (mask & -mask).bit_length() - 1 if mask else -1


# ---- hard: determinized rollouts ---------------------------------------------------------------


def determinize(view: C.State, seat: int, lacks: Sequence[int], rng: random.Random,
                tries: int = 20) -> C.State:
    """A full state consistent with the view and the proved lacks (the lacks dropped if no
    deal honouring them turns up in `tries`)."""
    game = view.game
    unseen = list(bits(((1 << game.n_cards) - 1) & ~known_cards(view)))
    aside = view.set_aside
    for attempt in range(tries + 1):
        honour = attempt < tries
        rng.shuffle(unseen)
        room = list(view.hidden)
        room[seat] = 0
        hands = list(view.hands)
        aside_cards = 0
        left_aside = aside
        ok = True
        for card in unseen:
            seats = [s for s in range(game.n_players) if room[s]
                     and not (honour and (lacks[s] >> card) & 1)]
            slots = sum(room[s] for s in seats) + left_aside
            if not slots:
                ok = False
                break
            pick = rng.randrange(slots)
            for s in seats:
                if pick < room[s]:
                    hands[s] |= 1 << card
                    room[s] -= 1
                    break
                pick -= room[s]
            else:
                aside_cards |= 1 << card
                left_aside -= 1
        if ok:
            return replace(view, hands=tuple(hands), hidden=(0,) * game.n_players,
                           set_aside_cards=aside_cards)
    raise RuntimeError("no deal fits the view")


def exact_move(state: C.State, seat: int) -> C.Move:
    """The playouts' policy on a full state (every hand known): medium's ladder walk, which
    with every card placed is exact and needs no chances (`exact_walk`)."""
    options = C.legal_actions(state, seat)
    if len(options) == 1:
        return options[0]
    return max(options, key=lambda m: (-2.0 if m.kind is C.MoveKind.TAKE
                                       else exact_walk(state, seat, m.card), -m.card))


def exact_walk(state: C.State, seat: int, card: int) -> float:
    """`walk_value` on a full state: the others' mean change of hand size minus `seat`'s."""
    game = state.game
    n = game.n_players
    hands = state.hands
    out = state.out
    delta = [0] * n
    delta[seat] = -1
    player, top = seat, card
    if hands[seat] == 1 << card:
        out |= 1 << seat
    while game.rank(top) != ACE:
        player = next_active(n, out, player)
        laid = hands[player] & game.climbers(top)
        if not laid:
            delta[player] += 1
            break
        delta[player] -= 1
        top = _lowest(laid)
        if hands[player].bit_count() + delta[player] <= 0:
            out |= 1 << player
    others = [s for s in range(n) if s != seat and not (state.out >> s) & 1]
    mean = sum(delta[s] for s in others) / len(others) if others else 0.0
    return mean - delta[seat]


def playout(state: C.State, seat: int, limit: int = 20_000) -> float:
    """1 when `seat` is not the durak, ½ a draw (or too long), 0 the durak."""
    for _ in range(limit):
        if C.is_over(state):
            break
        (actor,) = C.to_act(state)
        state = C.step(state, exact_move(state, actor))
    result = state.result
    if result is None or result.draw:
        return 0.5
    return 0.0 if seat in result.durak else 1.0


class HardBot(MediumBot):
    level = "hard"

    def __init__(self, seat: int, rng: random.Random, budget: float = 1.0,
                 iterations: int = 48, clock: str = "wall") -> None:
        super().__init__(seat, rng)
        if budget <= 0 or iterations < 1:
            raise ValueError("the hard bot needs a positive time budget and iteration cap")
        self.budget = budget
        self.iterations = iterations
        self.clock: Callable[[], float] = time.thread_time if clock == "cpu" \
            else time.perf_counter

    def decide(self, view: C.State, options: tuple[C.Move, ...]) -> C.Move:
        default = super().decide(view, options)
        deadline = self.clock() + self.budget * 0.9
        totals = dict.fromkeys(options, 0.0)
        deals = 0
        while deals < self.iterations and (deals == 0 or self.clock() < deadline):
            deal = determinize(view, self.seat, self.lacks, self.rng)
            for move in options:
                totals[move] += playout(C.step(deal, move), self.seat)
            deals += 1
        best = max(options, key=lambda m: (totals[m], m == default))
        # keep medium's choice unless another is better on the same deals
        return default if totals[best] <= totals[default] else best


def make_bot(level: str, seat: int, rng: random.Random, **options: object) -> ChukhonskyBot:
    if level == "hard":
        return HardBot(seat, rng, **options)  # type: ignore[arg-type]
    factories: dict[str, type[ChukhonskyBot]] = {
        "random": RandomBot, "easy": EasyBot, "medium": MediumBot}
    if level not in factories:
        raise ValueError(f"unknown bot level {level!r} (one of {', '.join(LEVELS)})")
    return factories[level](seat, rng)
