"""`apply` and `step`, the engine's entry points for actions from outside.

They stay Python even when the rest of the hot path is compiled by mypyc, because a compiled
function checks its arguments' types on the way in: a malformed action from the network (not
an `Action`, or one with a list of cards) would raise TypeError there. Here any object gets
through to the engine, which refuses it with `IllegalAction` like every other bad action.
"""

from __future__ import annotations

from p2p_durak.engine.actions import Action
from p2p_durak.engine.core import apply_any, step_any
from p2p_durak.engine.errors import IllegalAction
from p2p_durak.engine.events import Event
from p2p_durak.engine.refusals import explain
from p2p_durak.engine.state import State


def apply(state: State, action: Action) -> tuple[State, tuple[Event, ...]]:
    """The state after `action` and the events it caused. Raises `IllegalAction` (with the
    input state, being immutable, unchanged), narrowed to what exactly is wrong where the
    engine can tell (`refusals.explain`: worked out only on refusal, off the hot path)."""
    try:
        return apply_any(state, action)
    except IllegalAction as error:
        explain(state, action, error)
        raise


def step(state: State, action: Action) -> State:
    """`apply` without the events, for simulation."""
    try:
        return step_any(state, action)
    except IllegalAction as error:
        explain(state, action, error)
        raise
