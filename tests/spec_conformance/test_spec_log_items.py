"""docs/protocol.md §10.10 and §11: what the reference ordered log does with the signed payloads
the spec says it does not order — a `DeckMessage` envelope is dropped as no log item, a valid
`Reject` is advisory and changes nothing. Both envelopes are built from the spec alone."""

from __future__ import annotations

from p2p_durak.protocol.log_effects import Dropped

from .cleanroom_crypto import ENVELOPE_CONTEXT, sign
from .cleanroom_msgpack import Value, write
from .recorded_game import GAME, SEED_OF, caught_up_log, clean_walk


def sealed_by_seat_0(payload: Value) -> bytes:
    author = clean_walk().players[0]
    body = write(payload)
    return write((5, 1, author, GAME, body, sign(SEED_OF[author], ENVELOPE_CONTEXT, GAME + body)))


def test_a_deck_message_envelope_is_not_a_log_item() -> None:
    log = caught_up_log()
    effects = log.receive(0, sealed_by_seat_0((20, 1, 5, b"\x01")), now_ms=1000)  # DeckMessage
    assert [(type(e), getattr(e, "author", None)) for e in effects] == [(Dropped, 0)]
    assert log.seq == len(clean_walk().entries)


def test_a_valid_reject_is_advisory() -> None:
    log = caught_up_log()
    before = (log.seq, log.state_hash)
    effects = log.receive(0, sealed_by_seat_0((19, 1, (1, 3), 2, "stale")), now_ms=1000)
    assert effects == []
    assert (log.seq, log.state_hash) == before
