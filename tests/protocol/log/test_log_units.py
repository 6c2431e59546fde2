"""The log's rules one at a time, with the players' logs wired by hand (h11's ConnectionPair
style): the chain rules an entry must pass, the fairness window, re-issued stale intents,
timing diagnoses, waiting reports, catch-up certificates, bad input."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace

import pytest

from p2p_durak import engine
from p2p_durak.engine import State
from p2p_durak.engine import actions as A
from p2p_durak.protocol.codec import sha256
from p2p_durak.protocol.engine_machine import EngineMachine, action_bytes
from p2p_durak.protocol.envelope import Envelope, decode_envelope
from p2p_durak.protocol.errors import LocalProtocolError
from p2p_durak.protocol.identity import Identity
from p2p_durak.protocol.log import LogConfig, OrderingLog
from p2p_durak.protocol.log_chain import EntryFault, check_entry, fairness_key, read_item
from p2p_durak.protocol.log_effects import (
    Broadcast,
    Committed,
    DiagnosisKind,
    Dropped,
    Effect,
    Halted,
    Rejected,
    SendTo,
    Waiting,
)
from p2p_durak.protocol.machine import MachineReject
from p2p_durak.protocol.messages import (
    Ack,
    CatchUpRequest,
    CatchUpResponse,
    Entry,
    FairnessWindow,
    Intent,
    Ping,
    RejectCode,
)

from .netsim import GAME_ID, IDENTITIES, TEST_CONFIG, Plan
from .race import GAME, THROWS, play_to_the_race, race_deck

Hold = Callable[[int, int, bytes], bool]


@dataclass
class Wire:
    """Queues what each log sends; `flush` delivers it, holding back what `hold` says."""

    logs: list[OrderingLog[State]]
    queue: list[tuple[int, int, bytes]] = field(default_factory=list)
    seen: dict[int, list[Effect[State]]] = field(default_factory=dict)

    def post(self, src: int, effects: list[Effect[State]]) -> list[Effect[State]]:
        self.seen.setdefault(src, []).extend(effects)
        for effect in effects:
            if isinstance(effect, Broadcast):
                self.queue += [(src, d, effect.data) for d in range(len(self.logs)) if d != src]
            elif isinstance(effect, SendTo):
                self.queue.append((src, effect.seat, effect.data))
        return effects

    def flush(self, now: int, hold: Hold = lambda src, dst, data: False) -> None:
        held: list[tuple[int, int, bytes]] = []
        while self.queue:
            src, dst, data = self.queue.pop(0)
            if hold(src, dst, data):
                held.append((src, dst, data))
                continue
            self.post(dst, self.logs[dst].receive(src, data, now))
        self.queue = held

    def submit(self, seat: int, action: engine.Action, now: int) -> Intent:
        intent_id, effects = self.logs[seat].submit(action_bytes(action), now)
        self.post(seat, effects)
        return Intent(GAME_ID, seat, intent_id.counter, self.logs[seat].seq, action_bytes(action))

    def tick(self, now: int) -> None:
        for seat, log in enumerate(self.logs):
            self.post(seat, log.tick(now))

    def of(self, seat: int, kind: type) -> list:  # type: ignore[type-arg]
        return [e for e in self.seen.get(seat, []) if isinstance(e, kind)]


def race_logs() -> tuple[Wire, int]:
    """The six logs at the race (seat 2 defends and sequences), and the time there."""
    sim = play_to_the_race(Plan(seed=1))
    return Wire([p.log for p in sim.peers]), sim.now


def throw(seat: int) -> engine.Action:
    return A.throw(seat, GAME.deck.parse(THROWS[seat]))


def is_intent_to(dst: int, seats: set[int]) -> Hold:
    def hold(src: int, to: int, data: bytes) -> bool:
        message = decode_envelope(data).message if data[:2] == b"\x96\x05" else None
        return to == dst and isinstance(message, Intent) and message.seat in seats
    return hold


# ---- the fairness window ------------------------------------------------------------------------


def test_window_waits_for_racers_then_orders_what_it_holds() -> None:
    wire, now = race_logs()
    sequencer = wire.logs[2]
    wire.submit(0, throw(0), now)
    wire.flush(now)
    wire.submit(3, throw(3), now + 5)
    wire.flush(now + 5)
    assert sequencer.next_deadline() == now + TEST_CONFIG.window_ms
    wire.tick(now + TEST_CONFIG.window_ms - 1)
    assert not wire.of(2, Committed)
    assert sequencer.seq == wire.logs[0].seq
    wire.tick(now + TEST_CONFIG.window_ms)
    wire.flush(now + TEST_CONFIG.window_ms)
    (commit,) = wire.of(2, Committed)
    entry = commit.entry.message
    assert isinstance(entry, Entry)
    assert entry.fairness == FairnessWindow(TEST_CONFIG.window_ms, 2)
    assert {o.item.seat for o in commit.outcomes} == {0, 3}


def test_window_closes_early_when_every_actor_has_spoken() -> None:
    wire, now = race_logs()
    for seat in THROWS:
        wire.submit(seat, throw(seat), now)
    wire.flush(now)
    (commit,) = wire.of(2, Committed)
    assert len(commit.outcomes) == 5


def test_no_window_when_only_one_seat_may_act() -> None:
    sim_wire, _now = race_logs()
    log = sim_wire.logs[0]
    assert engine.to_act(log.state) != frozenset({0})
    # At the very start only the dealer acts: its deal is ordered at once, in the same call.
    fresh = OrderingLog(IDENTITIES[0], log.genesis.envelope, EngineMachine(GAME),
                        engine.new_game(GAME, list(range(36))), config=TEST_CONFIG)
    _, effects = fresh.submit(action_bytes(A.deal()), 0)
    entries = [e for e in effects if isinstance(e, Broadcast)
               and isinstance(e.message, Envelope) and isinstance(e.message.message, Entry)]
    assert len(entries) == 1
    assert entries[0].message.message.fairness is None


def test_a_gathering_wait_counts_from_when_the_last_party_connected(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Every actor owes its step (a deck step): the sequencer waits `gather_wait` for all of
    them, but a party whose link came up late could not send before: its wait starts then."""
    monkeypatch.setattr(EngineMachine, "gathers", lambda self, state: True)
    wire, now = race_logs()
    sequencer, late = wire.logs[2], 3
    gather = TEST_CONFIG.gather_wait
    sequencer.peer_disconnected(late, now)
    wire.submit(0, throw(0), now)
    wire.flush(now, hold=lambda src, dst, data: late in (src, dst))
    sequencer.peer_connected(late, now + 15)  # while the link was down it heard nothing
    assert sequencer.next_deadline() == now + 15 + gather
    wire.post(2, sequencer.tick(now + gather))
    assert not wire.of(2, Committed)  # the first intent's wait alone would be over
    wire.submit(late, throw(late), now + 15 + gather - 1)
    wire.flush(now + 15 + gather - 1)
    assert not wire.of(2, Committed)  # other actors may still send theirs
    wire.tick(now + 15 + gather)
    wire.flush(now + 15 + gather)
    (commit,) = wire.of(2, Committed)
    assert {o.item.seat for o in commit.outcomes} == {0, late}


