"""The ordered game log, sans-IO: one total order of intents, agreed by every player.

One `OrderingLog` per player and game. Inputs are method calls — `submit` (this player's intent),
`receive` (bytes or a decoded message from a peer), `tick` (time passes), `peer_connected` /
`peer_disconnected` — and each returns the effects (`log_effects`) the node must carry out, in
order. Time is always an argument (`now_ms`); nothing here reads a clock or touches a socket.

Rules of this file (the chain rules R1-R6 live in `log_chain.py`; the spec is docs/protocol.md
§ 10):

L1. Stop-and-wait: the sequencer of the committed state orders entry ``seq + 1`` only once ``seq``
    is committed, so at most one entry is in flight and nothing is ever rolled back.
L2. Every player validates the entry (R2-R6), broadcasts ``Ack(seq, entry_hash, state_hash)``,
    and commits when it holds every player's ack with the same two hashes.
L3. Fairness: when several seats may act, the sequencer waits `window_ms` after the first live
    intent (unless every actor has one in) and orders what it holds by rule R5. When every one
    of them must act (`machine.gathers`: a step each owes, not a race) it waits `gather_ms`
    instead, so that the step takes one entry, counted from when the last of them connected if
    that is later (a party sends nothing before its link is up).
L4. Proofs halt: two signed entries (or acks) for one position halt with EQUIVOCATION, an ack
    with another state hash with DIVERGENCE, a signed entry that breaks R2-R6 with
    INVALID_ENTRY. The halting peer broadcasts its evidence, and sends it again to any player
    still talking to it, so that every honest peer halts with the same diagnosis. A halted peer
    still answers catch-up requests, and shows a player stuck on its last position that
    entry's certificate, each followed by the evidence: a player behind the evidence's
    position could not check it otherwise, and would wait silently.
L5. Timing halts (sound while every message between live peers arrives within the delivery bound
    D, retransmissions included; ``omit_ms >= 2D`` and ``censor_ms >= window_ms + resend_ms +
    3D``): a live intent the sequencer leaves out of the next entry although this peer held it
    `omit_ms` before that entry, or does not order at all for `censor_ms`, is CENSORSHIP; an ack
    for an entry hash nobody shows within `censor_ms` is BOGUS_ACK.
L6. Retransmission: while something is outstanding, every `resend_ms` the author re-broadcasts
    its pending intent, peers relay live intents to the sequencer, each player re-broadcasts its
    ack of the entry in flight and forwards that entry to players whose ack it lacks; a peer that
    sees a player stuck on a position it has committed sends it the entry and its certificate.
    When a peer's link comes (back) up, it is sent the author's pending intent, and the ack and
    entry in flight, at once.
L7. Catch-up: a peer that is behind asks for committed entries, replays them through the chain
    rules into a scratch head, and commits them only when a certificate (every player's ack of the
    last one) proves they were committed.
L8. Own intents: one pending intent per player. If it goes stale without being ordered, the log
    re-issues it against the new state when it is still legal there, and reports it rejected
    otherwise.
L9. Left-out intents: a peer's precheck may know more than another's (a player knows its own
    hand), so the sequencer may refuse an intent that another player's precheck let through and
    leave it out. A player's intent that goes stale without being ordered is therefore judged in
    full (`precheck`, then `apply`) against the position it names, while that is one of the
    last `RECENT_POSITIONS` committed (it may arrive late, or the player may have caught up over
    it): refused there, it is reported rejected on every honest peer;
    legal there (it lost a race), it is dropped silently. Likewise, before a live intent makes
    the sequencer a censor (rule L5), it is judged in full: refused, it is reported rejected and
    dropped, and the sequencer is not blamed.
L10. Restart: a player that restarts mid-game runs in recovery (rule L7 from every other
    player, and nothing signed until each has answered). Before its answer a player sends the
    requester the intents by it that it holds, and, when it has no entry to send, its entry in
    flight: a restarted player whose journal lost what it signed last (a power cut) thus learns
    its own pending intent (and, still in recovery, takes it up again instead of signing
    another one with its counter) and the entry it signed (and acks it instead of ordering
    another one).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Final, Generic, NoReturn

from p2p_durak.protocol import codec
from p2p_durak.protocol.envelope import Envelope, decode_envelope
from p2p_durak.protocol.errors import LocalProtocolError, RemoteProtocolError
from p2p_durak.protocol.identity import Identity
from p2p_durak.protocol.log_chain import (
    CertificateError,
    EntryFault,
    Fit,
    Genesis,
    Head,
    Item,
    ItemError,
    Step,
    check_certificate,
    check_entry,
    fairness_key,
    intent_fit,
    read_item,
)
from p2p_durak.protocol.log_effects import (
    Broadcast,
    Committed,
    Diagnosis,
    DiagnosisKind,
    Dropped,
    Effect,
    Halted,
    Rejected,
    SendTo,
    Waiting,
)
from p2p_durak.protocol.machine import Machine, MachineReject, S, members
from p2p_durak.protocol.messages import (
    MAX_CATCH_UP_ENTRIES,
    MAX_FAIRNESS_WINDOW_MS,
    MAX_INTENTS_PER_ENTRY,
    Ack,
    CatchUpRequest,
    CatchUpResponse,
    Entry,
    FairnessWindow,
    Intent,
    IntentId,
    Message,
    Reject,
    RejectCode,
    Start,
    catalogue,
    decode_message,
)
from p2p_durak.protocol.transcript import Transcript, audit

LOG_MESSAGES: Final = catalogue(Envelope, CatchUpRequest, CatchUpResponse)
"""What `OrderingLog.receive` accepts."""

MAX_ENTRY_BYTES: Final = codec.MAX_MESSAGE_SIZE - 8192
"""An entry envelope must leave room for a certificate when it travels in a catch-up response."""
_ENTRY_OVERHEAD: Final = 512
_ITEM_OVERHEAD: Final = 5
_RESPONSE_OVERHEAD: Final = 128
MAX_PENDING_PER_AUTHOR: Final = 4
"""Pending intents held per author: one is normal, a few cover re-issues in flight."""
MAX_SCRATCH: Final = 1 << 16
"""Uncertified entries a catching-up peer holds before it gives up on a responder."""
RECENT_POSITIONS: Final = 16
"""Committed positions a player keeps to judge a late intent where it was made (rule L9)."""
_CACHE_SIZE: Final = 4096


@dataclass(frozen=True, slots=True)
class LogConfig:
    """Timing of the log, in milliseconds (see rules L3, L5, L6 for what the bounds must be)."""

    window_ms: int = 50
    resend_ms: int = 250
    omit_ms: int = 2_000
    censor_ms: int = 5_000
    notice_ms: int = 500
    gather_ms: int | None = None  # None: as `window_ms`

    def __post_init__(self) -> None:
        if not 0 <= self.window_ms <= MAX_FAIRNESS_WINDOW_MS:
            raise LocalProtocolError(f"window_ms must be in [0, {MAX_FAIRNESS_WINDOW_MS}]")
        if not 0 <= self.gather_wait <= MAX_FAIRNESS_WINDOW_MS:
            raise LocalProtocolError(f"gather_ms must be in [0, {MAX_FAIRNESS_WINDOW_MS}]")
        if self.resend_ms <= 0 or self.notice_ms < 0:
            raise LocalProtocolError("resend_ms must be positive and notice_ms not negative")
        if self.omit_ms < 2 * self.resend_ms:
            raise LocalProtocolError("omit_ms must cover at least two retransmissions")
        longest = max(self.window_ms, self.gather_wait)
        if self.censor_ms < longest + 2 * self.resend_ms or self.censor_ms < self.omit_ms:
            raise LocalProtocolError("censor_ms must exceed the window, two resends and omit_ms")

    @property
    def gather_wait(self) -> int:
        return self.window_ms if self.gather_ms is None else self.gather_ms


class _Stop(Exception):
    """Unwinds an input method after `Halted` was emitted."""


class EnvelopeCache:
    """Verified envelopes by their exact bytes, so a signature is checked once.

    Each log has its own; logs of several players hosted in one process (a local table with
    bots, the tests) may share one, since a verified envelope is verified for everyone.
    """

    def __init__(self, size: int = _CACHE_SIZE) -> None:
        self._size = size
        self._map: dict[bytes, Envelope] = {}

    def open(self, data: bytes) -> Envelope:
        envelope = self._map.get(data)
        if envelope is None:
            envelope = decode_envelope(data)
            self.put(data, envelope)
        return envelope

    def get(self, data: bytes) -> Envelope | None:
        return self._map.get(data)

    def put(self, data: bytes, envelope: Envelope) -> None:
        if len(self._map) >= self._size:
            del self._map[next(iter(self._map))]
        self._map[data] = envelope


@dataclass(slots=True, eq=False)
class _Pending:
    item: Item
    received_ms: int
    own: bool
    live: bool = False  # fits the committed head and passes the machine's precheck
    sent_ms: int = 0


@dataclass(slots=True, eq=False)
class _Flight(Generic[S]):
    step: Step[S]
    received_ms: int
    ack: Envelope
    ack_data: bytes
    acks: dict[int, bytes]
    sent_ms: int


@dataclass(slots=True)
class _CatchUp:
    peer: int
    sent_ms: int


@dataclass(slots=True)
class _Future:
    from_seat: int
    envelope: Envelope
    data: bytes
    received_ms: int


@dataclass(frozen=True, slots=True)
class _KnownEntry:
    entry: Entry
    data: bytes


@dataclass(slots=True)
class _Suspect:
    data: bytes
    payload: bytes
    since_ms: int


@dataclass(slots=True)
class _Clock:
    committed_ms: int
    connected: list[int | None]
    reported: tuple[frozenset[int], int] = (frozenset(), 0)
    sync_sent_ms: int = 0
    cert_sent: dict[int, int] = field(default_factory=dict)
    evidence_sent: dict[int, int] = field(default_factory=dict)


class OrderingLog(Generic[S]):
    """One player's copy of a game's ordered log (see the module docstring)."""

    def __init__(
        self,
        identity: Identity,
        start: Envelope | bytes,
        machine: Machine[S],
        initial_state: S,
        *,
        config: LogConfig | None = None,
        now_ms: int = 0,
        recovering: bool = False,
        cache: EnvelopeCache | None = None,
    ) -> None:
        """`start` is the signed `Start` (genesis); `initial_state` the machine's state before
        entry 1. `recovering=True` for a node that restarts mid-game: it neither orders entries
        nor accepts intents until every other player has answered its catch-up request."""
        self._g = Genesis.open(start)
        seat = self._g.seat_of(identity.peer_id)
        if seat is None:
            raise LocalProtocolError(f"{identity} is not seated in this game")
        self.seat: Final = seat
        self._identity = identity
        self._machine = machine
        self._cfg = config or LogConfig()
        n = self._g.n
        self._head: Head[S] = Head(
            0, self._g.hash, initial_state, machine.state_hash(initial_state), (0,) * n
        )
        self._entries: list[bytes] = []
        self._certs: dict[int, tuple[bytes, ...]] = {}
        self._cache = cache if cache is not None else EnvelopeCache()
        self._cache.put(self._g.data, self._g.envelope)
        self._pool: dict[bytes, _Pending] = {}
        self._flight: _Flight[S] | None = None
        self._early: dict[int, dict[int, tuple[Envelope, bytes]]] = {}
        self._suspects: dict[int, _Suspect] = {}
        self._future: _Future | None = None
        self._scratch: list[Step[S]] = []
        self._catch_up: _CatchUp | None = None
        self._sync_needed = {s for s in range(n) if s != seat} if recovering else set()
        self._clock = _Clock(now_ms, [now_ms] * n)
        self._halted: Diagnosis | None = None
        self._signed: bytes | None = None  # the last entry this player signed
        # the heads before the last commits, to judge a late intent where it was made (rule L9)
        self._recent: deque[Head[S]] = deque(maxlen=RECENT_POSITIONS)

    @classmethod
    def resume(
        cls,
        identity: Identity,
        transcript: Transcript,
        machine: Machine[S],
        initial_state: S,
        *,
        config: LogConfig | None = None,
        now_ms: int = 0,
        signed_entry: bytes | None = None,
        cache: EnvelopeCache | None = None,
    ) -> OrderingLog[S]:
        """A restarted node's log from its journal, in recovery: the committed `transcript`
        and `signed_entry`, the last entry it signed (`OrderingLog.signed_entry` when it
        journaled). A sequencer that restarted re-sends that entry rather than signing another
        one for the same position, which its peers would rightly call equivocation."""
        report = audit(transcript, machine, initial_state)
        log = cls(
            identity, transcript.start, machine, initial_state,
            config=config, now_ms=now_ms, recovering=True, cache=cache,
        )
        log._head = report.head
        log._sync_needed &= set(log._members(report.head.state))  # not those who left
        log._entries = list(transcript.entries)
        if report.head.seq:
            log._certs[report.head.seq] = report.certificate
        log._signed = signed_entry
        return log

    # ---- queries ------------------------------------------------------------------------------

    @property
    def seq(self) -> int:
        """The last committed position (0: only the genesis)."""
        return self._head.seq

    @property
    def state(self) -> S:
        """The committed state."""
        return self._head.state

    @property
    def state_hash(self) -> bytes:
        return self._head.state_hash

    @property
    def head_hash(self) -> bytes:
        return self._head.hash

    @property
    def genesis(self) -> Genesis:
        return self._g

    @property
    def counters(self) -> tuple[int, ...]:
        """Per seat, the counter of its last intent in the committed log (0: none yet)."""
        return self._head.counters

    @property
    def halted(self) -> Diagnosis | None:
        return self._halted

    @property
    def recovering(self) -> bool:
        return bool(self._sync_needed)

    @property
    def n_players(self) -> int:
        return self._g.n

    @property
    def game(self) -> bytes:
        return self._g.game

    @property
    def own_pending(self) -> IntentId | None:
        """This player's intent that is neither committed nor rejected yet."""
        for pending in self._pool.values():
            if pending.own:
                return pending.item.intent_id
        return None

    @property
    def next_state(self) -> S | None:
        """The state after the entry in flight, which this player has validated and acked but
        which is not committed yet (None: no entry in flight). What this player will owe there
        can be prepared while the other acks arrive."""
        flight = self._flight
        return None if flight is None else flight.step.head.state

    @property
    def signed_entry(self) -> bytes | None:
        """The last entry this player signed as sequencer: a node journals it (with the
        transcript) before sending it, and gives it back to `resume` after a crash."""
        return self._signed

    def entry_bytes(self, seq: int) -> bytes:
        """The committed entry envelope at `seq` (1-based), as signed."""
        return self._entries[seq - 1]

    def transcript(self, seq: int | None = None) -> Transcript:
        """The committed log up to `seq` (default: all of it): genesis, entries, and the
        certificate of the last one. `LocalProtocolError` if this log holds no certificate for
        `seq` (a position it caught up over)."""
        seq = self._head.seq if seq is None else seq
        if not 0 <= seq <= self._head.seq:
            raise LocalProtocolError(f"position {seq} is not committed here")
        cert = self._certs.get(seq, ())
        if seq and not cert:
            raise LocalProtocolError(f"no certificate of position {seq} here")
        return Transcript(self._g.data, tuple(self._entries[:seq]), cert)

    def certificate(self, seq: int) -> tuple[bytes, ...]:
        """The certificate (every member's ack) of committed position `seq`, or () where this
        log holds none (a position it caught up over, or 0)."""
        return self._certs.get(seq, ())

    def certified(self) -> tuple[int, ...]:
        """The positions whose certificate this log holds (0, the genesis, always)."""
        return (0, *sorted(self._certs))

    def next_deadline(self) -> int | None:
        """The earliest time at which `tick` has something to do (None: nothing pending)."""
        if self._halted is not None:
            return None
        cfg = self._cfg
        times: list[int] = [s.since_ms + cfg.censor_ms for s in self._suspects.values()]
        flight = self._flight
        if flight is not None:
            times.append(flight.sent_ms + cfg.resend_ms)
        for pending in self._pool.values():
            times.append(pending.sent_ms + cfg.resend_ms)
        if self._catch_up is not None:
            times.append(self._catch_up.sent_ms + 2 * cfg.resend_ms)
        if self._sync_needed:
            times.append(self._clock.sync_sent_ms + cfg.resend_ms)
        window = self._window_closes()
        if window is not None:
            times.append(window)
        if flight is None:
            due = self._censor_due()
            if due is not None:
                times.append(due + cfg.censor_ms)
        seats, since = self._blocked_on()
        if seats and (seats, since) != self._clock.reported:
            times.append(since + cfg.notice_ms)
        elif not seats and self._clock.reported[0]:
            times.append(0)
        return min(times) if times else None

    # ---- inputs -------------------------------------------------------------------------------

    def submit(self, action: bytes, now_ms: int) -> tuple[IntentId, list[Effect[S]]]:
        """Sign and broadcast this player's intent for the committed state.

        Raises `LocalProtocolError` if the log has halted or is recovering, if another intent of
        this player is pending, or if the machine refuses the intent here.
        """
        if self._halted is not None:
            raise LocalProtocolError("the log has halted")
        if self._sync_needed:
            raise LocalProtocolError("the log is recovering: wait until it has caught up")
        own = self.own_pending
        if own is not None:
            raise LocalProtocolError(f"intent {own.seat}/{own.counter} is still pending")
        head = self._head
        intent = Intent(self._g.game, self.seat, head.counters[self.seat] + 1, head.seq, action)
        try:
            self._machine.precheck(head.state, self.seat, intent)
        except MachineReject as reject:
            raise LocalProtocolError(f"refused: {reject}") from reject
        out: list[Effect[S]] = []
        try:
            self._issue(intent, now_ms, out)
            self._progress(now_ms, out)
        except _Stop:
            pass
        return intent.intent_id, out

    def receive(self, from_seat: int, data: bytes | Message, now_ms: int) -> list[Effect[S]]:
        """A message from the player in `from_seat` (whose channel is authenticated): envelope
        bytes, a `CatchUpRequest`/`CatchUpResponse`, or any of them already decoded."""
        self._check_peer(from_seat)
        out: list[Effect[S]] = []
        if self._halted is not None:
            self._serve_halted(from_seat, data, now_ms, out)
            return out
        try:
            message, raw = self._decode(data)
        except RemoteProtocolError as exc:
            return [Dropped(from_seat, None, exc.reason)]
        try:
            if isinstance(message, Envelope):
                self._on_envelope(from_seat, message, raw, now_ms, out)
            elif isinstance(message, CatchUpRequest):
                self._on_catch_up_request(from_seat, message, now_ms, out)
            else:
                assert isinstance(message, CatchUpResponse)
                self._on_catch_up_response(from_seat, message, now_ms, out)
            self._progress(now_ms, out)
        except _Stop:
            pass
        return out

    def tick(self, now_ms: int) -> list[Effect[S]]:
        """Time has passed: close windows, retransmit, check timing faults, report waits."""
        out: list[Effect[S]] = []
        if self._halted is not None:
            return out
        try:
            self._check_timing(now_ms, out)
            self._progress(now_ms, out)
            self._retransmit(now_ms, out)
            self._report_waiting(now_ms, out)
        except _Stop:
            pass
        return out

    def peer_connected(self, seat: int, now_ms: int) -> list[Effect[S]]:
        """The channel to `seat` is (again) open."""
        self._check_peer(seat)
        self._clock.connected[seat] = now_ms
        out: list[Effect[S]] = []
        if self._halted is None and seat in self._sync_needed:
            self._send(seat, CatchUpRequest(self._g.game, self._tip().seq + 1), out)
        elif self._halted is None:
            # Rule L6 at once for this peer rather than at the next resend: what we sent while
            # its link was down (at a game's start the links come up one by one, and a step
            # submitted before then would otherwise wait `resend_ms`).
            for pending in self._pool.values():
                if pending.own:
                    self._send_data(seat, pending.item.envelope, pending.item.data, out)
            flight = self._flight
            if flight is not None:
                self._send_data(seat, flight.ack, flight.ack_data, out)
                if seat not in flight.acks:
                    self._send_data(seat, flight.step.envelope, flight.step.data, out)
        return out

    def peer_disconnected(self, seat: int, now_ms: int) -> list[Effect[S]]:
        """The channel to `seat` is gone; timing checks against it pause."""
        self._check_peer(seat)
        self._clock.connected[seat] = None
        return []

    # ---- decoding and dispatch -------------------------------------------------------------------

    def _check_peer(self, seat: int) -> None:
        if not 0 <= seat < self._g.n or seat == self.seat:
            raise LocalProtocolError(f"seat {seat} is not another player of this game")

    def _decode(self, data: bytes | Message) -> tuple[Message, bytes]:
        if isinstance(data, Message):
            if not isinstance(data, (Envelope, CatchUpRequest, CatchUpResponse)):
                raise RemoteProtocolError(f"{type(data).__name__} is not a log message")
            raw = data.encode()
            if isinstance(data, Envelope) and self._cache.get(raw) is None:
                self._cache.put(raw, data)
            return data, raw
        envelope = self._cache.get(data)
        if envelope is not None:
            return envelope, data
        message = decode_message(data, LOG_MESSAGES)
        if isinstance(message, Envelope):
            self._cache.put(data, message)
        return message, data

    def _on_envelope(
        self, from_seat: int, envelope: Envelope, raw: bytes, now: int, out: list[Effect[S]]
    ) -> None:
        author = self._g.seat_of(envelope.author)
        if author is None:
            out.append(Dropped(from_seat, None, f"envelope by {envelope.author}, not a player"))
            return
        if envelope.game != self._g.game:
            out.append(Dropped(from_seat, author, "envelope for another game"))
            return
        message = envelope.message
        if isinstance(message, Intent):
            self._on_intent(from_seat, envelope, raw, now, out)
        elif isinstance(message, Entry):
            self._on_entry(from_seat, author, envelope, raw, now, out)
        elif isinstance(message, Ack):
            self._on_ack(from_seat, author, envelope, message, raw, now, out)
        elif isinstance(message, Start):
            if raw != self._g.data:
                out.append(Dropped(from_seat, author, "a second Start for this game"))
        elif not isinstance(message, Reject):  # Reject is advisory: this log never needs one
            out.append(Dropped(from_seat, author, f"{type(message).__name__} is not a log item"))

    # ---- intents --------------------------------------------------------------------------------

    def _on_intent(
        self, from_seat: int, envelope: Envelope, raw: bytes, now: int, out: list[Effect[S]]
    ) -> None:
        try:
            item = read_item(self._g, envelope, raw)
        except ItemError as exc:
            out.append(Dropped(from_seat, self._g.seat_of(envelope.author), exc.reason))
            return
        if item.digest in self._pool:
            return  # a duplicate, or our own intent echoed back
        fit = intent_fit(self._head, item)
        if item.seat == self.seat:
            self._adopt(item, fit, now, out)
            return
        if fit in (Fit.REPLAY, Fit.GAP):
            intent = item.intent
            out.append(Dropped(
                from_seat, item.seat,
                f"intent {item.seat}/{intent.counter} based on {intent.based_on}: {fit.value}",
            ))
            return
        if fit is Fit.STALE:
            # Overtaken by a commit while on its way: normal, and harmless when it was legal.
            self._judge_left_out(item, out)
            return
        if item.intent.based_on > self._head.seq + 1:
            self._request_catch_up(from_seat, now, out)  # its author is two entries ahead
        held = sum(1 for p in self._pool.values() if p.item.seat == item.seat)
        if held >= MAX_PENDING_PER_AUTHOR:
            out.append(Dropped(from_seat, item.seat, f"seat {item.seat} has {held} intents "
                                                     "pending already"))
            return
        pending = _Pending(item, now, own=False, sent_ms=now)
        if self._judge(pending, now, out):
            self._pool[item.digest] = pending

    def _adopt(self, item: Item, fit: Fit, now: int, out: list[Effect[S]]) -> None:
        """Rule L10: in recovery, an intent we signed that we do not hold — one a peer held
        for us while we restarted — is our pending intent again, when we have none and it can
        still be ordered. Signing another one with its counter would give the table two
        different intents of ours for one position. (Otherwise an intent of ours we do not hold
        is one we gave up: stale, re-issued or refused.)"""
        if (not self._sync_needed or self.own_pending is not None
                or fit not in (Fit.FITS, Fit.FUTURE)):
            return
        pending = _Pending(item, now, own=True, sent_ms=now)
        if self._judge(pending, now, out):
            self._pool[item.digest] = pending

    def _issue(self, intent: Intent, now: int, out: list[Effect[S]]) -> None:
        envelope = Envelope.seal(self._identity, self._g.game, intent)
        data = envelope.encode()
        self._cache.put(data, envelope)
        item = read_item(self._g, envelope, data)
        self._pool[item.digest] = _Pending(item, now, own=True, live=True, sent_ms=now)
        out.append(Broadcast(envelope, data))

    def _judge(self, pending: _Pending, now: int, out: list[Effect[S]]) -> bool:
        """Re-evaluate a pending intent against the committed head; False: drop it."""
        item = pending.item
        fit = intent_fit(self._head, item)
        if fit is Fit.FUTURE:
            pending.live = False
            return True
        if fit is Fit.FITS:
            try:
                self._machine.precheck(self._head.state, item.seat, item.intent)
            except MachineReject as reject:
                out.append(Rejected(item.seat, item.intent_id, reject.code, reject.detail, None))
                return False
            pending.live = True
            return True
        if pending.own and fit is Fit.STALE:
            self._reissue(item, now, out)
        elif pending.own:
            out.append(Rejected(item.seat, item.intent_id, RejectCode.DUPLICATE, fit.value, None))
        else:
            self._judge_left_out(item, out)
        return False

    def _judge_left_out(self, item: Item, out: list[Effect[S]]) -> None:
        """Rule L9: a peer's intent that went stale unordered, judged at the position it names
        (one of the last `RECENT_POSITIONS`: also when it arrives several entries late, or the
        player caught up over its position)."""
        based_on = item.intent.based_on
        before = next((h for h in reversed(self._recent) if h.seq == based_on), None)
        if before is None or intent_fit(before, item) is not Fit.FITS:
            return
        reject = self._refusal(before, item)
        if reject is not None:
            out.append(Rejected(item.seat, item.intent_id, reject.code, reject.detail, None))

    def _refusal(self, head: Head[S], item: Item) -> MachineReject | None:
        """The machine's full verdict (`apply`, not just `precheck`) on `item` after `head`."""
        try:
            self._machine.precheck(head.state, item.seat, item.intent)
            self._machine.apply(head.state, item.seat, item.intent)
        except MachineReject as reject:
            return reject
        return None

    def _refused_in_full(self, pending: _Pending, out: list[Effect[S]]) -> bool:
        """Rule L9 before a censorship verdict: a live intent that the machine refuses in full
        was rightly left out by a sequencer that knew more; name its author and drop it."""
        item = pending.item
        reject = self._refusal(self._head, item)
        if reject is None:
            return False
        out.append(Rejected(item.seat, item.intent_id, reject.code, reject.detail, None))
        self._pool.pop(item.digest, None)
        return True

    def _reissue(self, stale: Item, now: int, out: list[Effect[S]]) -> None:
        """Rule L8: our own intent missed its position; try it again at the new one."""
        head = self._head
        old = stale.intent
        intent = Intent(old.game, old.seat, head.counters[self.seat] + 1, head.seq, old.action)
        try:
            self._machine.precheck(head.state, self.seat, intent)
        except MachineReject as reject:
            out.append(Rejected(self.seat, old.intent_id, reject.code, reject.detail, None))
            return
        self._issue(intent, now, out)

    # ---- entries --------------------------------------------------------------------------------

    def _on_entry(
        self,
        from_seat: int,
        author: int,
        envelope: Envelope,
        raw: bytes,
        now: int,
        out: list[Effect[S]],
    ) -> None:
        entry = envelope.message
        assert isinstance(entry, Entry)
        head = self._head
        seq = entry.seq
        if seq == 0:
            out.append(Dropped(from_seat, author, "an entry at position 0"))
        elif seq <= head.seq:
            self._on_old_entry(from_seat, author, entry, raw, now, out)
        elif seq == head.seq + 1:
            self._on_next_entry(from_seat, author, envelope, raw, now, out)
        elif seq == head.seq + 2 and self._flight is not None:
            # The sender committed our entry in flight: we lack acks. Keep its successor and show
            # it our ack, which it answers with the certificate (rule L6).
            self._future = _Future(from_seat, envelope, raw, now)
            self._send_data(from_seat, self._flight.ack, self._flight.ack_data, out)
        else:
            self._request_catch_up(from_seat, now, out)

    def _on_old_entry(
        self, from_seat: int, author: int, entry: Entry, raw: bytes, now: int,
        out: list[Effect[S]],
    ) -> None:
        mine = self._entries[entry.seq - 1]
        if raw == mine:
            if entry.seq == self._head.seq:
                self._send_certificate(from_seat, now, out)  # it lacks some acks of it
            return
        committed = self._cache.open(mine).message
        assert isinstance(committed, Entry)
        if author != committed.sequencer:
            out.append(Dropped(from_seat, author, f"entry {entry.seq} not by its sequencer"))
            return
        self._halt(DiagnosisKind.EQUIVOCATION, author, entry.seq,
                   f"seat {author} signed two entries for position {entry.seq}",
                   (mine, raw), out)

    def _on_next_entry(
        self,
        from_seat: int,
        author: int,
        envelope: Envelope,
        raw: bytes,
        arrived: int,
        out: list[Effect[S]],
    ) -> None:
        flight = self._flight
        seq = self._head.seq + 1
        if flight is not None:
            if raw == flight.step.data:
                self._send_data(from_seat, flight.ack, flight.ack_data, out)
            elif author == flight.step.entry.sequencer:
                self._halt(DiagnosisKind.EQUIVOCATION, author, seq,
                           f"seat {author} signed two entries for position {seq}",
                           (flight.step.data, raw), out)
            else:
                out.append(Dropped(from_seat, author, f"entry {seq} not signed by its sequencer"))
            return
        expected = self._machine.sequencer(self._head.state)
        if author != expected:
            out.append(Dropped(
                from_seat, author, f"entry {seq} signed by seat {author}; sequencer is {expected}"
            ))
            return
        try:
            step = check_entry(
                self._g, self._machine, self._head, envelope, raw, self._cache.open
            )
        except EntryFault as fault:
            self._halt(DiagnosisKind.INVALID_ENTRY, fault.seat, seq, fault.reason, (raw,), out)
        self._check_omission(step, arrived, out)
        self._accept(step, arrived, out)

    def _check_omission(self, step: Step[S], arrived: int, out: list[Effect[S]]) -> None:
        """Rule L5: a live intent held `omit_ms` before this entry arrived must be in it."""
        if self._sync_needed or len(step.entry.intents) >= MAX_INTENTS_PER_ENTRY:
            return
        sequencer = step.entry.sequencer
        since = self._clock.connected[sequencer] if sequencer != self.seat else None
        if since is None:
            return
        included = {outcome.item.seat for outcome in step.outcomes}
        for pending in list(self._pool.values()):
            item = pending.item
            if not pending.live or item.seat in included or item.seat == sequencer:
                continue
            if len(step.data) + len(item.data) + _ITEM_OVERHEAD > MAX_ENTRY_BYTES:
                continue  # would not have fitted
            if arrived - max(pending.received_ms, since) >= self._cfg.omit_ms:
                if self._refused_in_full(pending, out):
                    continue
                self._halt(
                    DiagnosisKind.CENSORSHIP, sequencer, step.entry.seq,
                    f"entry {step.entry.seq} by seat {sequencer} leaves out intent "
                    f"{item.seat}/{item.intent.counter}, live here since "
                    f"{pending.received_ms} ms (entry arrived at {arrived} ms)",
                    (item.data, step.data), out,
                )

    def _accept(self, step: Step[S], now: int, out: list[Effect[S]]) -> None:
        """Rule L2: the entry is valid; acknowledge it and wait for everyone's ack."""
        head = step.head
        envelope = Envelope.seal(
            self._identity, self._g.game, Ack(head.seq, head.hash, head.state_hash)
        )
        data = envelope.encode()
        self._cache.put(data, envelope)
        self._flight = _Flight(step, now, envelope, data, {self.seat: data}, now)
        out.append(Broadcast(envelope, data))
        for seat, (ack_envelope, ack_data) in self._early.pop(head.seq, {}).items():
            ack = ack_envelope.message
            assert isinstance(ack, Ack)
            self._take_ack(seat, ack_envelope, ack, ack_data, now, out)
        self._maybe_commit(now, out)

    # ---- acks ------------------------------------------------------------------------------------

    def _on_ack(
        self,
        from_seat: int,
        author: int,
        envelope: Envelope,
        ack: Ack,
        raw: bytes,
        now: int,
        out: list[Effect[S]],
    ) -> None:
        head = self._head
        if ack.seq == 0:
            out.append(Dropped(from_seat, author, "an ack of position 0"))
        elif ack.seq <= head.seq:
            cert = self._certs.get(ack.seq)
            if cert is None:
                return  # a position we caught up over: we hold no acks of it to compare
            held_ack = self._ack_of(cert, author)
            if held_ack is not None and self._cache.open(held_ack).payload != envelope.payload:
                self._halt(DiagnosisKind.EQUIVOCATION, author, ack.seq,
                           f"seat {author} signed two different acks of position {ack.seq}",
                           (held_ack, raw), out)
            if ack.seq == head.seq and from_seat == author:
                self._send_certificate(author, now, out)
        elif ack.seq == head.seq + 1 and self._flight is not None:
            self._take_ack(author, envelope, ack, raw, now, out)
            self._maybe_commit(now, out)
        elif ack.seq <= head.seq + 2 and (ack.seq == head.seq + 1 or self._flight is not None):
            early = self._early.setdefault(ack.seq, {})
            held = early.get(author)
            if held is not None and held[0].payload != envelope.payload:
                self._halt(DiagnosisKind.EQUIVOCATION, author, ack.seq,
                           f"seat {author} signed two different acks of position {ack.seq}",
                           (held[1], raw), out)
            early[author] = (envelope, raw)
            flight = self._flight
            if ack.seq == head.seq + 2 and flight is not None:
                # The author committed our entry in flight: show it our ack to get the proof.
                self._send_data(from_seat, flight.ack, flight.ack_data, out)
        else:
            self._request_catch_up(from_seat, now, out)

    def _take_ack(
        self, seat: int, envelope: Envelope, ack: Ack, raw: bytes, now: int,
        out: list[Effect[S]],
    ) -> None:
        flight = self._flight
        assert flight is not None
        held = flight.acks.get(seat)
        suspect = self._suspects.get(seat)
        if held is not None or suspect is not None:
            held_data = held if held is not None else suspect.data  # type: ignore[union-attr]
            if self._cache.open(held_data).payload != envelope.payload:
                self._halt(DiagnosisKind.EQUIVOCATION, seat, ack.seq,
                           f"seat {seat} signed two different acks of position {ack.seq}",
                           (held_data, raw), out)
            return
        head = flight.step.head
        if ack.entry_hash != head.hash:
            # Either the sequencer equivocated or `seat` lies: show it the entry we hold; an
            # honest player answers with the other entry (rule L4), else BOGUS_ACK (rule L5).
            self._suspects[seat] = _Suspect(raw, envelope.payload, now)
            self._send_data(seat, flight.step.envelope, flight.step.data, out)
            return
        if ack.state_hash != head.state_hash:
            self._halt(DiagnosisKind.DIVERGENCE, seat, ack.seq,
                       f"seat {seat} acked state {ack.state_hash.hex()[:16]} for entry "
                       f"{ack.seq}; this node computed {head.state_hash.hex()[:16]}",
                       (flight.ack_data, raw), out)
        flight.acks[seat] = raw

    def _maybe_commit(self, now: int, out: list[Effect[S]]) -> None:
        flight = self._flight
        if flight is None:
            return
        seats = self._members(flight.step.head.state)
        if any(seat not in flight.acks for seat in seats):
            return
        cert = tuple(flight.acks[seat] for seat in seats)
        self._flight = None
        self._suspects.clear()
        self._advance(flight.step, cert, now, out)
        self._after_commit(now, out)

    def _advance(
        self, step: Step[S], cert: tuple[bytes, ...] | None, now: int, out: list[Effect[S]]
    ) -> None:
        """Commit one validated entry (live, or caught up)."""
        head = step.head
        self._recent.append(self._head)
        self._head = head
        self._entries.append(step.data)
        if self._scratch:  # a live commit overtook a catch-up in progress
            if self._scratch[0].data == step.data:
                del self._scratch[0]
            else:
                self._scratch.clear()
        if cert is not None:
            self._certs[head.seq] = cert
        self._clock.committed_ms = now
        out.append(Committed(
            head.seq, step.envelope, step.data, head.state, head.state_hash, step.outcomes
        ))
        for outcome in step.outcomes:
            item = outcome.item
            self._pool.pop(item.digest, None)
            if outcome.reject is not None:
                reject = outcome.reject
                out.append(Rejected(item.seat, item.intent_id, reject.code, reject.detail,
                                    head.seq))
        for seq in [s for s in self._early if s <= head.seq]:
            del self._early[seq]

    def _after_commit(self, now: int, out: list[Effect[S]]) -> None:
        """Re-judge pending intents against the new head; take up an entry that came early."""
        for digest, pending in list(self._pool.items()):
            if not self._judge(pending, now, out):
                self._pool.pop(digest, None)
        future = self._future
        self._future = None
        if future is not None and self._flight is None:
            author = self._g.seat_of(future.envelope.author)
            assert author is not None
            self._on_entry(future.from_seat, author, future.envelope, future.data,
                           future.received_ms, out)

    # ---- ordering (when this player is the sequencer) ----------------------------------------

    def _progress(self, now: int, out: list[Effect[S]]) -> None:
        """Rules L1 and L3: order the next entry if it is ours to order and the window is over."""
        if self._flight is not None or self._sync_needed or self._scratch:
            return
        head = self._head
        if self._machine.sequencer(head.state) != self.seat:
            return
        if self._readopt(now, out):
            return
        candidates = self._candidates()
        if not candidates:
            return
        close = self._window_close(candidates)
        if close is not None and now < close:
            return
        ordered = sorted(candidates.values(), key=lambda p: fairness_key(head.hash, p.item))
        chosen: list[Item] = []
        size = _ENTRY_OVERHEAD
        for pending in ordered:
            cost = len(pending.item.data) + _ITEM_OVERHEAD
            if size + cost <= MAX_ENTRY_BYTES:
                chosen.append(pending.item)
                size += cost
            if len(chosen) == MAX_INTENTS_PER_ENTRY:
                break
        window = self._wait_ms() if close is not None else 0
        fairness = FairnessWindow(window, len(chosen)) if len(chosen) > 1 else None
        entry = Entry(head.seq + 1, head.hash, self.seat, tuple(i.data for i in chosen), fairness)
        envelope = Envelope.seal(self._identity, self._g.game, entry)
        data = envelope.encode()
        self._cache.put(data, envelope)
        try:
            step = check_entry(self._g, self._machine, head, envelope, data, self._cache.open)
        except EntryFault as fault:  # pragma: no cover - the pool holds only fitting intents
            raise LocalProtocolError(f"this node built an invalid entry: {fault}") from fault
        self._signed = data
        out.append(Broadcast(envelope, data))
        self._accept(step, now, out)

    def _readopt(self, now: int, out: list[Effect[S]]) -> bool:
        """After a restart: the entry we signed for this position before, if any, again."""
        data = self._signed
        if data is None:
            return False
        envelope = self._cache.open(data)
        entry = envelope.message
        if not isinstance(entry, Entry) or entry.seq != self._head.seq + 1:
            return False
        try:
            step = check_entry(self._g, self._machine, self._head, envelope, data,
                               self._cache.open)
        except EntryFault:
            return False
        out.append(Broadcast(envelope, data))
        self._accept(step, now, out)
        return True

    def _candidates(self) -> dict[int, _Pending]:
        """One live intent per author (the lowest digest if an author signed several)."""
        chosen: dict[int, _Pending] = {}
        for pending in self._pool.values():
            if pending.live:
                seat = pending.item.seat
                held = chosen.get(seat)
                if held is None or pending.item.digest < held.item.digest:
                    chosen[seat] = pending
        return chosen

    def _window_close(self, candidates: dict[int, _Pending]) -> int | None:
        """When the fairness window closes (None: no race, so no window)."""
        actors = self._machine.actors(self._head.state)
        if len(actors) <= 1:
            return None
        if actors.issubset(candidates):
            return 0  # every seat that may act has spoken: nothing left to wait for
        committed = self._clock.committed_ms
        opened = min(max(p.received_ms, committed) for p in candidates.values())
        if self._machine.gathers(self._head.state):
            # A party can send its step only once it is connected (at a game's start the links
            # come up one by one): each one's wait starts when it (re)connected, if later.
            joined = (self._clock.connected[seat] for seat in actors)
            opened = max([opened, *(t for t in joined if t is not None)])
        return opened + self._wait_ms()

    def _wait_ms(self) -> int:
        """How long the sequencer collects intents when several seats may act."""
        if self._machine.gathers(self._head.state):
            return self._cfg.gather_wait
        return self._cfg.window_ms

    def _window_closes(self) -> int | None:
        if self._flight is not None or self._sync_needed or self._scratch:
            return None
        if self._machine.sequencer(self._head.state) != self.seat:
            return None
        candidates = self._candidates()
        return self._window_close(candidates) if candidates else None

    # ---- timing ---------------------------------------------------------------------------------

    def _censor_due(self) -> int | None:
        """Rule L5: since when the sequencer owes an entry for a live intent held here."""
        if self._flight is not None or self._sync_needed or self._scratch:
            return None
        sequencer = self._machine.sequencer(self._head.state)
        since = self._clock.connected[sequencer] if sequencer != self.seat else None
        if since is None:
            return None
        dues = [
            max(p.received_ms, self._clock.committed_ms, since)
            for p in self._pool.values()
            if p.live and p.item.seat != sequencer
        ]
        return min(dues) if dues else None

    def _check_timing(self, now: int, out: list[Effect[S]]) -> None:
        cfg = self._cfg
        for seat, suspect in self._suspects.items():
            if now - suspect.since_ms >= cfg.censor_ms:
                self._halt(DiagnosisKind.BOGUS_ACK, seat, self._head.seq + 1,
                           f"seat {seat} acked an entry hash nobody showed in {cfg.censor_ms} ms",
                           (suspect.data,), out)
        while True:
            due = self._censor_due()
            if due is None or now - due < cfg.censor_ms:
                return
            sequencer = self._machine.sequencer(self._head.state)
            late = min(
                (p for p in self._pool.values() if p.live and p.item.seat != sequencer),
                key=lambda p: p.received_ms,
            )
            if not self._refused_in_full(late, out):
                break
        self._halt(DiagnosisKind.CENSORSHIP, sequencer, self._head.seq + 1,
                   f"seat {sequencer} has not ordered intent {late.item.seat}/"
                   f"{late.item.intent.counter} for {now - due} ms",
                   (late.item.data,), out)

    def _retransmit(self, now: int, out: list[Effect[S]]) -> None:
        """Rule L6."""
        cfg = self._cfg
        flight = self._flight
        if flight is not None and now - flight.sent_ms >= cfg.resend_ms:
            flight.sent_ms = now
            out.append(Broadcast(flight.ack, flight.ack_data))
            for seat in self._members(flight.step.head.state):
                if seat not in flight.acks and self._clock.connected[seat] is not None:
                    self._send_data(seat, flight.step.envelope, flight.step.data, out)
        sequencer = self._machine.sequencer(self._head.state)
        relay = flight is None and sequencer != self.seat
        relay = relay and self._clock.connected[sequencer] is not None
        for pending in self._pool.values():
            if now - pending.sent_ms < cfg.resend_ms:
                continue
            if pending.own:
                pending.sent_ms = now
                out.append(Broadcast(pending.item.envelope, pending.item.data))
            elif relay and pending.live:
                pending.sent_ms = now
                self._send_data(sequencer, pending.item.envelope, pending.item.data, out)
            else:
                pending.sent_ms = now
        catch_up = self._catch_up
        if catch_up is not None and now - catch_up.sent_ms >= 2 * cfg.resend_ms:
            self._catch_up = None
            self._request_catch_up(self._next_peer(catch_up.peer), now, out)
        if self._sync_needed and now - self._clock.sync_sent_ms >= cfg.resend_ms:
            self._clock.sync_sent_ms = now
            for seat in sorted(self._sync_needed):
                if self._clock.connected[seat] is not None:
                    self._send(seat, CatchUpRequest(self._g.game, self._tip().seq + 1), out)

    def _next_peer(self, after: int) -> int:
        n = self._g.n
        for step in range(1, n + 1):
            seat = (after + step) % n
            if seat != self.seat and self._clock.connected[seat] is not None:
                return seat
        return after

    def _blocked_on(self) -> tuple[frozenset[int], int]:
        flight = self._flight
        if flight is not None:
            missing = frozenset(s for s in self._members(flight.step.head.state)
                                if s not in flight.acks)
            return missing, flight.received_ms
        if self._sync_needed:
            return frozenset(self._sync_needed), self._clock.committed_ms
        due = self._censor_due()
        if due is not None:
            return frozenset({self._machine.sequencer(self._head.state)}), due
        return frozenset(), 0

    def _report_waiting(self, now: int, out: list[Effect[S]]) -> None:
        seats, since = self._blocked_on()
        reported = self._clock.reported
        if seats and (seats, since) != reported and now - since >= self._cfg.notice_ms:
            self._clock.reported = (seats, since)
            out.append(Waiting(seats, since))
        elif not seats and reported[0]:
            self._clock.reported = (frozenset(), 0)
            out.append(Waiting(frozenset(), now))

    # ---- catch-up -------------------------------------------------------------------------------

    def _tip(self) -> Head[S]:
        return self._scratch[-1].head if self._scratch else self._head

    def _request_catch_up(self, peer: int, now: int, out: list[Effect[S]]) -> None:
        held = self._catch_up
        if held is not None and now - held.sent_ms < 2 * self._cfg.resend_ms:
            return
        self._catch_up = _CatchUp(peer, now)
        self._send(peer, CatchUpRequest(self._g.game, self._tip().seq + 1), out)

    def _send_certificate(self, seat: int, now: int, out: list[Effect[S]]) -> None:
        """Show a player stuck on our last committed position the entry and its certificate."""
        last = self._clock.cert_sent.get(seat)
        if last is not None and now - last < self._cfg.resend_ms:
            return
        cert = self._certs.get(self._head.seq)
        if cert is None:  # pragma: no cover - the last position always has its certificate
            return
        self._clock.cert_sent[seat] = now
        entries = (self._entries[-1], *cert)
        self._send(seat, CatchUpResponse(self._g.game, self._head.seq, entries, False), out)

    def _on_catch_up_request(
        self, from_seat: int, request: CatchUpRequest, now: int, out: list[Effect[S]]
    ) -> None:
        if request.game != self._g.game or request.from_seq == 0:
            out.append(Dropped(from_seat, None, "catch-up request for another game or seq 0"))
            return
        head = self._head
        if request.from_seq > head.seq + 1:
            self._request_catch_up(from_seat, now, out)  # it is ahead of us
        # Rule L10, before the answer (a link keeps order): the requester may have restarted
        # and lost what it signed last. Its intents we hold are its own to re-adopt.
        for pending in self._pool.values():
            if pending.item.seat == from_seat:
                self._send_data(from_seat, pending.item.envelope, pending.item.data, out)
        chunk = self._catch_up_chunk(request.from_seq)
        flight = self._flight
        if flight is not None and request.from_seq == head.seq + 1 and not chunk.entries:
            # A chunk carries the entry in flight as a hint only after a certificate, and before
            # the first commit there is none: the entry goes on its own instead, also ahead of
            # the answer, so a restarted sequencer learns the entry it signed before it may
            # order one.
            self._send_data(from_seat, flight.step.envelope, flight.step.data, out)
        self._send(from_seat, chunk, out)

    def _catch_up_chunk(self, first: int) -> CatchUpResponse:
        """Committed entries from `first`, as many as fit; the chunk ends at a certified entry
        when it can, and the last chunk also carries the entry in flight (a hint, unproven)."""
        head = self._head
        flight = self._flight
        reserve = sum(len(a) + _ITEM_OVERHEAD for a in self._certs.get(head.seq, ()))
        if flight is not None:
            reserve += len(flight.step.data) + _ITEM_OVERHEAD
        budget = codec.MAX_MESSAGE_SIZE - _RESPONSE_OVERHEAD - reserve
        limit = MAX_CATCH_UP_ENTRIES - self._g.n - 1
        items: list[bytes] = []
        seq = first
        while seq <= head.seq and len(items) < limit:
            raw = self._entries[seq - 1]
            if items and len(raw) + _ITEM_OVERHEAD > budget:
                break
            items.append(raw)
            budget -= len(raw) + _ITEM_OVERHEAD
            seq += 1
        last = first + len(items) - 1
        certified = next((s for s in range(last, first - 1, -1) if s in self._certs), None)
        if certified is not None:
            del items[certified - first + 1:]
            items.extend(self._certs[certified])
            last = certified
        more = last < head.seq
        if not more and flight is not None:
            # The hint is told from committed entries by coming after a certificate. With no
            # entry to send, certify the tip the hint builds on; with no tip (nothing committed
            # yet) leave the hint out: the entry in flight is forwarded anyway (rule L6).
            if not items and head.seq in self._certs:
                items.extend(self._certs[head.seq])
            if items:
                items.append(flight.step.data)
        return CatchUpResponse(self._g.game, first, tuple(items), more)

    def _on_catch_up_response(
        self, from_seat: int, response: CatchUpResponse, now: int, out: list[Effect[S]]
    ) -> None:
        if response.game != self._g.game:
            out.append(Dropped(from_seat, None, "catch-up response for another game"))
            return
        parsed = self._parse_chunk(from_seat, response, out)
        if parsed is None:
            return
        entries, acks, hint = parsed
        refused = False
        if entries:
            if not self._absorb(from_seat, response.from_seq, entries, out):
                return
            if acks:
                refused = not self._certify(from_seat, acks, now, out)
            elif not response.more and self._scratch:
                out.append(Dropped(from_seat, None, "last catch-up chunk without a certificate"))
                self._scratch.clear()
                return
        if refused:
            # Ask again only after the usual pause (`_catch_up` stays): a peer whose answers
            # do not prove anything must not get a new request for each answer it sends.
            if not response.more:
                self._sync_needed.discard(from_seat)  # it answered, if uselessly
            return
        if response.more:
            self._catch_up = None
            self._request_catch_up(from_seat, now, out)
        else:
            if self._catch_up is not None and self._catch_up.peer == from_seat:
                self._catch_up = None
            self._sync_needed.discard(from_seat)
        if hint is not None:
            envelope, raw = hint
            author = self._g.seat_of(envelope.author)
            if author is not None and self._scratch == []:
                self._on_entry(from_seat, author, envelope, raw, now, out)

    def _parse_chunk(
        self, from_seat: int, response: CatchUpResponse, out: list[Effect[S]]
    ) -> tuple[list[tuple[Envelope, bytes]], list[bytes], tuple[Envelope, bytes] | None] | None:
        entries: list[tuple[Envelope, bytes]] = []
        acks: list[bytes] = []
        hint: tuple[Envelope, bytes] | None = None
        for raw in response.entries:
            try:
                envelope = self._cache.open(raw)
            except RemoteProtocolError as exc:
                out.append(Dropped(from_seat, None, f"catch-up: {exc.reason}"))
                return None
            message = envelope.message
            if hint is None and not acks and isinstance(message, Entry):
                entries.append((envelope, raw))
            elif hint is None and isinstance(message, Ack):
                acks.append(raw)
            elif hint is None and isinstance(message, Entry):
                hint = (envelope, raw)
            else:
                out.append(Dropped(from_seat, None, "catch-up: entries, acks, hint in that order"))
                return None
        return entries, acks, hint

    def _absorb(
        self,
        from_seat: int,
        first: int,
        entries: list[tuple[Envelope, bytes]],
        out: list[Effect[S]],
    ) -> bool:
        """Rule L7: validate a chunk of entries onto the scratch head; False if refused."""
        for offset, (envelope, raw) in enumerate(entries):
            entry = envelope.message
            assert isinstance(entry, Entry)
            seq = first + offset
            author = self._g.seat_of(envelope.author)
            if entry.seq != seq or author is None:
                out.append(Dropped(from_seat, author, "catch-up: misnumbered or foreign entry"))
                return False
            known = self._known_entry(seq)
            if known is not None:
                if raw != known.data:
                    self._conflict(from_seat, author, known.entry, known.data, raw, out)
                    self._scratch.clear()
                    return False
                continue
            tip = self._tip()
            if seq != tip.seq + 1:
                out.append(Dropped(from_seat, author, "catch-up: a gap in the entries"))
                return False
            flight = self._flight
            if flight is not None and seq == flight.step.head.seq:
                if raw != flight.step.data:
                    self._conflict(from_seat, author, flight.step.entry, flight.step.data, raw, out)
                    return False
                step = flight.step
            else:
                expected = self._machine.sequencer(tip.state)
                if author != expected:
                    out.append(Dropped(from_seat, author, f"catch-up: entry {seq} not by "
                                                          f"its sequencer {expected}"))
                    return False
                try:
                    step = check_entry(self._g, self._machine, tip, envelope, raw,
                                       self._cache.open)
                except EntryFault as fault:
                    self._halt(DiagnosisKind.INVALID_ENTRY, fault.seat, seq, fault.reason,
                               (raw,), out)
            self._scratch.append(step)
            if len(self._scratch) > MAX_SCRATCH:
                out.append(Dropped(from_seat, None, "catch-up: too many uncertified entries"))
                self._scratch.clear()
                return False
        return True

    def _known_entry(self, seq: int) -> _KnownEntry | None:
        if seq <= self._head.seq:
            data = self._entries[seq - 1]
            entry = self._cache.open(data).message
            assert isinstance(entry, Entry)
            return _KnownEntry(entry, data)
        index = seq - self._head.seq - 1
        if index < len(self._scratch):
            step = self._scratch[index]
            return _KnownEntry(step.entry, step.data)
        return None

    def _conflict(
        self, from_seat: int, author: int, held: Entry, held_data: bytes, raw: bytes,
        out: list[Effect[S]],
    ) -> None:
        if author != held.sequencer:
            out.append(Dropped(from_seat, author, f"catch-up: entry {held.seq} conflicts"))
            return
        self._halt(DiagnosisKind.EQUIVOCATION, author, held.seq,
                   f"seat {author} signed two entries for position {held.seq}",
                   (held_data, raw), out)

    def _certify(self, from_seat: int, acks: list[bytes], now: int, out: list[Effect[S]]) -> bool:
        """Commit the scratch entries if `acks` certify the last; False if they prove nothing."""
        if not self._scratch:
            return True  # nothing new: the chunk only repeated what we have committed
        target = self._scratch[-1].head
        try:
            cert = check_certificate(self._g, target, acks, self._cache.open,
                                     self._members(target.state))
        except CertificateError as exc:
            if not exc.diverged:
                self._check_own_ack(from_seat, target, acks, out)
                out.append(Dropped(from_seat, exc.seat, exc.reason))
                self._scratch.clear()
                return False
            detail = exc.reason if exc.seat is not None else (
                f"every player acked another state than this node computed for entry "
                f"{target.seq}")
            self._halt(DiagnosisKind.DIVERGENCE, exc.seat, target.seq, detail, tuple(acks), out)
        self._check_acks_against(target.seq, cert, out)
        steps, self._scratch = self._scratch, []
        for step in steps:
            self._advance(step, cert if step.head is target else None, now, out)
        flight = self._flight
        if flight is not None and flight.step.head.seq <= self._head.seq:
            self._flight = None
            self._suspects.clear()
        self._after_commit(now, out)
        return True

    def _check_own_ack(
        self, from_seat: int, target: Head[S], acks: list[bytes], out: list[Effect[S]]
    ) -> None:
        """A player answering catch-up sends entries it committed, certified by the acks that
        let it commit them, its own among them. Its own ack of the last one naming another
        entry is an ack of an entry nobody shows — and it just showed the one it holds: a
        phantom (rule L5's BOGUS_ACK, without the wait). Else a restarted player could never
        learn that position, and would wait silently."""
        for raw in acks:
            try:
                envelope = self._cache.open(raw)
            except RemoteProtocolError:
                continue
            ack = envelope.message
            if (isinstance(ack, Ack) and self._g.seat_of(envelope.author) == from_seat
                    and ack.seq == target.seq and ack.entry_hash != target.hash):
                self._halt(DiagnosisKind.BOGUS_ACK, from_seat, target.seq,
                           f"seat {from_seat} certified entry {target.seq} with its own ack of "
                           f"another entry", (raw,), out)

    def _check_acks_against(
        self, seq: int, cert: tuple[bytes, ...], out: list[Effect[S]]
    ) -> None:
        """A certificate's ack must be the one its author showed us: else two acks, one seq."""
        held: dict[int, bytes] = {seat: data for seat, (_, data) in
                                  self._early.get(seq, {}).items()}
        flight = self._flight
        if flight is not None and flight.step.head.seq == seq:
            held.update(flight.acks)
            held.update((seat, suspect.data) for seat, suspect in self._suspects.items())
        for seat, data in held.items():
            shown = self._ack_of(cert, seat)
            if shown is not None and self._cache.open(data).payload != \
                    self._cache.open(shown).payload:
                self._halt(DiagnosisKind.EQUIVOCATION, seat, seq,
                           f"seat {seat} signed two different acks of position {seq}",
                           (data, shown), out)

    def _members(self, state: S) -> tuple[int, ...]:
        """The seats still at the table in `state` (a graceful leave takes one away)."""
        return members(self._machine, state, self._g.n)

    def _ack_of(self, cert: tuple[bytes, ...], seat: int) -> bytes | None:
        """`seat`'s ack in a certificate (None: it had left the table)."""
        if len(cert) == self._g.n:
            return cert[seat]
        return next((a for a in cert if self._g.seat_of(self._cache.open(a).author) == seat),
                    None)

    # ---- output helpers -------------------------------------------------------------------------

    def _send(self, seat: int, message: Message, out: list[Effect[S]]) -> None:
        out.append(SendTo(seat, message, message.encode()))

    def _send_data(
        self, seat: int, message: Message, data: bytes, out: list[Effect[S]]
    ) -> None:
        out.append(SendTo(seat, message, data))

    def _halt(
        self,
        kind: DiagnosisKind,
        seat: int | None,
        seq: int,
        detail: str,
        evidence: tuple[bytes, ...],
        out: list[Effect[S]],
    ) -> NoReturn:
        """Stop for good (rule L4): report, share the evidence with everyone, unwind."""
        diagnosis = Diagnosis(kind, seat, seq, detail, evidence)
        self._halted = diagnosis
        out.append(Halted(diagnosis))
        for raw in evidence:
            envelope = self._evidence_envelope(raw)
            if envelope is not None:
                out.append(Broadcast(envelope, raw))
        raise _Stop

    def _serve_halted(
        self, seat: int, data: bytes | Message, now: int, out: list[Effect[S]]
    ) -> None:
        """Rule L4 for a player that is behind the proof: it cannot check evidence for a
        position it has not reached (an invalid entry needs the state before it), so a halted
        log still hands out what it committed — a catch-up answer, or the certificate of its
        last position to a player stuck there — and the evidence right after it."""
        try:
            message, _ = self._decode(data)
        except RemoteProtocolError:
            message = None
        head = self._head
        answered = False
        if (isinstance(message, CatchUpRequest) and message.game == self._g.game
                and 0 < message.from_seq <= head.seq + 1):
            self._send(seat, self._catch_up_chunk(message.from_seq), out)
            answered = True
        elif (isinstance(message, Envelope) and isinstance(message.message, Ack | Entry)
                and message.message.seq == head.seq and head.seq in self._certs):
            sent = len(out)
            self._send_certificate(seat, now, out)
            answered = len(out) > sent
        if answered:
            self._clock.evidence_sent.pop(seat, None)  # what it can check now comes next
        self._show_evidence(seat, now, out)

    def _show_evidence(self, seat: int, now: int, out: list[Effect[S]]) -> None:
        """A player still talking to us after we halted has not seen the proof: send it again
        (our one broadcast may have been lost), at most once per `resend_ms`."""
        diagnosis = self._halted
        assert diagnosis is not None
        last = self._clock.evidence_sent.get(seat)
        if last is not None and now - last < self._cfg.resend_ms:
            return
        self._clock.evidence_sent[seat] = now
        for raw in diagnosis.evidence:
            envelope = self._evidence_envelope(raw)
            if envelope is not None:
                self._send_data(seat, envelope, raw, out)

    def _evidence_envelope(self, raw: bytes) -> Envelope | None:
        try:
            return self._cache.open(raw)
        except RemoteProtocolError:
            return None

