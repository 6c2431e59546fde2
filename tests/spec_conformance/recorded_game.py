"""The recorded four-player game (recorded/README.md): its bytes, its players' test keys, the
clean-room walk of it and the reference's audit of it, shared by the §10 conformance tests."""

from __future__ import annotations

import functools
import random
from pathlib import Path

from p2p_durak.engine.rules import RuleSet
from p2p_durak.protocol.identity import Identity
from p2p_durak.protocol.log import OrderingLog
from p2p_durak.protocol.table import TableMachine
from p2p_durak.protocol.table_log import TableLogMachine
from p2p_durak.protocol.transcript import AuditReport, Transcript, audit

from .cleanroom_crypto import public_key
from .cleanroom_log import TRANSCRIPT_BOUNDS, Walk, walk
from .cleanroom_msgpack import Value, read, write
from .cleanroom_schema import DIRECT, identify, open_envelope

RECORDED = Path(__file__).resolve().parent / "recorded"
TRANSCRIPT = (RECORDED / "podkidnoy_4p.transcript").read_bytes()
RULES = (RECORDED / "podkidnoy_4p.rules").read_bytes()
SEEDS = [bytes.fromhex(line) for line in
         (RECORDED / "podkidnoy_4p.seeds").read_text(encoding="ascii").split()]
SEED_OF = {public_key(seed): seed for seed in SEEDS}

Parts = tuple[bytes, list[bytes], list[bytes]]  # start, entries, acks


def parts_of(data: bytes) -> Parts:
    value = read(data, TRANSCRIPT_BOUNDS)
    if not (isinstance(value, tuple) and len(value) == 5 and isinstance(value[2], bytes)
            and isinstance(value[3], tuple) and isinstance(value[4], tuple)):
        raise ValueError("not a transcript")
    return value[2], [bytes(e) for e in value[3] if isinstance(e, bytes)], \
        [bytes(a) for a in value[4] if isinstance(a, bytes)]


def parts() -> Parts:
    return parts_of(TRANSCRIPT)


def save(start: bytes, entries: list[bytes], acks: list[bytes]) -> bytes:
    return write(("p2p-durak transcript", 1, start, tuple(entries), tuple(acks)))


GAME = identify(parts()[0], DIRECT).blob("game")


@functools.cache
def clean_walk() -> Walk:
    return walk(TRANSCRIPT)


def observer() -> TableMachine:
    """The table as a player-less auditor sees it before entry 1 (as `durak audit` does)."""
    return TableMachine(GAME, -1, 4, RuleSet.from_canonical(RULES), random.Random(0).randbytes)


def reference_report(data: bytes) -> AuditReport[TableMachine]:
    """The reference auditor's report on a transcript (AuditError if it refuses it)."""
    return audit(Transcript.load(data), TableLogMachine(), observer())


@functools.cache
def clean_report() -> AuditReport[TableMachine]:
    return reference_report(TRANSCRIPT)


RESPONDER = 2  # the seat whose node's log answers in the catch-up tests


def identity(seat: int) -> Identity:
    return Identity.from_seed(SEED_OF[clean_walk().players[seat]])


def resumed_log() -> OrderingLog[TableMachine]:
    """Seat 2's log as its node resumes it from the saved game (OrderingLog.resume)."""
    return OrderingLog.resume(identity(RESPONDER), Transcript.load(TRANSCRIPT),
                              TableLogMachine(), observer())


@functools.cache
def caught_up_log() -> OrderingLog[TableMachine]:
    """One shared `resumed_log` for tests that only ask it questions that change nothing."""
    return resumed_log()


def table_intents(result: Walk) -> list[tuple[int, tuple[Value, ...]]]:
    """(party, decoded payload) of every intent a walked game ordered, in log order
    (§10.12: each payload a canonical array `[kind, ...]`)."""
    out = []
    for entry in result.entries:
        for item in entry.items("intents"):
            assert isinstance(item, bytes)
            _, intent = open_envelope(identify(item, DIRECT))
            payload = read(intent.blob("action"))
            assert isinstance(payload, tuple)
            out.append((intent.number("seat"), payload))
    return out
