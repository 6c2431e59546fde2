"""The trio side of ZeroconfDiscovery, without a network: browser changes go in through the
real thread bridge, resolutions are scripted. Deterministic (autojump clock)."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

import pytest
import trio
import trio.testing
from zeroconf import ServiceInfo, ServiceStateChange

from p2p_durak.node.discovery import ZeroconfDiscovery
from p2p_durak.node.tableinfo import (
    SERVICE_TYPE,
    DiscoveryEvent,
    TableAd,
    TableGone,
    TableSeen,
    encode_txt,
    instance_name,
    new_table_id,
)
from p2p_durak.protocol.identity import Identity

FINGERPRINT = Identity.from_seed(bytes(32)).fingerprint
ADDED, UPDATED, REMOVED = (
    ServiceStateChange.Added,
    ServiceStateChange.Updated,
    ServiceStateChange.Removed,
)


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


def answer(ad: TableAd, *, text: bytes | None = None, name: str | None = None) -> ServiceInfo:
    return ServiceInfo(
        SERVICE_TYPE,
        name or instance_name(ad.table_id),
        port=ad.port,
        properties=encode_txt(ad) if text is None else text,
        server="host.local.",
        parsed_addresses=["10.1.2.3"],
    )


class ScriptedDiscovery(ZeroconfDiscovery):
    """Resolutions answer from ``script[name]``: a list of (seconds, ServiceInfo or None)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(None, **kwargs)  # type: ignore[arg-type]
        self.script: dict[str, list[tuple[float, ServiceInfo | None]]] = {}
        self.resolutions: list[str] = []

    async def _request_info(self, name: str) -> ServiceInfo | None:
        self.resolutions.append(name)
        delay, info = self.script[name].pop(0)
        await trio.sleep(delay)
        return info

    async def browser_says(
        self, name: str, change: ServiceStateChange, *, from_thread: bool = False
    ) -> None:
        if from_thread:  # like zeroconf's browser thread (the clock may jump while we wait)
            await trio.to_thread.run_sync(self.browser_callback, None, SERVICE_TYPE, name, change)
        else:
            self._note_change(name, change)  # what the callback schedules, minus the hop
            await trio.lowlevel.checkpoint()


@asynccontextmanager
async def scripted(max_tables: int = 16) -> AsyncIterator[ScriptedDiscovery]:
    send, receive = trio.open_memory_channel[DiscoveryEvent](64)
    discovery = ScriptedDiscovery(
        events=receive, advertise_addresses=None, resolve_timeout=1.0, max_tables=max_tables
    )
    async with send, trio.open_nursery() as nursery:
        nursery.start_soon(discovery.run_browser_changes, send, nursery)
        yield discovery
        nursery.cancel_scope.cancel()


def drain(discovery: ScriptedDiscovery) -> list[DiscoveryEvent]:
    events: list[DiscoveryEvent] = []
    while True:
        try:
            events.append(discovery.events.receive_nowait())
        except trio.WouldBlock:
            return events


async def settle() -> None:
    await trio.sleep(60)  # autojump: every scripted delay has passed
    await trio.testing.wait_all_tasks_blocked()


async def test_lifecycle(autojump_clock: trio.testing.MockClock) -> None:
    ad = table()
    changed = table(table_id=ad.table_id, seats_taken=2, seats_free=0)
    name = instance_name(ad.table_id)
    async with scripted() as discovery:
        discovery.script[name] = [(0.1, answer(ad)), (0.1, answer(ad)), (0.1, answer(changed))]
        await discovery.browser_says(name, ADDED, from_thread=True)
        await settle()
        assert drain(discovery) == [TableSeen(ad, ("10.1.2.3",))]
        await discovery.browser_says(name, UPDATED, from_thread=True)  # same answer: nothing new
        await settle()
        assert drain(discovery) == []
        await discovery.browser_says(name, UPDATED, from_thread=True)
        await settle()
        assert drain(discovery) == [TableSeen(changed, ("10.1.2.3",))]
        await discovery.browser_says(name, REMOVED, from_thread=True)
        await settle()
        assert drain(discovery) == [TableGone(ad.table_id)]


async def test_a_slow_old_answer_never_overwrites_a_newer_one(
    autojump_clock: trio.testing.MockClock,
) -> None:
    ad = table()
    newer = table(table_id=ad.table_id, name="Newer")
    name = instance_name(ad.table_id)
    async with scripted() as discovery:
        discovery.script[name] = [(5.0, answer(ad)), (1.0, answer(newer))]
        await discovery.browser_says(name, ADDED)
        await trio.sleep(0.5)
        await discovery.browser_says(name, UPDATED)
        await settle()
        assert discovery.resolutions == [name, name]
        assert drain(discovery) == [TableSeen(newer, ("10.1.2.3",))]


