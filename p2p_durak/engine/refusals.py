"""What exactly is wrong with a refused action, in the player's terms.

The checks on the hot path (`bout.on_*`) raise a general `Reason` ("a transfer is not allowed
now", "this player may not throw in now") and stop: working out *why* costs time a playout or a
bot never needs. `explain` does it afterwards, only when `apply` has refused an action: it
looks at the unchanged state and the action again and narrows the refusal to a `Why` ("in
these rules only the defender's neighbours throw in", "the bout already has its limit of 6
attack cards"), with the numbers of the situation. Where the variant's rules make a general
explanation unsafe (jokers, special beating rules), it says nothing more rather than
something untrue: the general reason stands.

Pure and deterministic like the rest of the engine; a partial view (a node's own) is enough,
since every check reads only public information and the acting seat's own hand.
"""

from __future__ import annotations

from p2p_durak.engine import actions as A
from p2p_durak.engine.actions import Action
from p2p_durak.engine.bout import (
    bout_actors,
    holding_of,
    thrown_count,
    transfer_rank_card,
    turn_of,
    unbeaten_rank_card,
)
from p2p_durak.engine.errors import IllegalAction, Reason, Why
from p2p_durak.engine.seats import next_active_of, transfer_target_of
from p2p_durak.engine.state import BOUT, LEAD, UNKNOWN, State
from p2p_durak.engine.tables import BY_NEIGHBOURS, BY_OPPONENTS, NO_LIMIT

_CARD_MOVES = frozenset({A.TAKE, A.BEAT, A.COVER, A.TRANSFER, A.SHOW})
_NOT_DEFENDING = {A.TAKE: Why.TAKE_NOT_DEFENDER, A.BEAT: Why.BEAT_NOT_DEFENDER,
                  A.COVER: Why.BEAT_NOT_DEFENDER, A.TRANSFER: Why.TRANSFER_NOT_DEFENDER,
                  A.SHOW: Why.TRANSFER_NOT_DEFENDER}


def explain(state: State, action: object, error: IllegalAction) -> None:
    """Narrow `error`, raised by `apply(state, action)`, to what exactly is wrong (sets
    `error.why` and `error.fields`); leaves it as it is when nothing more can be said."""
    if error.why is not None or not isinstance(action, Action) or error.reason in (
            Reason.BAD_ACTION, Reason.BAD_CHANCE):
        return  # a malformed action is not the player's move to explain
    found = _explain(state, action, error.reason, error.detail)
    if found is not None:
        error.why, error.fields = found


def _explain(state: State, action: Action, reason: Reason,
             detail: str) -> tuple[Why, dict[str, int]] | None:
    kind, seat = action.kind, action.seat
    t = state.game.tables
    if kind == A.TRANSFER and not t.transfer_on:
        return Why.TRANSFER_OFF, {}
    if kind == A.SHOW and not (t.show_forward or t.show_backward) and state.phase in (LEAD, BOUT):
        return Why.SHOW_OFF, {}
    if state.phase == LEAD and reason == Reason.TOO_MANY_CARDS:
        return _why_lead_too_big(state, action)
    if state.phase == LEAD and reason in (Reason.WRONG_PHASE, Reason.NOT_YOUR_TURN):
        if seat != state.attacker:
            return Why.NOT_YOUR_LEAD, {}
        if kind == A.PASS:
            return Why.PASS_BEFORE_LEAD, {}
        if kind in _CARD_MOVES:
            return Why.NOTHING_LED, {}
        return None
    if state.phase != BOUT or not 0 <= seat < state.game.n_players:
        return None
    if reason == Reason.DOES_NOT_BEAT:
        return _why_no_beat(state, action)
    if reason in (Reason.TRANSFER_NOT_ALLOWED, Reason.SHOW_NOT_ALLOWED):
        return _why_no_transfer(state, action, detail)
    if reason == Reason.TRANSFER_CAPACITY:
        return _why_no_room_to_transfer(state, action)
    if reason == Reason.TOO_MANY_CARDS and kind == A.THROW:
        return Why.THROW_ROOM, {"n": max(0, _room(state))}
    if reason != Reason.NOT_YOUR_TURN and reason != Reason.THROW_IN_NOT_ALLOWED:
        return None
    defending = seat == state.defender and not state.taking and UNKNOWN in state.covers
    if kind in _NOT_DEFENDING and seat != state.defender:
        return _NOT_DEFENDING[kind], {}
    if kind == A.PASS and defending:
        return Why.PASS_DEFENDING, {}
    if kind in (A.THROW, A.PASS) and seat != state.defender:
        return _why_no_throw(state, seat)
    return None


def _why_lead_too_big(state: State, action: Action) -> tuple[Why, dict[str, int]] | None:
    """A lead of more cards than the defender holds, or than the bout takes."""
    t = state.game.tables
    size = len(action.cards)
    defender_size = state.hand_size(state.defender)
    if t.cap and size > defender_size:
        return Why.LEAD_PAST_DEFENDER, {"n": defender_size}
    limit = _limit(state)
    if not t.thrown_only and limit != NO_LIMIT and size > limit:
        return Why.LEAD_PAST_LIMIT, {"limit": limit}
    return None


# ---- throw-ins -----------------------------------------------------------------------------

def _limit(state: State) -> int:
    t = state.game.tables
    return t.first_limit if state.bout == 0 else t.later_limit


def _room(state: State) -> int:
    """How many more attack cards the bout takes (its limit, then the defender's hand)."""
    t = state.game.tables
    uncovered = state.covers.count(UNKNOWN)
    room = _limit(state) - thrown_count(t, state.table, state.shown)
    if t.cap:
        room = min(room, state.hand_size(state.defender) - uncovered)
    return room


