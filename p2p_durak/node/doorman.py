"""Who may hold one of a node's connections before it is handed to a running game.

Anyone on the network can open connections to a node's listener. Until a connection is handed
over (to the running game's mesh, or to the table we host), it is a stranger's: it holds a task,
a socket and a receive buffer. The doorman bounds how many such connections live at once. When a
new one comes and all places are taken, the oldest connection still in its handshake is cut:
an honest handshake takes milliseconds, so what waits longest is a peer that sends nothing (a
slowloris), and an honest peer's new connection gets through all the same. A joiner at the table
we host (handshake done) is not cut; if only such connections hold the places, the new one is
turned away.

Every connection turned away is logged (a warning: `durak host` prints it) naming the peer's
address and the reason, and kept in `refusals` (the last `KEPT_REFUSALS`); past
`LINES_PER_SECOND` a flood is counted, and the count told with the next line.
"""

from __future__ import annotations

import logging
from collections import OrderedDict, deque
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

import trio

log = logging.getLogger(__name__)

MAX_STRANGERS = 32  # connections not yet handed to a game or a table
KEPT_REFUSALS = 100
LINES_PER_SECOND = 10  # logged; the rest of a flood is counted


@dataclass(eq=False)
class Ticket:
    """One stranger's place; `handshaking` while it may still be cut for room."""

    label: str
    scope: trio.CancelScope = field(default_factory=trio.CancelScope)
    handshaking: bool = True
    cut: bool = False


class Doorman:
    def __init__(self, limit: int = MAX_STRANGERS) -> None:
        self.limit = limit
        self._inside: OrderedDict[Ticket, None] = OrderedDict()  # oldest first
        self.refusals: deque[str] = deque(maxlen=KEPT_REFUSALS)
        self.turned_away = 0  # connections cut or refused for room, ever
        self._window_ends = float("-inf")
        self._said = 0  # lines logged in the current second
        self._unsaid = 0  # refusals kept but not logged since the last line

    @property
    def inside(self) -> int:
        return len(self._inside)

    @contextmanager
    def enter(self, label: str, *, handshaking: bool = True) -> Iterator[Ticket | None]:
        """A place for the connection `label` names, or None: no room, turn it away. Run a
        handshake inside the ticket's `scope`: the doorman cancels it to make room."""
        if len(self._inside) >= self.limit and not self._cut_oldest():
            self._for_room(f"{label}: turned away: {self.limit} connections are waiting to "
                           "be handed to a game or a table")
            yield None
            return
        ticket = Ticket(label, handshaking=handshaking)
        self._inside[ticket] = None
        try:
            yield ticket
        finally:
            self._inside.pop(ticket, None)

    def refuse(self, label: str, reason: str) -> None:
        """A connection failed or was refused for what its peer did: say who and why."""
        self._say(f"{label}: {reason}")

    def _cut_oldest(self) -> bool:
        oldest = next((t for t in self._inside if t.handshaking), None)
        if oldest is None:
            return False
        del self._inside[oldest]
        oldest.cut = True
        oldest.scope.cancel()
        self._for_room(f"{oldest.label}: cut: still in its handshake while {self.limit} "
                       "connections waited")
        return True

    def _for_room(self, text: str) -> None:
        self.turned_away += 1
        self._say(text)

    def _say(self, text: str) -> None:
        """Keep and log `text`; past `LINES_PER_SECOND` lines a second, only count it (a flood
        must not fill the log), and say the count with the next line logged."""
        self.refusals.append(text)
        now = trio.current_time()
        if now >= self._window_ends:
            self._window_ends = now + 1.0
            self._said = 0
        if self._said >= LINES_PER_SECOND:
            self._unsaid += 1
            return
        more = f" (and {self._unsaid} more since the last report)" if self._unsaid else ""
        log.warning("refused connection from %s%s", text, more)
        self._said += 1
        self._unsaid = 0