def test_what_was_sent_while_a_link_was_down_goes_out_when_it_comes_up() -> None:
    wire, now = race_logs()
    thrower, sequencer = wire.logs[0], wire.logs[2]
    thrower.peer_disconnected(2, now)
    sequencer.peer_disconnected(0, now)
    wire.submit(0, throw(0), now)
    wire.queue = [m for m in wire.queue if (m[0], m[1]) != (0, 2)]  # lost with the link
    wire.flush(now)
    resent = wire.post(0, thrower.peer_connected(2, now + 10))
    assert [e.seat for e in resent if isinstance(e, SendTo)] == [2]  # before the next resend
    wire.post(2, sequencer.peer_connected(0, now + 10))
    wire.flush(now + 10)
    wire.tick(now + 10 + TEST_CONFIG.window_ms)
    wire.flush(now + 10 + TEST_CONFIG.window_ms)
    (commit,) = wire.of(2, Committed)
    assert {o.item.seat for o in commit.outcomes} == {0}


# ---- stale intents: re-issued when still legal, rejected when not ------------------------------


def test_stale_intent_is_reissued_while_still_legal() -> None:
    wire, now = race_logs()
    wire.submit(1, throw(1), now)
    wire.submit(0, throw(0), now)
    (late,) = [m for m in wire.queue if is_intent_to(2, {0})(*m)]

    def hold(src: int, dst: int, data: bytes) -> bool:
        return (src, dst, data) == late  # seat 0's throw-in is late to the sequencer

    wire.flush(now, hold=hold)
    wire.tick(now + TEST_CONFIG.window_ms)
    wire.flush(now + TEST_CONFIG.window_ms, hold=hold)
    assert wire.logs[0].seq == wire.logs[2].seq  # committed without seat 0's intent
    first = [c.outcomes for c in wire.of(0, Committed)]
    assert [[o.item.seat for o in outcomes] for outcomes in first] == [[1]]
    # Seat 0's intent went stale at that commit; still legal, so its log re-issued it.
    reissued = [e for e in wire.of(0, Broadcast) if isinstance(e.message, Envelope)
                and isinstance(e.message.message, Intent) and e.message.message.seat == 0]
    assert len(reissued) == 2
    assert reissued[1].message.message.based_on == wire.logs[0].seq
    wire.queue.remove(late)  # and then lost
    later = now + 2 * TEST_CONFIG.window_ms
    wire.tick(later)
    wire.flush(later)
    wire.tick(later + TEST_CONFIG.window_ms)
    wire.flush(later + TEST_CONFIG.window_ms)
    assert GAME.deck.parse(THROWS[0]) in wire.logs[2].state.table
    assert not wire.of(0, Rejected)


