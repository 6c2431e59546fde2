"""The engine's entry points: `to_act`, `legal_actions`, `apply`, `step`, `sequencer`.

Pure functions over immutable `State`s. Chance is an input: the deck order comes from outside
(`new_game(..., deck_order)`), and every chance event — the deal, a reveal, a lot — is an
explicit action by the `CHANCE` pseudo-seat, so the same action log drives a full state and a
node's partial view to the same public state.
"""

from __future__ import annotations

from typing import Final

from p2p_durak.engine import actions as A
from p2p_durak.engine import events as E
from p2p_durak.engine.actions import CHANCE, Action
from p2p_durak.engine.bout import (
    blind_actions,
    defender_actions,
    leads,
    on_beat,
    on_chain,
    on_lead,
    on_lead_stock,
    on_pass,
    on_reshuffle,
    on_stock_revealed,
    on_take,
    on_throw,
    on_transfer,
    thrower_actions,
)
from p2p_durak.engine.doubt import (
    doubt_actions,
    doubt_outcomes,
    on_challenge,
    on_cover,
    on_doubt_reveal,
)
from p2p_durak.engine.errors import IllegalAction, Reason
from p2p_durak.engine.events import EventSink
from p2p_durak.engine.exchange import (
    exchange_options,
    exchange_outcomes,
    on_exchange,
    on_exchange_shuffle,
)
from p2p_durak.engine.overflow import on_send_back, send_back_options
from p2p_durak.engine.prephase import capture_options, on_capture, on_turn_up
from p2p_durak.engine.seats import claimant
from p2p_durak.engine.setup import (
    chance_outcomes,
    claims_for,
    make_game,
    new_game,
    next_game,
    on_claim,
    on_deal,
    on_lot,
    on_name_trump,
    on_reveal,
    on_six,
)
from p2p_durak.engine.state import (
    BOUT,
    CAPTURE,
    CHALLENGE,
    CLAIM,
    DEAL,
    DEAL_SIXES,
    EXCHANGE,
    LEAD,
    LOT,
    NAME_TRUMP,
    OVER,
    RESHUFFLE,
    REVEAL_HIDDEN,
    REVEAL_STOCK,
    REVEAL_TRUMP,
    TURN_UP,
    UNKNOWN,
    State,
)
from p2p_durak.engine.verdicts import on_concede, on_leave

__all__ = ["apply_any", "chance_outcome", "is_over", "legal_actions", "make_game", "new_game",
           "next_game", "sequencer", "step_any", "to_act"]


def to_act(state: State) -> frozenset[int]:
    """Every seat that may act now (several while cards can be thrown in); CHANCE in chance
    phases; nobody when the game is over."""
    return frozenset(state.actors)


def sequencer(state: State) -> int:
    """The seat that orders the next log entry in the networked game.

    While a bout is open it is the defender, the one seat in every race; in turn-based
    phases the seat whose turn it is; in chance phases, and once the game is over, the dealer.
    """
    phase = state.phase
    if phase == BOUT:
        return state.defender
    if phase in (LEAD, CAPTURE):
        return state.attacker
    if phase == CLAIM:
        return state.actors[0]  # the claimant (оборотный: the seat that claims for him)
    if phase == NAME_TRUMP:
        return state.actors[0]
    return state.game.dealer


def is_over(state: State) -> bool:
    return state.phase == OVER


