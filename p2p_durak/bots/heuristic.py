"""Heuristic play: the cheapest card that does the job, trumps kept.

`heuristic_action` picks one of the legal options. Without card memory (`possible=None`) it is
the easy bot. Given `possible` — per seat, the mask of cards that seat may still hold — it also
leads and throws in what the defender cannot beat, which is how the medium bot uses its card
accounting and how the search's playouts play a determinized (fully known) deal.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from p2p_durak.bots.features import TRUMP_BONUS, card_values, cheapest
from p2p_durak.engine import UNKNOWN, Action, State
from p2p_durak.engine.actions import BEAT, PASS, SHOW, TAKE, THROW, TRANSFER
from p2p_durak.engine.state import BOUT, LEAD


@dataclass(frozen=True)
class Style:
    """The knobs of the heuristic (ranks are card ranks: 11 = jack … 14 = ace)."""

    throw_max_rank: int = 10  # plain cards thrown in while the stock lasts
    dump_max_rank: int = 11  # plain cards thrown after «беру» while the stock lasts
    keep_trump_rank: int = 12  # while the stock is long, take rather than spend such a trump
    keep_trump_stock: int = 8  # "long": at least this many cards in the stock
    keep_trump_table: int = 2  # ... and at most this many attack cards to take
    unbeatable_lead_bonus: float = 8.0  # memory: prefer leads the defender cannot beat
    endgame_unbeatable_bonus: float = 30.0  # ... even more once the stock is gone


EASY = Style()


def heuristic_action(state: State, seat: int, options: Sequence[Action],
                     possible: Sequence[int] | None = None, style: Style = EASY) -> Action:
    """One of `options` (the seat's legal actions, non-empty)."""
    if len(options) == 1:
        return options[0]
    if state.phase == LEAD:
        return _lead(state, options, possible, style)
    if state.phase == BOUT:
        if seat == state.defender:
            return _defend(state, seat, options, possible, style)
        return _throw(state, seat, options, possible, style)
    return options[0]  # claims: the one lowest trump the hand holds


def _lead(state: State, options: Sequence[Action], possible: Sequence[int] | None,
          style: Style) -> Action:
    game = state.game
    values = card_values(game, state.trump)
    beaters = game.beaters(state.trump)
    stock = len(state.stock)
    defence = possible[state.defender] if possible is not None else -1
    unbeatable_bonus = style.endgame_unbeatable_bonus if not stock else \
        style.unbeatable_lead_bonus
    trump_penalty = 40.0 if stock else 0.0
    best, best_score = options[0], float("inf")
    for action in options:
        cards = action.cards
        top = 0
        trumps = False
        unbeatable = possible is not None
        for card in cards:
            value = values[card]
            if value > top:
                top = value
            if value >= TRUMP_BONUS:
                trumps = True
            if unbeatable and beaters[card] & defence:
                unbeatable = False
        # Low cards first, several of a rank together; trumps only when nothing else is left.
        score = 2.0 * top - 1.5 * (len(cards) - 1)
        if trumps:
            score += trump_penalty
        if unbeatable:
            score -= unbeatable_bonus
        if score < best_score:
            best, best_score = action, score
    return best


def defence_plan(state: State, seat: int) -> dict[int, int] | None:
    """Which card beats which uncovered attack card (table index -> card), the hardest attack
    card first, each with the cheapest card left that beats it; None when one cannot be beaten."""
    game = state.game
    values = card_values(game, state.trump)
    beaters = game.beaters(state.trump)
    left = state.hands[seat]
    open_cards = [(i, c) for i, c in enumerate(state.table) if state.covers[i] == UNKNOWN]
    open_cards.sort(key=lambda ic: -values[ic[1]])
    plan: dict[int, int] = {}
    for index, attack in open_cards:
        can = left & beaters[attack]
        if not can:
            return None
        card = cheapest(can, values)
        plan[index] = card
        left &= ~(1 << card)
    return plan


def _defend(state: State, seat: int, options: Sequence[Action],
            possible: Sequence[int] | None, style: Style) -> Action:
    game = state.game
    values = card_values(game, state.trump)
    take: Action | None = None
    transfers: list[Action] = []
    for action in options:
        if action.kind == SHOW:
            return action  # a shown trump stays in hand: the attack moves on for free
        if action.kind == TRANSFER:
            transfers.append(action)
        elif action.kind == TAKE:
            take = action
    transfer = min(transfers, key=lambda a: values[a.cards[0]]) if transfers else None
    plan = defence_plan(state, seat)
    if plan is None:
        if transfer is not None:
            return transfer
        assert take is not None
        return take
    top = max(values[c] for c in plan.values())
    if transfer is not None and values[transfer.cards[0]] <= top \
            and values[transfer.cards[0]] < TRUMP_BONUS:
        return transfer
    if (take is not None and top >= TRUMP_BONUS + style.keep_trump_rank - game.deck.lowest_rank
            and len(state.stock) >= style.keep_trump_stock
            and len(state.table) <= style.keep_trump_table):
        return take
    index = max(plan, key=lambda i: values[state.table[i]])
    return Action(BEAT, seat, (plan[index],), index)


def _throw(state: State, seat: int, options: Sequence[Action],
           possible: Sequence[int] | None, style: Style) -> Action:
    game = state.game
    values = card_values(game, state.trump)
    beaters = game.beaters(state.trump)
    stock = len(state.stock)
    defence = possible[state.defender] if possible is not None else -1
    limit = style.dump_max_rank if state.taking else style.throw_max_rank
    best: Action | None = None
    best_score = float("inf")
    for action in options:
        if action.kind != THROW:
            continue
        card = action.cards[0]
        trump = values[card] >= TRUMP_BONUS
        score = float(values[card])
        ok = not trump and (stock == 0 or game.rank[card] <= limit)
        if possible is not None and not state.taking and not beaters[card] & defence:
            # the defender cannot beat it: he must take the whole table
            ok = not trump or stock == 0
            score -= 20.0
        if ok and score < best_score:
            best, best_score = action, score
    if best is not None:
        return best
    return Action(PASS, seat)