def test_stale_intent_is_rejected_when_no_longer_legal() -> None:
    wire, now = race_logs()
    for seat in (1, 3, 4, 5):
        wire.submit(seat, throw(seat), now)
    wire.submit(0, throw(0), now)
    wire.flush(now, hold=is_intent_to(2, {0}))
    wire.tick(now + TEST_CONFIG.window_ms)
    wire.flush(now + TEST_CONFIG.window_ms, hold=is_intent_to(2, {0}))
    assert len(wire.logs[0].state.table) == 5  # the bout is full without seat 0
    (rejected,) = wire.of(0, Rejected)
    assert (rejected.seat, rejected.seq, rejected.code) == (0, None, RejectCode.LIMIT_REACHED)
    assert wire.logs[0].own_pending is None


# ---- submit -------------------------------------------------------------------------------------


def test_submit_refuses_a_second_pending_intent_and_illegal_moves() -> None:
    wire, now = race_logs()
    wire.submit(0, throw(0), now)
    with pytest.raises(LocalProtocolError, match="pending"):
        wire.submit(0, A.pass_(0), now)
    with pytest.raises(LocalProtocolError, match="refused"):
        wire.submit(3, A.throw(3, GAME.deck.parse("A♠")), now)  # not in seat 3's hand


# ---- timing diagnoses and waiting reports -----------------------------------------------------


def test_silent_sequencer_is_accused_after_the_censorship_timeout() -> None:
    wire, now = race_logs()
    wire.submit(0, throw(0), now)
    wire.flush(now, hold=lambda src, dst, data: dst == 2)  # the sequencer hears nothing...
    wire.logs[2] = _deaf(wire.logs[2])  # ...and orders nothing
    for t in range(now, now + TEST_CONFIG.censor_ms + 1, 50):
        wire.tick(t)
        wire.queue.clear()
    for seat in (0, 1, 3, 4, 5):
        (halted,) = wire.of(seat, Halted)
        assert (halted.diagnosis.kind, halted.diagnosis.seat) == (DiagnosisKind.CENSORSHIP, 2)
    waiting = wire.of(1, Waiting)
    assert waiting
    assert waiting[0].seats == frozenset({2})


def _deaf(log: OrderingLog[State]) -> OrderingLog[State]:
    log.tick = lambda now: []  # type: ignore[method-assign]
    return log


def test_no_accusation_while_the_sequencer_is_disconnected() -> None:
    wire, now = race_logs()
    for seat in (0, 1, 3, 4, 5):
        wire.post(seat, wire.logs[seat].peer_disconnected(2, now))
    wire.submit(0, throw(0), now)
    wire.queue = [m for m in wire.queue if m[1] != 2]
    wire.logs[2] = _deaf(wire.logs[2])
    for t in range(now, now + 3 * TEST_CONFIG.censor_ms, 100):
        wire.tick(t)
        wire.queue.clear()
    assert not any(wire.of(seat, Halted) for seat in range(6))


