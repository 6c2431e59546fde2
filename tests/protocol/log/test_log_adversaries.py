"""Misbehaving players: each misbehaviour is detected, nothing of it is applied, and the
diagnosis names the offender. Honest players never fork."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from p2p_durak import engine
from p2p_durak.engine import actions as A
from p2p_durak.protocol.codec import sha256
from p2p_durak.protocol.engine_machine import action_bytes
from p2p_durak.protocol.envelope import Envelope, decode_envelope
from p2p_durak.protocol.errors import RemoteProtocolError
from p2p_durak.protocol.log_effects import Broadcast, DiagnosisKind, SendTo
from p2p_durak.protocol.messages import (
    Ack,
    CatchUpResponse,
    Entry,
    FairnessWindow,
    Intent,
    RejectCode,
)

from .netsim import GAME_ID, IDENTITIES, Kill, Peer, Plan, Sim
from .test_log_faults import MAX_ENTRIES, check_every_fault_happened, fault_plans

PLAN = Plan(seed=5, max_delay_ms=3)


def own_envelope(peer: Peer, effect: Broadcast | SendTo, kind: type) -> Envelope | None:
    """The effect's message if it is an envelope of `kind` signed by `peer`."""
    message = effect.message
    if (isinstance(message, Envelope) and isinstance(message.message, kind)
            and message.author == IDENTITIES[peer.seat].peer_id):
        return message
    return None


def reseal(peer: Peer, payload: Entry | Ack | Intent) -> bytes:
    return Envelope.seal(IDENTITIES[peer.seat], GAME_ID, payload).encode()


def assert_all_honest_halted(sim: Sim, kind: DiagnosisKind, seat: int) -> None:
    for peer in sim.honest():
        assert peer.halted is not None, f"seat {peer.seat} did not notice"
        assert (peer.halted.kind, peer.halted.seat) == (kind, seat), peer.halted
        assert peer.halted.evidence
    sim.check_agreement()


class Equivocator(Peer):
    """Signs a second, different entry for each position it sequences and shows it to half
    the table."""

    def outbound(self, effect: Broadcast | SendTo) -> list[tuple[int, bytes]]:
        envelope = own_envelope(self, effect, Entry)
        sends = super().outbound(effect)
        if envelope is None:
            return sends
        entry = envelope.message
        assert isinstance(entry, Entry)
        if len(entry.intents) > 1:
            kept = entry.intents[:-1]
            fairness = FairnessWindow(0, len(kept)) if len(kept) > 1 else None
            other = replace(entry, intents=kept, fairness=fairness)
        else:
            other = replace(entry, fairness=None if entry.fairness else FairnessWindow(0, 1))
        second = reseal(self, other)
        return [(dst, data if dst % 2 else second) for dst, data in sends]


class Liar(Peer):
    """Acknowledges every entry with a state hash of its own invention."""

    def outbound(self, effect: Broadcast | SendTo) -> list[tuple[int, bytes]]:
        envelope = own_envelope(self, effect, Ack)
        if envelope is None:
            return super().outbound(effect)
        ack = envelope.message
        assert isinstance(ack, Ack)
        lie = reseal(self, replace(ack, state_hash=sha256(b"lie" + ack.state_hash)))
        return [(dst, lie) for dst, _ in super().outbound(effect)]


class PhantomAcker(Peer):
    """Acknowledges entry hashes that belong to no entry, everywhere it shows an ack."""

    def phantom(self, data: bytes) -> bytes:
        envelope = decode_envelope(data)
        ack = envelope.message
        if not isinstance(ack, Ack) or envelope.author != IDENTITIES[self.seat].peer_id:
            return data
        return reseal(self, replace(ack, entry_hash=sha256(b"phantom" + ack.entry_hash)))

    def outbound(self, effect: Broadcast | SendTo) -> list[tuple[int, bytes]]:
        if self.log.halted is not None:
            return []  # it never shows anything but phantoms
        message = effect.message
        if isinstance(message, CatchUpResponse):  # certificates carry its acks too
            message = replace(message, entries=tuple(map(self.phantom, message.entries)))
            return [(dst, message.encode()) for dst, _ in super().outbound(effect)]
        if own_envelope(self, effect, Ack) is None:
            return super().outbound(effect)
        lie = self.phantom(effect.data)
        return [(dst, lie) for dst, _ in super().outbound(effect)]