def _why_no_throw(state: State, seat: int) -> tuple[Why, dict[str, int]] | None:
    """Why `seat`, not the defender, may not throw in (or pass: it has nothing to pass) now.
    The same order of checks as `bout.bout_actors_of`, so the first that fails is named."""
    t = state.game.tables
    if seat in bout_actors(state) or (state.passed >> seat) & 1 or (state.out >> seat) & 1:
        return None  # not a seat this is about (a pass already said is explained as it is)
    if not t.throw_in:
        return Why.THROW_IN_OFF, {}
    uncovered = state.covers.count(UNKNOWN)
    if state.taking and not t.after_take:
        return Why.THROW_AFTER_TAKE_OFF, {}
    if not state.taking and t.after_beat and uncovered:
        return Why.THROW_AFTER_BEAT_ONLY, {}
    limit = _limit(state)
    if limit != NO_LIMIT and thrown_count(t, state.table, state.shown) >= limit \
            and not t.over_limit:
        return Why.THROW_LIMIT, {"limit": limit}
    defender_size = state.hand_size(state.defender)
    if t.cap and uncovered >= defender_size:
        return Why.THROW_DEFENDER_CARDS, {"n": defender_size, "m": uncovered}
    if not (holding_of(state.hands, state.hidden) >> seat) & 1:
        return None
    defender = state.defender
    if t.throw_by == BY_OPPONENTS and t.team[seat] == t.team[defender]:
        return Why.THROW_OPPONENTS_ONLY, {}
    if t.throw_by == BY_NEIGHBOURS and seat not in (
            next_active_of(t.n_players, state.out, defender, -1),
            next_active_of(t.n_players, state.out, defender, 1)):
        return Why.THROW_NEIGHBOURS_ONLY, {}
    if turn_of(t, state.shown) >= 0:
        return Why.THROW_IN_TURN, {}
    return None


# ---- beating -------------------------------------------------------------------------------

def _why_no_beat(state: State, action: Action) -> tuple[Why, dict[str, int]] | None:
    """Suit, rank or trump — said only where this game beats cards by the plain rule (the
    same suit higher, or a trump over a non-trump) for this attack card."""
    game = state.game
    if len(action.cards) != 1 or not 0 <= action.target < len(state.table):
        return None
    card, attack = action.cards[0], state.table[action.target]
    suit, rank = game.suit, game.rank
    if min(suit[card], suit[attack], rank[card], rank[attack]) < 0:
        return None  # a joker or the blank: their own rules
    trumps = game.tables.trumps[state.trump + 1] if 0 <= state.trump < 4 else 0
    plain = 0
    for other in range(game.n_cards):
        if suit[other] < 0 or rank[other] < 0:
            continue
        if suit[other] == suit[attack]:
            if rank[other] > rank[attack]:
                plain |= 1 << other
        elif (trumps >> other) & 1 and not (trumps >> attack) & 1:
            plain |= 1 << other
    known = sum(1 << c for c in range(game.n_cards) if suit[c] >= 0 and rank[c] >= 0)
    if game.tables.beaters[state.trump + 1][attack] & known != plain:
        return None  # this game's beating rules are not the plain ones here
    attack_trump, card_trump = (trumps >> attack) & 1, (trumps >> card) & 1
    if suit[card] == suit[attack]:
        return (Why.BEAT_LOWER_TRUMP if attack_trump else Why.BEAT_LOWER), {}
    if attack_trump:
        return Why.BEAT_NEEDS_TRUMP, {}
    if not trumps:
        return Why.BEAT_NO_TRUMPS, {}
    if not card_trump:
        return Why.BEAT_WRONG_SUIT, {}
    return None


# ---- transfers -----------------------------------------------------------------------------

def _why_no_transfer(state: State, action: Action,
                     detail: str) -> tuple[Why, dict[str, int]] | None:
    t = state.game.tables
    showing = action.kind == A.SHOW
    if action.seat != state.defender:
        return None
    if showing and not (t.show_forward or t.show_backward):
        return Why.SHOW_OFF, {}
    if not t.transfer_on:
        return Why.TRANSFER_OFF, {}
    if state.taking:
        return Why.TRANSFER_AFTER_TAKE, {}
    if state.shown & t.proezd:
        return None  # щелковский: the recipient of a проездной defends (its own reason)
    if transfer_rank_card(state) < 0 and UNKNOWN in state.covers:
        if t.transfer_any and unbeaten_rank_card(t, state.table, state.covers) < 0:
            return Why.TRANSFER_MIXED_RANKS, {}
        return Why.TRANSFER_AFTER_BEAT, {}
    if detail == "the card must be of the attack rank":
        return Why.TRANSFER_RANK, {}
    return None


def _why_no_room_to_transfer(state: State,
                             action: Action) -> tuple[Why, dict[str, int]] | None:
    """A transfer the next defender cannot take on: nobody, the bout limit, or his hand (the
    checks of `bout.can_transfer`, in its order)."""
    t = state.game.tables
    seat = action.seat
    showing = action.kind == A.SHOW
    target = next_active_of(t.n_players, state.out, seat, -1) if showing and t.show_backward \
        else transfer_target_of(t, state.out, seat)
    if target == seat:
        return Why.TRANSFER_NOBODY, {}
    uncovered = state.covers.count(UNKNOWN) + (not showing)
    if not showing and not t.thrown_only and len(state.table) + 1 > _limit(state):
        return Why.TRANSFER_LIMIT, {"limit": _limit(state)}
    size = state.hand_size(target)
    if t.transfer_capacity and size < uncovered:
        return Why.TRANSFER_NEXT_TOO_FEW, {"n": size, "m": uncovered}
    return None
