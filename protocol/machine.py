"""The replicated state machine the ordered log drives, as the log sees it.

The log orders signed `Intent`s; a `Machine` says what they mean. Every peer runs the same machine
over the same committed entries, so it must be deterministic and pure: `apply` returns a new state
and leaves its input unchanged (the log keeps the committed state while it validates the next
entry, and throws tentative states away when a catch-up chunk turns out to be unproven).

The interface is deliberately small so that both the plain rules engine (`EngineMachine`) and the
table (engine + mental-poker deck) fit:

* `sequencer(state)` — the seat that orders the next entry;
* `actors(state)` — the seats that may act now; more than one means intents can race, and the
  sequencer then collects them in a fairness window;
* `gathers(state)` — whether every one of those actors must act before the game goes on (a
  step each of them owes, not a race): the sequencer then waits longer for all of them, so the
  step takes one entry instead of several;
* `precheck(state, seat, intent)` — cheap, side-effect free: may this seat's intent be ordered
  next? Used for pending intents (which intents are live, stale or illegal, which the sequencer
  owes an entry). It must accept everything `apply` accepts at that state; it may accept more
  (such intents are then skipped when the entry is applied);
* `apply(state, seat, intent)` — the state after the intent, or `MachineReject`;
* `state_hash(state)` — 32 bytes every honest peer computes identically;
* optionally `members(state)` — the seats still at the table: those whose acks commit the entry
  that led to `state` and who may order or act from there on. A seat leaves the table by an
  entry of its own (a graceful leave); a machine without `members` keeps every seat.

Seats are the players' indexes in the `Start` message (the envelope signer's position), not
necessarily the seats of the game inside the machine.
"""

from __future__ import annotations

from typing import Protocol, TypeVar

from p2p_durak.protocol.messages import Intent, RejectCode

S = TypeVar("S")


class MachineReject(Exception):
    """The machine refuses an intent; nothing was applied."""

    def __init__(self, code: RejectCode, detail: str) -> None:
        super().__init__(f"{code.name}: {detail}")
        self.code = code
        self.detail = detail


class Machine(Protocol[S]):
    """What the ordered log needs to know about the game it orders."""

    def sequencer(self, state: S) -> int:
        """The seat that must order the entry after `state`."""
        ...

    def actors(self, state: S) -> frozenset[int]:
        """The seats that may act in `state` (several: their intents race)."""
        ...

    def gathers(self, state: S) -> bool:
        """Whether every seat of `actors(state)` must act before the game can go on."""
        ...

    def precheck(self, state: S, seat: int, intent: Intent) -> None:
        """Raise `MachineReject` unless `seat`'s intent could be ordered next."""
        ...

    def apply(self, state: S, seat: int, intent: Intent) -> S:
        """The state after `seat`'s intent; `MachineReject` if it is refused."""
        ...

    def state_hash(self, state: S) -> bytes:
        """The 32-byte hash every peer acknowledges."""
        ...


def members(machine: Machine[S], state: S, n: int) -> tuple[int, ...]:
    """The seats (of `n`) still at the table in `state`, in order: every seat unless the
    machine says otherwise (its optional `members`)."""
    of = getattr(machine, "members", None)
    return tuple(range(n)) if of is None else tuple(of(state))
