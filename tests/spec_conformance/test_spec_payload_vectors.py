"""docs/protocol.md §10.12 and Appendix B: the table intent payloads and deck messages of the
golden vectors (tests/protocol/golden/table, golden/deck) have the shapes the spec gives, read
with the clean-room msgpack reader."""

from __future__ import annotations

import pytest

from .cleanroom_msgpack import Value, read
from .vectors import GOLDEN


def vectors(folder: str) -> dict[str, bytes]:
    found = {}
    for path in sorted((GOLDEN / folder).glob("*.hex")):
        lines = path.read_text(encoding="ascii").splitlines()
        found[path.stem] = bytes.fromhex("".join(lines[1:]))
    return found


DECK, TABLE = vectors("deck"), vectors("table")
GAME = b"p2p-durak golden"  # the deck session's game id (golden/README.md)


def deck_message(value: Value) -> tuple[Value, ...]:
    """§10.12: a deck step's bytes are a canonical `[kind, game_id, step, seat, *fields]`."""
    assert isinstance(value, bytes)
    message = read(value)
    assert isinstance(message, tuple)
    kind, game_id, step, seat = message[:4]
    assert isinstance(kind, str)
    assert isinstance(game_id, bytes)
    assert len(game_id) == 16
    assert isinstance(step, str)
    assert isinstance(seat, int)
    return message


@pytest.mark.parametrize("kind", sorted(DECK))
def test_every_deck_vector_has_the_generic_deck_message_shape(kind: str) -> None:
    message = deck_message(DECK[kind])
    assert message[0] == kind
    assert message[1] == GAME


def array(value: Value) -> tuple[Value, ...]:
    assert isinstance(value, tuple)
    return value


def test_the_table_payload_vectors_have_the_shapes_of_section_10_12() -> None:
    assert (len(DECK), len(TABLE)) == (11, 11)  # every deck kind, every payload shape
    payloads = {name: array(read(data)) for name, data in TABLE.items()}
    kind, party = payloads["abandon"]  # issue #22: [6, party], an abandonment claim
    assert kind == 6
    assert type(party) is int
    assert payloads["vote_play_on"] == (3, True)
    assert payloads["vote_stop"] == (3, False)
    assert payloads["vote_timed_out"] == (3, False, "timeout")
    assert payloads["leave_announced"] == (4, None)
    kind, suit = payloads["announce"]
    assert kind == 2
    assert isinstance(suit, int)
    kind, deck = payloads["deck_step"]
    assert kind == 0
    deck_message(deck)
    kind, tokens = payloads["leave_tokens"]
    assert kind == 4
    leave = deck_message(tokens)
    assert leave[0] == "tokens"
    assert str(leave[2]).startswith("leave:")
    kind, tokens = payloads["broken_claim"]  # a card that opens to no card, shown to all
    assert kind == 5
    claim = deck_message(tokens)
    assert claim[0] == "tokens"
    slots = array(claim[4])
    assert len(slots) == 1
    assert claim[2] == f"broken:{slots[0]}"
    for name in ("move", "move_with_slots"):
        kind, action, slots = payloads[name]
        assert kind == 1
        # Appendix B: the engine's action [kind, seat, [cards], target]
        assert [type(part) for part in array(action)] == [int, int, tuple, int]
        # §10.12: a move names the slots of the cards it takes from the hand, not the cards
        assert all(isinstance(slot, int) for slot in array(slots))
        if array(slots):
            assert array(action)[2] == ()
    assert array(payloads["move_with_slots"][2])
