"""ZeroconfDiscovery against real mDNS, inside private network namespaces.

Each discovery opens its zeroconf sockets inside a lab namespace (``zeroconf_factory``), so all
multicast stays on the lab's bridge. Real time, bounded by ``fail_after``.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import threading
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

import pytest
import trio
from netns_harness import NetnsLab
from outcome import Outcome
from zeroconf import ServiceInfo, Zeroconf

from p2p_durak.node.discovery import (
    DiscoveryError,
    ZeroconfDiscovery,
    host_ipv4_addresses,
    make_zeroconf,
    open_discovery,
)
from p2p_durak.node.tableinfo import (
    SERVICE_TYPE,
    DiscoveryEvent,
    TableAd,
    TableGone,
    TableSeen,
    encode_txt,
    instance_name,
    new_table_id,
    split_txt,
)
from p2p_durak.protocol.identity import Identity

pytestmark = [pytest.mark.netns, pytest.mark.slow]

FINGERPRINT = Identity.from_seed(bytes(range(32))).fingerprint
STEP = 8.0  # seconds any single expected change may take


def table(**changes: object) -> TableAd:
    fields: dict[str, object] = {
        "table_id": new_table_id(),
        "name": "Стол ♠ at the window",
        "variant": "perevodnoy-36",
        "rules_hash": "0f" * 32,
        "seats_taken": 1,
        "seats_free": 3,
        "fingerprint": FINGERPRINT,
        "port": 41234,
        "protocol_version": 1,
    }
    fields.update(changes)
    return TableAd(**fields)  # type: ignore[arg-type]


def in_host(lab: NetnsLab, host: int) -> Callable[[list[str] | None], Zeroconf]:
    return lambda interfaces: lab.call_in(host, lambda: make_zeroconf(interfaces))


@asynccontextmanager
async def discovery_in(lab: NetnsLab, host: int) -> AsyncIterator[ZeroconfDiscovery]:
    async with open_discovery(
        interfaces=[lab.hosts[host].address], zeroconf_factory=in_host(lab, host)
    ) as discovery:
        yield discovery


async def next_event(
    discovery: ZeroconfDiscovery, wanted: Callable[[DiscoveryEvent], bool]
) -> DiscoveryEvent:
    with trio.fail_after(STEP):
        async for event in discovery.events:
            if wanted(event):
                return event
    raise AssertionError("events ended")


def about(table_id: str) -> Callable[[DiscoveryEvent], bool]:
    def match(event: DiscoveryEvent) -> bool:
        if isinstance(event, TableSeen):
            return event.table.table_id == table_id
        return event.table_id == table_id

    return match


async def test_a_table_appears_changes_and_disappears(make_lab: Callable[[int], NetnsLab]) -> None:
    lab = make_lab(2)
    async with discovery_in(lab, 0) as host, discovery_in(lab, 1) as guest:
        ad = table()
        await host.advertise(ad)
        seen = await next_event(guest, about(ad.table_id))
        assert seen == TableSeen(ad, (lab.hosts[0].address,))  # TXT and name intact
        assert await next_event(host, about(ad.table_id)) == seen  # our own table shows too

        fuller = dataclasses.replace(ad, seats_taken=2, seats_free=2)
        await host.update(fuller)
        assert await next_event(guest, about(ad.table_id)) == TableSeen(
            fuller, (lab.hosts[0].address,)
        )

        await host.withdraw(ad.table_id)
        assert await next_event(guest, about(ad.table_id)) == TableGone(ad.table_id)


async def test_closing_withdraws_and_a_late_browser_finds_tables(
    make_lab: Callable[[int], NetnsLab],
) -> None:
    lab = make_lab(3)
    async with discovery_in(lab, 0) as early:
        async with discovery_in(lab, 1) as host:
            first, second = table(), table(name="Second")
            async with trio.open_nursery() as nursery:
                nursery.start_soon(host.advertise, first)
                nursery.start_soon(host.advertise, second)
            async with discovery_in(lab, 2) as late:
                found = {
                    (await next_event(late, lambda e: isinstance(e, TableSeen))).table.table_id
                    for _ in range(2)
                }
                assert found == {first.table_id, second.table_id}
        # host closed: goodbye packets reach the others
        gone = {
            (await next_event(early, lambda e: isinstance(e, TableGone))).table_id for _ in range(2)
        }
        assert gone == {first.table_id, second.table_id}


async def test_hostile_advertisements_are_logged_and_dropped(
    make_lab: Callable[[int], NetnsLab], caplog: pytest.LogCaptureFixture
) -> None:
    lab = make_lab(3)
    evil_address = lab.hosts[2].address
    evil_zc = await trio.to_thread.run_sync(
        lambda: lab.call_in(2, lambda: make_zeroconf([evil_address]))
    )
    valid = table(name="Valid")
    impostor = table()
    bad_services = {
        instance_name(new_table_id()): b"\x05hello",
        instance_name(new_table_id()): encode_txt(impostor),  # TXT id differs from the name
        f"evil.{SERVICE_TYPE}": encode_txt(impostor),
        instance_name(impostor.table_id): b"".join(
            bytes([len(item)]) + item
            for item in (
                i.replace(b"name=", b"name=\x1b[2J") for i in split_txt(encode_txt(impostor))
            )
        ),
        instance_name(new_table_id()): encode_txt(impostor)[:-4],
    }
    reasons = ["lacks", "does not match", "does not match", "U+001B", "truncated"]

    def register_all() -> None:
        for name, text in bad_services.items():
            info = ServiceInfo(
                SERVICE_TYPE,
                name,
                port=1,
                properties=text,
                server="evil.local.",
                parsed_addresses=[evil_address],
            )
            evil_zc.register_service(info, cooperating_responders=True, strict=False)

    # Each of the two nodes logs one refusal per bad service (repeats are not logged again).
    all_refused = trio.Event()
    counter = RefusalCounter(2 * len(bad_services), all_refused.set)
    discovery_log = logging.getLogger("p2p_durak.node.discovery")
    discovery_log.addHandler(counter)
    try:
        caplog.set_level(logging.WARNING, logger="p2p_durak.node.discovery")
        async with discovery_in(lab, 0) as host, discovery_in(lab, 1) as guest:
            await trio.to_thread.run_sync(register_all)
            await host.advertise(valid)
            assert await next_event(guest, lambda e: True) == TableSeen(
                valid, (lab.hosts[0].address,)
            )
            with trio.fail_after(STEP):
                await all_refused.wait()
            # Nothing but the valid table was reported, to either node.
            for node in (host, guest):
                while True:
                    try:
                        event = node.events.receive_nowait()
                    except trio.WouldBlock:
                        break
                    assert event == TableSeen(valid, (lab.hosts[0].address,))
    finally:
        discovery_log.removeHandler(counter)
        await trio.to_thread.run_sync(evil_zc.close)
    messages = [r.getMessage() for r in caplog.records if r.name.endswith("discovery")]
    for name, reason in zip(bad_services, reasons, strict=True):
        assert any(name in m and reason in m for m in messages), (name, reason, messages)


async def test_a_table_id_cannot_be_advertised_twice(make_lab: Callable[[int], NetnsLab]) -> None:
    lab = make_lab(2)
    async with discovery_in(lab, 0) as first, discovery_in(lab, 1) as second:
        ad = table()
        await first.advertise(ad)
        with pytest.raises(DiscoveryError, match="already advertises"):
            await second.advertise(dataclasses.replace(ad, name="Copy"))
        with pytest.raises(DiscoveryError, match="already advertised here"):
            await first.advertise(ad)
        with pytest.raises(DiscoveryError, match="not advertised here"):
            await second.withdraw(ad.table_id)


class RefusalCounter(logging.Handler):
    def __init__(self, target: int, reached: Callable[[], None]) -> None:
        super().__init__(logging.WARNING)
        self.count = 0
        self.target = target
        self.reached = reached

    def emit(self, record: logging.LogRecord) -> None:
        if record.getMessage().startswith("ignoring table advertisement"):
            self.count += 1
            if self.count == self.target:
                self.reached()


def zeroconf_threads() -> set[threading.Thread]:
    return {
        t
        for t in threading.enumerate()
        if t.name.startswith(("zeroconf", "netns-")) or "_run_loop" in t.name
    }


async def test_no_threads_outlive_discovery(make_lab: Callable[[int], NetnsLab]) -> None:
    lab = make_lab(1)
    before = zeroconf_threads()
    async with discovery_in(lab, 0) as discovery:
        await discovery.advertise(table())
        assert zeroconf_threads() - before  # the browser and zeroconf's loop are running
    assert zeroconf_threads() - before == set()
    with pytest.raises(DiscoveryError, match="closed"):
        await discovery.advertise(table())
    leftovers = [event async for event in discovery.events]  # ends: the channel is closed
    assert all(isinstance(event, TableSeen) for event in leftovers)


async def test_errors_in_the_body_come_out_unwrapped(make_lab: Callable[[int], NetnsLab]) -> None:
    lab = make_lab(1)
    with pytest.raises(KeyError, match="boom"):
        async with discovery_in(lab, 0):
            raise KeyError("boom")
    with trio.move_on_after(0.5) as scope:
        async with discovery_in(lab, 0):
            await trio.sleep_forever()
    assert scope.cancelled_caught


async def test_all_interfaces_by_default(make_lab: Callable[[int], NetnsLab]) -> None:
    lab = make_lab(2)
    addresses = [h.address for h in lab.hosts]
    assert lab.call_in(0, host_ipv4_addresses) == [addresses[0]]  # loopback left out
    async with (
        open_discovery(zeroconf_factory=in_host(lab, 0), advertise_addresses=[addresses[0]]) as a,
        open_discovery(zeroconf_factory=in_host(lab, 1), advertise_addresses=[addresses[1]]) as b,
    ):
        ad = table()
        await a.advertise(ad)
        assert await next_event(b, about(ad.table_id)) == TableSeen(ad, (addresses[0],))


def test_works_inside_a_trio_guest_run_on_asyncio(make_lab: Callable[[int], NetnsLab]) -> None:
    # The terminal UI hosts the node as a trio guest of asyncio; zeroconf must not join that loop.
    lab = make_lab(2)

    async def node() -> list[DiscoveryEvent]:
        async with discovery_in(lab, 0) as host, discovery_in(lab, 1) as guest:
            ad = table()
            await host.advertise(ad)
            seen = await next_event(guest, about(ad.table_id))
            await host.withdraw(ad.table_id)
            return [seen, await next_event(guest, about(ad.table_id))]

    async def asyncio_host() -> list[DiscoveryEvent]:
        loop = asyncio.get_running_loop()
        done: asyncio.Future[Outcome[list[DiscoveryEvent]]] = loop.create_future()
        trio.lowlevel.start_guest_run(
            node,
            run_sync_soon_threadsafe=loop.call_soon_threadsafe,
            done_callback=done.set_result,
            host_uses_signal_set_wakeup_fd=True,
        )
        return (await asyncio.wait_for(done, 30)).unwrap()

    seen, gone = asyncio.run(asyncio_host())
    assert isinstance(seen, TableSeen)
    assert gone == TableGone(seen.table.table_id)
