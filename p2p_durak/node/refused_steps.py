"""This party's deck step that the table refused: whether to send the same message again.

The runner works out what the party owes after every commit and sends it. A deck message the
table refused would then go out again after every entry — and when the refusal came in an entry
(the intent was ordered, then skipped), each resend makes the next entry: a loop of log noise
and CPU that never ends. So a refused message is held back:

- for a reason that will not change (`LASTING`: it is malformed, or its proof or claim is
  false — the same bytes are refused whatever the state), for good: the table waits for a step
  it can accept, and the others end the game after the grace period, naming this party;
- for a reason that depends on the state (not due, not open, the wrong phase), until the deck
  step changes (another step, phase, or who has sent theirs; an undone shuffle), which can
  make it legal.

A different message (the deck step moved on, or was made again on a restored deck) is sent as
usual. The reason is named once, when the refusal comes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from p2p_durak.protocol.messages import RejectCode
from p2p_durak.protocol.table import TableMachine

LASTING: Final = frozenset({RejectCode.MALFORMED, RejectCode.ILLEGAL_ACTION})


def step_state(table: TableMachine) -> tuple[object, ...]:
    """What a deck message's legality depends on, besides its own bytes."""
    pending = table.deck.pending_op()
    step = None if pending is None else (pending.op.step, pending.phase,
                                         tuple(sorted(pending.due)), tuple(sorted(pending.got)))
    return (table.game_number, step, len(table.undone))


@dataclass
class RefusedStep:
    """The last deck message of this party that the table refused (one at a time: a party
    owes one deck message at once)."""

    payload: bytes | None = None
    lasting: bool = False
    state: tuple[object, ...] = ()

    def refused(self, payload: bytes, lasting: bool, state: tuple[object, ...]) -> None:
        self.payload, self.lasting, self.state = payload, lasting, state

    def held_back(self, payload: bytes, state: tuple[object, ...]) -> bool:
        """Whether `payload`, owed now, stays unsent: refused before, and nothing that could
        make it legal has changed."""
        return payload == self.payload and (self.lasting or state == self.state)
