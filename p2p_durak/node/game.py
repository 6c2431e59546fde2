"""One party's run of one game: the mesh, the ordered log, the table machine, the journal and
the player (a person through the UI, or a bot) put together with trio.

All log inputs go through one task (`_core`), in order: messages from the mesh, ticks of the
clock, and the player's moves. Everything the log asks for is done right there: messages are
sent, commits are journaled before anything else learns of them, and what the party owes next (a
deck step, a move) is worked out from the committed table. Nothing the peers send can crash this
task: the log and the table refuse bad input with a reason that names the peer.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import trio

from p2p_durak import engine as eng
from p2p_durak.node.lobby import GameStart
from p2p_durak.node.mesh import Connected, Disconnected, Mesh, MeshEvent, Received
from p2p_durak.node.store import GameJournal
from p2p_durak.protocol.envelope import Envelope
from p2p_durak.protocol.errors import LocalProtocolError
from p2p_durak.protocol.identity import Identity
from p2p_durak.protocol.log import OrderingLog
from p2p_durak.protocol.log_effects import (
    Broadcast,
    Committed,
    Dropped,
    Halted,
    Rejected,
    SendTo,
    Waiting,
)
from p2p_durak.protocol.messages import Entry
from p2p_durak.protocol.table import TableEvent, TableMachine, TableReject, seeded_secret_rng
from p2p_durak.protocol.table_log import TableLogMachine

log = logging.getLogger(__name__)

TICK_SECONDS = 0.05
LINGER_SECONDS = 3.0  # after the game: keep answering peers that still need our acks
SYNC_SECONDS = 1.0


@dataclass(frozen=True, slots=True)
class Turn:
    """The player may move: the committed table, and the moves it allows."""

    seq: int
    table: TableMachine
    legal: tuple[eng.Action, ...]


class Player:
    """Who decides this party's moves. The runner calls `update` after every commit (with the
    table events since the last call) and `turn` when the party may move; the player answers
    with `runner.move(seq, action)` when it has decided."""

    async def update(self, table: TableMachine, events: tuple[TableEvent, ...]) -> None:
        """New committed events (for the UI's view, a bot's card memory)."""

    async def turn(self, turn: Turn, runner: GameRunner) -> None:
        """The party may move now."""

    async def finished(self, table: TableMachine, diagnosis: str | None) -> None:
        """The game ended (diagnosis: why it stopped, when it did not end normally)."""


@dataclass(frozen=True, slots=True)
class _Move:
    seq: int
    action: eng.Action


_Input = MeshEvent | _Move | None  # None: the clock ticked


@dataclass(eq=False)
class GameRunner:
    identity: Identity
    start: GameStart
    mesh: Mesh
    player: Player
    journal: GameJournal
    rng: Callable[[int], bytes] = field(default=os.urandom)
    problems: list[str] = field(default_factory=list)  # faults and refusals, naming the peer

    def __post_init__(self) -> None:
        self.party = self.start.party_of(self.identity.peer_id)
        self._inputs, self._input_rx = trio.open_memory_channel[_Input](4096)
        self.finished = trio.Event()
        self.diagnosis: str | None = None
        self._told = 0  # how many table events the player has been given
        self._turn_seq = -1
        self._submitted: tuple[str, float] | None = None  # what we submitted, and when
        self.latencies: dict[str, list[float]] = {"move": [], "deck": []}  # submit -> commit, s

    # ---- the player's side -------------------------------------------------------------------

    async def move(self, seq: int, action: eng.Action) -> None:
        """The player's move, decided at commit `seq` (dropped if the table moved on)."""
        await self._inputs.send(_Move(seq, action))

    # ---- running -----------------------------------------------------------------------------

    def _now(self) -> int:
        return int(trio.current_time() * 1000)

    def _make_log(self) -> OrderingLog[TableMachine]:
        self.journal.keep_rules(self.start.rules.canonical())
        seed = self.journal.game_seed()
        table = TableMachine(self.start.game_id, self.party, len(self.start.players),
                             self.start.rules, seeded_secret_rng(seed, self.rng))
        table.deck.restore_made(self.journal.made())
        transcript = self.journal.transcript(self.start.start.encode())
        if transcript is None:
            return OrderingLog(self.identity, self.start.start, TableLogMachine(), table,
                               now_ms=self._now())
        log.info("resuming game %s at position %d", self.start.game_id.hex()[:8],
                 len(transcript.entries))
        return OrderingLog.resume(self.identity, transcript, TableLogMachine(), table,
                                  now_ms=self._now(), signed_entry=self.journal.signed_entry())

    async def run(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        self.log = self._make_log()
        async with trio.open_nursery() as nursery:
            await nursery.start(self.mesh.run)
            nursery.start_soon(self._pump_mesh)
            nursery.start_soon(self._ticker)
            nursery.start_soon(self._syncer)
            task_status.started()
            await self._core()
            nursery.cancel_scope.cancel()

    async def _pump_mesh(self) -> None:
        async for event in self.mesh.inbox:
            await self._inputs.send(event)

    async def _ticker(self) -> None:
        while True:
            await trio.sleep(TICK_SECONDS)
            await self._inputs.send(None)

    async def _syncer(self) -> None:
        """Make the commits durable against a power cut about once a second, off the event
        loop (an fsync costs milliseconds; a killed process loses nothing either way)."""
        while True:
            await trio.sleep(SYNC_SECONDS)
            await trio.to_thread.run_sync(self.journal.sync)

    async def _core(self) -> None:
        await self._after_commit()
        linger_until: float | None = None
        async for item in self._input_rx:
            now = self._now()
            effects: Sequence[object]
            if isinstance(item, Received):
                effects = self.log.receive(item.party, item.message, now)
            elif isinstance(item, Connected):
                effects = self.log.peer_connected(item.party, now)
            elif isinstance(item, Disconnected):
                self.problems.append(f"party {item.party} disconnected: {item.reason}")
                effects = self.log.peer_disconnected(item.party, now)
            elif isinstance(item, _Move):
                effects = self._submit_move(item)
            else:
                effects = self.log.tick(now)
            await self._carry_out(effects)
            if self.diagnosis is not None:
                break
            if self.finished.is_set():
                if linger_until is None:
                    linger_until = trio.current_time() + LINGER_SECONDS
                elif trio.current_time() >= linger_until:
                    break
        await self.player.finished(self.log.state, self.diagnosis)

    # ---- the log's effects -------------------------------------------------------------------

    async def _carry_out(self, effects: Sequence[object]) -> None:
        committed = False
        for effect in effects:
            if isinstance(effect, Broadcast):
                self._journal_own_entry(effect.message, effect.data)
                await self.mesh.broadcast(effect.message)
            elif isinstance(effect, SendTo):
                self._journal_own_entry(effect.message, effect.data)
                await self.mesh.send(effect.seat, effect.message)
            elif isinstance(effect, Committed):
                self.journal.commit(effect.data, self.log.transcript(effect.seq).acks)
                committed = True
            elif isinstance(effect, Rejected):
                if effect.seat == self.party:
                    self.problems.append(f"our move was not taken: {effect.detail}")
                else:
                    self.problems.append(f"party {effect.seat}'s intent was refused: "
                                         f"{effect.detail}")
            elif isinstance(effect, Dropped):
                self.problems.append(f"dropped input from party {effect.from_seat}: "
                                     f"{effect.detail}")
            elif isinstance(effect, Halted):
                d = effect.diagnosis
                who = "this node" if d.seat is None else f"party {d.seat}"
                self.diagnosis = f"{d.kind.name} at position {d.seq} by {who}: {d.detail}"
                self.journal.halted(self.diagnosis)
                log.error("game halted: %s", self.diagnosis)
            elif isinstance(effect, Waiting):
                pass
        if committed:
            await self._after_commit()

    def _journal_own_entry(self, message: object, data: bytes) -> None:
        if (isinstance(message, Envelope) and message.author == self.identity.peer_id
                and isinstance(message.message, Entry)):
            self.journal.signed(data)

    # ---- what this party does next ----------------------------------------------------------

    async def _after_commit(self) -> None:
        if self._submitted is not None and self.log.own_pending is None:
            kind, since = self._submitted
            self.latencies[kind].append(trio.current_time() - since)
            self._submitted = None
        table = self.log.state
        events = table.history[self._told:]
        self._told = len(table.history)
        if events:
            await self.player.update(table, events)
        if table.audit is not None:
            if not self.finished.is_set():
                self.journal.finish(self.log.transcript().save())
                self.finished.set()
            return
        if self.log.own_pending is not None or self.log.recovering:
            return
        owed = table.owed()
        if owed is not None:
            msg = table.deck.owed()
            assert msg is not None
            self.journal.record_made(msg, table.deck.coin_secret(msg.step))
            await self._carry_out(self._submit(owed, "deck"))
            return
        legal = table.legal()
        if legal and self.party in table.waiting_for() and self._turn_seq != self.log.seq:
            self._turn_seq = self.log.seq
            await self.player.turn(Turn(self.log.seq, table, legal), self)

    def _submit(self, payload: bytes, kind: str) -> Sequence[object]:
        try:
            _, effects = self.log.submit(payload, self._now())
        except LocalProtocolError as exc:
            self.problems.append(f"could not submit: {exc}")
            return []
        self._submitted = (kind, trio.current_time())
        return effects

    def _submit_move(self, move: _Move) -> Sequence[object]:
        if move.seq != self.log.seq or self.log.own_pending is not None:
            return []  # decided on a table that has changed since: the player is asked again
        try:
            payload = self.log.state.play(move.action)
        except (TableReject, eng.IllegalAction) as exc:
            self.problems.append(f"our move was refused: {exc}")
            self._turn_seq = -1
            return []
        return self._submit(payload, "move")


def game_dir(home: Path, game_id: bytes) -> Path:
    return home / "games" / game_id.hex()