async def test_removed_while_resolving_reports_nothing(
    autojump_clock: trio.testing.MockClock,
) -> None:
    ad = table()
    name = instance_name(ad.table_id)
    async with scripted() as discovery:
        discovery.script[name] = [(5.0, answer(ad))]
        await discovery.browser_says(name, ADDED)
        await trio.sleep(1)
        await discovery.browser_says(name, REMOVED)
        await settle()
        assert drain(discovery) == []


async def test_bursts_are_coalesced_per_name(autojump_clock: trio.testing.MockClock) -> None:
    ad = table()
    name = instance_name(ad.table_id)
    async with scripted() as discovery:
        discovery.script[name] = [(0.1, answer(ad))]
        for change in [ADDED, UPDATED, REMOVED, ADDED, UPDATED] * 20:
            discovery.browser_callback(None, SERVICE_TYPE, name, change)  # type: ignore[arg-type]
        await settle()
        assert discovery.resolutions == [name]
        assert drain(discovery) == [TableSeen(ad, ("10.1.2.3",))]


async def test_removed_for_unknown_names_is_ignored(
    autojump_clock: trio.testing.MockClock,
) -> None:
    async with scripted(max_tables=2) as discovery:
        for _ in range(50):
            await discovery.browser_says(instance_name(new_table_id()), REMOVED)
        await settle()
        assert drain(discovery) == []
        ad = table()
        discovery.script[instance_name(ad.table_id)] = [(0.1, answer(ad))]
        await discovery.browser_says(instance_name(ad.table_id), ADDED)  # still room
        await settle()
        assert drain(discovery) == [TableSeen(ad, ("10.1.2.3",))]


async def test_the_number_of_tracked_tables_is_capped(
    autojump_clock: trio.testing.MockClock, caplog: pytest.LogCaptureFixture
) -> None:
    ads = [table() for _ in range(5)]
    async with scripted(max_tables=2) as discovery:
        for ad in ads:
            discovery.script[instance_name(ad.table_id)] = [(0.1, answer(ad))]
            await discovery.browser_says(instance_name(ad.table_id), ADDED)
        await settle()
        assert set(drain(discovery)) == {TableSeen(ad, ("10.1.2.3",)) for ad in ads[:2]}
    warnings = [r for r in caplog.records if "already tracking 2" in r.getMessage()]
    assert len(warnings) == 1


async def test_refusals_are_logged_once_and_a_spoiled_table_goes(
    autojump_clock: trio.testing.MockClock, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger="p2p_durak.node.discovery")
    ad = table()
    name = instance_name(ad.table_id)
    async with scripted() as discovery:
        discovery.script[name] = [
            (0.1, answer(ad)),
            (0.1, answer(ad, text=b"\x03a=1")),
            (0.1, answer(ad, text=b"\x03a=1")),
            (0.1, None),
        ]
        await discovery.browser_says(name, ADDED)
        await settle()
        for _ in range(3):
            await discovery.browser_says(name, UPDATED)
            await settle()
        assert drain(discovery) == [TableSeen(ad, ("10.1.2.3",)), TableGone(ad.table_id)]
    messages = [r.getMessage() for r in caplog.records]
    assert sum("lacks" in m for m in messages) == 1
    assert sum("resolve timeout" in m for m in messages) == 1


@pytest.mark.parametrize(
    ("make_answer", "reason"),
    [
        (lambda ad: answer(ad, name=f"other.{SERVICE_TYPE}"), "does not match"),
        (
            lambda ad: ServiceInfo(
                SERVICE_TYPE,
                instance_name(ad.table_id),
                port=ad.port,
                properties=encode_txt(ad),
                server="h.local.",
                parsed_addresses=["224.0.0.1"],
            ),
            "no usable IPv4",
        ),
    ],
)
async def test_answers_must_fit_their_name_and_be_dialable(
    autojump_clock: trio.testing.MockClock,
    caplog: pytest.LogCaptureFixture,
    make_answer: Callable[[TableAd], ServiceInfo],
    reason: str,
) -> None:
    ad = table()
    name = instance_name(ad.table_id) if reason != "does not match" else f"other.{SERVICE_TYPE}"
    async with scripted() as discovery:
        discovery.script[name] = [(0.1, make_answer(ad))]
        await discovery.browser_says(name, ADDED)
        await settle()
        assert drain(discovery) == []
    assert any(reason in r.getMessage() for r in caplog.records)
