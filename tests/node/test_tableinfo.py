from __future__ import annotations

import contextlib
import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from p2p_durak.node.tableinfo import (
    MAX_NAME_CHARS,
    SERVICE_TYPE,
    TableAd,
    TableAdError,
    clean_table_name,
    decode_txt,
    dialable_ipv4,
    encode_txt,
    instance_name,
    new_table_id,
    parse_txt,
    split_txt,
    table_id_from_instance,
)
from p2p_durak.protocol.identity import Identity
from p2p_durak.protocol.messages import TimeoutPolicy, TurnTimer

FINGERPRINT = Identity.from_seed(bytes(range(32))).fingerprint


def make_table(**changes: object) -> TableAd:
    fields: dict[str, object] = {
        "table_id": "0123456789abcdef0123456789abcdef",
        "name": "Kitchen table",
        "variant": "podkidnoy-36",
        "rules_hash": "ab" * 32,
        "seats_taken": 1,
        "seats_free": 2,
        "fingerprint": FINGERPRINT,
        "port": 40123,
        "protocol_version": 1,
    }
    fields.update(changes)
    return TableAd(**fields)  # type: ignore[arg-type]


def txt(*items: bytes) -> bytes:
    return b"".join(bytes([len(item)]) + item for item in items)


def good_items() -> list[bytes]:
    return split_txt(encode_txt(make_table()))


def test_round_trip() -> None:
    table = make_table(name="Стол у окна ♠", seats_taken=3, seats_free=3)
    assert decode_txt(encode_txt(table), port=table.port) == table


def test_encoding_is_the_documented_layout() -> None:
    items = good_items()
    assert items[0] == b"txtvers=1"
    assert [item.split(b"=")[0] for item in items] == [
        b"txtvers",
        b"proto",
        b"id",
        b"name",
        b"variant",
        b"rules",
        b"taken",
        b"free",
        b"fp",
        b"timer",
    ]
    assert b"timer=0,bot,60" in items
    assert b"name=Kitchen table" in items
    assert f"fp={FINGERPRINT}".encode() in items


def test_new_table_ids_are_valid_and_distinct() -> None:
    ids = {new_table_id() for _ in range(50)}
    assert len(ids) == 50
    for table_id in ids:
        make_table(table_id=table_id)


def test_instance_names() -> None:
    table_id = new_table_id()
    assert instance_name(table_id) == f"{table_id}.{SERVICE_TYPE}"
    assert table_id_from_instance(instance_name(table_id)) == table_id
    assert (
        table_id_from_instance(instance_name(table_id).upper().replace(table_id.upper(), table_id))
        == table_id
    )
    assert table_id_from_instance(f"Kitchen.{SERVICE_TYPE}") is None
    assert table_id_from_instance(f"{table_id}._other._tcp.local.") is None
    assert table_id_from_instance(f"{table_id.upper()}.{SERVICE_TYPE}") is None


@pytest.mark.parametrize(
    ("changes", "reason"),
    [
        ({"table_id": "0123"}, "table id"),
        ({"table_id": "0123456789ABCDEF0123456789ABCDEF"}, "table id"),
        ({"name": ""}, "empty"),
        ({"name": " padded"}, "white space"),
        ({"name": "x" * (MAX_NAME_CHARS + 1)}, "longer"),
        ({"name": "bell\x07"}, r"U\+0007"),
        ({"name": "new\nline"}, r"U\+000A"),
        ({"name": "evil\u202egnp.exe"}, r"U\+202E"),
        ({"name": "e\u0301"}, "normal form"),
        ({"variant": "Podkidnoy"}, "preset id"),
        ({"variant": "-x"}, "preset id"),
        ({"rules_hash": "ab" * 31}, "rules hash"),
        ({"fingerprint": FINGERPRINT.lower()}, "fingerprint"),
        ({"fingerprint": FINGERPRINT.replace("-", "")}, "fingerprint"),
        ({"seats_taken": -1}, "seats taken"),
        ({"seats_taken": True}, "seats taken"),
        ({"seats_taken": 4, "seats_free": 3}, "2..6 seats"),
        ({"seats_taken": 1, "seats_free": 0}, "2..6 seats"),
        ({"port": 0}, "port"),
        ({"port": 65536}, "port"),
        ({"protocol_version": 70000}, "protocol version"),
    ],
)
def test_constructor_refuses(changes: dict[str, object], reason: str) -> None:
    with pytest.raises(TableAdError, match=reason):
        make_table(**changes)


def test_clean_table_name() -> None:
    assert clean_table_name("  e\u0301cole  ") == "\u00e9cole"
    assert len(clean_table_name("y" * 100)) == MAX_NAME_CHARS
    make_table(name=clean_table_name("  Kitchen  "))


def replace_item(key: bytes, new: bytes | None) -> bytes:
    items = [new if item.split(b"=")[0] == key else item for item in good_items()]
    return txt(*(item for item in items if item is not None))


