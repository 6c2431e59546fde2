"""A table session at a fixed engine state, for key tests through the real application: the
engine applies the moves and refuses what it refuses, so a test does not depend on where a
bot game happens to go."""

from __future__ import annotations

import math

import trio
from table_states import snapshot_of

from p2p_durak.cli.backend import LocalLobbyBackend, TableOptions
from p2p_durak.engine import Action, State, apply
from p2p_durak.node.api import LogLine, Session, TableSnapshot


class FixedSession:
    """One seat at a fixed engine state: moves are applied by the engine, refusals raised."""

    def __init__(self, state: State, me: int = 0, preset: str = "app_podkidnoy") -> None:
        self.state = state
        self.me = me
        self.preset = preset
        self.acted: list[Action] = []
        self._send, self._receive = trio.open_memory_channel[TableSnapshot](math.inf)
        self._publish(())

    def _publish(self, log: tuple[LogLine, ...]) -> None:
        self._send.send_nowait(snapshot_of(self.state, self.me, preset=self.preset, log=log))

    @property
    def snapshots(self) -> trio.MemoryReceiveChannel[TableSnapshot]:
        return self._receive

    async def act(self, action: Action) -> None:
        await trio.lowlevel.checkpoint()
        self.state, events = apply(self.state, action)  # raises unchanged
        self.acted.append(action)
        self._publish(tuple(LogLine(i, e) for i, e in enumerate(events)))

    async def next_game(self) -> None:
        await trio.lowlevel.checkpoint()

    async def leave(self) -> None:
        await trio.lowlevel.checkpoint()


class FixedBackend(LocalLobbyBackend):
    def __init__(self, nursery: trio.Nursery, session: FixedSession) -> None:
        super().__init__(nursery)
        self.session = session

    async def practice(self, options: TableOptions) -> Session:
        await trio.lowlevel.checkpoint()
        return self.session