class LeakyPhantomAcker(PhantomAcker):
    """Acknowledges phantom entry hashes, but lets its true acks out in certificates: it has
    signed two different acks for one position."""

    def outbound(self, effect: Broadcast | SendTo) -> list[tuple[int, bytes]]:
        if isinstance(effect.message, CatchUpResponse):
            return Peer.outbound(self, effect)
        return super().outbound(effect)


class EntryRewriter(Peer):
    """Rewrites the entries it sequences (`rewrite` returns None to leave one alone)."""

    def rewrite(self, entry: Entry) -> Entry | None:
        raise NotImplementedError

    def outbound(self, effect: Broadcast | SendTo) -> list[tuple[int, bytes]]:
        envelope = own_envelope(self, effect, Entry)
        sends = super().outbound(effect)
        if envelope is None or self.log.halted is not None:
            return sends  # (a halted log re-broadcasts evidence: leave that alone)
        entry = envelope.message
        assert isinstance(entry, Entry)
        other = self.rewrite(entry)
        if other is None:
            return sends
        data = reseal(self, other)
        return [(dst, data) for dst, _ in sends]


class UnfairSequencer(EntryRewriter):
    """Puts racing intents in the order it likes (reversed fair order)."""

    def rewrite(self, entry: Entry) -> Entry | None:
        if len(entry.intents) < 2:
            return None
        return replace(entry, intents=tuple(reversed(entry.intents)))


class ForgingSequencer(EntryRewriter):
    """Slips an intent with a forged signature into its first entry."""

    def rewrite(self, entry: Entry) -> Entry | None:
        first = decode_envelope(entry.intents[0])
        forged = bytearray(first.encode())
        forged[-1] ^= 1  # the last byte belongs to the signature
        return replace(entry, intents=(bytes(forged),))


class ReplayingSequencer(EntryRewriter):
    """Orders, again, an intent that was already committed."""

    def rewrite(self, entry: Entry) -> Entry | None:
        if entry.seq < 3:
            return None
        old = decode_envelope(self.log.entry_bytes(1)).message
        assert isinstance(old, Entry)
        return replace(entry, intents=old.intents[:1], fairness=None)


class Censor(Peer):
    """Never lets the victim's intents reach its log (so it never orders them)."""

    victim = 1

    def inbound(self, from_seat: int, data: bytes) -> bool:
        envelope = self.sim.cache.get(data)
        if envelope is None:
            try:
                envelope = decode_envelope(data)
            except RemoteProtocolError:
                return True  # a catch-up message
        return not (isinstance(envelope.message, Intent)
                    and envelope.author == IDENTITIES[self.victim].peer_id)


@pytest.mark.parametrize(
    ("cls", "kind", "n"),
    [
        (Equivocator, DiagnosisKind.EQUIVOCATION, 4),
        (Equivocator, DiagnosisKind.EQUIVOCATION, 3),
        (Liar, DiagnosisKind.DIVERGENCE, 4),
        (PhantomAcker, DiagnosisKind.BOGUS_ACK, 3),
        (LeakyPhantomAcker, DiagnosisKind.EQUIVOCATION, 3),
        (ForgingSequencer, DiagnosisKind.INVALID_ENTRY, 4),
        (ReplayingSequencer, DiagnosisKind.INVALID_ENTRY, 3),
        (UnfairSequencer, DiagnosisKind.INVALID_ENTRY, 5),
        (Censor, DiagnosisKind.CENSORSHIP, 3),
    ],
)
def test_misbehaviour_is_detected_and_named(cls: type[Peer], kind: DiagnosisKind, n: int) -> None:
    # Seat 0 deals, so it sequences the first entries; the unfair sequencer needs a race.
    bad = 0
    sim = Sim(n, PLAN, peer_class={bad: cls})
    sim.peers[bad].honest = False
    sim.run(until_ms=120_000)
    assert_all_honest_halted(sim, kind, bad)


def settled(players: int = 3, after_ms: int = 20) -> Sim:
    """A table a few moves into the game, with the bots paused so the state holds still."""
    sim = Sim(players, PLAN)
    sim.run(until_ms=after_ms)
    sim.pause_bots()
    assert sim.peers[0].log.seq >= 3
    return sim


def finish(sim: Sim) -> None:
    """The game goes on to its end and nobody halts: the bad input changed nothing."""
    sim.resume_bots()
    sim.run()
    assert all(p.halted is None for p in sim.peers)
    sim.check_agreement()