def legal_actions(state: State, seat: int) -> tuple[Action, ...]:
    """The seat's legal actions, sorted. In a partial view only actions with cards this view
    knows are listed (a node lists its own seat's, which it knows fully)."""
    phase = state.phase
    if phase == BOUT:
        if state.game.tables.blind:
            return tuple(blind_actions(state, seat))
        if seat == state.defender:
            if not state.taking and UNKNOWN in state.covers:
                if state.game.tables.over_limit:  # щелковский (B): sending back comes first
                    sent = send_back_options(state, seat)
                    if sent:
                        return tuple(sent)
                if state.game.tables.exchange:  # покерный: or swap two with the stock first
                    return tuple(defender_actions(state) + exchange_options(state, seat))
                return tuple(defender_actions(state))
            if seat in state.actors:  # американский: throwing in to himself
                return tuple(thrower_actions(state, seat))
            return ()
        if seat in state.actors:
            if state.game.tables.face_down:  # верю не верю: he may also doubt a cover
                return tuple(doubt_actions(state, seat))
            return tuple(thrower_actions(state, seat))
        return ()
    if phase == LEAD:
        if seat != state.attacker:
            return ()
        if state.game.tables.blind:
            return tuple(blind_actions(state, seat))
        return tuple(leads(state))
    if seat == CHANCE:
        return tuple(sorted(_chance_outcomes(state)))
    if phase == CLAIM and seat in state.actors:
        # оборотный: the claimant cannot see his hand, so the seat on his left, who does,
        # shows his lowest trump for him (`claim_actor`)
        return tuple(sorted(claims_for(state, claimant(state))))
    if phase == NAME_TRUMP and seat in state.actors:
        return tuple(A.name_trump(seat, suit) for suit in range(4))
    if phase == CAPTURE:
        return tuple(capture_options(state, seat))
    return ()


def chance_outcome(state: State) -> Action | None:
    """In a full state, the chance action that must come next when it is determined
    (the deal, a reveal); None for a lot (several outcomes) or outside chance phases."""
    if CHANCE not in state.actors:
        return None
    outcomes = _chance_outcomes(state)
    return outcomes[0] if len(outcomes) == 1 else None


def _chance_outcomes(state: State) -> list[Action]:
    if state.phase == CHALLENGE:
        return doubt_outcomes(state)
    if state.phase == EXCHANGE:
        return exchange_outcomes(state)
    return chance_outcomes(state)


def apply_any(state: State, action: object) -> tuple[State, tuple[E.Event, ...]]:
    """`apply` for any object (see `entry`)."""
    events: list[E.Event] = []
    return _apply(state, action, events), tuple(events)


def step_any(state: State, action: object) -> State:
    """`step` for any object (see `entry`)."""
    return _apply(state, action, None)


# Kinds as bit masks, for the checks of an action's form.
_CHANCE_KINDS: Final = (1 << A.DEAL) | (1 << A.REVEAL) | (1 << A.LOT) | (1 << A.SHUFFLE)
_NO_CARD_KINDS: Final = (1 << A.DEAL) | (1 << A.LOT) | (1 << A.NO_TRUMP) | (1 << A.TAKE) \
    | (1 << A.SHUFFLE) | (1 << A.CHALLENGE) \
    | (1 << A.PASS) | (1 << A.NAME_TRUMP) | (1 << A.CONCEDE) | (1 << A.LEAD_STOCK)
# a reveal has a target only as a suit announcement (невидимый), which on_reveal checks
_TARGET_KINDS: Final = (1 << A.BEAT) | (1 << A.LOT) | (1 << A.REVEAL) | (1 << A.SHUFFLE) \
    | (1 << A.NAME_TRUMP) | (1 << A.COVER) | (1 << A.CHALLENGE)


def _checked(action: object, n_players: int) -> Action:
    """`action` if it has the form of an action; else IllegalAction. Refused too: what no
    `legal_actions` list could hold whatever the state, a field its kind does not use or a seat
    that cannot act it, so that the log has one wire form per move. The fields are read as
    plain objects until their types are checked: the compiled engine checks types as it reads
    them, and would raise TypeError instead."""
    if not isinstance(action, Action):
        raise IllegalAction(Reason.BAD_ACTION, repr(action))
    raw: tuple[object, ...] = action
    kind, seat, cards, target = raw
    if type(kind) is not int or type(seat) is not int or type(target) is not int:
        raise IllegalAction(Reason.BAD_ACTION, "the kind, seat and target are integers")
    if type(cards) is not tuple or any(type(card) is not int for card in cards):
        raise IllegalAction(Reason.BAD_ACTION, "the cards are a tuple of integers")
    bit = 1 << kind if 0 <= kind < A.N_KINDS else 0
    if target != -1 and not bit & _TARGET_KINDS:
        raise IllegalAction(Reason.BAD_ACTION, "only a beat, a cover, a doubt, a lot, a suit "
                            "announcement and a named trump have a target")
    if cards and bit & _NO_CARD_KINDS:
        raise IllegalAction(Reason.BAD_ACTION, "this action names no cards")
    if bit & _CHANCE_KINDS:
        if seat != CHANCE:
            raise IllegalAction(Reason.NOT_YOUR_TURN, "only chance deals, reveals and draws lots")
    elif not 0 <= seat < n_players:
        raise IllegalAction(Reason.NOT_YOUR_TURN, f"there is no seat {seat}")
    return action


