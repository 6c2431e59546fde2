"""Дурак щелковский, the catalogue's choice (B) for its ten-card cap: the defender chooses.

«Максимальное число подкидываемых карт 10. В том случае, если игроки подкинули более десяти
карт, игрок может на выбор: выбрать карты, которые отбивать, а остальные возвратить»
(shared/seeds/000_0a1bcdd496bc6662.txt, «Дурак щелковский»). The text's cap and its "more
than ten" contradict each other; the catalogue recommends the hard cap (A) and names (B),
"allow more and let the defender pick 10 to beat and return the rest to their owners", which
is the table option `over_limit_policy: defender_chooses`.

How the engine plays (B): while the defender has not chosen, the others may throw in beyond
the limit (still within the defender cap). As long as more than the limit are thrown in, the
defender's one move is `send_back(seat, card)`: a thrown-in card not yet beaten goes back to
the hand of the player who threw it in, face up as it lay (a public move). The first one closes
the bout to throw-ins beyond the limit: the cap is hard from then on, so he ends with exactly
the limit's thrown-in cards to beat (or take) — the ten he picked. The lead's and the
transfers' cards are never sent back (the limit does not count them).
"""

from __future__ import annotations

from p2p_durak.engine import events as E
from p2p_durak.engine.actions import SEND_BACK, Action
from p2p_durak.engine.bout import _settle, over_limit
from p2p_durak.engine.errors import IllegalAction, Reason
from p2p_durak.engine.events import EventSink
from p2p_durak.engine.state import UNKNOWN, State


def returnable(state: State) -> list[int]:
    """The table positions the defender may send back now: thrown-in cards not yet beaten,
    while more than the limit are thrown in (none otherwise)."""
    if not over_limit(state):
        return []
    t = state.game.tables
    fixed = state.shown >> t.base_shift  # the lead's and the transfers' positions
    return [i for i, cover in enumerate(state.covers)
            if cover == UNKNOWN and not (fixed >> i) & 1]


def send_back_options(state: State, seat: int) -> list[Action]:
    """The defender's moves while more than the limit are thrown in, sorted by card."""
    if seat != state.defender:
        return []
    return sorted(Action(SEND_BACK, seat, (state.table[i],)) for i in returnable(state))


def on_send_back(state: State, action: Action, ev: EventSink) -> State:
    seat = action.seat
    if seat != state.defender:
        raise IllegalAction(Reason.NOT_YOUR_TURN)
    if len(action.cards) != 1:
        raise IllegalAction(Reason.BAD_ACTION, "one card is sent back at a time")
    card = action.cards[0]
    positions = [i for i in returnable(state) if state.table[i] == card]
    if not positions:
        raise IllegalAction(Reason.NOT_SENDABLE)
    return do_send_back(state, seat, positions[0], ev)


def do_send_back(state: State, seat: int, index: int, ev: EventSink) -> State:
    t = state.game.tables
    card, owner = state.table[index], state.table_by[index]
    if ev is not None:
        ev.append(E.SentBack(seat, card, owner))
    hands = state.hands[:owner] + (state.hands[owner] | (1 << card),) + state.hands[owner + 1:]
    # the positions above `index` move down by one in the mask of the cards not thrown in
    low = (1 << (t.base_shift + index)) - 1
    shown = (state.shown & low) | ((state.shown >> 1) & ~low) | t.chosen
    # (every rank a throw-in matched is still on the table: a lead's or a cover's)
    return _settle(state, state.phase, hands, state.hidden,
                   state.table[:index] + state.table[index + 1:],
                   state.covers[:index] + state.covers[index + 1:],
                   state.table_by[:index] + state.table_by[index + 1:],
                   state.defender, state.taking, 0, shown, state.table_ranks, ev)
