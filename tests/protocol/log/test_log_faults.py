"""N-party runs (2 to 6) over a network that drops, duplicates, reorders and delays messages and
kills and restarts players, with fault plans drawn by hypothesis: honest players always agree
(committed logs are prefixes of each other, equal positions have equal state hashes, every
transcript audits), nobody is accused, and the game keeps moving.

Every plan turns on every fault at once, for every table size, and each run checks that the
network really did each of them (`Sim.faults`), so no example passes on a quiet network. The
same plans, with one misbehaving player, are in test_log_adversaries.py."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from p2p_durak import engine

from .netsim import Kill, Plan, Sim

MAX_ENTRIES = 60
NETWORK_FAULTS = ("drop", "dup", "delay", "reorder", "kill")


@st.composite
def fault_plans(draw: st.DrawFn, n: int) -> Plan:
    """A plan for `n` players with every fault on: drops, duplicates, delays up to 3-100 ms
    (which reorder messages on a link) and one or two kills, some of them power cuts."""
    kills = draw(st.lists(
        st.builds(
            Kill,
            at_ms=st.integers(0, 1_500),
            seat=st.integers(0, n - 1),
            down_ms=st.integers(1, 1_500),
            journal_lag=st.integers(0, 30),
            power_cut=st.booleans(),
        ),
        min_size=1,
        max_size=2,
    ), label="kills")
    return Plan(
        seed=draw(st.integers(0, 1 << 16), label="seed"),
        drop=draw(st.sampled_from([0.05, 0.25]), label="drop"),
        dup=draw(st.sampled_from([0.1, 0.3]), label="dup"),
        max_delay_ms=draw(st.sampled_from([3, 30, 100]), label="delay"),
        think_ms=draw(st.sampled_from([0, 15, 150]), label="think"),
        kills=tuple(kills),
    )


def check_every_fault_happened(sim: Sim) -> None:
    missing = [kind for kind in NETWORK_FAULTS if not sim.faults[kind]]
    assert not missing, f"the plan never did {missing}: {dict(sim.faults)}"


def run_and_check(n: int, plan: Plan) -> Sim:
    sim = Sim(n, plan)
    sim.run(until_ms=120_000, max_entries=MAX_ENTRIES)
    for peer in sim.peers:
        assert peer.halted is None, (peer.seat, peer.halted)
    sim.check_agreement()
    for peer in sim.peers:
        log = peer.log
        assert not log.recovering, f"seat {peer.seat} never finished recovering"
        assert log.seq >= MAX_ENTRIES or engine.is_over(log.state), (peer.seat, log.seq)
    return sim


@pytest.mark.slow
@pytest.mark.parametrize("n", range(2, 7))
@settings(derandomize=True, max_examples=6, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_honest_players_agree_under_network_faults(n: int, data: st.DataObject) -> None:
    sim = run_and_check(n, data.draw(fault_plans(n), label="plan"))
    check_every_fault_happened(sim)


@pytest.mark.slow
def test_restart_from_an_empty_journal_replays_the_whole_log() -> None:
    """A player that comes back with nothing catches up over more entries than one catch-up
    response holds (seed 64 plays 251 entries; a response holds at most 249)."""
    plan = Plan(seed=64, kills=(Kill(at_ms=10_000, seat=1, down_ms=50, journal_lag=10_000),))
    sim = Sim(6, plan)
    sim.run(until_ms=9_999)
    assert engine.is_over(sim.peers[0].log.state)
    total = sim.peers[0].log.seq
    assert total > 249
    sim.run()
    log = sim.peers[1].log
    assert not log.recovering
    assert log.seq == total
    assert log.state_hash == sim.peers[0].log.state_hash
    assert all(p.halted is None for p in sim.peers)
    sim.check_agreement()
