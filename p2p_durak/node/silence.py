"""Since when each party has kept the table waiting without answering.

A party can stop playing without dropping its connection: a hung process, a peer that keeps
its TCP link up but never acknowledges, never sends the deck step it owes, never moves when its
turn timer has run out. To the others that is the same as a party that went away, and the same
grace period applies (`GameRunner._check_grace`). A party counts as silent only while the game
really waits for it, and only from the moment it owed something:

- the log is blocked on it (`Waiting`: its ack of the entry in flight is missing), since the
  entry was received;
- the table waits for a deck step of its (they are made by its node at once: no person thinks),
  since the commit that made it due, until its intent arrives;
- the table waits for its move and the turn timer runs, since the timer ran out (its own node
  then moves for it: a bot, or a concession; a person may think as long as the timer allows,
  and without a timer as long as they like).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field


@dataclass
class Silence:
    me: int  # this node's own party: never silent to itself
    _blocked: dict[int, float] = field(default_factory=dict)  # the log's `Waiting`
    _owed: dict[int, float] = field(default_factory=dict)  # deck steps and timed-out moves

    def log_waiting(self, parties: Iterable[int], since: float) -> None:
        """The log is blocked on `parties` since `since` (none: no longer blocked)."""
        self._blocked = {p: since for p in parties if p != self.me}

    def table_owes(self, deck: Iterable[int], moves: Iterable[int], now: float,
                   move_deadline: float | None) -> None:
        """After a commit: who owes a deck step, and (with a turn timer) a move. A debt that
        goes on over the commit keeps its start."""
        owed: dict[int, float] = {}
        for party in deck:
            if party != self.me:
                owed[party] = self._owed.get(party, now)
        if move_deadline is not None:
            for party in moves:
                if party != self.me and party not in owed:
                    owed[party] = move_deadline
        self._owed = owed

    def answered(self, party: int) -> None:
        """The party sent what it owed at this position (its intent arrived): it is not silent,
        whatever the log still needs of the others to commit it."""
        self._owed.pop(party, None)

    def clear(self) -> None:
        self._blocked = {}
        self._owed = {}

    def since(self) -> dict[int, float]:
        """Each silent party and since when (the earlier of its debts)."""
        out = dict(self._owed)
        for party, since in self._blocked.items():
            out[party] = min(since, out.get(party, since))
        return out
