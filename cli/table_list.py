"""`durak tables`: listen to discovery for a while and say what was found — or, when nothing
was (multicast blocked, or no table), say so and point at joining by address."""

from __future__ import annotations

import json
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass

import trio

from p2p_durak.cli.i18n import Messages
from p2p_durak.node.discovery import Discovery
from p2p_durak.node.tableinfo import TableGone, TableSeen
from p2p_durak.protocol.messages import PROTOCOL_VERSION

OpenDiscovery = Callable[[], AbstractAsyncContextManager[Discovery]]

NOTHING_FOUND = 1  # like grep finding no line: a script can tell "no table" from a listing


@dataclass(frozen=True, slots=True)
class TableListing:
    """What `durak tables` prints: lines for stdout, a note for stderr, the exit status."""

    lines: tuple[str, ...]
    note: str | None
    status: int


async def tables_seen(open_discovery: OpenDiscovery, seconds: float) -> list[TableSeen]:
    """The tables discovery reports within `seconds` (a table gone again is not listed)."""
    seen: dict[str, TableSeen] = {}
    async with open_discovery() as discovery:
        with trio.move_on_after(seconds):
            async for event in discovery.events:
                if isinstance(event, TableSeen):
                    seen[event.table.table_id] = event
                elif isinstance(event, TableGone):
                    seen.pop(event.table_id, None)
    return list(seen.values())


def listing(seen: list[TableSeen], *, seconds: float, lang: str, as_json: bool) -> TableListing:
    if not seen:
        return TableListing((), Messages(lang)("tables.none", seconds=f"{seconds:g}"),
                            NOTHING_FOUND)
    return TableListing(tuple(_json_line(s) if as_json else _text_line(s, lang) for s in seen),
                        None, 0)


def _text_line(seen: TableSeen, lang: str) -> str:
    t = seen.table
    line = (f"{t.name}\t{t.variant}\t{t.seats_taken}/{t.seats}\t{seen.addresses[0]}:{t.port}\t"
            f"{t.fingerprint}\t{t.timer.describe()}")
    if not t.compatible:  # (a seventh column, only then: `durak join` would be refused)
        line += "\t" + Messages(lang)("tables.incompatible", theirs=t.protocol_version,
                                      ours=PROTOCOL_VERSION)
    return line


def _json_line(seen: TableSeen) -> str:
    t = seen.table
    return json.dumps({"name": t.name, "variant": t.variant, "taken": t.seats_taken,
                       "free": t.seats_free, "addresses": list(seen.addresses),
                       "port": t.port, "fingerprint": t.fingerprint,
                       "turn_seconds": t.timer.turn_seconds,
                       "on_timeout": t.timer.on_timeout.name.lower(),
                       "grace_seconds": t.timer.grace_seconds,
                       "protocol_version": t.protocol_version, "compatible": t.compatible},
                      ensure_ascii=False)
