from __future__ import annotations

import dataclasses

import pytest
import trio
import trio.testing

from p2p_durak.node.discovery import Discovery, DiscoveryError, FakeDiscoveryNetwork
from p2p_durak.node.tableinfo import TableAd, TableGone, TableSeen, new_table_id
from p2p_durak.protocol.identity import Identity

FINGERPRINT = Identity.from_seed(bytes(32)).fingerprint


def table(**changes: object) -> TableAd:
    fields: dict[str, object] = {
        "table_id": new_table_id(),
        "name": "Table",
        "variant": "podkidnoy-36",
        "rules_hash": "cd" * 32,
        "seats_taken": 1,
        "seats_free": 1,
        "fingerprint": FINGERPRINT,
        "port": 4000,
        "protocol_version": 1,
    }
    fields.update(changes)
    return TableAd(**fields)  # type: ignore[arg-type]


def drain(discovery: Discovery) -> list[object]:
    events: list[object] = []
    while True:
        try:
            events.append(discovery.events.receive_nowait())
        except (trio.WouldBlock, trio.EndOfChannel):
            return events


async def test_tables_appear_change_and_disappear_for_every_member() -> None:
    net = FakeDiscoveryNetwork()
    async with (
        net.open_discovery(addresses=["10.0.0.1"]) as host,
        net.open_discovery(addresses=["10.0.0.2"]) as guest,
    ):
        ad = table()
        await host.advertise(ad)
        seen = TableSeen(ad, ("10.0.0.1",))
        assert drain(guest) == [seen]
        assert drain(host) == [seen]  # own tables are seen too, as with mDNS

        fuller = dataclasses.replace(ad, seats_taken=2, seats_free=0)
        await host.update(fuller)
        await host.update(fuller)  # unchanged: no event
        assert drain(guest) == [TableSeen(fuller, ("10.0.0.1",))]

        await host.withdraw(ad.table_id)
        assert drain(guest) == [TableGone(ad.table_id)]
        assert net.tables() == {}


async def test_late_joiner_sees_existing_tables() -> None:
    net = FakeDiscoveryNetwork()
    async with net.open_discovery() as host:
        ad = table()
        await host.advertise(ad)
        async with net.open_discovery() as late:
            assert drain(late) == [TableSeen(ad, ("127.0.0.1",))]


async def test_closing_a_member_withdraws_its_tables_and_ends_its_events() -> None:
    net = FakeDiscoveryNetwork()
    async with net.open_discovery() as guest:
        async with net.open_discovery() as host:
            ad = table()
            await host.advertise(ad)
        assert drain(guest) == [TableSeen(ad, ("127.0.0.1",)), TableGone(ad.table_id)]
        assert drain(host) == [TableSeen(ad, ("127.0.0.1",))]
        with pytest.raises(trio.EndOfChannel):
            host.events.receive_nowait()
        with pytest.raises(DiscoveryError, match="closed"):
            await host.advertise(table())


async def test_expire_drops_a_table_without_its_owner() -> None:
    net = FakeDiscoveryNetwork()
    async with net.open_discovery() as host, net.open_discovery() as guest:
        ad = table()
        await host.advertise(ad)
        net.expire(ad.table_id)
        assert drain(guest) == [TableSeen(ad, ("127.0.0.1",)), TableGone(ad.table_id)]
        with pytest.raises(DiscoveryError, match="not advertised here"):
            await host.withdraw(ad.table_id)


async def test_misuse_is_refused() -> None:
    net = FakeDiscoveryNetwork()
    async with net.open_discovery() as a, net.open_discovery() as b:
        ad = table()
        await a.advertise(ad)
        with pytest.raises(DiscoveryError, match="already advertised here"):
            await a.advertise(ad)
        with pytest.raises(DiscoveryError, match="by another host"):
            await b.advertise(ad)
        with pytest.raises(DiscoveryError, match="not advertised here"):
            await b.update(ad)
        with pytest.raises(DiscoveryError, match="not advertised here"):
            await b.withdraw(ad.table_id)
    with pytest.raises(ValueError, match="IPv4"):
        async with net.open_discovery(addresses=["::1"]):
            pass


async def test_a_slow_reader_never_blocks_an_advertiser() -> None:
    net = FakeDiscoveryNetwork()
    async with net.open_discovery() as host, net.open_discovery():
        with trio.testing.assert_checkpoints():
            await host.advertise(table())
        ads = [table() for _ in range(200)]
        for ad in ads:
            await host.advertise(ad)
        assert len(net.tables()) == 201