def test_waiting_names_the_player_whose_ack_is_missing() -> None:
    wire, now = race_logs()
    for seat in THROWS:
        wire.submit(seat, throw(seat), now)

    def cut(src: int, dst: int, data: bytes) -> bool:
        return 5 in (src, dst)

    wire.flush(now, hold=cut)
    opened = now + TEST_CONFIG.window_ms
    wire.tick(opened)  # the sequencer stops waiting for seat 5's intent
    wire.flush(opened, hold=cut)
    assert wire.logs[0].seq == wire.logs[5].seq  # nobody commits without seat 5's ack
    wire.tick(opened + TEST_CONFIG.notice_ms)
    (waiting,) = wire.of(0, Waiting)
    assert waiting.seats == frozenset({5})
    wire.flush(opened + TEST_CONFIG.notice_ms)  # seat 5 is back
    wire.tick(opened + TEST_CONFIG.notice_ms + 1)
    assert wire.of(0, Waiting)[-1].seats == frozenset()
    assert len({log.state_hash for log in wire.logs}) == 1


def test_an_intent_goes_to_every_player_not_only_the_sequencer() -> None:
    """Censorship is visible: the author broadcasts its signed intent, and every player holds
    it before the sequencer has ordered it."""
    wire, now = race_logs()
    wire.submit(0, throw(0), now)
    (sent,) = wire.of(0, Broadcast)
    assert isinstance(sent.message, Envelope)
    assert isinstance(sent.message.message, Intent)
    assert sent.message.author == IDENTITIES[0].peer_id
    assert sorted(dst for _, dst, _ in wire.queue) == [1, 2, 3, 4, 5]


def _is_ack(src: int, dst: int, data: bytes) -> bool:
    return data[:2] == b"\x96\x05" and isinstance(decode_envelope(data).message, Ack)


def test_one_entry_in_flight_at_a_time() -> None:
    """Rule L1: while entry seq + 1 lacks acks, its sequencer signs no entry seq + 2, however
    many live intents it holds and however long it waits; once committed, it goes on."""
    wire, now = race_logs()
    sequencer = wire.logs[2]
    seq = sequencer.seq

    def signed_entries() -> list[Entry]:
        return [e.message.message for e in wire.of(2, Broadcast)
                if isinstance(e.message, Envelope) and isinstance(e.message.message, Entry)]

    wire.submit(0, throw(0), now)
    wire.flush(now, hold=_is_ack)
    wire.tick(now + TEST_CONFIG.window_ms)
    wire.flush(now + TEST_CONFIG.window_ms, hold=_is_ack)
    assert [e.seq for e in signed_entries()] == [seq + 1]
    for seat in (1, 3):  # more racers, while entry seq + 1 waits for its acks
        wire.submit(seat, throw(seat), now + TEST_CONFIG.window_ms)
    for later in range(1, 30):
        at = now + TEST_CONFIG.window_ms * later
        wire.tick(at)
        wire.flush(at, hold=_is_ack)
    assert {e.seq for e in signed_entries()} == {seq + 1}
    assert {log.seq for log in wire.logs} == {seq}
    done = now + TEST_CONFIG.window_ms * 40
    wire.flush(done)  # the acks get through
    for step in range(1, 5):
        wire.tick(done + TEST_CONFIG.window_ms * step)
        wire.flush(done + TEST_CONFIG.window_ms * step)
    assert [e.seq for e in signed_entries()][-1] == seq + 2
    assert {log.seq for log in wire.logs} == {seq + 2}
    assert len({log.state_hash for log in wire.logs}) == 1


# ---- catch-up certificates ----------------------------------------------------------------------


