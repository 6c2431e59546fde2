"""The committed log as a transcript: saved, loaded, replayed into the same final state, and
audited — every signature, every hash link, every chain rule, every entry re-applied, the final
certificate — with the first bad position and its signer named."""

from __future__ import annotations

from dataclasses import replace

import pytest

from p2p_durak import engine
from p2p_durak.protocol.envelope import Envelope, decode_envelope
from p2p_durak.protocol.messages import Ack, Entry, FairnessWindow
from p2p_durak.protocol.transcript import (
    AuditError,
    Transcript,
    TranscriptError,
    audit,
    replay,
)

from .netsim import GAME_ID, IDENTITIES, Plan, Sim


@pytest.fixture(scope="module")
def game() -> tuple[Sim, Transcript]:
    sim = Sim(3, Plan(seed=3))
    sim.run()
    assert engine.is_over(sim.peers[0].log.state)
    return sim, sim.peers[1].log.transcript()


def signer(raw: bytes) -> int:
    author = decode_envelope(raw).author
    return next(s for s, ident in enumerate(IDENTITIES) if ident.peer_id == author)


def resign(raw: bytes, **changes: object) -> bytes:
    """The same entry or ack with some fields changed, signed again by its author."""
    envelope = decode_envelope(raw)
    message = replace(envelope.message, **changes)  # type: ignore[type-var]
    return Envelope.seal(IDENTITIES[signer(raw)], GAME_ID, message).encode()


def test_save_load_replay_and_audit(game: tuple[Sim, Transcript]) -> None:
    sim, transcript = game
    data = transcript.save()
    loaded = Transcript.load(data)
    assert loaded == transcript
    assert loaded.save() == data
    report = audit(loaded, sim.machine, sim.initial)
    final = sim.peers[0].log
    assert report.head.seq == final.seq == loaded.seq
    assert report.head.state_hash == final.state_hash
    assert replay(loaded, sim.machine, sim.initial) == final.state
    assert {transcript} == {p.log.transcript() for p in sim.peers}


def test_every_player_saves_the_same_bytes(game: tuple[Sim, Transcript]) -> None:
    sim, _ = game
    assert len({p.log.transcript().save() for p in sim.peers}) == 1


def test_prefix_transcripts_audit_too(game: tuple[Sim, Transcript]) -> None:
    sim, _ = game
    log = sim.peers[0].log
    for seq in (0, 1, 7, log.seq - 1):
        report = audit(log.transcript(seq), sim.machine, sim.initial)
        assert report.head.seq == seq


@pytest.mark.parametrize("data", [b"", b"\x90", b"\x95\xa3abc\x01\xc4\x00\x90\x90",
                                  Transcript(b"x", (), ()).save()[:-1]])
def test_not_a_transcript(data: bytes) -> None:
    with pytest.raises(TranscriptError):
        Transcript.load(data)


def audit_error(game: tuple[Sim, Transcript], transcript: Transcript) -> AuditError:
    sim, _ = game
    with pytest.raises(AuditError) as caught:
        audit(transcript, sim.machine, sim.initial)
    return caught.value


def test_flipped_signature_is_named(game: tuple[Sim, Transcript]) -> None:
    _, transcript = game
    entries = list(transcript.entries)
    bad = bytearray(entries[5])
    bad[-1] ^= 1
    entries[5] = bytes(bad)
    error = audit_error(game, replace(transcript, entries=tuple(entries)))
    assert error.seq == 6
    assert "signature" in error.reason


def test_rewritten_entry_breaks_the_chain_at_the_next_one(game: tuple[Sim, Transcript]) -> None:
    """An entry replaced by another one its sequencer signed (the same intent, with a fairness
    record): valid on its own, so the chain breaks at the next entry, named with its signer."""
    _, transcript = game
    entries = list(transcript.entries)
    index = next(i for i in range(5, len(entries))
                 if len(_entry(entries[i]).intents) == 1 and _entry(entries[i]).fairness is None)
    entries[index] = resign(entries[index], fairness=FairnessWindow(0, 1))
    error = audit_error(game, replace(transcript, entries=tuple(entries)))
    assert (error.seq, error.seat) == (index + 2, signer(entries[index + 1]))
    assert "prev_hash" in error.reason


def _entry(raw: bytes) -> Entry:
    entry = decode_envelope(raw).message
    assert isinstance(entry, Entry)
    return entry


def test_dropped_and_swapped_entries_are_named(game: tuple[Sim, Transcript]) -> None:
    _, transcript = game
    entries = list(transcript.entries)
    dropped = entries[:4] + entries[5:]
    error = audit_error(game, replace(transcript, entries=tuple(dropped)))
    assert error.seq == 5
    swapped = entries[:4] + [entries[5], entries[4]] + entries[6:]
    error = audit_error(game, replace(transcript, entries=tuple(swapped)))
    assert error.seq == 5


def test_entry_signed_by_someone_else_is_named(game: tuple[Sim, Transcript]) -> None:
    _, transcript = game
    entries = list(transcript.entries)
    envelope = decode_envelope(entries[2])
    usurper = (signer(entries[2]) + 1) % 3
    entries[2] = Envelope.seal(IDENTITIES[usurper], GAME_ID, envelope.message).encode()
    error = audit_error(game, replace(transcript, entries=tuple(entries)))
    assert (error.seq, error.seat) == (3, usurper)
    assert "sequencer" in error.reason


def test_final_certificate_is_checked(game: tuple[Sim, Transcript]) -> None:
    _, transcript = game
    last = transcript.seq
    error = audit_error(game, replace(transcript, acks=transcript.acks[:2]))
    assert (error.seq, error.seat) == (last, 2)
    lying = list(transcript.acks)
    ack = decode_envelope(lying[1]).message
    assert isinstance(ack, Ack)
    lying[1] = resign(lying[1], state_hash=bytes(32))
    error = audit_error(game, replace(transcript, acks=tuple(lying)))
    assert (error.seq, error.seat) == (last, 1)
    stale = list(transcript.acks)
    stale[0] = resign(stale[0], seq=ack.seq - 1)
    error = audit_error(game, replace(transcript, acks=tuple(stale)))
    assert (error.seq, error.seat) == (last, 0)
    error = audit_error(game, replace(transcript, acks=transcript.acks + transcript.acks[:1]))
    assert error.seat == 0


def test_truncated_log_needs_its_own_certificate(game: tuple[Sim, Transcript]) -> None:
    _, transcript = game
    error = audit_error(game, replace(transcript, entries=transcript.entries[:-1]))
    assert error.seq == transcript.seq - 1
    assert "acks another entry" in error.reason
