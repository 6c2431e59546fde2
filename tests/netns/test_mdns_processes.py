"""Three separate processes in three namespaces on one bridge: real zeroconf, real multicast.

One advertises a table; the other two must see it with its TXT intact, see a seat change, and
see it go when it is withdrawn. Every wait is bounded, so this cannot hang.
"""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import trio
from netns_harness import NetnsLab

from p2p_durak.node.tableinfo import TableAd, new_table_id
from p2p_durak.protocol.identity import Identity

pytestmark = [pytest.mark.netns, pytest.mark.subprocess, pytest.mark.slow]

PROBE = Path(__file__).with_name("discovery_probe.py")
STEP = 10.0  # seconds any single expected line may take (process start included)


class Probe:
    """One discovery_probe.py process and its JSON-lines conversation."""

    def __init__(self, name: str, process: trio.Process) -> None:
        self.name = name
        self.process = process
        self._buffer = b""
        self.transcript: list[dict[str, Any]] = []

    async def send(self, **command: Any) -> None:
        assert self.process.stdin is not None
        await self.process.stdin.send_all(json.dumps(command).encode() + b"\n")

    async def expect(self, wanted: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        assert self.process.stdout is not None
        with trio.fail_after(STEP):
            while True:
                while b"\n" in self._buffer:
                    line, self._buffer = self._buffer.split(b"\n", 1)
                    message = json.loads(line)
                    self.transcript.append(message)
                    if message.get("event") == "error":
                        raise AssertionError(f"{self.name}: {message}")
                    if wanted(message):
                        return message
                chunk = await self.process.stdout.receive_some()
                if not chunk:
                    raise AssertionError(f"{self.name} exited; said {self.transcript}")
                self._buffer += chunk


def event(kind: str, **fields: Any) -> Callable[[dict[str, Any]], bool]:
    return lambda message: (
        message.get("event") == kind
        and all(message.get(key) == value for key, value in fields.items())
    )


async def start_probe(lab: NetnsLab, host: int) -> Probe:
    argv = [sys.executable, str(PROBE), "--interface", lab.hosts[host].address]
    process = await trio.lowlevel.open_process(
        lab.exec_argv(host, argv), stdin=subprocess.PIPE, stdout=subprocess.PIPE
    )
    return Probe(f"probe {host}", process)


async def stop(probe: Probe) -> None:
    with trio.CancelScope(shield=True):
        with trio.move_on_after(STEP):
            try:
                await probe.send(op="quit")
                await probe.expect(event("closed"))
            except (AssertionError, trio.BrokenResourceError, trio.ClosedResourceError):
                pass
            await probe.process.wait()
        if probe.process.returncode is None:
            probe.process.kill()
            await probe.process.wait()
        for stream in (probe.process.stdin, probe.process.stdout):
            if stream is not None:
                await stream.aclose()


async def test_three_processes_see_a_table_live(make_lab: Callable[[int], NetnsLab]) -> None:
    lab = make_lab(3)
    probes: list[Probe] = []
    try:
        for host in range(3):
            probes.append(await start_probe(lab, host))
        for probe in probes:
            await probe.expect(event("ready"))
        advertiser, *browsers = probes

        ad = TableAd(
            table_id=new_table_id(),
            name="Дурак на кухне ♣",
            variant="podkidnoy-36",
            rules_hash="9a" * 32,
            seats_taken=1,
            seats_free=2,
            fingerprint=Identity.from_seed(bytes(32)).fingerprint,
            port=40404,
            protocol_version=3,
        )
        expected_addresses = [lab.hosts[0].address]
        await advertiser.send(op="advertise", table=dataclasses.asdict(ad))
        await advertiser.expect(event("done", op="advertise"))
        for browser in browsers:
            seen = await browser.expect(event("seen"))
            assert seen["table"] == dataclasses.asdict(ad)
            assert seen["addresses"] == expected_addresses

        fuller = dataclasses.replace(ad, seats_taken=3, seats_free=0)
        await advertiser.send(op="update", table=dataclasses.asdict(fuller))
        await advertiser.expect(event("done", op="update"))
        for browser in browsers:
            seen = await browser.expect(event("seen"))
            assert seen["table"] == dataclasses.asdict(fuller)

        await advertiser.send(op="withdraw", table_id=ad.table_id)
        await advertiser.expect(event("done", op="withdraw"))
        for browser in browsers:
            await browser.expect(event("gone", table_id=ad.table_id))
    finally:
        async with trio.open_nursery() as nursery:
            for probe in probes:
                nursery.start_soon(stop, probe)
    assert [probe.process.returncode for probe in probes] == [0, 0, 0]
