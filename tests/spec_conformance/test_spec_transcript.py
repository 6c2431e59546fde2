"""docs/protocol.md §10: a real saved game walked by the spec's chain and commit rules.

The transcript in recorded/ was saved by a real four-player table (recorded/README.md). The
clean-room walker (cleanroom_log.py, written from the spec) must find it sound: the hash chain
anchored in `Start` (§10.1, R2), every ordered intent valid for its position (R3, R4), the fair
order of every multi-item entry (R5), and the final certificate (§10.4). Then the same game is
tampered with, re-signed with the players' test keys so that only a chain rule breaks, and
both the walker and the reference auditor (`p2p_durak.protocol.transcript.audit`) must refuse
it at the same position: where they differ, either the spec or the code is wrong.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from p2p_durak.engine import state_hash
from p2p_durak.protocol.log_chain import CertificateError, check_certificate
from p2p_durak.protocol.transcript import AuditError

from .cleanroom_crypto import ENVELOPE_CONTEXT, sha256, sign
from .cleanroom_log import ChainViolation, walk
from .cleanroom_msgpack import Value, read, write
from .cleanroom_schema import DIRECT, SIGNED, identify, open_envelope
from .recorded_game import (
    RULES,
    SEED_OF,
    Parts,
    clean_report,
    clean_walk,
    parts,
    parts_of,
    reference_report,
    save,
)


def reference_verdict(data: bytes) -> int:
    """The first position the reference refuses in `data`. A transcript whose entries are the
    recorded ones differs at most in its certificate: that goes to the reference's certificate
    check (the one `audit` ends with) against the audited head, saving a full replay."""
    start, entries, acks = parts_of(data)
    if (start, entries) == parts()[:2]:
        report = clean_report()
        try:
            check_certificate(report.genesis, report.head, acks)
        except CertificateError:
            return report.head.seq
        raise AssertionError("the reference accepts the certificate")
    with pytest.raises(AuditError) as verdict:
        reference_report(data)
    return verdict.value.seq


def test_the_recorded_game_keeps_every_chain_rule() -> None:
    result = clean_walk()
    assert len(result.entries) == 132
    assert result.raced > 0  # R5 was exercised, not vacuous
    start = identify(identify(parts()[0], DIRECT).blob("payload"), SIGNED)
    assert start.blob("rules_hash") == sha256(RULES)  # §7.3 Start.rules_hash


def test_the_reference_auditor_reaches_the_state_the_certificate_names() -> None:
    """The one thing the walker cannot compute (the state hash needs the machine) is the one
    the certificate carries: the reference audit must reach exactly that state."""
    head = clean_report().head
    assert head.seq == len(clean_walk().entries)
    assert head.state_hash == clean_walk().final_state_hash


def test_the_certificate_is_saved_in_seat_order_and_read_in_any_order() -> None:
    """§10.4/§10.9: a writer saves the acks in seat order; a reader does not insist on it."""
    start, entries, acks = parts()
    authors = [identify(ack, DIRECT)["author"] for ack in acks]
    assert authors == list(clean_walk().players)
    shuffled = save(start, entries, [acks[2], acks[0], acks[3], acks[1]])
    assert walk(shuffled).final_state_hash == clean_walk().final_state_hash
    report = clean_report()
    certificate = check_certificate(report.genesis, report.head, parts_of(shuffled)[2])
    assert list(certificate) == acks  # the reference, too, puts them back in seat order


# --- tampering -----------------------------------------------------------------------------------

def payload_of(envelope: bytes) -> list[Value]:
    value = read(identify(envelope, DIRECT)["payload"])  # type: ignore[arg-type]
    assert isinstance(value, tuple)
    return list(value)


def reseal(envelope: bytes, payload: list[Value], signer: bytes | None = None) -> bytes:
    """The envelope over a changed payload, signed again (§8) by its author or by `signer`."""
    outer = identify(envelope, DIRECT)
    author = signer or outer["author"]
    game = outer["game"]
    assert isinstance(author, bytes)
    assert isinstance(game, bytes)
    body = write(tuple(payload))
    return write((5, 1, author, game, body, sign(SEED_OF[author], ENVELOPE_CONTEXT, game + body)))


def resign_with(envelopes: list[bytes], index: int, field: int, value: Value) -> None:
    """Envelope `index` with payload element `field` set to `value`, re-signed by its author."""
    payload = payload_of(envelopes[index])
    payload[field] = value
    envelopes[index] = reseal(envelopes[index], payload)


def first_multi_item_entry(entries: list[bytes]) -> int:
    return next(i for i, e in enumerate(entries) if len(payload_of(e)[5]) >= 2)  # type: ignore


def reverse_items(p: Parts) -> Parts:
    start, entries, acks = p
    k = first_multi_item_entry(entries)
    entry = payload_of(entries[k])
    entry[5] = tuple(reversed(entry[5]))  # type: ignore[arg-type]
    entries[k] = reseal(entries[k], entry)
    return start, entries, acks


def drop_fairness(p: Parts) -> Parts:
    start, entries, acks = p
    resign_with(entries, first_multi_item_entry(entries), 6, None)  # Entry.fairness
    return start, entries, acks


def drop_entry(p: Parts) -> Parts:
    start, entries, acks = p
    del entries[4]
    return start, entries, acks


def wrong_prev_hash(p: Parts) -> Parts:
    start, entries, acks = p
    resign_with(entries, 2, 3, sha256(b"elsewhere"))  # Entry.prev_hash
    return start, entries, acks


def signed_by_another_player(p: Parts) -> Parts:
    start, entries, acks = p
    entry = payload_of(entries[2])
    author = identify(entries[2], DIRECT)["author"]
    other = next(key for key in SEED_OF if key != author)
    entries[2] = reseal(entries[2], entry, signer=other)
    return start, entries, acks


def change_first_item(change: Callable[[list[Value]], None]) -> Callable[[Parts], Parts]:
    def tamper(p: Parts) -> Parts:
        start, entries, acks = p
        k = 3
        entry = payload_of(entries[k])
        items = list(entry[5])  # type: ignore[arg-type]
        intent = payload_of(items[0])  # type: ignore[arg-type]
        change(intent)
        items[0] = reseal(items[0], intent)  # type: ignore[arg-type]
        entry[5] = tuple(items)
        entries[k] = reseal(entries[k], entry)
        return start, entries, acks
    return tamper


def skip_a_counter(intent: list[Value]) -> None:
    intent[4] = intent[4] + 1  # type: ignore[operator]


def stale_based_on(intent: list[Value]) -> None:
    intent[5] = intent[5] - 1  # type: ignore[operator]


def drop_an_ack(p: Parts) -> Parts:
    start, entries, acks = p
    return start, entries, acks[:-1]


def twice_one_ack(p: Parts) -> Parts:
    start, entries, acks = p
    acks[3] = acks[2]
    return start, entries, acks


def diverging_ack(p: Parts) -> Parts:
    start, entries, acks = p
    resign_with(acks, 2, 4, sha256(b"another state"))  # Ack.state_hash
    return start, entries, acks


def ack_of_another_entry(p: Parts) -> Parts:
    start, entries, acks = p
    resign_with(acks, 1, 3, sha256(entries[-2]))  # Ack.entry_hash
    return start, entries, acks


TAMPERS: dict[str, tuple[Callable[[Parts], Parts], int, str]] = {
    # name: (tamper, first bad position, rule the walker names)
    "R2 an entry left out": (drop_entry, 5, "R2"),
    "R2 prev_hash names another entry": (wrong_prev_hash, 3, "R2"),
    "R2 signed by a player Entry.sequencer does not name": (signed_by_another_player, 3, "R2"),
    "R3 a counter skipped": (change_first_item(skip_a_counter), 4, "R3"),
    "R3 based_on an older position": (change_first_item(stale_based_on), 4, "R3"),
    "R5 racing items in the wrong order": (reverse_items, 1, "R5"),
    "R5 racing items without a fairness window": (drop_fairness, 1, "R5"),
    "§10.4 a player's ack missing": (drop_an_ack, 132, "§10.4"),
    "§10.4 two acks by one player": (twice_one_ack, 132, "§10.4"),
    "§10.4 an ack with another state hash": (diverging_ack, 132, "§10.4"),
    "§10.4 an ack of another entry": (ack_of_another_entry, 132, "§10.4"),
}


@pytest.mark.parametrize("name", list(TAMPERS))
def test_a_tampered_game_is_refused_at_the_same_position_by_spec_and_code(name: str) -> None:
    tamper, position, rule = TAMPERS[name]
    data = save(*tamper(parts()))
    with pytest.raises(ChainViolation) as spec_verdict:
        walk(data)
    assert (spec_verdict.value.seq, spec_verdict.value.rule) == (position, rule)
    assert reference_verdict(data) == position


def test_the_certificate_names_the_table_state_hash_of_section_10_12() -> None:
    """§10.12 "The table as a machine": the digest folds every applied intent (the ones R6
    skipped excluded: the reference names them) into the state hash the acks certify. The
    engine's own state hash comes from the engine, as the spec says."""
    report = clean_report()
    skipped = {(seq, outcome.item.seat) for seq, outcome in report.rejected}
    assert skipped  # real throw-in races were lost in this game
    digest = bytes(32)
    for entry in clean_walk().entries:
        for item in entry.items("intents"):
            assert isinstance(item, bytes)
            party, intent = open_envelope(identify(item, DIRECT))
            seat = clean_walk().players.index(party)
            if (entry.number("seq"), seat) not in skipped:
                digest = sha256(digest + seat.to_bytes(2, "big") + intent.blob("action"))
    table = report.state
    assert table.state is not None
    engine_hash = state_hash(table.state)
    assert sha256(b"p2p-durak/table/v1" + engine_hash + digest) == clean_walk().final_state_hash
