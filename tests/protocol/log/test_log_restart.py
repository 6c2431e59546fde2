"""Rule L10: a player that restarts after a power cut (its journal lost what it signed last)
learns from its peers, before it signs anything, the intent it had pending and the entry it had
signed, so it never signs a second intent with a used counter, or a second entry for a
position (docs/protocol.md §10.8)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from p2p_durak import engine
from p2p_durak.engine import CHANCE
from p2p_durak.protocol.engine_machine import EngineMachine, action_bytes
from p2p_durak.protocol.envelope import decode_envelope
from p2p_durak.protocol.errors import LocalProtocolError
from p2p_durak.protocol.log import OrderingLog
from p2p_durak.protocol.log_effects import Committed, Halted, Rejected, SendTo
from p2p_durak.protocol.messages import Entry
from p2p_durak.protocol.transcript import Transcript

from .netsim import IDENTITIES, TEST_CONFIG, Kill, Plan, Sim
from .race import GAME, race_deck
from .test_log_faults import run_and_check
from .test_log_units import Wire, is_intent_to, race_logs, throw


def _power_cut(wire: Wire, seat: int, transcript: Transcript, initial: engine.State,
               now: int, game: engine.Game = GAME) -> OrderingLog[engine.State]:
    """`seat` comes back with `transcript` and no signed entry, and catches up from every
    other player (each answers the catch-up request it sends when their link comes up)."""
    wire.queue = [m for m in wire.queue if seat not in (m[0], m[1])]  # lost with the links
    log = OrderingLog.resume(IDENTITIES[seat], transcript, EngineMachine(game), initial,
                             config=TEST_CONFIG, now_ms=now)
    wire.logs[seat] = log
    assert log.recovering
    for peer in range(len(wire.logs)):
        if peer == seat:
            continue
        wire.post(peer, wire.logs[peer].peer_connected(seat, now))
        for effect in log.peer_connected(peer, now):
            assert isinstance(effect, SendTo)
            for reply in wire.logs[peer].receive(seat, effect.data, now):
                assert isinstance(reply, SendTo)
                if reply.seat == seat:
                    wire.post(seat, log.receive(peer, reply.data, now))
    assert not log.recovering
    return log


def test_a_restarted_player_takes_up_the_intent_its_peers_hold_instead_of_signing_another() -> None:
    wire, now = race_logs()
    thrown = wire.submit(0, throw(0), now)
    wire.flush(now, hold=is_intent_to(2, {0}))  # every peer but the sequencer holds it
    # The power goes out at seat 0: its journal has the committed log, not the intent.
    log = _power_cut(wire, 0, wire.logs[0].transcript(), engine.new_game(GAME, race_deck()),
                     now + 1)
    pending = log.own_pending
    assert pending is not None
    assert pending.counter == thrown.counter
    with pytest.raises(LocalProtocolError, match="pending"):  # no second intent, counter 1
        log.submit(action_bytes(engine.actions.pass_(0)), now + 1)
    later = now + TEST_CONFIG.resend_ms
    wire.tick(later)
    wire.flush(later)
    wire.tick(later + TEST_CONFIG.window_ms)
    wire.flush(later + TEST_CONFIG.window_ms)
    assert GAME.deck.parse("8♥") in wire.logs[2].state.table
    assert not [e for seat in range(6) for e in wire.of(seat, Rejected) + wire.of(seat, Halted)]


def test_a_sequencer_that_lost_its_first_entry_learns_it_before_it_orders() -> None:
    """Before the first commit there is no certificate, so the entry in flight cannot ride in
    a catch-up answer as a hint: it is sent on its own, ahead of the answer."""
    sim = Sim(3, Plan(seed=3), bots=False)
    wire = Wire([p.log for p in sim.peers])
    state = sim.initial
    sequencer = engine.sequencer(state)
    deal = engine.chance_outcome(state) or engine.legal_actions(state, CHANCE)[0]
    wire.post(sequencer, wire.logs[sequencer].submit(action_bytes(deal), 0)[1])

    def all_but_the_entry(src: int, dst: int, data: bytes) -> bool:  # its ack never arrives
        return src == sequencer and not isinstance(decode_envelope(data).message, Entry)

    wire.flush(0, hold=all_but_the_entry)
    assert all(log.next_state is not None for s, log in enumerate(wire.logs) if s != sequencer)
    log = _power_cut(wire, sequencer, wire.logs[sequencer].transcript(0), state, 5,
                     game=sim.game)
    assert log.next_state is not None, "it learned the entry it had signed"
    wire.tick(5)
    wire.flush(5)
    assert all(log.seq == 1 for log in wire.logs)
    assert not [e for seat in range(3) for e in wire.of(seat, Halted)]
    commits = {c.data for seat in range(3) for c in wire.of(seat, Committed)}
    assert len(commits) == 1



@st.composite
def power_cut_plans(draw: st.DrawFn) -> tuple[int, Plan]:
    n = draw(st.integers(2, 5), label="players")
    kills = draw(st.lists(
        st.builds(Kill, at_ms=st.integers(0, 2_000), seat=st.integers(0, n - 1),
                  down_ms=st.integers(1, 1_500), journal_lag=st.integers(0, 30),
                  power_cut=st.just(True)),
        min_size=1, max_size=2,
    ), label="kills")
    plan = Plan(
        seed=draw(st.integers(0, 1 << 16), label="seed"),
        drop=draw(st.sampled_from([0.0, 0.05]), label="drop"),
        max_delay_ms=draw(st.sampled_from([0, 3, 30]), label="delay"),
        think_ms=draw(st.sampled_from([0, 15, 150]), label="think"),
        kills=tuple(kills),
    )
    return n, plan


@settings(derandomize=True, max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(power_cut_plans())
def test_power_cuts_never_make_a_player_sign_twice(case: tuple[int, Plan]) -> None:
    """Players lose power (the journal lags and lost the entry they signed last) at random
    moments, bots choose afresh after the restart: nobody halts, the honest logs agree, and
    no player ever signed two intents with one counter for one position, or two entries for
    one position."""
    sim = run_and_check(*case)
    sim.check_no_double_signing()
