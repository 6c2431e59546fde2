"""One party's run of one game: the mesh, the ordered log, the table machine, the journal and
the player (a person through the UI, or a bot) put together with trio.

All log inputs go through one task (`_core`), in order: messages from the mesh, ticks of the
clock, and the player's moves. Everything the log asks for is done right there: messages are
sent, commits are journaled before anything else learns of them, and what the party owes next (a
deck step, a move) is worked out from the committed table. Nothing the peers send can crash this
task: the log and the table refuse bad input with a reason that names the peer.
"""

from __future__ import annotations

import hashlib
import logging
import os
import random
import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import trio

from p2p_durak import engine as eng
from p2p_durak.bots.levels import make_bot
from p2p_durak.engine import actions as A
from p2p_durak.engine.actions import concede
from p2p_durak.node import heap, offload
from p2p_durak.node.bot_feed import BotFeed, bot_move
from p2p_durak.node.history_store import record_network
from p2p_durak.node.journal import JournalError
from p2p_durak.node.lobby import GameStart
from p2p_durak.node.mesh import Connected, Disconnected, Mesh, MeshEvent, Outgoing, Received
from p2p_durak.node.refused_steps import LASTING, RefusedStep, step_state
from p2p_durak.node.silence import Silence
from p2p_durak.node.store import TRANSCRIPT_FILE, GameJournal
from p2p_durak.protocol import codec
from p2p_durak.protocol.envelope import Envelope
from p2p_durak.protocol.errors import LocalProtocolError
from p2p_durak.protocol.identity import Identity
from p2p_durak.protocol.log import LogConfig, OrderingLog
from p2p_durak.protocol.log_effects import (
    Broadcast,
    Committed,
    Dropped,
    Halted,
    Rejected,
    SendTo,
    Waiting,
)
from p2p_durak.protocol.machine import MachineReject
from p2p_durak.protocol.mental.messages import Message as DeckMessage
from p2p_durak.protocol.messages import Ack, Entry, Intent, TimeoutPolicy, TurnTimer
from p2p_durak.protocol.table import TableEvent, TableMachine, TableReject, seeded_secret_rng
from p2p_durak.protocol.table_log import TableLogMachine

log = logging.getLogger(__name__)

# The clock input comes when something is due (the log's next deadline, the turn timer, the
# grace period, the end of the linger), and at least this often.
IDLE_TICK_SECONDS = 1.0
# A party without a link this long is named to the player, with the reason (at a game's start
# the links come up within a second; a table that cannot go on must not wait in silence).
AWAY_NOTICE_SECONDS = 3.0
LINGER_SECONDS = 3.0  # after the game: keep answering peers that still need our acks
BATCH_INPUTS = 64  # inputs handled back to back before the alarm is reset and trio is let in
SYNC_SECONDS = 1.0
# Timing halts (censorship) are sound only while every message arrives within the delivery
# bound. A player's own deck step (a shuffle proof) can take seconds on a slow, busy laptop, so
# the node allows far more than the log's defaults before it calls a silent sequencer a censor.
# A deck step needs every due party's message: after the first, the sequencer waits up to 200
# ms (`gather_ms`) for the rest, so that one entry carries the step's messages rather than one per
# straggler (each entry costs every node a round of signatures and messages). Links are TCP,
# so a message is lost only with its connection: retransmitting every 250 ms (the log's
# default) only adds load to a busy table, where every commit takes longer than that.
LOG_TIMING = LogConfig(resend_ms=1_000, omit_ms=10_000, censor_ms=30_000, gather_ms=200)
GRACE_SECONDS = 60.0
LEAVE_TRIES = 3  # leave steps submitted before a leaving party concedes instead
TIMEOUT_POLICIES = ("bot", "lose")
# How link.py and mesh.py word the ordinary end of a connection; any other reason is a peer
# that broke the channel protocol (garbage, a forged signature, a frame out of order).
_ORDINARY_ENDS = ("connection closed", "connection lost", "connection already closed",
                  "peer closed with GOING_AWAY", "replaced by a newer connection")
# How the framing and the frame decryption word a broken frame: bytes anyone on the path can put
# there (docs/protocol.md §15: channel frames are no proof of authorship), unlike a malformed
# message or a bad signature inside an authenticated frame, which only the peer can send.
_UNATTRIBUTED = ("failed authentication", "stayed incomplete", "exceeds", "zero-length frame",
                 "stream ended inside a frame")


@dataclass(frozen=True, slots=True)
class Timing:
    """The table's clocks. Every node of a game runs with the same values (they come from the
    signed `Start`): each node times its own seat's moves (nobody can move for another seat:
    the cards are its owner's), shows the others' deadlines, and ends the game when a party
    stays away, or silent, longer than the grace period.

    `on_timeout`: "bot" lets an easy bot choose the move; "lose" concedes the game for the seat
    (the engine's concede action, ordered by the log like any move).
    """

    turn_seconds: float = 0.0  # 0: no turn timer
    on_timeout: str = "bot"
    grace_seconds: float = GRACE_SECONDS

    def __post_init__(self) -> None:
        if self.turn_seconds < 0 or self.grace_seconds <= 0:
            raise ValueError("turn_seconds must not be negative, grace_seconds must be positive")
        if self.on_timeout not in TIMEOUT_POLICIES:
            raise ValueError(f"on_timeout {self.on_timeout!r} is not one of "
                             f"{', '.join(TIMEOUT_POLICIES)}")

    @classmethod
    def of(cls, timer: TurnTimer) -> Timing:
        """The clocks a `Start` carries."""
        policy = "lose" if timer.on_timeout is TimeoutPolicy.LOSE else "bot"
        return cls(float(timer.turn_seconds), policy, float(timer.grace_seconds))