def test_catch_up_needs_a_complete_certificate() -> None:
    wire, now = race_logs()
    helper = wire.logs[0]
    late = OrderingLog(IDENTITIES[5], helper.genesis.envelope, EngineMachine(GAME),
                       _initial(), config=TEST_CONFIG, now_ms=now, recovering=True)
    entries = tuple(helper.entry_bytes(s) for s in range(1, helper.seq + 1))
    cert = helper.transcript().acks
    short = CatchUpResponse(GAME_ID, 1, entries + cert[:-1], False)
    effects = late.receive(0, short.encode(), now)
    assert any(isinstance(e, Dropped) and "no ack" in e.detail for e in effects)
    assert late.seq == 0
    forged = list(cert)
    forged[3] = _resign(forged[3], state_hash=sha256(b"other"))
    effects = late.receive(1, CatchUpResponse(GAME_ID, 1, entries + tuple(forged), False), now)
    (halted,) = [e for e in effects if isinstance(e, Halted)]
    assert (halted.diagnosis.kind, halted.diagnosis.seat) == (DiagnosisKind.DIVERGENCE, 3)


def test_catch_up_replays_and_commits_with_a_certificate() -> None:
    wire, now = race_logs()
    helper = wire.logs[0]
    late = OrderingLog(IDENTITIES[5], helper.genesis.envelope, EngineMachine(GAME),
                       _initial(), config=TEST_CONFIG, now_ms=now, recovering=True)
    assert late.recovering
    for seat in range(5):
        request = [e for e in late.peer_connected(seat, now) if isinstance(e, SendTo)]
        (send,) = request
        for reply in wire.logs[seat].receive(5, send.data, now):
            assert isinstance(reply, SendTo)
            late.receive(seat, reply.data, now)
    assert not late.recovering
    assert (late.seq, late.state_hash) == (helper.seq, helper.state_hash)
    assert late.transcript() == helper.transcript()


def _initial() -> State:
    return engine.new_game(GAME, race_deck())


def _resign(raw: bytes, **changes: object) -> bytes:
    envelope = decode_envelope(raw)
    seat = next(s for s, i in enumerate(IDENTITIES) if i.peer_id == envelope.author)
    message = replace(envelope.message, **changes)  # type: ignore[type-var]
    return Envelope.seal(IDENTITIES[seat], GAME_ID, message).encode()


# ---- bad input ----------------------------------------------------------------------------------


@pytest.mark.parametrize("data", [b"", b"\xc1", b"\x93\x05\x01\x02", Ping(7).encode()])
def test_garbage_is_dropped_naming_the_sender(data: bytes) -> None:
    wire, now = race_logs()
    before = wire.logs[0].state_hash
    effects = wire.logs[0].receive(3, data, now)
    (dropped,) = effects
    assert isinstance(dropped, Dropped)
    assert dropped.from_seat == 3
    assert wire.logs[0].state_hash == before


def test_halted_log_applies_nothing_and_shows_its_proof() -> None:
    wire, now = race_logs()
    log = wire.logs[0]
    sequencer = wire.logs[2]
    one = _signed_entry(sequencer, (0,), now)
    two = _signed_entry(sequencer, (3,), now)
    log.receive(2, one, now)
    effects = log.receive(2, two, now)
    assert any(isinstance(e, Halted) for e in effects)
    assert log.halted is not None
    assert log.halted.kind is DiagnosisKind.EQUIVOCATION
    shown = log.receive(2, one, now)  # seat 2 still talks to us: it gets the proof again
    assert [e.data for e in shown if isinstance(e, SendTo) and e.seat == 2] == [one, two]
    assert all(isinstance(e, SendTo) for e in shown)
    assert log.receive(2, one, now + 1) == []  # at most once per resend_ms
    assert log.tick(now + 10_000) == []
    # A player behind the proof asks for what it missed: the answer, then the proof at once
    # (rule L4), and still nothing applied.
    seq = log.seq
    answer = log.receive(5, CatchUpRequest(GAME_ID, seq), now + 1)
    assert [type(e.message) for e in answer] == [CatchUpResponse, Envelope, Envelope]
    assert [e.data for e in answer[1:] if isinstance(e, SendTo)] == [one, two]
    assert all(isinstance(e, SendTo) and e.seat == 5 for e in answer)
    assert log.seq == seq
    with pytest.raises(LocalProtocolError):
        log.submit(action_bytes(throw(0)), now)


