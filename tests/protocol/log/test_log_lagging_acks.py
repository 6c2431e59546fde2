"""Old acks (rule L2, docs/protocol.md § 10.6-10.7): a player whose ack the log does not wait
for (it left the table, and still follows the game) may lag any number of positions behind; its
old acks are late — harmless, no verdict, and it is shown the certificate it lacks. (Whom the
node names for an old message is decided from what the peer said on its own connection:
tests/node/test_partition_heal_in_process.py, tests/node/test_misbehaving_peers.py.)"""

from __future__ import annotations

import pytest

from p2p_durak.protocol.engine_machine import EngineMachine
from p2p_durak.protocol.envelope import decode_envelope
from p2p_durak.protocol.log_effects import SendTo
from p2p_durak.protocol.messages import Ack, CatchUpResponse

from .netsim import TEST_CONFIG
from .test_log_units import race_logs, throw

GONE = 5  # the seat that has left the table: no entry waits for its ack any more


def _is_ack_of(data: bytes) -> bool:
    return data[:2] == b"\x96\x05" and isinstance(decode_envelope(data).message, Ack)


def test_a_seat_that_left_may_lag_behind(
        monkeypatch: pytest.MonkeyPatch) -> None:
    wire, now = race_logs()
    before = wire.logs[0].seq
    # every seat but GONE is at the table (TableMachine.members after a graceful leave)
    monkeypatch.setattr(EngineMachine, "members",
                        lambda self, state: tuple(s for s in range(6) if s != GONE),
                        raising=False)
    wire.submit(0, throw(0), now)
    wire.flush(now, hold=lambda src, dst, data: src == GONE)  # the one that left is slow
    wire.tick(now + TEST_CONFIG.window_ms)
    wire.flush(now + TEST_CONFIG.window_ms, hold=lambda src, dst, data: src == GONE)
    member = wire.logs[0]
    assert member.seq == before + 1  # committed without GONE's ack
    # GONE's late ack arrives, twice (a duplicate with the same hashes): no fault, no verdict;
    # it is shown the certificate it lacks (rule L6), nothing else
    late = [data for src, dst, data in wire.queue if src == GONE and dst == 0
            and _is_ack_of(data)]
    assert late
    for data in late * 2:
        effects = member.receive(GONE, data, now + 50)
        assert all(isinstance(e, SendTo) and e.seat == GONE
                   and isinstance(e.message, CatchUpResponse) for e in effects), effects
    assert member.halted is None
    assert member.seq == before + 1
