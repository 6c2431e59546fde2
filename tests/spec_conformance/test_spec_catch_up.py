"""docs/protocol.md §10.8: catch-up between a clean-room peer and the reference ordered log.

Issue #4: "Catch-up: a peer that comes back receives the entries it missed and replays them
through the engine." Both directions, with the recorded four-player game (recorded/README.md):

- the reference `OrderingLog`, resumed from the whole game, answers `CatchUpRequest`s built from
  the spec; every answer must have the layout §10.8 gives (entries from `from_seq` on, then the
  certificate of the last one, `more`);
- a reference log restarted from the genesis alone asks for catch-up, and a responder built from
  the spec answers it with the recorded entries and certificate: the reference must replay them
  into the certified state — and commit nothing when the certificate is not complete.
"""

from __future__ import annotations

import pytest

from p2p_durak.protocol.log import OrderingLog
from p2p_durak.protocol.log_effects import Committed, Dropped, Effect, SendTo
from p2p_durak.protocol.table import TableMachine
from p2p_durak.protocol.table_log import TableLogMachine
from p2p_durak.protocol.transcript import Transcript

from .cleanroom_crypto import sha256
from .cleanroom_msgpack import write
from .cleanroom_schema import DIRECT, SpecMessage, identify, open_envelope
from .recorded_game import (
    GAME,
    RESPONDER,
    caught_up_log,
    clean_walk,
    identity,
    observer,
    parts,
    resumed_log,
)

ASKER = 0  # a seat (Start.players index)


def answers(effects: list[Effect[TableMachine]], seat: int) -> list[SpecMessage]:
    """What the reference sends `seat`, read by the clean-room reader."""
    return [identify(e.data, DIRECT) for e in effects if isinstance(e, SendTo) and e.seat == seat]


@pytest.mark.parametrize("from_seq", [1, 66, 132])
def test_the_reference_answers_with_the_layout_of_section_10_8(from_seq: int) -> None:
    walked = clean_walk()
    request = write((32, 1, GAME, from_seq))  # CatchUpRequest, §7.6
    [answer] = answers(caught_up_log().receive(ASKER, request, now_ms=1000), ASKER)
    assert answer.name == "CatchUpResponse"
    assert answer.fields["game"] == GAME
    assert answer.fields["from_seq"] == from_seq
    assert answer.fields["more"] is False  # the whole rest fits one frame here
    items = answer.items("entries")
    assert len(items) <= 256
    head = len(walked.entries)
    kinds = []
    for position, item in enumerate(items):
        assert isinstance(item, bytes)
        _, message = open_envelope(identify(item, DIRECT))
        kinds.append(message.name)
        if message.name == "Entry":  # 1. committed entries from from_seq on, in order
            assert message.number("seq") == from_seq + position
            assert sha256(item) == walked.hashes[from_seq + position]
        else:  # 2. then every player's ack of the last one
            assert message.name == "Ack"
            assert message.fields["entry_hash"] == walked.hashes[head]
    assert kinds == ["Entry"] * (head - from_seq + 1) + ["Ack"] * len(walked.players)


def test_a_request_at_the_head_gets_an_empty_answer_and_one_ahead_a_request_back() -> None:
    log = resumed_log()  # its own: asking back leaves a catch-up of its own under way
    [answer] = answers(log.receive(ASKER, write((32, 1, GAME, 133)), now_ms=1000), ASKER)
    assert (answer.name, answer.items("entries"), answer.fields["more"]) == (
        "CatchUpResponse", (), False)
    # §10.8: a request from beyond the next position says the asker is ahead: ask it back.
    back, empty = answers(log.receive(ASKER, write((32, 1, GAME, 134)), now_ms=2000), ASKER)
    assert back.name == "CatchUpRequest"
    assert back.fields == {"game": GAME, "from_seq": 133}
    assert empty.items("entries") == ()


def test_a_request_for_position_0_is_dropped() -> None:
    effects = caught_up_log().receive(ASKER, write((32, 1, GAME, 0)), now_ms=1000)
    assert [type(e) for e in effects] == [Dropped]


def restarted_log() -> OrderingLog[TableMachine]:
    """Seat 2 restarted with nothing but the genesis in its journal (in recovery)."""
    start, _, _ = parts()
    return OrderingLog.resume(identity(RESPONDER), Transcript(start, (), ()), TableLogMachine(),
                              observer())


def test_a_clean_room_responder_brings_a_restarted_reference_log_up_to_date() -> None:
    log = restarted_log()
    [request] = answers(log.peer_connected(ASKER, now_ms=0), ASKER)
    assert request.name == "CatchUpRequest"
    assert request.fields == {"game": GAME, "from_seq": 1}
    _, entries, acks = parts()
    response = write((33, 1, GAME, 1, (*entries, *acks), False))
    committed = [e for e in log.receive(ASKER, response, now_ms=10) if isinstance(e, Committed)]
    assert len(committed) == len(entries) == log.seq
    assert log.state_hash == clean_walk().final_state_hash
    # §10.8: in recovery until every other player has answered with more = false.
    assert log.recovering
    for seat in (1, 3):
        log.receive(seat, write((33, 1, GAME, 133, (), False)), now_ms=20)
    assert not log.recovering


@pytest.mark.parametrize("certificate", ["missing", "one ack short", "one ack four times"])
def test_entries_without_a_complete_certificate_are_not_committed(certificate: str) -> None:
    """§10.8: "commits them only when a complete certificate of the last one checks"."""
    _, entries, acks = parts()
    offered = {"missing": [], "one ack short": acks[:-1], "one ack four times": [acks[0]] * 4}
    log = restarted_log()
    response = write((33, 1, GAME, 1, (*entries, *offered[certificate]), False))
    effects = log.receive(ASKER, response, now_ms=10)
    assert not [e for e in effects if isinstance(e, Committed)]
    assert log.seq == 0
