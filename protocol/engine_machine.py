"""The rules engine as a `Machine` for the ordered log: intents carry canonical engine actions.

`Intent.action` is ``codec.encode(engine.encode_action(action))``. A seat's action must be
authored by that seat; a chance action (deal, reveal, lot: seat `CHANCE`) must be authored by the
sequencer of the state it applies to. The engine's own checks do the rest, and its refusal
reasons map onto the wire's `RejectCode`s.

This machine orders full-information states (every node knows the deck order): what the tests and
local tables use. A networked table with a private deck uses `TableMachine`, which adds the
mental-poker deck around the same engine.
"""

from __future__ import annotations

from p2p_durak import engine
from p2p_durak.engine import CHANCE, UNKNOWN, Action, Game, IllegalAction, Reason, State
from p2p_durak.engine.bout import bout_limit
from p2p_durak.engine.state import BOUT
from p2p_durak.protocol import codec
from p2p_durak.protocol.errors import ProtocolError
from p2p_durak.protocol.machine import MachineReject
from p2p_durak.protocol.messages import Intent, RejectCode, Start

_CODES = {
    Reason.TOO_MANY_CARDS: RejectCode.LIMIT_REACHED,
    Reason.NOT_YOUR_TURN: RejectCode.NOT_YOUR_TURN,
    Reason.BAD_ACTION: RejectCode.MALFORMED,
}


def action_bytes(action: Action) -> bytes:
    """The `Intent.action` bytes for an engine action."""
    return codec.encode(engine.encode_action(action))


def decode_intent_action(intent: Intent) -> Action:
    """The engine action an intent carries; `MachineReject(MALFORMED)` if it carries none."""
    try:
        return engine.decode_action(codec.decode(intent.action))
    except (ProtocolError, ValueError) as exc:
        raise MachineReject(RejectCode.MALFORMED, f"not an engine action: {exc}") from exc


class EngineMachine:
    """Orders engine actions over full `State`s; seats are the engine's seats."""

    def __init__(self, game: Game) -> None:
        self.game = game

    def check_start(self, start: Start) -> None:
        """Raise `ValueError` unless `start` describes this machine's game."""
        if start.rules_hash != bytes.fromhex(self.game.rules_hash):
            raise ValueError("Start.rules_hash is not the hash of this game's rules")
        if len(start.players) != self.game.n_players:
            raise ValueError(
                f"Start seats {len(start.players)} players, the game {self.game.n_players}"
            )

    def sequencer(self, state: State) -> int:
        return engine.sequencer(state)

    def actors(self, state: State) -> frozenset[int]:
        seats = engine.to_act(state)
        if CHANCE in seats:
            return frozenset({engine.sequencer(state)})
        return seats

    def gathers(self, state: State) -> bool:
        return False  # seats that may act at once race (a defender and throwers)

    def precheck(self, state: State, seat: int, intent: Intent) -> None:
        self.apply(state, seat, intent)

    def apply(self, state: State, seat: int, intent: Intent) -> State:
        action = decode_intent_action(intent)
        if action.seat == CHANCE:
            sequencer = engine.sequencer(state)
            if seat != sequencer:
                raise MachineReject(
                    RejectCode.NOT_YOUR_TURN,
                    f"seat {seat} authored a chance action; only the sequencer {sequencer} may",
                )
        elif action.seat != seat:
            raise MachineReject(
                RejectCode.NOT_YOUR_TURN, f"seat {seat} authored an action of seat {action.seat}"
            )
        try:
            return engine.step(state, action)
        except IllegalAction as exc:
            code = _CODES.get(exc.reason, RejectCode.ILLEGAL_ACTION)
            if exc.reason is Reason.THROW_IN_NOT_ALLOWED and _bout_full(state):
                code = RejectCode.LIMIT_REACHED
            raise MachineReject(code, str(exc)[:200]) from exc

    def state_hash(self, state: State) -> bytes:
        return engine.state_hash(state)


def _bout_full(state: State) -> bool:
    """No seat may throw in because the bout is at its limit (what a racing throw-in that lost
    the race is told)."""
    if state.phase != BOUT:
        return False
    limit = bout_limit(state)
    if limit is not None and len(state.table) >= limit:
        return True
    uncovered = sum(1 for cover in state.covers if cover == UNKNOWN)
    return state.game.rules.defender_hand_cap and uncovered >= state.hand_size(state.defender)
