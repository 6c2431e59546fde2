"""Playing a hand one cannot see (Дурак оборотный): the bots' policy from their real view.

A seat's own view holds every other hand but not its own: its cards are the ones whose place
the view does not know (its hand and the face-down stock), apart from the cards it took from
the table, which everyone saw. Its plays are picks by position, and positions it has not seen
are alike, so a pick is a draw from that pool. The policy weighs each play by the chance that
such a draw fits (beats the attack card, matches a rank on the table, transfers) against what a
miss costs — a wrong throw-in takes the whole table — and picks a position at random.

Where the view does know the card (a full hand of taken cards) the same rules apply with
certainty: a card that fits is played, one that does not is not.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from p2p_durak.engine import Action, IllegalAction, Reason, State, cards_of
from p2p_durak.engine import actions as A
from p2p_durak.engine import events as E
from p2p_durak.engine.state import known_cards


@dataclass(frozen=True)
class BlindStyle:
    beat_at: float  # try a beat (or a transfer) when a draw fits at least this often
    throw_at: float  # throw in when a draw fits at least this often (a miss takes the table)


# A failed beat costs what «беру» costs (the defender takes the table, his wrong card back
# with it), so a defender always tries; a wrong throw-in costs the thrower the whole table.
# Medium vs random over 40 heads-up games (seed 2000): 38-2 with throw_at 0.5 to 0.9, 35-5
# without any throw-in, 20-20 when the defender also took below a 0.35 chance.
CAREFUL = BlindStyle(beat_at=0.0, throw_at=0.7)


def fits(state: State, action: Action, card: int) -> bool:
    """Whether `card` played as `action` would be accepted without a penalty."""
    t = state.game.tables
    if action.kind == A.BEAT:
        return bool((t.beaters[state.trump + 1][state.table[action.target]] >> card) & 1)
    if action.kind == A.THROW:
        return bool((state.table_ranks >> card) & 1)
    if action.kind == A.TRANSFER:
        return bool((t.same_rank[state.table[0]] >> card) & 1) if state.table else False
    return True


def fit_chance(state: State, seat: int, action: Action) -> float:
    """The chance that the play fits: certain for a known card; for a pick, a position holds
    one of the seat's known cards or else a card drawn from the pool of unplaced cards."""
    if A.pick_position(action) < 0:
        return 1.0 if fits(state, action, action.cards[0]) else 0.0
    size = state.hand_size(seat)
    known = [c for c in range(state.game.n_cards) if (state.hands[seat] >> c) & 1]
    pool_mask = state.game.all_cards & ~known_cards(state)
    pool = [c for c in range(state.game.n_cards) if (pool_mask >> c) & 1]
    hits = float(sum(fits(state, action, c) for c in known))
    if pool:
        hits += state.hidden[seat] * sum(fits(state, action, c) for c in pool) / len(pool)
    return hits / size if size else 0.0


def blind_action(state: State, seat: int, options: Sequence[Action], rng: random.Random,
                 style: BlindStyle = CAREFUL) -> Action:
    """One of `options` (the seat's legal actions in its own view)."""
    plays = [a for a in options if a.cards]
    rest = [a for a in options if not a.cards]  # «беру» or a pass
    if not plays:
        return rest[0]
    if plays[0].kind == A.LEAD:
        return plays[rng.randrange(len(plays))]  # any card may lead
    # the plays grouped by what they are meant for, each with its chance of fitting
    chances: dict[tuple[int, int], float] = {}
    for action in plays:
        key = (action.kind, action.target)
        chance = fit_chance(state, seat, action)
        chances[key] = max(chances.get(key, 0.0), chance)
    (kind, target), best = max(chances.items(), key=lambda item: (item[1], -item[0][0]))
    threshold = style.throw_at if kind == A.THROW else style.beat_at
    if best < threshold and rest:
        return rest[0]
    candidates = [a for a in plays if (a.kind, a.target) == (kind, target)
                  and fit_chance(state, seat, a) >= best]
    return candidates[rng.randrange(len(candidates))]


def blind_shares(state: State, events: Sequence[E.Event]) -> list[tuple[int, tuple[int, ...]]]:
    """(holder, cards) for each deal or draw of a full state's step: what every seat but the
    holder is shown (a local table's feed of its bots; the network does it over the deck)."""
    shares: list[tuple[int, tuple[int, ...]]] = []
    for event in events:
        if isinstance(event, E.Dealt):
            shares += [(s, cards_of(state.hands[s])) for s in range(state.n_players)]
        elif isinstance(event, E.Drew) and event.cards:
            shares.append((event.seat, event.cards))
    return shares


class HandOrder:
    """A local table's positions of each hand (what a blind pick names): the cards in the
    order they came, a card that leaves drops out, new ones go to the end. The networked table
    keeps the same order on its deck slots (protocol/table.py)."""

    def __init__(self) -> None:
        self._order: dict[int, list[int]] = {}

    def sync(self, state: State) -> None:
        for seat in range(state.n_players):
            self.of(state, seat)

    def of(self, state: State, seat: int) -> list[int]:
        hand = state.hands[seat]
        kept = [c for c in self._order.get(seat, []) if (hand >> c) & 1]
        kept += [c for c in cards_of(hand) if c not in kept]
        self._order[seat] = kept
        return kept

    def resolve(self, state: State, action: Action) -> Action:
        """The action with the card at its position, when it is a pick; else the action."""
        position = A.pick_position(action)
        if position < 0:
            return action
        hand = self.of(state, action.seat)
        if position >= len(hand):
            raise IllegalAction(Reason.NOT_IN_HAND, f"no position {position} in the hand")
        return A.resolve_pick(action, hand[position])
