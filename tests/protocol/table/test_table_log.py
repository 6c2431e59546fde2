"""Whole games over the real stack below the node: signed intents, the ordered log, the table
machine with the mental-poker deck; every party with its own identity, log and secrets."""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable
from dataclasses import replace

import pytest

from p2p_durak import engine as eng
from p2p_durak.engine.presets import get_preset
from p2p_durak.protocol import codec
from p2p_durak.protocol.envelope import Envelope, decode_envelope
from p2p_durak.protocol.identity import Identity
from p2p_durak.protocol.log import OrderingLog
from p2p_durak.protocol.log_chain import fairness_key, read_item
from p2p_durak.protocol.log_effects import (
    Broadcast,
    Committed,
    Dropped,
    Halted,
    Rejected,
    SendTo,
)
from p2p_durak.protocol.messages import Ack, Entry, Intent, PlayerInfo, Start
from p2p_durak.protocol.table import AuditFinished, Moved, TableMachine
from p2p_durak.protocol.table_log import TableLogMachine
from p2p_durak.protocol.transcript import AuditError, Transcript, audit, replay

GAME_ID = b"table-log-test!!"


def _table(n: int, preset: str, seed: int) -> list[OrderingLog[TableMachine]]:
    rules = get_preset(preset).rules
    ids = [Identity.from_seed(bytes([seed, p]) * 16) for p in range(n)]
    start = Start(GAME_ID, codec.sha256(rules.canonical()),
                  tuple(PlayerInfo(i.peer_id, f"P{p}") for p, i in enumerate(ids)))
    envelope = Envelope.seal(ids[0], GAME_ID, start)
    logs = []
    for p, identity in enumerate(ids):
        machine = TableMachine(GAME_ID, p, n, rules, random.Random(seed * 97 + p).randbytes)
        logs.append(OrderingLog(identity, envelope, TableLogMachine(), machine))
    return logs


def _play(logs: list[OrderingLog[TableMachine]], seed: int, max_messages: int = 200_000,
          alter: Callable[[int, TableMachine, bytes], bytes] | None = None) -> dict[
        int, list[Committed[TableMachine]]]:
    """Play the game to its audit; `alter(party, table, payload)` may change what a party
    sends (a cheat)."""
    rng = random.Random(seed)
    wire: deque[tuple[int, int, bytes]] = deque()
    commits: dict[int, list[Committed[TableMachine]]] = {p: [] for p in range(len(logs))}
    now = 0

    def run(p: int, effects: list[object]) -> None:
        for eff in effects:
            if isinstance(eff, Broadcast):
                wire.extend((q, p, eff.data) for q in range(len(logs)) if q != p)
            elif isinstance(eff, SendTo):
                wire.append((eff.seat, p, eff.data))
            elif isinstance(eff, Committed):
                commits[p].append(eff)
            elif isinstance(eff, Halted):
                raise AssertionError(f"party {p} halted: {eff.diagnosis}")
            elif isinstance(eff, Rejected) and eff.seat == p:
                # Racing throw-ins and passes may lose their race (skipped by every peer
                # alike); a refused proof or card would be a bug.
                assert "proof" not in eff.detail, eff.detail
                assert "slot" not in eff.detail, eff.detail

    def act(p: int) -> None:
        log = logs[p]
        if log.own_pending is not None:
            return
        table = log.state
        payload = table.owed()
        if payload is None and p in table.waiting_for():
            legal = table.legal()
            if legal:
                payload = table.play(rng.choice(legal))
        if payload is not None and alter is not None:
            payload = alter(p, table, payload)
        if payload is not None:
            _, effects = log.submit(payload, now)
            run(p, effects)

    messages = 0
    while any(log.state.audit is None for log in logs):
        for p in rng.sample(range(len(logs)), len(logs)):
            act(p)
        if not wire:
            now += 60  # let fairness windows close
            for p, log in enumerate(logs):
                run(p, log.tick(now))
            continue
        to, frm, data = wire.popleft()
        run(to, logs[to].receive(frm, data, now))
        messages += 1
        assert messages < max_messages, "the game did not finish"
    return commits


