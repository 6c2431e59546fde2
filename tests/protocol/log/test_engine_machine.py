"""The engine as a log machine: who may author what, and how refusals map onto reject codes."""

from __future__ import annotations

from dataclasses import replace

import pytest

from p2p_durak import engine
from p2p_durak.engine import actions as A
from p2p_durak.protocol.engine_machine import EngineMachine, action_bytes, decode_intent_action
from p2p_durak.protocol.machine import MachineReject
from p2p_durak.protocol.messages import Intent, RejectCode

from .netsim import GAME_ID, make_game, shuffled_deck, start_envelope

GAME = make_game(3)
MACHINE = EngineMachine(GAME)


def intent(seat: int, action: engine.Action | bytes) -> Intent:
    data = action if isinstance(action, bytes) else action_bytes(action)
    return Intent(GAME_ID, seat, 1, 0, data)


def fresh() -> engine.State:
    return engine.new_game(GAME, shuffled_deck(GAME, 1))


def test_chance_is_authored_by_the_sequencer_only() -> None:
    state = fresh()
    assert MACHINE.sequencer(state) == 0
    assert MACHINE.actors(state) == frozenset({0})
    dealt = MACHINE.apply(state, 0, intent(0, A.deal()))
    assert dealt.phase != state.phase
    with pytest.raises(MachineReject) as caught:
        MACHINE.apply(state, 1, intent(1, A.deal()))
    assert caught.value.code is RejectCode.NOT_YOUR_TURN


def test_a_seat_acts_for_itself_only() -> None:
    state = fresh()
    with pytest.raises(MachineReject) as caught:
        MACHINE.apply(state, 1, intent(1, A.take(2)))
    assert caught.value.code is RejectCode.NOT_YOUR_TURN


@pytest.mark.parametrize("data", [b"\xc0", b"\x94\x00\x00\x90", b"\x93\x01\x02\x03", b"\xff"])
def test_malformed_actions(data: bytes) -> None:
    with pytest.raises(MachineReject) as caught:
        decode_intent_action(intent(0, data))
    assert caught.value.code is RejectCode.MALFORMED


def test_illegal_moves_are_refused_and_the_state_is_unchanged() -> None:
    state = fresh()
    before = MACHINE.state_hash(state)
    with pytest.raises(MachineReject) as caught:
        MACHINE.precheck(state, 0, intent(0, A.lead(0, 0)))  # nobody leads before the deal
    assert caught.value.code is RejectCode.ILLEGAL_ACTION
    assert MACHINE.state_hash(state) == before


def test_start_must_describe_the_game() -> None:
    start = start_envelope(GAME).message
    MACHINE.check_start(start)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="players"):
        EngineMachine(make_game(4)).check_start(start)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="rules"):
        MACHINE.check_start(replace(start, rules_hash=bytes(32)))  # type: ignore[type-var]
