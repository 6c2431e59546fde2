"""CONCEDE: a seat gives the game up (its turn timer ran out at a "lose" table). It ends the game
with that seat (its team, with teams) as the durak, from any seat still playing, in any phase
until the game is over, on a full state and on every partial view alike."""

from __future__ import annotations

import random

import pytest
from engine_support import Table, random_playout

from p2p_durak.engine import (
    Action,
    IllegalAction,
    Phase,
    Reason,
    apply,
    decode_action,
    encode_action,
    is_over,
    legal_actions,
    make_game,
    new_game,
    next_game,
    private_view,
    public_view,
    state_hash,
)
from p2p_durak.engine import actions as A
from p2p_durak.engine import events as E
from p2p_durak.engine.presets import get_preset


def three_at_the_lead() -> Table:
    table = Table("app_podkidnoy", ["6♠ 7♠ 8♠ 9♠ 10♠ J♠", "6♥ 7♥ 8♥ 9♥ 10♥ J♥",
                                    "6♣ 7♣ 8♣ 9♣ 10♣ J♣"], "A♦", stock="Q♠ Q♥ Q♣")
    table.setup(lot=0)
    return table


@pytest.mark.parametrize("seat", [0, 1, 2])
def test_a_seat_that_concedes_is_the_durak_whoever_is_to_move(seat: int) -> None:
    table = three_at_the_lead()
    before = table.state
    state, events = apply(before, A.concede(seat))
    assert state.phase == Phase.OVER
    assert is_over(state)
    assert state.result is not None
    assert state.result.durak == (seat,)
    assert not state.result.draw
    assert state.actors == ()
    assert events == (E.Conceded(seat), E.GameOver((seat,), False, 0))
    assert before.phase == Phase.LEAD  # the input state is untouched
    assert state.hands == before.hands  # nothing moves: the game just ends


def test_a_concession_in_the_middle_of_a_bout() -> None:
    table = three_at_the_lead()
    attacker = table.state.attacker
    (lead, *_) = legal_actions(table.state, attacker)
    table.state, _ = apply(table.state, lead)
    assert table.state.phase == Phase.BOUT
    defender = table.state.defender
    state, _ = apply(table.state, A.concede(defender))
    assert state.result is not None
    assert state.result.durak == (defender,)


def test_what_cannot_concede() -> None:
    table = three_at_the_lead()
    state, _ = apply(table.state, A.concede(1))
    table.state = state
    assert table.refuse(A.concede(0)).reason is Reason.GAME_OVER
    fresh = three_at_the_lead()
    assert fresh.refuse(Action(A.CONCEDE, 5)).reason is Reason.NOT_YOUR_TURN  # no seat 5
    assert fresh.refuse(Action(A.CONCEDE, 0, (3,))).reason is Reason.BAD_ACTION
    assert fresh.refuse(Action(A.CONCEDE, 0, (), 1)).reason is Reason.BAD_ACTION
    assert fresh.refuse(Action(A.CONCEDE, -1)).reason is Reason.NOT_YOUR_TURN


def test_a_seat_that_is_already_out_cannot_concede() -> None:
    rng = random.Random(5)
    game = make_game(get_preset("app_podkidnoy").rules, 4, 0)
    order = list(range(game.n_cards))
    rng.shuffle(order)
    final, log = random_playout(game, order, rng)
    assert final.result is not None
    # replay to the first moment a seat is out while the game goes on
    state = new_game(game, order)
    for action in log:
        state, _ = apply(state, action)
        if state.out and not is_over(state):
            break
    else:
        pytest.skip("nobody went out before the end in this deal")
    gone = next(s for s in range(4) if (state.out >> s) & 1)
    with pytest.raises(IllegalAction) as refused:
        apply(state, A.concede(gone))
    assert refused.value.reason is Reason.ALREADY_OUT


def test_with_teams_the_whole_team_loses() -> None:
    table = Table("app_komandy", ["6♠ 7♠ 8♠ 9♠ 10♠ J♠", "6♥ 7♥ 8♥ 9♥ 10♥ J♥",
                                  "6♣ 7♣ 8♣ 9♣ 10♣ J♣", "7♦ 8♦ 9♦ 10♦ J♦ Q♦"], "A♦")
    table.setup(lot=0)
    state, _ = apply(table.state, A.concede(3))
    assert state.result is not None
    assert state.result.durak == (1, 3)  # seats 1 and 3 sit together


def test_concede_is_never_offered_as_a_move() -> None:
    rng = random.Random(11)
    game = make_game(get_preset("app_perevodnoy").rules, 3, 1)
    order = list(range(game.n_cards))
    rng.shuffle(order)
    state = new_game(game, order)
    _, log = random_playout(game, order, rng)
    for action in log:
        for seat in range(3):
            assert all(a.kind != A.CONCEDE for a in legal_actions(state, seat))
        state, _ = apply(state, action)


def test_every_view_reaches_the_same_public_state() -> None:
    table = three_at_the_lead()
    full, _ = apply(table.state, A.concede(2))
    for seat in range(3):
        view, _ = apply(private_view(table.state, seat), A.concede(2))
        assert public_view(view) == public_view(full)
        assert state_hash(view) == state_hash(full)


def test_the_conceder_deals_the_next_game_of_a_series() -> None:
    table = three_at_the_lead()
    state, _ = apply(table.state, A.concede(2))
    assert next_game(state).dealer == 2


def test_the_wire_form_round_trips() -> None:
    action = A.concede(3)
    assert decode_action(encode_action(action)) == action
    with pytest.raises(ValueError, match="unknown action kind"):
        decode_action((A.N_KINDS, 0, (), -1))
