"""LEAVE: a seat leaves the table between bouts. Its hand goes to the discard, it is out (neither
winner nor durak), the lead passes on, and the others play the game to its end; where they
could not play on fairly without it, the leave is a concession."""

from __future__ import annotations

import random

import pytest
from engine_support import Table

from p2p_durak.engine import (
    IllegalAction,
    Phase,
    Reason,
    State,
    apply,
    cards_of,
    chance_outcome,
    decode_action,
    encode_action,
    is_over,
    legal_actions,
    private_view,
    state_hash,
    to_act,
)
from p2p_durak.engine import actions as A
from p2p_durak.engine import events as E

HANDS = ["6♠ 7♠ 8♠ 9♠ 10♠ J♠", "6♥ 7♥ 8♥ 9♥ 10♥ J♥", "6♣ 7♣ 8♣ 9♣ 10♣ J♣",
         "Q♠ K♠ A♠ Q♥ K♥ A♥"]


def at_the_lead(players: int, **knobs: object) -> Table:
    table = Table("app_podkidnoy", HANDS[:players], "A♦", stock="Q♣ K♣ A♣", **knobs)
    table.setup(lot=0)
    return table


def _play_out(state: State, rng: random.Random) -> State:
    for _ in range(5000):
        if is_over(state):
            return state
        seat = state.actors[0]
        action = chance_outcome(state) if seat < 0 else None
        if action is None:
            options = legal_actions(state, seat)
            action = options[rng.randrange(len(options))]
        state, _ = apply(state, action)
    raise AssertionError("no end")


@pytest.mark.parametrize("leaver", [0, 1, 2, 3])
def test_a_seat_leaves_between_bouts_and_the_others_play_to_the_end(leaver: int) -> None:
    table = at_the_lead(4)
    before = table.state
    hand = cards_of(before.hands[leaver])
    state, events = apply(before, A.leave(leaver, hand))
    assert events == (E.Left(leaver, tuple(sorted(hand))),)
    assert state.phase == Phase.LEAD
    assert (state.out >> leaver) & 1
    assert state.hands[leaver] == 0
    assert state.discard & sum(1 << c for c in hand) == sum(1 << c for c in hand)
    assert leaver not in (state.attacker, state.defender)
    if before.attacker != leaver:
        assert state.attacker == before.attacker
    assert set(to_act(state)) == {state.attacker}
    final = _play_out(state, random.Random(leaver))
    assert final.result is not None
    assert leaver not in final.result.durak
    assert leaver not in final.result.finish


def test_every_partial_view_applies_the_same_leave() -> None:
    table = at_the_lead(3)
    full = table.state
    hand = cards_of(full.hands[1])
    after, _ = apply(full, A.leave(1, hand))
    for seat in range(3):
        view_after, _ = apply(private_view(full, seat), A.leave(1, hand))
        assert state_hash(view_after) == state_hash(private_view(after, seat))


def test_with_two_seats_left_a_leave_is_a_concession() -> None:
    table = at_the_lead(2)
    hand = cards_of(table.state.hands[0])
    state, events = apply(table.state, A.leave(0, hand))
    assert state.phase == Phase.OVER
    assert state.result is not None
    assert state.result.durak == (0,)
    assert isinstance(events[0], E.Conceded)


def test_a_leave_shows_the_whole_hand_and_comes_between_bouts() -> None:
    table = at_the_lead(3)
    state = table.state
    hand = cards_of(state.hands[2])
    with pytest.raises(IllegalAction) as info:
        apply(state, A.leave(2, hand[:-1]))
    assert info.value.reason is Reason.NOT_IN_HAND
    with pytest.raises(IllegalAction):
        apply(state, A.leave(2, cards_of(state.hands[1])))
    lead = legal_actions(state, state.attacker)[0]
    mid_bout, _ = apply(state, lead)
    with pytest.raises(IllegalAction) as info:
        apply(mid_bout, A.leave(2, cards_of(mid_bout.hands[2])))
    assert info.value.reason is Reason.WRONG_PHASE
    assert A.leave(2, hand) not in legal_actions(state, 2)
    assert decode_action(encode_action(A.leave(2, hand))) == A.leave(2, hand)