@pytest.mark.parametrize(("preset", "n"), [("app_podkidnoy", 2), ("app_perevod_pokazom", 3)])
def test_a_whole_game_commits_identically_everywhere(preset: str, n: int) -> None:
    logs = _table(n, preset, seed=n)
    commits = _play(logs, seed=n)
    # every party committed the same entries with the same state hashes
    reference = [(c.seq, c.data, c.state_hash) for c in commits[0]]
    for p in range(1, n):
        assert [(c.seq, c.data, c.state_hash) for c in commits[p]][:len(reference)] == \
            reference[:len(commits[p])]
    finals = [log.state for log in logs]
    assert all(t.state is not None and t.state.result is not None for t in finals)
    assert len({eng.state_hash(t.state) for t in finals if t.state is not None}) == 1
    assert all(t.audit == AuditFinished(()) for t in finals)
    moves = [e for e in finals[0].history if isinstance(e, Moved) and e.seat >= 0]
    assert len(moves) > 10


def test_a_party_restarting_while_an_entry_is_in_flight_catches_up_and_the_game_ends() -> None:
    """Regression: the catch-up answer to a restarted party carried the entry in flight as if
    committed (no certificate), so the party could never rejoin and the table stalled."""
    n, seed = 3, 11
    logs = _table(n, "app_podkidnoy", seed)
    rng = random.Random(seed)
    wire: deque[tuple[int, int, bytes]] = deque()
    down: set[int] = set()
    dropped: list[str] = []
    now = 0

    def run(p: int, effects: list[object]) -> None:
        for eff in effects:
            if isinstance(eff, Broadcast):
                wire.extend((q, p, eff.data) for q in range(n) if q != p)
            elif isinstance(eff, SendTo):
                wire.append((eff.seat, p, eff.data))
            elif isinstance(eff, Halted):
                raise AssertionError(f"party {p} halted: {eff.diagnosis}")
            elif isinstance(eff, Dropped) and not eff.detail.startswith("intent "):
                # (a peer's intent still on the wire from before the crash, for a position
                # the restarted party has committed since, is a late retransmission: the node
                # tells it apart, `GameRunner._check_replay`; catch-up answers are what counts)
                dropped.append(f"party {p}: {eff.detail}")

    def act(p: int) -> None:
        log = logs[p]
        if p in down or log.own_pending is not None or log.recovering:
            return
        table = log.state
        payload = table.owed()
        if payload is None and p in table.waiting_for() and table.legal():
            payload = table.play(rng.choice(table.legal()))
        if payload is not None:
            run(p, log.submit(payload, now)[1])

    def pump(until: object, limit: int = 50_000) -> None:
        nonlocal now
        for _ in range(limit):
            if until():  # type: ignore[operator]
                return
            for p in range(n):
                act(p)
            if not wire:
                now += 60
                for p in range(n):
                    if p not in down:
                        run(p, logs[p].tick(now))
                continue
            to, frm, data = wire.popleft()
            if to in down or frm in down:
                continue
            run(to, logs[to].receive(frm, data, now))
        raise AssertionError("no progress")

    pump(lambda: logs[0].seq >= 40)
    # party 2 dies; its journal holds its committed log and the messages it made
    crashed = logs[2]
    transcript, made = crashed.transcript(), crashed.state.deck.made_messages()
    down.add(2)
    for p in (0, 1):
        run(p, logs[p].peer_disconnected(2, now))
    before = logs[0].seq
    pump(lambda: logs[0].seq == before and logs[0].signed_entry is not None and any(
        lg._flight is not None for lg in logs[:2]))  # an entry waits for party 2's ack
    rules = get_preset("app_podkidnoy").rules
    fresh = TableMachine(GAME_ID, 2, n, rules, random.Random(seed * 97 + 2).randbytes)
    fresh.deck.restore_made([(codec.encode(m.to_wire()), c) for m, c in made])
    identity = Identity.from_seed(bytes([seed, 2]) * 16)
    logs[2] = OrderingLog.resume(identity, transcript, TableLogMachine(), fresh, now_ms=now,
                                 signed_entry=crashed.signed_entry)
    down.clear()
    for p in (0, 1):
        run(p, logs[p].peer_connected(2, now))
        run(2, logs[2].peer_connected(p, now))
    pump(lambda: all(log.state.audit is not None for log in logs))
    assert len({log.state_hash for log in logs}) == 1
    # A party's deck step that another party orders (issue #22: the one party owing a step no
    # longer orders it itself) is re-sent by its author until its entry commits; the restarted
    # party may learn the entry by catch-up first and then get the retransmission: a late
    # message the log drops, which docs/protocol.md §10.7 says is no verdict. Nothing else.
    late = [d for d in dropped if d.endswith("its counter was already used")]
    assert [d for d in dropped if d not in late] == [], "honest catch-up answers were refused"
    assert all(d.startswith("party 2:") for d in late), late