def _signed_intent(log: OrderingLog[State], seat: int, action: engine.Action,
                   counter: int | None = None, based_on: int | None = None) -> bytes:
    intent = Intent(GAME_ID, seat, counter if counter is not None else log.counters[seat] + 1,
                    based_on if based_on is not None else log.seq, action_bytes(action))
    return Envelope.seal(IDENTITIES[seat], GAME_ID, intent).encode()


def _signed_entry(log: OrderingLog[State], seats: tuple[int, ...], now: int) -> bytes:
    """A valid entry by the sequencer (seat 2) holding throw-ins of `seats`."""
    return _entry_from(log, _fair(log, [_signed_intent(log, s, throw(s)) for s in seats]))


# ---- the chain rules (R2-R6) -----------------------------------------------------------------


def _check(log: OrderingLog[State], raw: bytes) -> object:
    envelope = decode_envelope(raw)
    return check_entry(log.genesis, EngineMachine(GAME), _head(log), envelope, raw)


def _head(log: OrderingLog[State]):  # type: ignore[no-untyped-def]
    return log._head  # the committed head: what a validator checks against


def _entry_from(log: OrderingLog[State], items: list[bytes], **fields: object) -> bytes:
    entry = Entry(log.seq + 1, log.head_hash, 2, tuple(items),
                  FairnessWindow(0, len(items)) if len(items) > 1 else None)
    signer = fields.pop("signer", 2)
    entry = replace(entry, **fields)  # type: ignore[arg-type]
    return Envelope.seal(IDENTITIES[signer], GAME_ID, entry).encode()  # type: ignore[index]


def _fair(log: OrderingLog[State], items: list[bytes]) -> list[bytes]:
    genesis = log.genesis
    return sorted(items, key=lambda raw: fairness_key(
        log.head_hash, read_item(genesis, decode_envelope(raw), raw)))


@pytest.mark.parametrize(
    ("make", "reason"),
    [
        (lambda log: _entry_from(log, [_signed_intent(log, 0, throw(0))], seq=log.seq + 2),
         "expected position"),
        (lambda log: _entry_from(log, [_signed_intent(log, 0, throw(0))], prev_hash=bytes(32)),
         "prev_hash"),
        (lambda log: _entry_from(log, [_signed_intent(log, 0, throw(0))], sequencer=0),
         "sequencer"),
        (lambda log: _entry_from(log, [_signed_intent(log, 0, throw(0))], signer=4),
         "sequencer"),
        (lambda log: _entry_from(log, [_signed_intent(log, 0, throw(0), based_on=log.seq - 1)]),
         "based on"),
        (lambda log: _entry_from(log, [_signed_intent(log, 0, throw(0), counter=1)]),
         "already used"),
        (lambda log: _entry_from(log, [_signed_intent(log, 0, throw(0),
                                                      counter=log.counters[0] + 2)]),
         "skips ahead"),
        (lambda log: _entry_from(log, _fair(log, [_signed_intent(log, 0, throw(0)),
                                                  _signed_intent(log, 0, A.pass_(0))])),
         "second intent"),
        (lambda log: _entry_from(log, _fair(log, [_signed_intent(log, 0, throw(0)),
                                                  _signed_intent(log, 3, throw(3))]),
                                 fairness=None),
         "fair-ordered"),
        (lambda log: _entry_from(log, _fair(log, [_signed_intent(log, 0, throw(0)),
                                                  _signed_intent(log, 3, throw(3))]),
                                 fairness=FairnessWindow(0, 1)),
         "fair-ordered"),
        (lambda log: _entry_from(log, _fair(log, [_signed_intent(log, 0, throw(0)),
                                                  _signed_intent(log, 3, throw(3))])[::-1]),
         "fair order"),
        (lambda log: _entry_from(log, [_forged_seat(log)]), "naming seat"),
        (lambda log: _entry_from(log, [log.genesis.data]), "not an intent"),
    ],
)
def test_chain_rules_name_the_signer(make: Callable[[OrderingLog[State]], bytes],
                                     reason: str) -> None:
    wire, _ = race_logs()
    log = wire.logs[0]
    raw = make(log)
    with pytest.raises(EntryFault) as caught:
        _check(log, raw)
    assert reason in caught.value.reason
    envelope = decode_envelope(raw)
    assert caught.value.seat == log.genesis.seat_of(envelope.author)


