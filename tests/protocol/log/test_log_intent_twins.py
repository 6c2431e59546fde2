"""An author that signs two different intents under one counter for one position.

A cheater whose illegal intent is refused and who then plays on must do exactly this: counters
advance only when an intent is ordered (docs/protocol.md §10.2), so its next intent, at the same
position, carries the same counter (the node tests' misbehaving doubles do it after every cheat).
A cheater may also show one intent to some players and the other to the rest. Either way at most
one of the twins is ordered, every honest log commits the same entry, and nobody halts (§10.7:
it is no verdict — the reference log does not tell it from an honest re-decision).
"""

from __future__ import annotations

import pytest

from p2p_durak import engine
from p2p_durak.protocol.envelope import decode_envelope
from p2p_durak.protocol.log_effects import Halted
from p2p_durak.protocol.messages import Entry

from .netsim import TEST_CONFIG
from .test_log_units import _signed_intent, race_logs

TWIN_AUTHOR = 0  # seat 2 sequences at the race
HONEST = (1, 2, 3, 4, 5)


@pytest.mark.parametrize("split", [False, True], ids=["both-to-all", "one-to-each-half"])
def test_twin_intents_under_one_counter_order_one_and_every_log_agrees(split: bool) -> None:
    wire, now = race_logs()
    before = wire.logs[2].seq
    first, second = list(engine.legal_actions(wire.logs[2].state, TWIN_AUTHOR))[:2]
    twins = [_signed_intent(wire.logs[TWIN_AUTHOR], TWIN_AUTHOR, action)
             for action in (first, second)]
    for dst in HONEST:
        if split:  # the sequencer and seat 1 see the first twin, the others the second
            wire.queue.append((TWIN_AUTHOR, dst, twins[0] if dst in (1, 2) else twins[1]))
        else:
            wire.queue += [(TWIN_AUTHOR, dst, twin) for twin in twins]
    wire.flush(now)
    for step in range(40):  # the window closes, the entry is acked and committed everywhere
        at = now + TEST_CONFIG.window_ms + step * TEST_CONFIG.resend_ms
        wire.tick(at)
        wire.flush(at)
    logs = [wire.logs[seat] for seat in HONEST]
    assert {log.seq for log in logs} == {before + 1}
    assert len({log.entry_bytes(before + 1) for log in logs}) == 1
    assert len({log.state_hash for log in logs}) == 1
    assert all(log.halted is None for log in logs)
    assert not any(wire.of(seat, Halted) for seat in HONEST)
    entry = decode_envelope(logs[0].entry_bytes(before + 1)).message
    assert isinstance(entry, Entry)
    ordered = [raw for raw in entry.intents if raw in twins]
    assert len(ordered) == 1  # one twin, never both