@dataclass(frozen=True, slots=True)
class Problem:
    """Something a peer did (or that happened to it) that this node noticed: which party, its
    identity's fingerprint, what kind of thing, and the details. `fault` marks what only a
    misbehaving peer does (a problem: logged as a warning, counted in `GameRunner.problems`);
    the rest is news that honest play brings too, and is never counted as a problem.

    Faults: "channel" (broke the encrypted channel: garbage, a forged signature), "dropped" (a
    message the log refused), "replay" (an old entry or ack sent again), "refused" (an illegal
    intent, or a shuffle found false), "halted" (proven misbehaviour: the game stopped).
    News: "raced" (an intent, ours or a peer's, legal on the state it was made for, that lost
    the race to an earlier intent of the same entry, as simultaneous throw-ins do; or our move
    that missed its position and is no longer legal on the next), "late" (a
    message re-sent before its author learned we no longer need it), "disconnected",
    "abandoned", "timeout" (our player ran out of time), "own" (our own move was not taken),
    "left" (a party went away after a game of the series: the table stopped).
    """

    party: int | None  # None: this node itself
    fingerprint: str
    kind: str
    detail: str
    fault: bool = True

    def __str__(self) -> str:
        who = "this node" if self.party is None else f"party {self.party} ({self.fingerprint})"
        return f"{who} {self.kind}: {self.detail}"


@dataclass(frozen=True, slots=True)
class TurnClock:
    """Whose move the table waits for, and when the turn timer runs out (trio time)."""

    parties: tuple[int, ...]
    ends_at: float


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

    def attach(self, runner: GameRunner) -> None:
        """The runner that plays this party's game (called once, before anything else)."""

    def leaving(self, table: TableMachine) -> bool:
        """Whether the party wants to leave the table now (asked after every commit; the
        runner also leaves when told with `runner.leave_table()`)."""
        return False

    async def after_game(self, table: TableMachine, runner: GameRunner) -> None:
        """The game is over and audited: the party says whether it plays the next game of the
        series, with `runner.choose_next(play_on)`, when it has decided. This player stops."""
        await runner.choose_next(False)

    async def finished(self, table: TableMachine, diagnosis: str | None) -> None:
        """The table stopped (diagnosis: why, when it did not end normally)."""

    async def connections(self, away: dict[int, str]) -> None:
        """The parties that have had no link for a while, each with the reason (none: every
        link is up again); told when it changes."""


@dataclass(frozen=True, slots=True)
class _Move:
    seq: int
    action: eng.Action


@dataclass(frozen=True, slots=True)
class _LeaveTable:
    pass


@dataclass(frozen=True, slots=True)
class _Vote:
    game_number: int
    play_on: bool


_Input = MeshEvent | _Move | _Vote | _LeaveTable | None  # None: the clock ticked


def deck_progress(table: TableMachine) -> tuple[str, str, int] | None:
    """The deck step under way, its phase, and how many parties have done their part."""
    pending = table.deck.pending_op()
    return None if pending is None else (pending.op.step, pending.phase, len(pending.got))


def game_secret(seed: bytes, number: int) -> bytes:
    """The seed of this party's deck secret in game `number` of the series (the first game's is
    the journaled seed itself): a restarted node finds the same key for every game."""
    if number == 1:
        return seed
    return hashlib.sha256(b"p2p-durak/series-secret\0" + seed + number.to_bytes(4, "big")
                          ).digest()