def _forged_seat(log: OrderingLog[State]) -> bytes:
    """Seat 4 signs an intent that claims to be seat 0's."""
    intent = Intent(GAME_ID, 0, log.counters[0] + 1, log.seq, action_bytes(throw(0)))
    return Envelope.seal(IDENTITIES[4], GAME_ID, intent).encode()


def test_refused_item_is_skipped_and_consumes_its_counter() -> None:
    wire, _ = race_logs()
    log = wire.logs[0]
    items = _fair(log, [_signed_intent(log, 0, throw(0)),
                        _signed_intent(log, 3, A.throw(3, GAME.deck.parse("A♠")))])
    step = _check(log, _entry_from(log, items))
    outcomes = {o.item.seat: o for o in step.outcomes}  # type: ignore[attr-defined]
    assert outcomes[0].applied
    assert isinstance(outcomes[3].reject, MachineReject)
    assert step.head.counters[3] == log.counters[3] + 1  # type: ignore[attr-defined]


def test_two_acks_for_one_position_are_equivocation() -> None:
    wire, now = race_logs()
    log = wire.logs[0]
    log.receive(2, _signed_entry(wire.logs[2], (0,), now), now)
    seq = log.seq + 1
    first = Envelope.seal(IDENTITIES[4], GAME_ID, Ack(seq, sha256(b"a"), sha256(b"x"))).encode()
    second = Envelope.seal(IDENTITIES[4], GAME_ID, Ack(seq, sha256(b"b"), sha256(b"x"))).encode()
    effects = log.receive(4, first, now)
    assert any(isinstance(e, SendTo) and e.seat == 4 for e in effects)  # shown our entry
    effects = log.receive(4, second, now)
    (halted,) = [e for e in effects if isinstance(e, Halted)]
    diagnosis = halted.diagnosis
    assert (diagnosis.kind, diagnosis.seat, diagnosis.evidence) == (
        DiagnosisKind.EQUIVOCATION, 4, (first, second))


def test_ack_with_another_state_hash_is_divergence() -> None:
    wire, now = race_logs()
    log = wire.logs[0]
    entry = _signed_entry(wire.logs[2], (0,), now)
    log.receive(2, entry, now)
    ack = Ack(log.seq + 1, sha256(entry), sha256(b"x"))
    effects = log.receive(4, Envelope.seal(IDENTITIES[4], GAME_ID, ack).encode(), now)
    (halted,) = [e for e in effects if isinstance(e, Halted)]
    assert (halted.diagnosis.kind, halted.diagnosis.seat) == (DiagnosisKind.DIVERGENCE, 4)


def test_config_bounds() -> None:
    with pytest.raises(LocalProtocolError):
        LogConfig(window_ms=-1)
    with pytest.raises(LocalProtocolError):
        LogConfig(resend_ms=100, omit_ms=150)
    with pytest.raises(LocalProtocolError):
        LogConfig(omit_ms=3_000, censor_ms=2_000)


def test_envelope_by_a_stranger_is_dropped() -> None:
    wire, now = race_logs()
    log = wire.logs[0]
    stranger = Identity.from_seed(sha256(b"not at this table"))
    intent = Intent(GAME_ID, 3, log.counters[3] + 1, log.seq, action_bytes(throw(3)))
    effects = log.receive(3, Envelope.seal(stranger, GAME_ID, intent).encode(), now)
    (dropped,) = effects
    assert isinstance(dropped, Dropped)
    assert (dropped.from_seat, dropped.author) == (3, None)


def test_decoded_messages_are_accepted_like_bytes() -> None:
    """The channel hands the node decoded messages; the log takes them as they are."""
    wire, now = race_logs()
    for seat in THROWS:
        _, effects = wire.logs[seat].submit(action_bytes(throw(seat)), now)
        for effect in effects:
            assert isinstance(effect, Broadcast)
            for dst in range(6):
                if dst != seat:
                    wire.post(dst, wire.logs[dst].receive(seat, effect.message, now))
    wire.flush(now)
    assert len({(log.seq, log.state_hash) for log in wire.logs}) == 1
    assert len(wire.logs[0].state.table) == 5