@pytest.mark.parametrize(
    ("rdata", "reason"),
    [
        (b"", "lacks"),
        (encode_txt(make_table())[:-3], "truncated"),
        (encode_txt(make_table()) + b"\x00", "empty string"),
        (txt(*good_items(), b"NAME=again"), "more than once"),
        (txt(*good_items(), b"name=again"), "more than once"),
        (replace_item(b"free", None), "lacks free"),
        (replace_item(b"free", b"free"), "has no value"),
        (replace_item(b"taken", b"taken=01"), "plain decimal"),
        (replace_item(b"taken", b"taken=+1"), "plain decimal"),
        (replace_item(b"taken", b"taken= 1"), "plain decimal"),
        (replace_item(b"taken", b"taken=\xd9\xa1"), "plain decimal"),  # Arabic-Indic digit one
        (replace_item(b"proto", b"proto=99999999"), "plain decimal"),
        (replace_item(b"txtvers", b"txtvers=2"), "txtvers"),
        (replace_item(b"name", b"name=\xff\xfe"), "not UTF-8"),
        (replace_item(b"name", b"name=\x1b[2J"), r"U\+001B"),
        (replace_item(b"fp", b"fp=nothex"), "fingerprint"),
        (replace_item(b"free", b"free=6"), "2..6 seats"),
        (txt(*good_items(), b"=x"), "malformed"),
        (txt(*good_items(), b"k\xc3\xa9y=x"), "not ASCII"),
        (txt(*good_items(), b"waytoolongkey=x"), "malformed"),
        (txt(*good_items(), *[b"x%d=1" % i for i in range(30)]), "more than 32"),
    ],
)
def test_decoder_refuses(rdata: bytes, reason: str) -> None:
    with pytest.raises(TableAdError, match=reason):
        decode_txt(rdata, port=4000)


def test_decoder_ignores_unknown_keys_and_folds_case() -> None:
    items = [item.upper() if item.startswith(b"txtvers") else item for item in good_items()]
    rdata = txt(*items, b"future=1", b"flag")
    assert decode_txt(rdata, port=40123) == make_table()
    assert "future" not in parse_txt(rdata)


def test_decoder_checks_the_port() -> None:
    with pytest.raises(TableAdError, match="port"):
        decode_txt(encode_txt(make_table()), port=0)


@settings(derandomize=True, max_examples=400)
@given(st.binary(max_size=600))
def test_decoder_only_raises_table_ad_error_on_garbage(rdata: bytes) -> None:
    # Anything else escaping (IndexError, UnicodeError, ...) fails the test.
    with contextlib.suppress(TableAdError):
        decode_txt(rdata, port=4000)


@settings(derandomize=True, max_examples=300)
@given(
    st.lists(st.sampled_from(good_items()), max_size=12),
    st.lists(st.binary(min_size=1, max_size=40), max_size=3),
)
def test_decoder_on_shuffled_and_mixed_entries(known: list[bytes], extra: list[bytes]) -> None:
    rdata = txt(*known, *extra)
    try:
        table = decode_txt(rdata, port=40123)
    except TableAdError:
        return
    # Whatever it accepts must be exactly what was advertised.
    assert table == make_table()


names = (
    st.text(
        alphabet=st.characters(blacklist_categories=("Cc", "Cs", "Co", "Cn", "Zl", "Zp", "Cf")),
        min_size=1,
        max_size=MAX_NAME_CHARS,
    )
    .map(clean_table_name)
    .filter(bool)
)


@settings(derandomize=True, max_examples=200)
@given(
    name=names,
    taken=st.integers(0, 6),
    free=st.integers(0, 6),
    proto=st.integers(0, 0xFFFF),
    port=st.integers(1, 0xFFFF),
)
def test_any_valid_table_round_trips(
    name: str, taken: int, free: int, proto: int, port: int
) -> None:
    if not 2 <= taken + free <= 6:
        return
    table = make_table(
        name=name, seats_taken=taken, seats_free=free, protocol_version=proto, port=port
    )
    rdata = encode_txt(table)
    assert all(len(item) <= 255 for item in split_txt(rdata))
    assert decode_txt(rdata, port=port) == table


def test_replace_revalidates() -> None:
    table = make_table()
    with pytest.raises(TableAdError):
        dataclasses.replace(table, seats_free=9)


def test_dialable_ipv4() -> None:
    given_addresses = [
        "10.77.0.1",
        "10.77.0.1",
        "fe80::1",
        "0.0.0.0",
        "224.0.0.251",
        "255.255.255.255",
        "240.0.0.1",
        "not an address",
        "127.0.0.1",
        "192.168.1.9",
    ]
    assert dialable_ipv4(given_addresses) == ("10.77.0.1", "127.0.0.1", "192.168.1.9")


def test_the_clocks_travel_in_the_txt_record() -> None:
    table = make_table(timer=TurnTimer(30, TimeoutPolicy.LOSE, 120))
    assert b"timer=30,lose,120" in split_txt(encode_txt(table))
    assert decode_txt(encode_txt(table), port=table.port).timer == table.timer


def test_a_record_without_clocks_means_the_defaults_of_a_node_without_the_key() -> None:
    items = [item for item in good_items() if not item.startswith(b"timer=")]
    assert decode_txt(txt(*items), port=1).timer == TurnTimer(0, TimeoutPolicy.BOT, 60)


@pytest.mark.parametrize("value", [b"30", b"30,bot", b"30,draw,60", b"-1,bot,60", b"30,bot,0",
                                   b"030,bot,60", b"30,bot,60,1", b"4000,bot,60", b"30,BOT,60",
                                   b"30 ,bot,60", b"30,bot,9999"])
def test_malformed_clocks_are_refused(value: bytes) -> None:
    items = [item for item in good_items() if not item.startswith(b"timer=")]
    with pytest.raises(TableAdError, match="timer"):
        decode_txt(txt(*items, b"timer=" + value), port=1)
