"""The table machine as the ordered log's `Machine`.

The log wants pure transitions (it keeps the committed state while it validates the next entry),
so `apply` forks the table first: the deck's ciphertexts, keys and proofs are immutable and
shared, only its containers are copied. `precheck` is cheap and accepts a superset of what
`apply` accepts (structure, turn, step and engine legality; the proofs are checked in `apply`,
where a false one makes every honest peer skip the intent and name its author).
"""

from __future__ import annotations

from p2p_durak import engine as eng
from p2p_durak.protocol import codec
from p2p_durak.protocol.errors import ProtocolError
from p2p_durak.protocol.machine import MachineReject
from p2p_durak.protocol.mental.errors import DeckError
from p2p_durak.protocol.messages import Intent, RejectCode
from p2p_durak.protocol.table import (
    ABANDON,
    ANNOUNCE,
    BROKEN,
    DECK_STEP,
    LEAVE,
    MOVE,
    NEXT_GAME,
    TableMachine,
    TableReject,
    deck_message,
)

_CODES = {
    "malformed": RejectCode.MALFORMED,
    "forged": RejectCode.ILLEGAL_ACTION,
    "bad-proof": RejectCode.ILLEGAL_ACTION,
    "wrong-phase": RejectCode.NOT_YOUR_TURN,
    "NOT_YOUR_TURN": RejectCode.NOT_YOUR_TURN,
    "TOO_MANY_CARDS": RejectCode.LIMIT_REACHED,
    "BAD_ACTION": RejectCode.MALFORMED,
}


def _reject(error: TableReject) -> MachineReject:
    return MachineReject(_CODES.get(error.code, RejectCode.ILLEGAL_ACTION), error.reason)


class TableLogMachine:
    """Adapts `TableMachine` (mutable, one per party) to the log's pure `Machine` protocol."""

    def sequencer(self, state: TableMachine) -> int:
        return state.sequencer()

    def actors(self, state: TableMachine) -> frozenset[int]:
        waiting = state.waiting_for()
        return frozenset(waiting) if waiting else frozenset({state.sequencer()})

    def gathers(self, state: TableMachine) -> bool:
        # A deck step waits for the message each due party owes, and so does the choice after
        # a game (play on or stop); moves race.
        return bool(state.deck_due() or state.vote_due())

    def precheck(self, state: TableMachine, seat: int, intent: Intent) -> None:
        try:
            raw = codec.decode(intent.action)
        except ProtocolError as exc:
            raise MachineReject(RejectCode.MALFORMED, f"undecodable intent: {exc}") from exc
        if not (isinstance(raw, tuple) and len(raw) >= 2
                and raw[0] in (DECK_STEP, MOVE, ANNOUNCE, NEXT_GAME, LEAVE, BROKEN, ABANDON)):
            raise MachineReject(RejectCode.MALFORMED, "unknown intent kind")
        if raw[0] in (ANNOUNCE, NEXT_GAME, LEAVE, BROKEN, ABANDON):
            try:
                if raw[0] == ANNOUNCE:
                    state.check_announce(seat, raw)
                elif raw[0] == ABANDON:
                    state.check_abandon(seat, raw)
                elif raw[0] == NEXT_GAME:
                    state.check_vote(seat, raw)
                elif raw[0] == BROKEN:
                    state.check_broken(seat, raw)
                else:
                    state.check_leave(seat, raw)
            except TableReject as exc:
                raise _reject(exc) from exc
        elif raw[0] == DECK_STEP:
            self._precheck_deck(state, seat, raw[1])
        else:
            self._precheck_move(state, seat, raw)

    def _precheck_deck(self, state: TableMachine, seat: int, data: object) -> None:
        try:
            msg = deck_message(data)
        except (ValueError, TypeError, ProtocolError, DeckError) as exc:
            raise MachineReject(RejectCode.MALFORMED, f"malformed deck message: {exc}") from exc
        pending = state.deck.pending_op()
        if msg.seat != seat or pending is None or msg.step != pending.op.step:
            raise MachineReject(RejectCode.STALE, f"deck step {msg.step!r} is not open")
        if pending.phase != msg.KIND or seat not in pending.due or seat in pending.got:
            raise MachineReject(RejectCode.DUPLICATE, f"no {msg.KIND} is due from {seat}")

    def _precheck_move(self, state: TableMachine, seat: int, raw: tuple[object, ...]) -> None:
        if state.state is None or state.deck.pending_op() is not None:
            raise MachineReject(RejectCode.NOT_YOUR_TURN, "no move while the deck is busy")
        if len(raw) != 3 or not isinstance(raw[2], tuple):
            raise MachineReject(RejectCode.MALFORMED, "a move is [1, action, slots]")
        try:
            action = eng.decode_action(raw[1])
            if state.leave_due() is not None and action.kind != eng.Kind.CONCEDE:
                raise MachineReject(RejectCode.NOT_YOUR_TURN, "no move while a party leaves")
            if not state.acts_for(seat, action):
                raise MachineReject(RejectCode.NOT_YOUR_TURN, "a move for another seat")
            state.check_move(seat, action, raw[2])
        except ValueError as exc:
            raise MachineReject(RejectCode.MALFORMED, f"malformed action: {exc}") from exc
        except TableReject as exc:
            # the general reason, as the table machine's own refusals give it: it speaks of
            # the peer; the engine's `why` speaks to a player ("you are defending")
            raise _reject(exc) from exc

    def apply(self, state: TableMachine, seat: int, intent: Intent) -> TableMachine:
        twin = state.fork()
        try:
            twin.apply(seat, intent.action)
        except TableReject as exc:
            raise _reject(exc) from exc
        return twin

    def state_hash(self, state: TableMachine) -> bytes:
        return state.state_hash()

    def members(self, state: TableMachine) -> tuple[int, ...]:
        return state.members()