def test_forged_intent_is_dropped_naming_the_sender() -> None:
    sim = settled()
    victim = sim.peers[1]
    intent = Intent(GAME_ID, 1, victim.log.counters[1] + 1, victim.log.seq,
                    action_bytes(A.pass_(1)))
    signed = bytearray(Envelope.seal(IDENTITIES[1], GAME_ID, intent).encode())
    signed[-1] ^= 0x80  # seat 2 forwards seat 1's intent with one signature bit flipped
    seqs = [p.log.seq for p in sim.peers]
    sim.inject(2, bytes(signed), dests=[0, 1])
    sim.run(until_ms=sim.now + 10)
    for peer in sim.peers[:2]:
        assert any(d.from_seat == 2 and "signature" in d.detail for d in peer.dropped)
    assert [p.log.seq for p in sim.peers] == seqs
    finish(sim)


def test_replayed_intent_is_refused_naming_the_sender() -> None:
    sim = settled()
    entry = decode_envelope(sim.peers[0].log.entry_bytes(1)).message
    assert isinstance(entry, Entry)
    old_intent = entry.intents[0]  # seat 0's deal, committed at position 1
    seqs = [p.log.seq for p in sim.peers]
    sim.inject(2, old_intent)
    sim.run(until_ms=sim.now + 10)
    assert any(d.from_seat == 2 and d.author == 0 and "already used" in d.detail
               for d in sim.peers[1].dropped), sim.peers[1].dropped
    assert [p.log.seq for p in sim.peers] == seqs
    finish(sim)


def test_illegal_action_is_rejected_naming_its_author() -> None:
    sim = settled()
    log = sim.peers[2].log
    deck = log.state.game.deck
    # Whatever the state, nobody may lead the ace of spades and the ace of hearts together.
    action = A.lead(2, deck.parse("A♠"), deck.parse("A♥"))
    intent = Intent(GAME_ID, 2, log.counters[2] + 1, log.seq, action_bytes(action))
    seqs = [p.log.seq for p in sim.peers]
    sim.inject(2, Envelope.seal(IDENTITIES[2], GAME_ID, intent).encode())
    sim.run(until_ms=sim.now + 10)
    for peer in sim.peers[:2]:
        assert any(r.seat == 2 and r.seq is None and r.intent == intent.intent_id
                   and r.code in (RejectCode.ILLEGAL_ACTION, RejectCode.NOT_YOUR_TURN)
                   for r in peer.rejected), peer.rejected
    assert [p.log.seq for p in sim.peers] == seqs
    finish(sim)


ADVERSARIES = (Equivocator, Liar, PhantomAcker, LeakyPhantomAcker, ForgingSequencer,
               ReplayingSequencer, UnfairSequencer, Censor)


