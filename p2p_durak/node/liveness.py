"""A table whose host is gone leaves the lobby within seconds, not when its mDNS records expire.

A host that is killed, crashes or drops off the network sends no goodbye: its records live on
in every browser's cache for their TTL (`discovery.AD_TTL_SECONDS`, two minutes), and a player
would try to join a dead table. So the lobby knocks at each listed table's door: a TCP connect
to the address a join dials, closed at once without sending a byte (the host counts such a
knock quietly, as `link.SilentHangUp`, instead of logging a stranger's fault).

A table is shown once a knock gets through, so a dead host's record still cached when the lobby
starts is never offered. A shown table whose host fails `MISSES` knocks in a row (refused,
unreachable, or no answer within `KNOCK_TIMEOUT`) is hidden: the lobby gets `TableGone`. It
comes back (`TableSeen`) when a later knock gets through, and is forgotten when discovery says
it is gone. Worst case from the host's death to the row's end: `GONE_WITHIN` seconds.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

import trio

from p2p_durak.node.tableinfo import DiscoveryEvent, TableGone, TableSeen
from p2p_durak.node.transport import Dialer, Endpoint

log = logging.getLogger(__name__)

KNOCK_EVERY = 1.0  # seconds between knocks at one table
KNOCK_TIMEOUT = 2.0  # a host that has not answered by then missed the knock
MISSES = 2  # knocks missed in a row before the table is hidden (one lost SYN is forgiven)
PARALLEL_KNOCKS = 8  # connections the lobby opens at once, however many tables are listed
GONE_WITHIN = MISSES * (KNOCK_EVERY + KNOCK_TIMEOUT)
"""Seconds from a host's death until its table leaves the list, at most (the knock under way
at the death may still get through: it counts as the last one before the misses)."""


@dataclass(eq=False)
class _Watched:
    seen: TableSeen
    scope: trio.CancelScope = field(default_factory=trio.CancelScope)
    shown: bool = False
    misses: int = 0


class TableKnocker:
    """Passes discovery's events on to the lobby, minus tables whose host does not answer."""

    def __init__(self, dialer: Dialer, *, every: float = KNOCK_EVERY,
                 timeout: float = KNOCK_TIMEOUT, misses: int = MISSES) -> None:
        self._dialer = dialer
        self._every = every
        self._timeout = timeout
        self._misses = misses
        self._limiter = trio.CapacityLimiter(PARALLEL_KNOCKS)
        self._watched: dict[str, _Watched] = {}

    async def run(self, events: trio.MemoryReceiveChannel[DiscoveryEvent],
                  lobby: trio.MemorySendChannel[DiscoveryEvent]) -> None:
        """Until `events` ends (then `lobby` is closed too)."""
        async with lobby, trio.open_nursery() as nursery:
            async for event in events:
                if isinstance(event, TableSeen):
                    await self._seen(event, lobby, nursery)
                else:
                    await self._gone(event, lobby)
            nursery.cancel_scope.cancel()

    async def _seen(self, event: TableSeen, lobby: trio.MemorySendChannel[DiscoveryEvent],
                    nursery: trio.Nursery) -> None:
        watched = self._watched.get(event.table.table_id)
        if watched is None:
            watched = self._watched[event.table.table_id] = _Watched(event)
            nursery.start_soon(self._knock_on, watched, lobby)
            return
        watched.seen = event
        if watched.shown:
            await lobby.send(event)

    async def _gone(self, event: TableGone, lobby: trio.MemorySendChannel[DiscoveryEvent]
                    ) -> None:
        watched = self._watched.pop(event.table_id, None)
        if watched is not None:
            watched.scope.cancel()
            if watched.shown:
                await lobby.send(event)

    async def _knock_on(self, watched: _Watched,
                        lobby: trio.MemorySendChannel[DiscoveryEvent]) -> None:
        with watched.scope:
            while True:
                answered = await self._knock(watched.seen)
                watched.misses = 0 if answered else watched.misses + 1
                if answered and not watched.shown:
                    watched.shown = True
                    await lobby.send(watched.seen)
                elif watched.shown and watched.misses >= self._misses:
                    watched.shown = False
                    log.info("table %r hidden: its host at %s did not answer %d knocks",
                             watched.seen.table.name, _endpoint(watched.seen), watched.misses)
                    await lobby.send(TableGone(watched.seen.table.table_id))
                await trio.sleep(self._every)

    async def _knock(self, seen: TableSeen) -> bool:
        """Whether the host accepts a connection at the address a join would dial."""
        async with self._limiter:
            with trio.move_on_after(self._timeout):
                try:
                    stream = await self._dialer.dial(_endpoint(seen))
                except OSError:
                    return False
                await trio.aclose_forcefully(stream)
                return True
        return False


def _endpoint(seen: TableSeen) -> Endpoint:
    return Endpoint(seen.addresses[0], seen.table.port)  # as the lobby's join dials it