@dataclass(eq=False)
class GameRunner:
    identity: Identity
    start: GameStart
    mesh: Mesh
    player: Player
    journal: GameJournal
    rng: Callable[[int], bytes] = field(default=os.urandom)
    problems: list[str] = field(default_factory=list)  # the faults, each naming the peer
    timing: Timing = field(default_factory=Timing)
    home: Path | None = None  # the data folder, whose history indexes each finished game

    def __post_init__(self) -> None:
        self.party = self.start.party_of(self.identity.peer_id)
        self._inputs, self._input_rx = trio.open_memory_channel[_Input](4096)
        self.finished = trio.Event()
        self.diagnosis: str | None = None
        self.verdict: str | None = None  # why this node ended the game itself (abandoned)
        # the same for the person at the table: which party, whether it went away ("return")
        # or fell silent ("answer"), and the grace period it had
        self.abandoned: tuple[int, str, float] | None = None
        self.reports: list[Problem] = []  # the faults and the news, as records
        self._told = 0  # how many table events the player has been given
        self._undone_told = 0  # how many undone shuffles (`TableMachine.undone`) were named
        self._voided_told = 0  # how many void moves (`TableMachine.voided`) were named
        self._progress_told: tuple[str, str, int] | None = None  # deck progress told
        self._votes_told = 0
        self._turn_seq = -1
        self._submitted: tuple[str, float] | None = None  # what we submitted, and when
        self._made_for = -1  # the position our last move was made for (-1: not a move)
        self._deck_sent: bytes | None = None  # the deck message submitted last
        self._refused_step = RefusedStep()  # ... and whether to send it again if refused
        self.latencies: dict[str, list[float]] = {"move": [], "deck": [], "vote": [],
                                                  "leave": [], "abandon": []}
        # party -> when this node claimed it abandoned the game (the table decides when every
        # other party has claimed it; else the grace period's verdict comes after all)
        self._claimed: dict[int, float] = {}
        self._abandon_effects: list[object] = []
        self.leaving = False  # the party leaves the table: between bouts, or at once after it
        self._leave_tries = 0
        self._asked_next = 0  # the game after which the player was last asked to play on
        self._games_saved = 0  # the games whose transcript is saved
        self.stopped: str | None = None  # why the series ended without a vote (a party left)
        self.clock: TurnClock | None = None
        self._turn_ends: float | None = None  # our own turn timer
        self._vote_clock: tuple[int, float] | None = None  # (game, when its choice ends)
        self._vote_ends: float | None = None  # our own player's time to choose
        self._stand_in: BotFeed | None = None
        if self.timing.turn_seconds > 0:
            bot_rng = random.Random(self.rng(16))
            self._stand_in = BotFeed(lambda seat: make_bot("easy", seat, bot_rng))
        self._away: dict[int, float] = {}  # party -> since when it has not been connected
        self._silence = Silence(self.party)  # parties the table waits for that do not answer
        self._told_away: dict[int, str] = {}  # the parties without a link the player was told
        self._late = False  # the input being handled looks like an honest late retransmission
        self._base: tuple[int, TableMachine] | None = None  # the committed head before it
        self._raced: set[tuple[int, int]] = set()  # (party, counter) that lost a race
        self._ordered: dict[bytes, int] = {}  # intents of recent entries: digest -> position
        # per party: the last position it acked in a message it sent us on its current
        # connection (`_check_replay`'s evidence)
        self._acked_here: dict[int, int] = {}
        self._alarm: trio.CancelScope | None = None  # the ticker's sleep until the next tick
        self._linger_until: float | None = None
        self._prepared = -1  # the position whose deck message was made ahead (`_prepare_next`)
        self._nursery: trio.Nursery | None = None
        self._made_lock = trio.Lock()

    # ---- what the node exposes ---------------------------------------------------------------

    def fingerprint(self, party: int) -> str:
        return self.start.players[party].identity.fingerprint

    def seconds_left(self) -> float | None:
        """On the turn timer of the party (or parties) the table waits for: the snapshot's
        `deadline`. None when no timer runs."""
        clock = self.clock
        if clock is None:
            return None
        return max(0.0, clock.ends_at - trio.current_time())

    def _note(self, party: int | None, kind: str, detail: str, *, fault: bool = True) -> None:
        problem = Problem(party, "" if party is None else self.fingerprint(party), kind, detail,
                          fault)
        self.reports.append(problem)
        if fault:
            self.problems.append(str(problem))
            log.warning("%s", problem)

    # ---- the player's side -------------------------------------------------------------------

    async def move(self, seq: int, action: eng.Action) -> None:
        """The player's move, decided at commit `seq` (dropped if the table moved on)."""
        await self._inputs.send(_Move(seq, action))

    def move_at(self, seq: int, action: eng.Action, when: float) -> None:
        """The player's move, sent at trio time `when` and not before (a bot's reply delay,
        `reply_delay.py`); the node goes on meanwhile: it acks and relays, and a move whose
        table moved on by then is dropped like any late one."""
        assert self._nursery is not None, "the game is not running"
        self._nursery.start_soon(self._move_when, seq, action, when)

    async def _move_when(self, seq: int, action: eng.Action, when: float) -> None:
        await trio.sleep_until(when)
        await self.move(seq, action)

    async def leave_table(self) -> None:
        """Leave the table on purpose: the party finishes the bout with the quickest legal
        moves, then leaves (its hand opened to all, into the discard) and the rest play on.
        With two at the table it concedes; after a game it stops the table."""
        await self._inputs.send(_LeaveTable())

    async def choose_next(self, play_on: bool) -> None:
        """The player's choice after the game: play the next game of the series, or stop."""
        await self._inputs.send(_Vote(self.log.state.game_number, play_on))

    # ---- running -----------------------------------------------------------------------------

    def _now(self) -> int:
        return int(trio.current_time() * 1000)

    def _prepare_journal(self) -> tuple[bytes, bool]:
        """The files a game needs before its first message (fsyncs: run off the event loop),
        and whether this party played the game before (its seed is journaled, synced, before
        its first message): then it has sent messages, and restarts in recovery."""
        self.journal.keep_rules(self.start.rules.canonical())
        played = self.journal.has_seed
        return self.journal.game_seed(self.rng), played

    def _make_log(self, seed: bytes, played: bool) -> OrderingLog[TableMachine]:
        table = TableMachine(self.start.game_id, self.party, len(self.start.players),
                             self.start.rules, seeded_secret_rng(seed, self.rng),
                             rng_for_game=lambda number: seeded_secret_rng(
                                 game_secret(seed, number), self.rng))
        table.restore_made(self.journal.made())
        transcript = self.journal.transcript(self.start.start.encode())
        if transcript is None:
            # No commit on disk. After a power cut that may be all it lost: a party that had
            # played signed intents (and, as the first sequencer, entries) its peers hold; it
            # learns them from every peer before it signs anything (docs/protocol.md §10.8).
            return OrderingLog(self.identity, self.start.start, TableLogMachine(), table,
                               config=LOG_TIMING, now_ms=self._now(), recovering=played)
        log.info("resuming game %s at position %d", self.start.game_id.hex()[:8],
                 len(transcript.entries))
        return OrderingLog.resume(self.identity, transcript, TableLogMachine(), table,
                                  config=LOG_TIMING, now_ms=self._now(),
                                  signed_entry=self.journal.signed_entry())

    async def run(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        self.log = self._make_log(*await offload.run_sync(self._prepare_journal))
        self.player.attach(self)
        began = trio.current_time()
        self._away = {p: began for p in range(len(self.start.players)) if p != self.party}
        for party in self._away:
            # No link yet: the log must not time a party it cannot hear (it would call a
            # sequencer that was never reached a censor) until the link's `Connected`.
            self.log.peer_disconnected(party, self._now())
        with heap.frozen_while_playing():
            try:
                await self._run_game(task_status)
            except* JournalError as failed:
                self._journal_failed(failed.exceptions[0])

    def _journal_failed(self, error: BaseException) -> None:
        """The journal refused a write (a full disk, a failing one): nothing may go out that
        is not journaled first, so this node stops its game — with a clear reason, not a
        traceback — and leaves the journal as it was, so that `durak resume` rejoins once the
        disk has room (the others play on meanwhile, or end the game after the grace period,
        naming this party). Found by bench/soak.py (its disk_full fault)."""
        self.diagnosis = (f"this node stopped playing: it cannot write its journal ({error}); "
                          "free some disk space, then run `durak resume` to rejoin the game")
        log.error("game stopped: %s", self.diagnosis)
        self.finished.set()

    async def _run_game(self, task_status: trio.TaskStatus[None]) -> None:
        async with trio.open_nursery() as nursery:
            self._nursery = nursery
            self.mesh.deliver_to(self._inputs)
            await nursery.start(self.mesh.run)
            nursery.start_soon(self._ticker)
            nursery.start_soon(self._syncer)
            task_status.started()
            await self._core()
            nursery.cancel_scope.cancel()

    async def _ticker(self) -> None:
        """Feed the clock to `_core` when something is due: no fixed-rate polling, so a closing
        fairness window or a retransmission is handled on time, and an idle node sleeps."""
        while True:
            with trio.CancelScope(deadline=self._next_tick()) as alarm:
                self._alarm = alarm
                await trio.sleep_forever()
            self._alarm = None
            await self._inputs.send(None)

    def _next_tick(self) -> float:
        """When `_core` next needs the clock (trio time)."""
        now = trio.current_time()
        times = [now + IDLE_TICK_SECONDS]
        deadline = self.log.next_deadline()
        if deadline is not None:
            # The log reads time as int(trio time in ms): wake when that reaches the deadline.
            times.append((deadline + 0.5) / 1000)
        if self._turn_ends is not None:
            times.append(self._turn_ends)
        if self._vote_ends is not None:
            times.append(self._vote_ends)
        gone = self._gone()
        if gone and not self.finished.is_set():
            times.append(min(gone.values()) + self.timing.grace_seconds)
            times += [t + self.timing.grace_seconds for t in self._claimed.values()]
        if self._linger_until is not None:
            times.append(self._linger_until)
        return min(times)

    def _reset_alarm(self) -> None:
        alarm = self._alarm
        if alarm is not None:
            alarm.deadline = self._next_tick()

    async def _syncer(self) -> None:
        """Make the commits durable against a power cut about once a second, off the event
        loop (an fsync costs milliseconds; a killed process loses nothing either way)."""
        while True:
            await trio.sleep(SYNC_SECONDS)
            await offload.run_sync(self.journal.sync)

    async def _core(self) -> None:
        await self._after_commit()
        self._reset_alarm()
        async for received in self._input_rx:
            item = received
            # What queued up while we were busy is handled before the alarm is set again:
            # one reset per batch (`_next_tick` asks the log for every deadline it keeps).
            for handled in range(1, BATCH_INPUTS + 1):
                if not await self._handle(item):
                    await self.player.finished(self.log.state, self.diagnosis)
                    return
                if handled == BATCH_INPUTS:
                    break
                try:
                    item = self._input_rx.receive_nowait()
                except (trio.WouldBlock, trio.EndOfChannel):
                    break
            self._reset_alarm()
        await self.player.finished(self.log.state, self.diagnosis)

    async def _handle(self, item: _Input) -> bool:
        """Handle one input; False: the game is over for this node (stop reading)."""
        now = self._now()
        effects: Sequence[object]
        self._base = (self.log.seq, self.log.state)
        recovering = self.log.recovering  # before the input: catching up ends inside it
        if isinstance(item, Received):
            self._heard(item)
            # kept until its effects are carried out: that is where a drop is reported
            self._late = self._check_replay(item)
            effects = self.log.receive(item.party, item.message, now)
        elif isinstance(item, Connected):
            self._away.pop(item.party, None)
            self._acked_here.pop(item.party, None)  # a new connection: what it says from now
            effects = self.log.peer_connected(item.party, now)
        elif isinstance(item, Disconnected):
            self._on_disconnected(item)
            effects = self.log.peer_disconnected(item.party, now)
        elif isinstance(item, _Move):
            effects = self._submit_move(item)
        elif isinstance(item, _Vote):
            effects = self._submit_vote(item)
        elif isinstance(item, _LeaveTable):
            self.leaving = True
            await self._after_commit()
            effects = []
        else:
            effects = [*self.log.tick(now), *self._check_turn_timer(),
                       *self._check_vote_timer()]
            self._check_grace()
            effects += self._abandon_effects
            self._abandon_effects = []
        await self._carry_out(effects)
        self._late = False
        if self._away or self._told_away:
            await self._tell_away()
        self._prepare_next()
        if recovering and not self.log.recovering and self.diagnosis is None:
            # Caught up without a commit (nothing new was committed while we were away):
            # what we owe, or our turn, is due now, not at the next commit.
            await self._after_commit()
        if self.diagnosis is not None:
            return False
        if self.finished.is_set():
            if self._linger_until is None:
                self._linger_until = trio.current_time() + LINGER_SECONDS
            elif trio.current_time() >= self._linger_until:
                return False
        return True

    # ---- the log's effects -------------------------------------------------------------------

    async def _carry_out(self, effects: Sequence[object]) -> None:
        committed = False
        outgoing: list[Outgoing] = []  # written together: one write per link, not per message
        for effect in effects:
            if isinstance(effect, Broadcast):
                self._journal_own_entry(effect.message, effect.data)
                outgoing.append(Outgoing(None, effect.message, effect.data))
            elif isinstance(effect, SendTo):
                self._journal_own_entry(effect.message, effect.data)
                outgoing.append(Outgoing(effect.seat, effect.message, effect.data))
            elif isinstance(effect, Committed):
                # a position caught up over has no certificate here: only the last one does
                self.journal.commit(effect.data, self.log.certificate(effect.seq))
                self._find_races(effect)
                committed = True
            elif isinstance(effect, Rejected):
                where = ("before it was ordered" if effect.seq is None
                         else f"skipped in entry {effect.seq}")
                detail = f"intent {effect.intent.counter} refused {where}: {effect.detail}"
                ours = effect.seat == self.party
                held = self._hold_back(effect) if ours else ""
                # honest: legal on the state it was made for (`_find_races`); or our move
                # (legal when we made it: the log prechecks it), left out of the entries that
                # moved the table on and no longer legal there (rule L8)
                if (effect.seat, effect.intent.counter) in self._raced or (
                        ours and effect.seq is None and 0 <= self._made_for < self.log.seq):
                    self._note(None if ours else effect.seat, "raced",
                               f"{'our ' if ours else ''}{detail}{held} (legal when it was "
                               "made: it lost the race to an earlier move)", fault=False)
                elif ours:
                    self._note(None, "own", f"our {detail}{held}", fault=False)
                else:
                    self._note(effect.seat, "refused", detail)
            elif isinstance(effect, Dropped):
                signed = ("" if effect.author in (None, effect.from_seat)
                          else f" (signed by party {effect.author})")
                if self._late:
                    self._note(effect.from_seat, "late", f"re-sent a message{signed} we no "
                               f"longer need: {effect.detail}", fault=False)
                else:
                    self._note(effect.from_seat, "dropped", f"sent a message{signed} that was "
                               f"refused: {effect.detail}")
            elif isinstance(effect, Halted):
                d = effect.diagnosis
                who = ("this node" if d.seat is None
                       else f"party {d.seat} ({self.fingerprint(d.seat)})")
                self.diagnosis = f"{d.kind.name} at position {d.seq} by {who}: {d.detail}"
                self._note(d.seat, "halted", f"{d.kind.name} at position {d.seq}: {d.detail}")
                self.journal.halted(self.diagnosis)
                log.error("game halted: %s", self.diagnosis)
            elif isinstance(effect, Waiting):
                self._silence.log_waiting(effect.seats, effect.since_ms / 1000)
        if outgoing:
            await self.mesh.send_all(outgoing)
        if committed:
            await self._after_commit()

    def _hold_back(self, rejected: Rejected) -> str:
        """Our intent was refused: if it was a deck step, it is not sent again while the reason
        holds (`refused_steps.py`); what to add to the note that names the reason."""
        if self._submitted is None or self._submitted[0] != "deck" or self._deck_sent is None:
            return ""
        lasting = rejected.code in LASTING
        self._refused_step.refused(self._deck_sent, lasting, step_state(self.log.state))
        if lasting:
            return " — the same message stays refused, so it is not sent again"
        return " — not sent again until the deck step changes"

    def _find_races(self, commit: Committed[TableMachine]) -> None:
        """Which skipped intents of this entry were legal on the state they were made for
        (every intent of an entry is made for the entry's previous state): those lost a race
        to an earlier intent of the same entry, as throw-ins do; the others were illegal on
        their own, which only a misbehaving peer sends."""
        self._raced.clear()
        base = self._base
        self._base = (commit.seq, commit.state)
        if base is None or base[0] != commit.seq - 1:
            return
        machine = TableLogMachine()
        for outcome in commit.outcomes:
            if outcome.reject is None:
                continue
            item = outcome.item
            try:
                machine.precheck(base[1], item.seat, item.intent)
                machine.apply(base[1], item.seat, item.intent)
            except MachineReject:
                continue
            self._raced.add((item.seat, item.intent.counter))

    def _journal_own_entry(self, message: object, data: bytes) -> None:
        if (isinstance(message, Envelope) and message.author == self.identity.peer_id
                and isinstance(message.message, Entry)):
            self.journal.signed(data)
            self._note_ordered(message.message)

    # ---- watching the peers ------------------------------------------------------------------

    def _check_replay(self, item: Received) -> bool:
        """Name a peer that sends old messages again; True if the message may be an honest
        late retransmission instead (the log drops it; we do not call that a fault).

        The evidence is what the peer itself said on its current connection, which keeps
        order: a player acks positions in order, and once it has sent us its ack of position
        k it sends only what belongs to k or later — its ack and the entry in flight (at k or
        past it), a pending intent (based on k - 1 or later: one based on an older position
        went stale when it committed k - 1). An older entry or ack after that is a replay;
        so is an intent whose counter was used and that is based on an older position. What
        it sent before that ack is late, however old it is here: a link that stalled (a
        partition) delivers what it held when it heals, long after we learned the same
        positions through others' certificates. The log ignores or drops what is old either
        way; this only decides whom we name."""
        message = item.message
        if not isinstance(message, Envelope) or self.log.halted is not None:
            return False
        payload = message.message
        head = self.log.seq
        said = self._acked_here.get(item.party, 0)
        if isinstance(payload, Ack) and message.author == self.start.players[item.party].identity:
            self._acked_here[item.party] = max(said, payload.seq)
        if isinstance(payload, Entry):
            self._note_ordered(payload)
        if isinstance(payload, Entry | Ack) and 0 < payload.seq < head:
            if payload.seq >= said:
                return True
            what = type(payload).__name__.lower()
            self._note(item.party, "replay", f"sent an old {what} of position {payload.seq} "
                       f"after its own ack of position {said} (committed here up to {head})")
        elif (isinstance(payload, Intent) and 0 <= payload.seat < len(self.log.counters)
              and payload.counter <= self.log.counters[payload.seat]):
            return payload.based_on >= said - 1
        elif isinstance(payload, Intent) and message.digest in self._ordered:
            # its author re-sends it until the entry that ordered it commits: while that entry
            # waits for acks, the very same intent arrives again (a different intent with a used
            # counter would not be in an entry, and stays a fault)
            return True
        return False

    def _note_ordered(self, entry: Entry) -> None:
        """Remember which intents the recent entries ordered (by envelope digest)."""
        if len(self._ordered) > 512:
            floor = self.log.seq - 2
            self._ordered = {d: seq for d, seq in self._ordered.items() if seq >= floor}
        for data in entry.intents:
            self._ordered[codec.sha256(data)] = entry.seq

    def _on_disconnected(self, item: Disconnected) -> None:
        self._away.setdefault(item.party, trio.current_time())
        self._acked_here.pop(item.party, None)
        if item.reason.startswith(_ORDINARY_ENDS):
            self._note(item.party, "disconnected", item.reason, fault=False)
        elif item.reason.startswith("peer closed with"):
            self._note(item.party, "disconnected", f"hung up on us: {item.reason}", fault=False)
        elif any(marker in item.reason for marker in _UNATTRIBUTED):
            self._note(item.party, "channel", f"its channel broke (a bad frame: from it, or put "
                       f"on the way by someone between us) and was cut off: {item.reason}")
        else:
            self._note(item.party, "channel", f"broke the channel and was cut off: "
                       f"{item.reason}")

    def _heard(self, item: Received) -> None:
        """A party's intent for the current position (sent by it, or relayed: the envelope's
        signature proves the author) answers what it owed."""
        message = item.message
        if isinstance(message, Envelope) and isinstance(message.message, Intent):
            intent = message.message
            if (intent.based_on == self.log.seq and 0 <= intent.seat < len(self.start.players)
                    and self.start.players[intent.seat].identity == message.author):
                self._silence.answered(intent.seat)

    def _gone(self) -> dict[int, float]:
        """Parties that are away (disconnected) or silent (connected, but not answering what
        the table waits for), each with since when."""
        gone = self._silence.since()
        for party, since in self._away.items():
            gone[party] = min(since, gone.get(party, since))
        for party in self.log.state.left:  # it left on purpose: nobody waits for it
            gone.pop(party, None)
        return gone

    def waiting_on(self, due: Sequence[int]) -> tuple[int, ...]:
        """Whom the table waits for while a deck step is `due` from those parties: first the
        parties that keep it waiting (away, or silent: the grace period runs for them — also
        one whose ack the log lacks, when the parts due were sent but cannot commit without
        it), the longest waited for first, then the rest of `due`."""
        gone = self._gone()
        first = sorted(gone, key=lambda p: (gone[p], p))
        return tuple(first) + tuple(p for p in due if p not in gone)

    def away(self) -> dict[int, str]:
        """The parties without a link for `AWAY_NOTICE_SECONDS` or more, each with the reason
        (the link's last failure: "cannot connect to 10.0.0.7:4000: Connection refused")."""
        if self.finished.is_set():
            return {}  # (the links close at the end: nobody is awaited any more)
        now = trio.current_time()
        left = self.log.state.left
        return {party: self.mesh.why_away(party) or "not connected"
                for party, since in sorted(self._away.items())
                if now - since >= AWAY_NOTICE_SECONDS and party not in left}

    async def _tell_away(self) -> None:
        away = self.away()
        if away != self._told_away:
            for party, why in away.items():
                if self._told_away.get(party) != why:
                    log.warning("waiting for party %d (%s, %s): %s", party,
                                self.start.players[party].name, self.fingerprint(party), why)
            self._told_away = away
            await self.player.connections(away)

    def _check_grace(self) -> None:
        """A party that has stayed away, or silent, for the grace period blocks the game for
        good: no entry commits without its ack, no card moves without its deck step. End the
        game here with a verdict (every honest node reaches the same one on its own: each saw
        the party go, or waited for it in vain)."""
        gone = self._gone()
        if self.finished.is_set() or self.diagnosis is not None or not gone:
            return
        now = trio.current_time()
        party, since = min(gone.items(), key=lambda kv: (kv[1], kv[0]))
        # the same sum as `_next_tick`'s wake-up time: `now - since < grace` can round the
        # other way, and the ticker would then wake at the same instant for ever
        if now < since + self.timing.grace_seconds:
            return
        if self.log.state.vote_due():
            # after a game, before everyone chose: a party that went away stops the table (its
            # game ended cleanly; nobody plays the next one without it)
            self.stopped = (f"the table stopped: party {party} ({self.fingerprint(party)}) went "
                            f"away after game {self.log.state.game_number}")
            self._note(party, "left", self.stopped, fault=False)
            self.journal.finish(self._saved_transcript())
            self.finished.set()
            return
        if self._claim_abandoned(party, now):
            return  # the table decides: every other party's node claims it too, or the verdict
        what = "return" if party in self._away else "answer"
        self.verdict = (f"abandoned: party {party} ({self.fingerprint(party)}) did not {what} "
                        f"within {self.timing.grace_seconds:g} s at position {self.log.seq}")
        self.diagnosis = self.verdict
        self.abandoned = (party, what, self.timing.grace_seconds)
        # the verdict is the same on every node; why the link is down is this node's own view
        why = f" ({self.mesh.why_away(party)})" if party in self._away else ""
        self._note(party, "abandoned", self.verdict + why, fault=False)
        self.journal.verdict(self.verdict, self._saved_transcript())
        log.error("game ended: %s%s", self.verdict, why)

    def _claim_abandoned(self, party: int, now: float) -> bool:
        """Claim that `party` abandoned the game, where the committed log says the table waits
        for it (docs/protocol.md §10.12): it forfeits once every other party's node claims it
        too. True while the claim stands a chance: sent now, or sent less than a grace period
        ago (the others' clocks started when they saw the table wait for it, not all at once);
        False where the log cannot tell (the table waits on an ack, on several parties, or on
        this node itself): the grace period's verdict ends the game here, with no result."""
        claimed = self._claimed.get(party)
        if claimed is not None:
            return now < claimed + self.timing.grace_seconds
        table = self.log.state
        if (self.log.own_pending is not None or self.log.recovering
                or self.log.next_state is not None):  # an entry waits for acks: whose?
            return False
        try:
            payload = table.abandon(party)
        except TableReject:
            return False
        self._claimed[party] = now
        self._note(party, "abandoned", f"no answer within {self.timing.grace_seconds:g} s at "
                   f"position {self.log.seq}: this node claims it abandoned the game (it "
                   "forfeits once every other party claims it too)", fault=False)
        # (not from `_handle`'s effects: carried out by the caller right after, like a tick's)
        self._abandon_effects = list(self._submit(payload, "abandon"))
        return bool(self._abandon_effects) or self.log.own_pending is not None

    def _saved_transcript(self) -> bytes | None:
        try:
            return self.log.transcript().save()
        except LocalProtocolError:  # caught up over the last position: no certificate here
            return None

    # ---- the turn timer ---------------------------------------------------------------------

    def _vote_seconds(self) -> float:
        """How long a player has to choose whether to play on after a game: the turn timer,
        or without one the grace period (a person may think, not hold the table for ever)."""
        return self.timing.turn_seconds if self.timing.turn_seconds > 0 \
            else self.timing.grace_seconds

    def _start_clock(self, table: TableMachine) -> None:
        """After every commit: whose move (or choice after the game) it is now, and until when
        (every node keeps the clock for the display; each times only its own seat)."""
        self.clock = None
        voters = table.vote_due()
        if voters:
            # one clock for the choice, from when it became due here (a vote that commits
            # does not give the others more time)
            if self._vote_clock is None or self._vote_clock[0] != table.game_number:
                self._vote_clock = (table.game_number,
                                    trio.current_time() + self._vote_seconds())
            self.clock = TurnClock(voters, self._vote_clock[1])
            return
        if self.timing.turn_seconds <= 0 or table.state is None or table.deck_due():
            return
        if table.audit is not None or table.state.result is not None:
            return
        parties = table.waiting_for()
        if parties:
            self.clock = TurnClock(parties, trio.current_time() + self.timing.turn_seconds)

    def _check_turn_timer(self) -> Sequence[object]:
        ends = self._turn_ends
        if ends is None or trio.current_time() < ends:
            return []
        self._turn_ends = None
        stand_in = self._stand_in.bot if self._stand_in is not None else None
        if (stand_in is None or self._turn_seq != self.log.seq or self.log.own_pending is not None
                or self.log.recovering or self.party not in self.log.state.waiting_for()):
            return []
        if self.timing.on_timeout == "lose":
            action = concede(self.log.state.my_seat)
            self._note(None, "timeout", f"no move within {self.timing.turn_seconds:g} s: this "
                       "seat loses the game on time", fault=False)
        else:
            action = bot_move(stand_in, self.log.state.legal())
            self._note(None, "timeout", f"no move within {self.timing.turn_seconds:g} s: a bot "
                       f"plays {action.describe()}", fault=False)
        return self._submit_move(_Move(self.log.seq, action))

    def _check_vote_timer(self) -> Sequence[object]:
        """Our player has not chosen whether to play on in time: the node stops for it (the
        table stops), and says so in the vote itself, which every node and the transcript
        keep."""
        ends = self._vote_ends
        if ends is None or trio.current_time() < ends:
            return []
        self._vote_ends = None
        table = self.log.state
        if (self.party not in table.vote_due() or self.log.own_pending is not None
                or self.log.recovering):
            return []
        self._note(None, "timeout", f"no choice within {self._vote_seconds():g} s after game "
                   f"{table.game_number}: this party stops, and the table with it", fault=False)
        return self._submit(table.vote(False, timed_out=True), "vote")

    # ---- what this party does next ----------------------------------------------------------

    async def _after_commit(self) -> None:
        if self._submitted is not None and self.log.own_pending is None:
            kind, since = self._submitted
            self.latencies[kind].append(trio.current_time() - since)
            self._submitted = None
        table = self.log.state
        events = table.history[self._told:]
        self._told = len(table.history)
        for party, step, why in table.undone[self._undone_told:]:
            self._note(party, "refused", f"its shuffle of step {step!r} was skipped in entry "
                       f"{self.log.seq}: {why} (found when the step's shuffles were checked "
                       "together: it and the shuffles made on it are undone, and due again)")
        self._undone_told = len(table.undone)
        for party, why in table.voided[self._voided_told:]:
            detail = (f"its move was void in entry {self.log.seq}: {why} (its cards, opened "
                      "after the move was committed, do not make it legal)")
            if party == self.party:
                self._note(None, "own", f"our {detail}", fault=False)
            else:
                self._note(party, "refused", detail)
        self._voided_told = len(table.voided)
        # a shuffle or a deal advancing by one party commits no table event, but the player
        # is told too: the screen shows the step's progress (k/n)
        progress = deck_progress(table)
        # a vote commits no table event either, but a player who stopped may go once his
        # vote is in (the series waits on the others' votes)
        votes = len(table.votes)
        if events or progress != self._progress_told or votes != self._votes_told:
            self._progress_told = progress
            self._votes_told = votes
            if self._stand_in is not None:
                self._stand_in.update(table, events)
            await self.player.update(table, events)
        self._start_clock(table)
        clock = self.clock
        leaver = table.leave_due()  # a leave step is owed like a deck step
        steps = table.deck_due() + (() if leaver is None else (leaver,))
        self._silence.table_owes(steps, clock.parties if clock is not None else (),
                                 trio.current_time(),
                                 clock.ends_at if clock is not None else None)
        if table.series_over:
            if not self.finished.is_set():
                self.journal.finish(self.log.transcript().save())
                self.finished.set()
                await self._index_transcript(table)
            return
        if self.party in table.left:  # our leave is committed: the rest play on without us
            if not self.finished.is_set():
                self.journal.finish(self._saved_transcript())
                self.finished.set()
                await self._index_transcript(table)
            return
        if table.audit is not None and self._games_saved < table.game_number:
            # the game is over and audited: its transcript (with the series before it) is kept
            # at once, whatever the players choose next
            self._games_saved = table.game_number
            self.journal.keep_transcript(self.log.transcript().save())
            await self._index_transcript(table)
        if self.log.own_pending is not None or self.log.recovering:
            return
        self.leaving = self.leaving or self.player.leaving(table)
        if self.leaving and table.owed() is None:
            await self._carry_out(self._leave_step(table))
            return
        if self.party in table.vote_due() and self._asked_next < table.game_number:
            self._asked_next = table.game_number
            clock = self.clock
            self._vote_ends = clock.ends_at if clock is not None else None
            await self.player.after_game(table, self)
            return
        owed = table.owed()
        if owed is not None:
            msg = table.deck.owed()
            if msg is not None:  # else an announcement (невидимый), derived again on restart
                # Durable before it is sent (a restarted node must send the same message
                # again); usually journaled already, while the last entry waited for its acks.
                await self._journal_made(msg, table.deck.coin_secret(msg.step))
            await self._carry_out(self._submit(owed, "deck"))
            return
        legal = table.legal()
        if legal and self.party in table.waiting_for() and self._turn_seq != self.log.seq:
            self._turn_seq = self.log.seq
            if self.clock is not None:
                self._turn_ends = self.clock.ends_at
            await self.player.turn(Turn(self.log.seq, table, legal), self)

    async def _index_transcript(self, table: TableMachine) -> None:
        """The transcript was saved: the history of the evening indexes its finished games
        (off the event loop; a database that cannot be written is logged, never fatal: the
        transcript is the record, and `durak history` indexes it later)."""
        home = self.home
        transcript = self.journal.folder / TRANSCRIPT_FILE
        if home is None or not transcript.exists():
            return
        history = table.history
        try:
            # shielded: the table has stopped (`finished`), and whoever waited for that may be
            # cancelling this node already; the write takes milliseconds
            with trio.CancelScope(shield=True):
                await offload.run_sync(lambda: record_network(
                    home, table_id=self.start.game_id.hex(), table_name=self.start.table_name,
                    rules=self.start.rules, players=self.start.players, history=history,
                    transcript=transcript))
        except (OSError, sqlite3.Error) as exc:
            log.warning("the history did not index %s: %s", transcript, exc)

    def _prepare_next(self) -> None:
        """While an entry waits for the other parties' acks, make the deck message this party
        will owe once it commits, and journal it in the background: the proof (a shuffle's is
        the largest) and the fsync before sending it are then off the step's critical path. The
        deck party makes a step's message once, so the one sent after the commit is this one."""
        upcoming = self.log.next_state
        if upcoming is None or self._prepared == self.log.seq + 1 or self.log.recovering:
            return
        self._prepared = self.log.seq + 1
        if upcoming.audit is not None:
            return
        msg = upcoming.deck.owed()
        if msg is not None and self._nursery is not None:
            self._nursery.start_soon(self._journal_made, msg, upcoming.deck.coin_secret(msg.step))

    async def _journal_made(self, msg: DeckMessage, coin: bytes) -> None:
        async with self._made_lock:  # one writer: the message is journaled once
            if not self.journal.has_made(msg):
                await offload.run_sync(lambda: self.journal.record_made(msg, coin))

    def _submit(self, payload: bytes, kind: str) -> Sequence[object]:
        if kind == "deck":
            if self._refused_step.held_back(payload, step_state(self.log.state)):
                return []  # refused as it stands (named once): not sent after every entry
            self._deck_sent = payload
        try:
            _, effects = self.log.submit(payload, self._now())
        except LocalProtocolError as exc:
            held = ""
            if kind == "deck" and str(exc).startswith("refused"):  # not: pending, recovering
                self._refused_step.refused(payload, False, step_state(self.log.state))
                held = " (not sent again until the deck step changes)"
            self._note(None, "own", f"could not submit: {exc}{held}", fault=False)
            return []
        self._submitted = (kind, trio.current_time())
        self._made_for = self.log.seq if kind == "move" else -1
        return effects

    def _leave_step(self, table: TableMachine) -> Sequence[object]:
        """What a leaving party does now: leave (between bouts), concede (two at the table),
        stop the table (after a game), or finish the bout with its quickest legal move."""
        state = table.state
        if state is None:
            return []  # before the deal: nothing to open yet; it leaves once dealt
        if table.audit is not None:
            return self._submit(table.vote(False), "vote") if self.party in \
                table.vote_due() else []
        seat = table.my_seat
        if table.leave_concedes() or self._leave_tries > LEAVE_TRIES:
            if state.phase != eng.Phase.OVER and not (state.out >> seat) & 1 \
                    and table.deck.pending_op() is None:
                return self._submit_move(_Move(self.log.seq, concede(seat)))
            return []
        try:
            if self.party not in table.leaving:
                return self._submit(table.announce_leave(), "leave")
            if table.leave_due() == self.party:
                self._leave_tries += 1  # a leave the others refuse (it should not happen)
                return self._submit(table.leave(), "leave")  # ends in a concession
        except TableReject as exc:
            self._note(None, "own", f"could not leave: {exc}", fault=False)
            return []
        legal = table.legal()
        if legal and self.party in table.waiting_for():
            quick = next((a for a in legal if a.kind in (A.TAKE, A.PASS)), legal[0])
            return self._submit_move(_Move(self.log.seq, quick))
        return []

    def _submit_vote(self, vote: _Vote) -> Sequence[object]:
        table = self.log.state
        if (vote.game_number != table.game_number or self.log.own_pending is not None
                or self.party not in table.vote_due()):
            return []  # chosen too late (the table stopped), or chosen already
        self._vote_ends = None
        return self._submit(table.vote(vote.play_on), "vote")

    def _submit_move(self, move: _Move) -> Sequence[object]:
        if move.seq != self.log.seq or self.log.own_pending is not None:
            return []  # decided on a table that has changed since: the player is asked again
        try:
            payload = self.log.state.play(move.action)
        except (TableReject, eng.IllegalAction) as exc:
            self._note(None, "own", f"our move was refused: {exc}", fault=False)
            self._turn_seq = -1
            return []
        return self._submit(payload, "move")


def game_dir(home: Path, game_id: bytes) -> Path:
    return home / "games" / game_id.hex()