@pytest.mark.slow
@pytest.mark.parametrize("n", range(2, 7))
@settings(derandomize=True, max_examples=5, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(cls=st.sampled_from(ADVERSARIES), bad=st.integers(0, 5), data=st.data())
def test_misbehaviour_over_a_faulty_network_never_forks_nor_blames_the_honest(
    n: int, cls: type[Peer], bad: int, data: st.DataObject
) -> None:
    """The fault plans of test_log_faults.py (drops, duplicates, delays and reorders, kills and
    power cuts, every one of them happening) with one misbehaving player: the honest players
    agree, or stop with a diagnosis naming that player (or wait, saying so, for it alone) —
    never a silent fork, never a silent stall, never an honest player named."""
    bad %= n
    plan = data.draw(fault_plans(n), label="plan")
    sim = Sim(n, plan, peer_class={bad: cls})
    sim.peers[bad].honest = False
    sim.run(until_ms=120_000, max_entries=MAX_ENTRIES)
    sim.check_agreement()
    if not any(peer.halted for peer in sim.honest()):
        check_every_fault_happened(sim)  # (a run that halts at once sees few messages)
    for peer in sim.honest():
        if peer.halted is not None:
            assert peer.halted.seat == bad, (peer.seat, peer.halted)
            assert peer.halted.evidence
        else:
            # Or it waits, saying so (`Waiting`, "waiting for X"), for that player alone: one
            # that falls silent proves nothing, and the node's grace period takes over.
            log = peer.log
            finished = log.seq >= MAX_ENTRIES or engine.is_over(log.state)
            waits_for_it = bool(peer.waiting) and peer.waiting[-1].seats == {bad}
            assert finished or waits_for_it, \
                f"seat {peer.seat} stalls at {log.seq} without a diagnosis"


class ForgerInTheDark(EntryRewriter):
    """Orders honestly up to position 2, then forges; it tells seat 2 nothing but its entries
    (no acks, no certificates), so seat 2 must learn every position from seat 1."""

    def rewrite(self, entry: Entry) -> Entry | None:
        return ForgingSequencer.rewrite(self, entry) if entry.seq > 2 else None

    def outbound(self, effect: Broadcast | SendTo) -> list[tuple[int, bytes]]:
        sends = super().outbound(effect)
        if own_envelope(self, effect, Entry) is not None:
            return sends
        return [(dst, data) for dst, data in sends if dst != 2]


class DeafToAcks(Peer):
    """Honest, but acks from position 2 on never reach it on their own, only in
    certificates (a lossy link)."""

    def inbound(self, from_seat: int, data: bytes) -> bool:
        envelope = self.sim.cache.get(data)
        return not (envelope is not None and isinstance(envelope.message, Ack)
                    and envelope.message.seq >= 2)


def test_a_player_behind_the_proof_gets_the_position_it_lacks_from_a_halted_peer() -> None:
    """Seat 1 commits position k and halts on the forged entry k + 1. Seat 2 still lacks acks
    of position k, so it cannot check entry k + 1 — nor learn position k from the forger.
    Seat 1, although halted, shows it position k's certificate and then the proof, and seat 2
    halts naming the forger instead of waiting silently (rule L4). (The forger's log holds the
    honest entry k + 1 too, and may let it out: then that is equivocation.)"""
    sim = Sim(3, PLAN, peer_class={0: ForgerInTheDark, 2: DeafToAcks})
    sim.peers[0].honest = False
    sim.run(until_ms=120_000)
    verdicts = [p.halted for p in sim.honest()]
    assert all(v is not None and v.seat == 0 and v.evidence for v in verdicts), verdicts
    witness = sim.peers[1].halted
    assert witness is not None
    assert witness.kind == DiagnosisKind.INVALID_ENTRY
    forged = {v.seq for v in verdicts if v is not None}
    assert len(forged) == 1
    assert forged.pop() > 3
    assert {p.log.seq for p in sim.honest()} == {sim.peers[1].log.seq}
    sim.check_agreement()


@pytest.mark.parametrize("dup", [0.0, 0.3])
def test_a_restarted_player_offered_a_phantom_certificate_names_the_acker(dup: float) -> None:
    """Two players; seat 0 acks only phantoms, so seat 1 commits nothing while seat 0 commits
    entry 1 with seat 1's true ack. Seat 1 restarts and asks seat 0 for catch-up: the answer's
    certificate holds seat 0's own phantom ack. Seat 1 names seat 0 (BOGUS_ACK) rather than
    waiting in recovery for ever, and a refused answer never draws an immediate new request
    (with duplicating links that ping-pong grew without bound)."""
    plan = Plan(seed=5, max_delay_ms=3, dup=dup, kills=(Kill(at_ms=100, seat=1, down_ms=50),))
    sim = Sim(2, plan, peer_class={0: PhantomAcker})
    sim.peers[0].honest = False
    sim.run(until_ms=1_000)
    assert sim.faults["kill"] == 1
    assert sim.peers[0].log.seq >= 1 > sim.peers[1].log.seq
    witness = sim.peers[1].halted
    assert witness is not None
    assert (witness.kind, witness.seat) == (DiagnosisKind.BOGUS_ACK, 0)
    assert sim.delivered < 200, sim.delivered
    sim.check_agreement()


class LossyWitness(Peer):
    """An honest player whose proof broadcast, made as it halts, is lost on the way."""

    lost = False

    def outbound(self, effect: Broadcast | SendTo) -> list[tuple[int, bytes]]:
        if self.log.halted is not None and isinstance(effect, Broadcast) and not self.lost:
            self.lost = True
            return []
        return super().outbound(effect)


@pytest.mark.parametrize("witness", [1, 2])
def test_a_lost_proof_is_shown_again_to_whoever_still_talks(witness: int) -> None:
    sim = Sim(3, PLAN, peer_class={0: Equivocator, witness: LossyWitness})
    sim.peers[0].honest = False
    sim.run(until_ms=120_000)
    assert_all_honest_halted(sim, DiagnosisKind.EQUIVOCATION, 0)
