"""Five attackers throw in at the same instant (6 players, app_podkidnoy): every peer converges to
one identical state, the fair order (not the sequencer, not the network) decides who gets in,
and the bout limit (≤ 6 attack cards, ≤ 5 in the first bout, never more uncovered cards than the
defender holds) is never exceeded — in the race, and for the rest of the game."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from p2p_durak import engine
from p2p_durak.engine import CHANCE, Game, Phase, State
from p2p_durak.engine import actions as A
from p2p_durak.protocol.envelope import decode_envelope
from p2p_durak.protocol.log_chain import fairness_key, read_item
from p2p_durak.protocol.log_effects import Committed
from p2p_durak.protocol.messages import Entry, RejectCode

from .netsim import Peer, Plan, Sim, make_game

# Dealer 0, trump hearts (seat 0's last card, A♥, is turned: no stock with six players). Seat 1
# holds the lowest trump and leads 7♠; seat 2 defends with 8♠; then seats 0, 1, 3, 4 and 5 each
# hold one card of a rank on the table: five throw-ins race for the first bout's four places.
HANDS = {
    0: "8♥ 10♥ J♥ Q♥ K♥ A♥",
    1: "6♥ 7♠ 7♣ 9♠ 9♣ 10♠",
    2: "8♠ 7♥ 9♦ 10♣ 10♦ J♠",
    3: "7♦ J♣ J♦ Q♠ Q♣ 6♠",
    4: "8♣ Q♦ K♠ K♣ K♦ 6♣",
    5: "8♦ A♠ A♣ A♦ 6♦ 9♥",
}
THROWS = {0: "8♥", 1: "7♣", 3: "7♦", 4: "8♣", 5: "8♦"}
GAME: Game = make_game(6)


def race_deck() -> list[int]:
    """One card at a time, clockwise from the dealer's left."""
    deck = GAME.deck
    hands = {seat: [deck.parse(c) for c in text.split()] for seat, text in HANDS.items()}
    return [hands[(k + 1) % 6][k // 6] for k in range(36)]


def check_bout_limits(peer: Peer, commit: Committed[State]) -> None:
    state = commit.state
    if state.phase != Phase.BOUT:
        return
    limit = 5 if state.bout == 0 else 6
    assert len(state.table) <= limit, f"{len(state.table)} attack cards in bout {state.bout}"
    uncovered = sum(1 for cover in state.covers if cover == engine.UNKNOWN)
    assert uncovered <= state.hand_size(state.defender), "more uncovered cards than the defender"


def settle(sim: Sim) -> None:
    sim.run(until_ms=sim.now + 30_000)


def play_to_the_race(plan: Plan) -> Sim:
    """Deal, claims, lead 7♠, beat with 8♠: the table just before the five throw-ins."""
    sim = Sim(6, plan, game=GAME, deck=race_deck(), bots=False)
    sim.commit_hooks.append(check_bout_limits)
    deck = GAME.deck
    while True:
        state = sim.peers[0].log.state
        if state.phase == Phase.BOUT:
            break
        actors = engine.to_act(state)
        if CHANCE in actors:
            seat = engine.sequencer(state)
            action = engine.chance_outcome(state)
            assert action is not None
        elif state.phase == Phase.LEAD:
            seat, action = 1, A.lead(1, deck.parse("7♠"))
        else:
            (seat,) = actors
            (action,) = engine.legal_actions(state, seat)
        sim.submit(seat, action)
        settle(sim)
    sim.submit(2, A.beat(2, deck.parse("8♠"), 0))
    settle(sim)
    state = sim.peers[0].log.state
    assert engine.to_act(state) == frozenset(THROWS)
    assert engine.sequencer(state) == 2
    return sim


def throw_all(sim: Sim, order: tuple[int, ...] = tuple(THROWS)) -> None:
    for seat in order:  # the same simulated instant
        sim.submit(seat, A.throw(seat, GAME.deck.parse(THROWS[seat])))
    settle(sim)


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
    genesis_free = sim.peers[0].log  # read items with the chain's own reader
    items = [read_item(genesis_free._g, decode_envelope(raw), raw) for raw in entry.intents]
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
@settings(derandomize=True, max_examples=6, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 1 << 16),
    delay=st.sampled_from([0, 10, 60, 150]),
    drop=st.sampled_from([0.0, 0.2]),
    dup=st.sampled_from([0.0, 0.3]),
)
def test_racing_throw_ins_converge_under_faults(
    seed: int, delay: int, drop: float, dup: float
) -> None:
    sim = play_to_the_race(Plan(seed=seed, max_delay_ms=delay, drop=drop, dup=dup))
    throw_all(sim)
    state = assert_converged(sim)
    assert 2 <= len(state.table) <= 5
    sim.resume_bots()  # and the rest of the game, with the limits checked at every commit
    sim.run(max_entries=90)
    assert_converged(sim)