def _rebuilt(logs: list[OrderingLog[TableMachine]], k: int, state_hash: bytes,
             tamper: bytes | None) -> Transcript:
    """Entries 1 … k of the game's transcript, entry k's deck steps re-signed by their authors
    (the first one's deck message replaced by `tamper` if given) and re-ordered fairly, entry
    k re-signed by its sequencer, and a certificate of every player's ack naming `state_hash`:
    what a forger holding every key could write."""
    ids = [Identity.from_seed(bytes([3, p]) * 16) for p in range(len(logs))]
    original = logs[0].transcript()
    genesis = logs[0].genesis
    old = decode_envelope(original.entries[k - 1]).message
    assert isinstance(old, Entry)
    items = []
    for number, raw in enumerate(old.intents):
        intent = decode_envelope(raw).message
        assert isinstance(intent, Intent)
        kind, _ = codec.decode(intent.action)
        assert kind == 0  # a deck step
        if number == 0 and tamper is not None:
            intent = replace(intent, action=codec.encode((0, tamper)))
        data = Envelope.seal(ids[intent.seat], GAME_ID, intent).encode()
        items.append(read_item(genesis, decode_envelope(data), data))
    items.sort(key=lambda item: fairness_key(old.prev_hash, item))
    entry = replace(old, intents=tuple(item.data for item in items))
    entry_data = Envelope.seal(ids[old.sequencer], GAME_ID, entry).encode()
    acks = tuple(Envelope.seal(ids[p], GAME_ID, Ack(k, codec.sha256(entry_data), state_hash))
                 .encode() for p in range(len(logs)))
    return Transcript(original.start, (*original.entries[: k - 1], entry_data), acks)


def test_the_deck_travels_in_the_transcript_and_the_audit_checks_it() -> None:
    """Every deck step is an intent in an entry: the saved transcript, audited by an observer
    in no seat (as `durak audit` does), replays into the very state every party holds, the
    whole game's deck included. A deck step rewritten and re-signed by someone holding every
    key (a key reveal that does not open its commitment) is refused by the deck's own check
    — the entry's certificate then names a state no honest replay reaches."""
    logs = _table(3, "app_podkidnoy", seed=3)
    commits = _play(logs, seed=3)
    rules = get_preset("app_podkidnoy").rules

    def observer() -> TableMachine:
        return TableMachine(GAME_ID, -1, 3, rules, random.Random(0).randbytes)

    transcript = Transcript.load(logs[0].transcript().save())
    steps = [codec.decode(decode_envelope(i).message.action)[0]  # type: ignore[union-attr]
             for raw in transcript.entries
             for i in decode_envelope(raw).message.intents]  # type: ignore[union-attr]
    assert steps.count(0) > 10  # deck steps, inside entries like every move
    report = audit(transcript, TableLogMachine(), observer())
    assert report.head.state_hash == logs[0].state_hash
    assert report.state.audit == AuditFinished(())
    final = replay(transcript, TableLogMachine(), observer()).state
    assert final is not None
    assert logs[0].state.state is not None
    assert eng.state_hash(final) == eng.state_hash(logs[0].state.state)  # (public: no hands)

    k = 2  # every party's key reveal
    at_k = commits[0][k - 1]
    assert at_k.seq == k
    control = _rebuilt(logs, k, at_k.state_hash, tamper=None)
    assert audit(control, TableLogMachine(), observer()).head.state_hash == at_k.state_hash
    first = decode_envelope(decode_envelope(transcript.entries[k - 1]).message.intents[0])
    step = codec.decode(first.message.action)[1]  # type: ignore[union-attr]
    forged = _rebuilt(logs, k, at_k.state_hash, tamper=step[:-1] + bytes([step[-1] ^ 1]))
    with pytest.raises(AuditError) as error:
        audit(forged, TableLogMachine(), observer())
    assert error.value.seq == k
    assert "state hash" in error.value.reason
