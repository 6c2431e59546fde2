"""docs/protocol.md §3, §7, §8, §16: a reader built from the spec alone reads every golden vector.

Issue #4, Docs: "a specification precise enough for someone to write a compatible node in another
language — message types, encoding, ...". These tests are that someone: the clean-room modules
beside them were written from docs/protocol.md only (no msgpack library, no protocol/ code), and
here they must identify every golden vector (tests/protocol/golden, the spec's §16 examples),
find it canonical, and verify its envelope signature from §8's description of the signed bytes.
"""

from __future__ import annotations

import pytest

from .cleanroom_crypto import public_key, sha256
from .cleanroom_msgpack import read, write
from .cleanroom_schema import (
    DIRECT,
    HANDSHAKE,
    SCHEMAS,
    SpecMessage,
    SpecRefusal,
    identify,
    open_envelope,
)
from .vectors import BOB_SEED, GAME_ID, RULES_BYTES, load, names

MESSAGE_VECTORS = [name for name in names() if not name.startswith("channel_")]


def expected_name(vector: str) -> tuple[str, str | None]:
    """`join_refused` → JoinRefused; `envelope_deck_message` → Envelope carrying DeckMessage."""
    def camel(snake: str) -> str:
        return "".join(part.capitalize() for part in snake.split("_"))

    if vector.startswith("envelope_"):
        inner = vector.removeprefix("envelope_").removesuffix("_no_window")
        return "Envelope", camel(inner)
    return camel(vector), None


def payload_of(envelope: SpecMessage) -> SpecMessage:
    return open_envelope(envelope)[1]


@pytest.mark.parametrize("vector", MESSAGE_VECTORS)
def test_every_golden_vector_reads_as_the_spec_names_it(vector: str) -> None:
    data = load(vector)
    outer_name, inner_name = expected_name(vector)
    message = identify(data, HANDSHAKE | DIRECT)
    assert message.name == outer_name
    assert write(read(data)) == data  # §3: one spelling only
    if inner_name is not None:
        assert message["author"] == public_key(BOB_SEED)  # README: sealed by Bob
        assert message["game"] == GAME_ID
        assert payload_of(message).name == inner_name


def test_the_vectors_cover_every_message_type_of_the_spec() -> None:
    """Issue #4 Tests: "Golden byte vectors for every message type" — every §7 table."""
    seen: set[str] = set()
    for vector in MESSAGE_VECTORS:
        message = identify(load(vector), HANDSHAKE | DIRECT)
        seen.add(message.name)
        if message.name == "Envelope":
            seen.add(payload_of(message).name)
    assert seen == {schema.name for schema in SCHEMAS}


def test_rules_hash_fields_follow_the_readme_and_section_9() -> None:
    table = identify(load("table_info"), DIRECT)
    assert table["rules"] == RULES_BYTES
    assert table["rules_hash"] == sha256(RULES_BYTES)  # §9 step 2
    start = payload_of(identify(load("envelope_start"), DIRECT))
    assert start["rules_hash"] == sha256(RULES_BYTES)


def test_an_envelope_digest_is_the_hash_of_the_whole_message() -> None:
    """§8 digest, as §10.1 uses it for entry hashes: an Entry's prev_hash names some digest."""
    data = load("envelope_entry")
    entry = payload_of(identify(data, DIRECT))
    assert entry.items("intents")
    for intent_bytes in entry.items("intents"):
        assert isinstance(intent_bytes, bytes)
        intent = payload_of(identify(intent_bytes, DIRECT))  # §8: relayed verbatim
        assert intent.name == "Intent"


def test_a_flipped_signature_bit_fails_section_8_verification() -> None:
    data = bytearray(load("envelope_ack"))
    data[-1] ^= 1  # the signature is the last field: its last byte
    message = identify(bytes(data), DIRECT)
    with pytest.raises(SpecRefusal, match="BAD_SIGNATURE"):
        open_envelope(message)
