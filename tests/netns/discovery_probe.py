"""A discovery node for multi-process tests, driven by JSON lines.

Run inside a namespace: ``python discovery_probe.py --interface 10.77.0.1``. It browses from the
start and reads commands from stdin, one JSON object per line::

    {"op": "advertise", "table": {<TableAd fields>}}
    {"op": "update", "table": {<TableAd fields>}}
    {"op": "withdraw", "table_id": "<id>"}
    {"op": "quit"}

and writes one JSON object per line to stdout: ``{"event": "ready"}`` once browsing, ``{"event":
"seen", "table": {...}, "addresses": [...]}``, ``{"event": "gone", "table_id": ...}``, ``{"event":
"done", "op": ...}`` after each command, ``{"event": "error", "op": ..., "message": ...}``.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys
from typing import Any

import trio

from p2p_durak.node.discovery import ZeroconfDiscovery, open_discovery
from p2p_durak.node.tableinfo import TableAd, TableSeen
from p2p_durak.protocol.messages import TimeoutPolicy, TurnTimer


def emit(**fields: Any) -> None:
    sys.stdout.write(json.dumps(fields, ensure_ascii=False) + "\n")
    sys.stdout.flush()


def table_ad(fields: dict[str, Any]) -> TableAd:
    """A TableAd from its JSON form (the nested clocks come back as a plain object)."""
    timer = fields.get("timer")
    if isinstance(timer, dict):
        fields = {**fields, "timer": TurnTimer(timer["turn_seconds"],
                                               TimeoutPolicy(timer["on_timeout"]),
                                               timer["grace_seconds"])}
    return TableAd(**fields)


async def report_events(discovery: ZeroconfDiscovery) -> None:
    async for event in discovery.events:
        if isinstance(event, TableSeen):
            emit(
                event="seen",
                table=dataclasses.asdict(event.table),
                addresses=list(event.addresses),
            )
        else:
            emit(event="gone", table_id=event.table_id)


async def stdin_lines() -> Any:
    stream = trio.lowlevel.FdStream(os.dup(sys.stdin.fileno()))
    buffer = b""
    async with stream:
        while True:
            chunk = await stream.receive_some()
            if not chunk:
                return
            buffer += chunk
            while b"\n" in buffer:
                line, buffer = buffer.split(b"\n", 1)
                yield line


async def run(interface: str) -> None:
    async with open_discovery(interfaces=[interface]) as discovery, trio.open_nursery() as nursery:
        nursery.start_soon(report_events, discovery)
        emit(event="ready")
        async for line in stdin_lines():
            command = json.loads(line)
            op = command["op"]
            if op == "quit":
                break
            try:
                if op == "advertise":
                    await discovery.advertise(table_ad(command["table"]))
                elif op == "update":
                    await discovery.update(table_ad(command["table"]))
                elif op == "withdraw":
                    await discovery.withdraw(command["table_id"])
                else:
                    raise ValueError(f"unknown op {op!r}")
            except Exception as exc:
                emit(event="error", op=op, message=str(exc))
            else:
                emit(event="done", op=op)
        nursery.cancel_scope.cancel()
    emit(event="closed")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--interface", required=True, help="IPv4 address of the interface to use")
    args = parser.parse_args()
    trio.run(run, args.interface)


if __name__ == "__main__":
    main()