def _apply(state: State, any_action: object, ev: EventSink) -> State:
    action = _checked(any_action, state.game.n_players)
    kind = action.kind
    phase = state.phase
    if kind == A.CONCEDE:
        return on_concede(state, action, ev)
    if kind == A.LEAVE:
        return on_leave(state, action, ev)
    # The bout and the lead build their next state whole, its actors included.
    if phase == BOUT:
        if kind == A.BEAT:
            return on_beat(state, action, ev)
        if kind == A.THROW:
            return on_throw(state, action, ev)
        if kind == A.PASS:
            return on_pass(state, action, ev)
        if kind == A.TAKE:
            return on_take(state, action, ev)
        if kind == A.TRANSFER or kind == A.SHOW:
            return on_transfer(state, action, ev)
        if kind == A.CHAIN:
            return on_chain(state, action, ev)
        if kind == A.COVER:
            return on_cover(state, action, ev)
        if kind == A.CHALLENGE:
            return on_challenge(state, action, ev)
        if kind == A.EXCHANGE:
            return on_exchange(state, action, ev)
        if kind == A.SEND_BACK:
            return on_send_back(state, action, ev)
        raise IllegalAction(Reason.WRONG_PHASE,
                            A.Kind(kind).name if 0 <= kind < A.N_KINDS else "?")
    if phase == LEAD:
        if kind == A.LEAD_STOCK:
            return on_lead_stock(state, action, ev)
        if kind != A.LEAD:
            raise IllegalAction(Reason.WRONG_PHASE)
        return on_lead(state, action, ev)
    if phase == OVER:
        raise IllegalAction(Reason.GAME_OVER)
    return _setup_transition(state, action, ev)


def _setup_transition(state: State, action: Action, ev: EventSink) -> State:
    kind = action.kind
    phase = state.phase
    if phase == DEAL and kind == A.DEAL:
        return on_deal(state, ev)
    if phase in (REVEAL_TRUMP, REVEAL_HIDDEN) and kind == A.REVEAL:
        return on_reveal(state, action, ev)
    if phase == CLAIM and kind in (A.CLAIM, A.NO_TRUMP):
        return on_claim(state, action, ev)
    if phase == LOT and kind == A.LOT:
        return on_lot(state, action, ev)
    if phase == RESHUFFLE and kind == A.SHUFFLE:
        return on_reshuffle(state, action, ev)
    if phase == NAME_TRUMP and kind == A.NAME_TRUMP:
        return on_name_trump(state, action, ev)
    if phase == REVEAL_STOCK and kind == A.REVEAL:
        return on_stock_revealed(state, action, ev)
    if phase == DEAL_SIXES and kind == A.REVEAL:
        return on_six(state, action, ev)
    if phase == TURN_UP and kind == A.REVEAL:
        return on_turn_up(state, action, ev)
    if phase == CAPTURE and kind == A.CAPTURE:
        return on_capture(state, action, ev)
    if phase == CHALLENGE and kind == A.REVEAL:
        return on_doubt_reveal(state, action, ev)
    if phase == EXCHANGE and kind == A.SHUFFLE:
        return on_exchange_shuffle(state, action, ev)
    raise IllegalAction(Reason.WRONG_PHASE)
