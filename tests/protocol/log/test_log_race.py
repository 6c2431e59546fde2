"""Five attackers throw in at the same instant (6 players, app_podkidnoy): every peer converges to
one identical state, the fair order (not the sequencer, not the network) decides who gets in,
and the bout limit (≤ 6 attack cards, ≤ 5 in the first bout, never more uncovered cards than the
defender holds) is never exceeded — in the race, and for the rest of the game. A sequencer that
signs the race in another order is named by every other peer (rule R5)."""

from __future__ import annotations

import itertools
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from p2p_durak.engine import State
from p2p_durak.protocol.envelope import Envelope, decode_envelope
from p2p_durak.protocol.log_chain import fairness_key, read_item
from p2p_durak.protocol.log_effects import Broadcast, DiagnosisKind, SendTo
from p2p_durak.protocol.messages import Entry, RejectCode

from .netsim import GAME_ID, IDENTITIES, Kill, Peer, Plan, Sim
from .race import GAME, THROWS, play_to_the_race, throw_all


def assert_converged(sim: Sim) -> State:
    hashes = {p.log.state_hash for p in sim.peers}
    seqs = {p.log.seq for p in sim.peers}
    assert len(hashes) == 1
    assert len(seqs) == 1
    assert all(p.halted is None for p in sim.peers)
    sim.check_agreement()
    return sim.peers[0].log.state


def test_five_throw_ins_at_one_instant_fair_order_decides() -> None:
    sim = play_to_the_race(Plan(seed=1))
    before = sim.peers[0].log
    prev_hash, race_seq = before.head_hash, before.seq + 1
    throw_all(sim)
    state = assert_converged(sim)
    assert len(state.table) == 5  # the lead and four throw-ins: the first bout's limit
    entry = decode_envelope(sim.peers[0].log.entry_bytes(race_seq)).message
    assert isinstance(entry, Entry)
    assert entry.fairness is not None
    assert entry.fairness.ordered == len(entry.intents) == 5
    genesis = sim.peers[0].log.genesis
    items = [read_item(genesis, decode_envelope(raw), raw) for raw in entry.intents]
    keys = [fairness_key(prev_hash, item) for item in items]
    assert keys == sorted(keys)
    winners, loser = items[:4], items[4]
    table = set(state.table)
    for item in winners:
        assert GAME.deck.parse(THROWS[item.seat]) in table
    for peer in sim.peers:
        (rejected,) = [r for r in peer.rejected if r.seq == race_seq]
        assert (rejected.seat, rejected.code) == (loser.seat, RejectCode.LIMIT_REACHED)


def test_arrival_order_cannot_change_who_wins() -> None:
    """Whatever order the intents reach the sequencer in (all within the window), the entry is
    byte-for-byte the same."""
    entries = set()
    for order in itertools.islice(itertools.permutations(THROWS), 0, 120, 29):
        sim = play_to_the_race(Plan(seed=1, max_delay_ms=0))
        race_seq = sim.peers[0].log.seq + 1
        throw_all(sim, order)
        assert_converged(sim)
        entries.add(sim.peers[2].log.entry_bytes(race_seq))
    for delay_seed in range(3):  # jittered arrivals, shorter than the fairness window
        sim = play_to_the_race(Plan(seed=100 + delay_seed, max_delay_ms=15))
        race_seq = sim.peers[0].log.seq + 1
        throw_all(sim)
        assert_converged(sim)
        entries.add(sim.peers[2].log.entry_bytes(race_seq))
    assert len(entries) == 1


@pytest.mark.slow
@settings(derandomize=True, max_examples=10, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 1 << 16),
    delay=st.sampled_from([0, 10, 60, 150]),
    drop=st.sampled_from([0.0, 0.2]),
    dup=st.sampled_from([0.0, 0.3]),
    kill=st.none() | st.builds(Kill, at_ms=st.integers(0, 60), seat=st.sampled_from([0, 2, 5]),
                               down_ms=st.integers(1, 500), power_cut=st.booleans()),
)
def test_racing_throw_ins_converge_under_faults(
    seed: int, delay: int, drop: float, dup: float, kill: Kill | None
) -> None:
    """The race over a faulty network, perhaps with a thrower or the defender (who sequences
    the race) killed within 60 ms of it: every peer still ends in one state."""
    sim = play_to_the_race(Plan(seed=seed, max_delay_ms=delay, drop=drop, dup=dup))
    if kill is not None:
        sim.kill_later(replace(kill, at_ms=sim.now + kill.at_ms))
    throw_all(sim)
    if kill is not None:
        assert sim.faults["kill"] == 1
    state = assert_converged(sim)
    assert 2 <= len(state.table) <= 5
    sim.resume_bots()  # and the rest of the game, with the limits checked at every commit
    sim.run(max_entries=50)
    assert_converged(sim)


class SwappingSequencer(Peer):
    """The defender, sequencing the race, signs the five throw-ins with the first two swapped:
    the thrower the fair order put second gets in first."""

    def outbound(self, effect: Broadcast | SendTo) -> list[tuple[int, bytes]]:
        sends = super().outbound(effect)
        envelope = effect.message
        if not (isinstance(envelope, Envelope) and isinstance(envelope.message, Entry)
                and envelope.author == IDENTITIES[self.seat].peer_id
                and len(envelope.message.intents) > 1):
            return sends
        entry = envelope.message
        first, second, *rest = entry.intents
        swapped = replace(entry, intents=(second, first, *rest))
        data = Envelope.seal(IDENTITIES[self.seat], GAME_ID, swapped).encode()
        return [(dst, data) for dst, _ in sends]


def test_a_sequencer_that_orders_the_race_its_own_way_is_named() -> None:
    """Every peer checks the order (rule R5): the swapped entry is refused by all five others
    as INVALID_ENTRY naming the defender, with the reason, and nothing of it is committed."""
    sim = play_to_the_race(Plan(seed=1), peer_class={2: SwappingSequencer})
    sim.peers[2].honest = False
    before = sim.peers[0].log.seq
    throw_all(sim)
    for peer in sim.honest():
        verdict = peer.halted
        assert verdict is not None, f"seat {peer.seat} did not notice"
        assert (verdict.kind, verdict.seat, verdict.seq) == (
            DiagnosisKind.INVALID_ENTRY, 2, before + 1)
        assert "fair order" in verdict.detail
        assert peer.log.seq == before
        assert len(peer.log.state.table) == 1  # the lead, beaten: no throw-in got in
    sim.check_agreement()
