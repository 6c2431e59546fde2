"""`durak tables` over the fake discovery network (issue #20): the tables found are listed,
and where nothing is found (multicast blocked, or no table) it says so on stderr in the
chosen language, points at `durak join HOST:PORT`, and exits 1 — it used to print nothing and
exit 0. Deterministic: the fake discovery network, the autojump clock for the listening time."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import pytest
import trio
import trio.testing

import p2p_durak.node.discovery as discovery_module
from p2p_durak.cli.main import main
from p2p_durak.cli.table_list import NOTHING_FOUND, listing, tables_seen
from p2p_durak.node import headless
from p2p_durak.node.discovery import FakeDiscovery, FakeDiscoveryNetwork
from p2p_durak.node.tableinfo import TableAd, new_table_id
from p2p_durak.protocol.identity import Identity
from p2p_durak.protocol.messages import PROTOCOL_VERSION

FINGERPRINT = Identity.from_seed(bytes(32)).fingerprint


def ad(name: str) -> TableAd:
    return TableAd(table_id=new_table_id(), name=name, variant="podkidnoy-36",
                   rules_hash="cd" * 32, seats_taken=1, seats_free=2, fingerprint=FINGERPRINT,
                   port=4000, protocol_version=PROTOCOL_VERSION)


@pytest.mark.parametrize(("lang", "words"), [
    ("en", "durak tables: no table found in 0 s (multicast may be blocked on this network); "
           "join by address: durak join HOST:PORT\n"),
    ("ru", "durak tables: ни одного стола не найдено за 0 с (возможно, сеть не пропускает "
           "multicast); войдите по адресу: durak join АДРЕС:ПОРТ\n"),
])
@pytest.mark.parametrize("as_json", [False, True])
def test_nothing_found_is_said_with_the_way_to_join_by_address(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        lang: str, words: str, as_json: bool) -> None:
    empty = FakeDiscoveryNetwork()  # a network whose multicast reaches no table

    @asynccontextmanager
    async def blocked(**_: object) -> AsyncIterator[FakeDiscovery]:
        async with empty.open_discovery() as member:
            yield member

    monkeypatch.setattr(discovery_module, "open_discovery", blocked)
    argv = ["tables", "--seconds", "0", "--lang", lang, *(["--json"] if as_json else [])]
    assert main(argv) == NOTHING_FOUND == 1
    captured = capsys.readouterr()
    assert captured.out == ""  # (a script reading stdout gets no table)
    assert captured.err == words


async def test_the_tables_found_are_listed_and_exit_0(
        autojump_clock: trio.testing.MockClock) -> None:
    net = FakeDiscoveryNetwork()
    async with net.open_discovery(addresses=["10.0.0.1"]) as host:
        kitchen, gone = ad("Kitchen"), ad("Gone")
        await host.advertise(kitchen)
        await host.advertise(gone)
        await host.withdraw(gone.table_id)
        seen = await tables_seen(lambda: net.open_discovery(addresses=["10.0.0.2"]), 3.0)
    result = listing(seen, seconds=3.0, lang="en", as_json=False)
    assert result.status == 0
    assert result.note is None
    assert [line.split("\t")[:4] for line in result.lines] == [
        ["Kitchen", "podkidnoy-36", "1/3", "10.0.0.1:4000"]]


async def test_a_table_of_another_protocol_version_is_listed_as_incompatible(
        autojump_clock: trio.testing.MockClock) -> None:
    """Issue #20: `proto=2` was listed as any other table."""
    net = FakeDiscoveryNetwork()
    async with net.open_discovery(addresses=["10.0.0.1"]) as host:
        await host.advertise(ad("Ours"))
        await host.advertise(dataclasses.replace(ad("Future"), protocol_version=2))
        seen = await tables_seen(lambda: net.open_discovery(addresses=["10.0.0.2"]), 3.0)
    lines = listing(seen, seconds=3.0, lang="en", as_json=False).lines
    ours, future = (next(line.split("\t") for line in lines if line.startswith(name))
                    for name in ("Ours", "Future"))
    assert len(ours) == 6
    assert future[6:] == ["incompatible: protocol version 2, this durak speaks 1"]
    russian = listing(seen, seconds=3.0, lang="ru", as_json=False).lines
    assert any(line.endswith("\tнесовместим: версия протокола 2, у этого durak — 1")
               for line in russian)
    records = {r["name"]: r for r in map(json.loads,
                                         listing(seen, seconds=3.0, lang="en",
                                                 as_json=True).lines)}
    assert (records["Ours"]["compatible"], records["Future"]["compatible"]) == (True, False)
    assert records["Future"]["protocol_version"] == 2


async def test_join_by_name_never_dials_a_table_of_another_protocol_version(
        autojump_clock: trio.testing.MockClock, monkeypatch: pytest.MonkeyPatch) -> None:
    net = FakeDiscoveryNetwork()
    monkeypatch.setattr(headless, "open_discovery",
                        lambda **_: net.open_discovery(addresses=["10.0.0.2"]))
    async with net.open_discovery(addresses=["10.0.0.1"]) as host:
        await host.advertise(dataclasses.replace(ad("Kitchen"), protocol_version=2))
        with pytest.raises(TimeoutError):
            await headless.find_table("Kitchen", None, 5.0)
        ours = ad("Kitchen")
        await host.advertise(ours)
        found = await headless.find_table("Kitchen", None, 5.0)
    assert found.table == ours
