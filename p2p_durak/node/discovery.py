"""Tables on the LAN: advertise ours and watch everyone's, over mDNS/DNS-SD, inside trio.

python-zeroconf runs its own asyncio loop on a thread (``use_asyncio=False``: inside a trio guest
run the host's asyncio loop would otherwise be picked up). Trio talks to it in three ways:

- blocking registry calls (register, update, unregister, close) run in ``trio.to_thread``;
- the ``ServiceBrowser`` callback runs on zeroconf's browser thread and only hands the change to
  trio with ``TrioToken.run_sync_soon``; all state lives in the trio thread;
- service resolution is scheduled on zeroconf's loop and awaited from trio, so it can be
  cancelled (a blocking ``get_service_info`` could hold a thread for seconds after close).

Browser changes are coalesced per service name before they are handled, so a burst of changes
never loses the last one (a lost "removed" would leave a ghost table). Every resolved
advertisement goes through the strict decoder in :mod:`p2p_durak.node.tableinfo`; refused ones are
logged with the reason and dropped. Our own tables are seen like anyone else's.

:class:`FakeDiscoveryNetwork` offers the same interface over memory channels for in-process tests.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import math
import secrets
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager, suppress
from typing import TYPE_CHECKING, Protocol

import ifaddr
import trio
from zeroconf import (
    InterfaceChoice,
    IPVersion,
    NonUniqueNameException,
    ServiceBrowser,
    ServiceInfo,
    ServiceStateChange,
    Zeroconf,
)

from p2p_durak.node.tableinfo import (
    SERVICE_TYPE,
    DiscoveryEvent,
    TableAd,
    TableAdError,
    TableGone,
    TableSeen,
    decode_txt,
    dialable_ipv4,
    encode_txt,
    instance_name,
    table_id_from_instance,
)

log = logging.getLogger(__name__)

# Short TTLs on every record: a crashed node's records leave other caches within two minutes,
# instead of the 75 minutes RFC 6762 suggests for service records. The lobby drops a dead host's
# table sooner, within seconds, by knocking at its port (liveness.py).
AD_TTL_SECONDS = 120
DEFAULT_RESOLVE_TIMEOUT = 3.0
DEFAULT_MAX_TABLES = 256
DEFAULT_EVENTS_BUFFER = 64
_RESOLVERS = 4

ZeroconfFactory = Callable[[list[str] | None], Zeroconf]


class DiscoveryError(RuntimeError):
    """An advertise/update/withdraw request that cannot be carried out; ``str()`` says why."""


class Discovery(Protocol):
    """What the node needs from discovery; :class:`ZeroconfDiscovery` and :class:`FakeDiscovery`."""

    @property
    def events(self) -> trio.MemoryReceiveChannel[DiscoveryEvent]:
        """``TableSeen``/``TableGone`` events, in the order they were decided."""
        ...

    async def advertise(self, table: TableAd) -> None:
        """Start announcing a table; raises :class:`DiscoveryError` if its id is taken."""
        ...

    async def update(self, table: TableAd) -> None:
        """Replace the advertisement of a table we advertise (same ``table_id``)."""
        ...

    async def withdraw(self, table_id: str) -> None:
        """Stop announcing a table (others see ``TableGone``)."""
        ...


def _ipv4_list(addresses: Sequence[str], what: str) -> list[str]:
    result: list[str] = []
    for text in addresses:
        try:
            address = ipaddress.ip_address(text)
        except ValueError:
            raise ValueError(f"{what}: {text!r} is not an IP address") from None
        if not isinstance(address, ipaddress.IPv4Address) or address.is_unspecified:
            raise ValueError(f"{what}: {text!r} is not a specific IPv4 address")
        result.append(str(address))
    if not result:
        raise ValueError(f"{what}: empty list (use None for all interfaces)")
    return result


def make_zeroconf(interfaces: list[str] | None = None) -> Zeroconf:
    """A threaded, IPv4-only zeroconf instance on all interfaces or the given IPv4 addresses.

    Blocking (opens sockets, starts zeroconf's thread): call it through ``trio.to_thread``.
    """
    choice: InterfaceChoice | list[str | int] = (
        InterfaceChoice.All if interfaces is None else list(_ipv4_list(interfaces, "interfaces"))
    )
    return Zeroconf(interfaces=choice, ip_version=IPVersion.V4Only, use_asyncio=False)


def host_ipv4_addresses() -> list[str]:
    """This host's IPv4 addresses, loopback only when there is nothing else."""
    found: list[str] = []
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            if ip.is_IPv4 and isinstance(ip.ip, str) and ip.ip not in found:
                found.append(ip.ip)
    outside = [a for a in found if not ipaddress.IPv4Address(a).is_loopback]
    return outside or found


class ZeroconfDiscovery:
    """Discovery over real mDNS; make one with :func:`open_discovery`."""

    def __init__(
        self,
        zc: Zeroconf,
        events: trio.MemoryReceiveChannel[DiscoveryEvent],
        *,
        advertise_addresses: list[str] | None,
        resolve_timeout: float,
        max_tables: int,
    ) -> None:
        self._zc = zc
        self._events = events
        self._token = trio.lowlevel.current_trio_token()
        self._fixed_addresses = advertise_addresses
        self._resolve_timeout_ms = max(1, round(resolve_timeout * 1000))
        self._max_tables = max_tables
        self._server = f"durak-{secrets.token_hex(6)}.local."
        self._registry_lock = trio.Lock()
        self._ads: dict[str, ServiceInfo] = {}
        self._closed = False
        # Trio-thread state for what the browser reports, keyed by lower-cased instance name.
        self._pending: dict[str, tuple[str, ServiceStateChange]] = {}
        self._wakeup = trio.Event()
        self._latest: dict[str, int] = {}  # name -> number of the newest change being handled
        self._change_counter = 0
        self._seen: dict[str, TableSeen] = {}
        self._last_refusal: dict[str, str] = {}
        self._full_warned = False
        self._resolvers = trio.CapacityLimiter(_RESOLVERS)

    @property
    def events(self) -> trio.MemoryReceiveChannel[DiscoveryEvent]:
        return self._events

    # --- advertising --------------------------------------------------------------------------

    def _advertise_addresses(self) -> list[str]:
        return self._fixed_addresses or host_ipv4_addresses()

    def _service_info(self, table: TableAd) -> ServiceInfo:
        return ServiceInfo(
            SERVICE_TYPE,
            instance_name(table.table_id),
            port=table.port,
            properties=encode_txt(table),
            server=self._server,
            parsed_addresses=self._advertise_addresses(),
            host_ttl=AD_TTL_SECONDS,
            other_ttl=AD_TTL_SECONDS,
        )

    def _check_open(self) -> None:
        if self._closed:
            raise DiscoveryError("discovery is closed")

    async def advertise(self, table: TableAd) -> None:
        async with self._registry_lock:
            self._check_open()
            if table.table_id in self._ads:
                raise DiscoveryError(f"table {table.table_id} is already advertised here")
            info = self._service_info(table)
            try:
                # Probes the name first (about 1.5 s), as RFC 6762 §8.1 asks.
                await trio.to_thread.run_sync(self._zc.register_service, info)
            except NonUniqueNameException:
                raise DiscoveryError(
                    f"another host already advertises table {table.table_id}"
                ) from None
            self._ads[table.table_id] = info

    async def update(self, table: TableAd) -> None:
        async with self._registry_lock:
            self._check_open()
            if table.table_id not in self._ads:
                raise DiscoveryError(f"table {table.table_id} is not advertised here")
            info = self._service_info(table)
            await trio.to_thread.run_sync(self._zc.update_service, info)
            self._ads[table.table_id] = info

    async def withdraw(self, table_id: str) -> None:
        async with self._registry_lock:
            self._check_open()
            info = self._ads.pop(table_id, None)
            if info is None:
                raise DiscoveryError(f"table {table_id} is not advertised here")
            await trio.to_thread.run_sync(self._zc.unregister_service, info)

    # --- browsing -----------------------------------------------------------------------------

    def browser_callback(
        self,
        zeroconf: Zeroconf,
        service_type: str,
        name: str,
        state_change: ServiceStateChange,
    ) -> None:
        """ServiceBrowser handler. Runs on zeroconf's thread: hand over to trio, nothing else."""
        # RunFinishedError: trio is gone and the browser is about to be cancelled.
        with suppress(trio.RunFinishedError):
            self._token.run_sync_soon(self._note_change, name, state_change)

    def _note_change(self, name: str, change: ServiceStateChange) -> None:
        key = name.lower()
        tracked = key in self._latest or key in self._pending
        if not tracked:
            if change is ServiceStateChange.Removed:
                return  # never reported, nothing to forget
            if len(self._latest) + len(self._pending) >= self._max_tables:
                if not self._full_warned:
                    self._full_warned = True
                    log.warning(
                        "ignoring new services (first: %r): already tracking %d",
                        name,
                        self._max_tables,
                    )
                return
            self._full_warned = False  # there was room again
        self._pending.pop(key, None)
        self._pending[key] = (name, change)
        self._wakeup.set()

    async def run_browser_changes(
        self, send: trio.MemorySendChannel[DiscoveryEvent], nursery: trio.Nursery
    ) -> None:
        """Turn coalesced browser changes into events; resolutions run in ``nursery``."""
        while True:
            await self._wakeup.wait()
            self._wakeup = trio.Event()
            pending, self._pending = self._pending, {}
            for key, (name, change) in pending.items():
                self._change_counter += 1
                number = self._change_counter
                if change is ServiceStateChange.Removed:
                    self._latest.pop(key, None)
                    self._last_refusal.pop(key, None)
                    await self._forget(key, send)
                else:
                    self._latest[key] = number
                    nursery.start_soon(self._resolve, key, name, number, send)

    async def _forget(self, key: str, send: trio.MemorySendChannel[DiscoveryEvent]) -> None:
        seen = self._seen.pop(key, None)
        if seen is not None:
            await send.send(TableGone(seen.table.table_id))

    async def _resolve(
        self, key: str, name: str, number: int, send: trio.MemorySendChannel[DiscoveryEvent]
    ) -> None:
        async with self._resolvers:
            if self._latest.get(key) != number:
                return
            try:
                info = await self._request_info(name)
            except Exception:  # the network edge: a zeroconf failure must not stop browsing
                log.exception("resolving %r failed", name)
                info = None
        if self._latest.get(key) != number:
            return  # superseded by a newer change while we waited
        try:
            seen = self._decode(name, info)
        except TableAdError as exc:
            self._latest.pop(key, None)
            reason = str(exc)
            if self._last_refusal.get(key) != reason:
                if len(self._last_refusal) >= self._max_tables:
                    self._last_refusal.clear()  # bounded memory; repeats get logged again
                self._last_refusal[key] = reason
                log.warning("ignoring table advertisement %r: %s", name, reason)
            await self._forget(key, send)
            return
        self._last_refusal.pop(key, None)
        if self._seen.get(key) != seen:
            self._seen[key] = seen
            await send.send(seen)

    def _decode(self, name: str, info: ServiceInfo | None) -> TableSeen:
        if info is None:
            raise TableAdError("no complete answer (SRV, TXT, address) within the resolve timeout")
        if info.port is None:
            raise TableAdError("no SRV port")
        table = decode_txt(info.text or b"", port=info.port)
        if table_id_from_instance(name) != table.table_id:
            raise TableAdError(f"instance name does not match table id {table.table_id}")
        addresses = dialable_ipv4(info.parsed_addresses(IPVersion.V4Only))
        if not addresses:
            raise TableAdError("no usable IPv4 address")
        return TableSeen(table, addresses)

    async def _request_info(self, name: str) -> ServiceInfo | None:
        """Resolve on zeroconf's loop; cancelling the trio side cancels the request there."""
        loop = self._zc.loop
        if loop is None or self._zc.done:
            return None
        try:
            info = ServiceInfo(SERVICE_TYPE, name)
        except Exception:  # zeroconf refuses names it cannot query
            return None
        future = asyncio.run_coroutine_threadsafe(
            info.async_request(self._zc, self._resolve_timeout_ms), loop
        )
        done = trio.Event()

        def wake(_: object) -> None:
            with suppress(trio.RunFinishedError):
                self._token.run_sync_soon(done.set)

        future.add_done_callback(wake)
        try:
            await done.wait()
        finally:
            future.cancel()
        return info if future.result() else None

    def mark_closed(self) -> None:
        self._closed = True


@asynccontextmanager
async def open_discovery(
    *,
    interfaces: Sequence[str] | None = None,
    advertise_addresses: Sequence[str] | None = None,
    browse: bool = True,
    resolve_timeout: float = DEFAULT_RESOLVE_TIMEOUT,
    max_tables: int = DEFAULT_MAX_TABLES,
    events_buffer: int = DEFAULT_EVENTS_BUFFER,
    zeroconf_factory: ZeroconfFactory = make_zeroconf,
) -> AsyncIterator[ZeroconfDiscovery]:
    """Run mDNS discovery for the duration of the block.

    ``interfaces``: IPv4 addresses of the interfaces to use, or None for all of them.
    ``advertise_addresses``: the addresses published for our tables; by default the
    ``interfaces`` given, else every non-loopback IPv4 address of the host at advertise time.
    ``browse=False`` only advertises. ``zeroconf_factory`` builds the zeroconf instance (it is
    called with ``interfaces`` in a worker thread; tests use it to open the sockets inside a
    network namespace).

    On exit: the browser stops, our tables are withdrawn with goodbye packets, zeroconf closes
    and its threads end; the events channel then reports end-of-channel.
    """
    iface_list = None if interfaces is None else _ipv4_list(interfaces, "interfaces")
    fixed = (
        _ipv4_list(advertise_addresses, "advertise_addresses")
        if advertise_addresses is not None
        else iface_list
    )
    zc = await trio.to_thread.run_sync(zeroconf_factory, iface_list)
    send, receive = trio.open_memory_channel[DiscoveryEvent](events_buffer)
    browser: ServiceBrowser | None = None
    body_error: BaseException | None = None
    try:
        discovery = ZeroconfDiscovery(
            zc,
            receive,
            advertise_addresses=fixed,
            resolve_timeout=resolve_timeout,
            max_tables=max_tables,
        )
        async with send, trio.open_nursery() as nursery:
            nursery.start_soon(discovery.run_browser_changes, send, nursery)
            if browse:
                browser = ServiceBrowser(zc, SERVICE_TYPE, handlers=[discovery.browser_callback])
            try:
                yield discovery
            except BaseException as exc:
                # Re-raised below, outside the nursery, so callers get their own exception
                # rather than an ExceptionGroup wrapping it.
                body_error = exc
            discovery.mark_closed()
            nursery.cancel_scope.cancel()
    finally:
        with trio.CancelScope(shield=True):
            if browser is not None:
                await trio.to_thread.run_sync(browser.cancel)
            # close() sends goodbyes for every table still registered, then joins its thread.
            await trio.to_thread.run_sync(zc.close)
    if body_error is not None:
        raise body_error


# --- in-memory stand-in ----------------------------------------------------------------------


class FakeDiscoveryNetwork:
    """A shared in-memory "LAN" for :class:`FakeDiscovery` members (one per simulated node).

    Behaves like the real thing where the node can tell: every member sees every table, its own
    included; a table id can be advertised by one member only; closing a member withdraws its
    tables. :meth:`expire` drops a table without its owner's say, as record expiry does after a
    crash.
    """

    def __init__(self) -> None:
        self._members: list[FakeDiscovery] = []
        self._tables: dict[str, tuple[FakeDiscovery, TableSeen]] = {}

    @asynccontextmanager
    async def open_discovery(
        self, *, addresses: Sequence[str] = ("127.0.0.1",)
    ) -> AsyncIterator[FakeDiscovery]:
        member = FakeDiscovery(self, tuple(_ipv4_list(addresses, "addresses")))
        self._members.append(member)
        for _, seen in self._tables.values():
            member.deliver(seen)
        try:
            yield member
        finally:
            member.mark_closed()
            self._members.remove(member)
            for table_id, (owner, _) in list(self._tables.items()):
                if owner is member:
                    self._remove(table_id)

    def tables(self) -> dict[str, TableSeen]:
        """What is currently advertised, by table id."""
        return {table_id: seen for table_id, (_, seen) in self._tables.items()}

    def expire(self, table_id: str) -> None:
        if table_id not in self._tables:
            raise KeyError(table_id)
        self._remove(table_id)

    def put(self, owner: FakeDiscovery, seen: TableSeen) -> None:
        current = self._tables.get(seen.table.table_id)
        self._tables[seen.table.table_id] = (owner, seen)
        if current is None or current[1] != seen:
            for member in self._members:
                member.deliver(seen)

    def owner_of(self, table_id: str) -> FakeDiscovery | None:
        entry = self._tables.get(table_id)
        return None if entry is None else entry[0]

    def _remove(self, table_id: str) -> None:
        del self._tables[table_id]
        for member in self._members:
            member.deliver(TableGone(table_id))


class FakeDiscovery:
    """A member of a :class:`FakeDiscoveryNetwork`, with :class:`ZeroconfDiscovery`'s interface."""

    def __init__(self, network: FakeDiscoveryNetwork, addresses: tuple[str, ...]) -> None:
        self._network = network
        self._addresses = addresses
        # Unbounded like a real network, which never blocks an advertiser on a slow reader.
        self._send, self._receive = trio.open_memory_channel[DiscoveryEvent](math.inf)
        self._closed = False

    @property
    def events(self) -> trio.MemoryReceiveChannel[DiscoveryEvent]:
        return self._receive

    def deliver(self, event: DiscoveryEvent) -> None:
        self._send.send_nowait(event)

    def mark_closed(self) -> None:
        self._closed = True
        self._send.close()

    def _check(self, table_id: str, *, mine: bool) -> None:
        if self._closed:
            raise DiscoveryError("discovery is closed")
        owner = self._network.owner_of(table_id)
        if mine and owner is not self:
            raise DiscoveryError(f"table {table_id} is not advertised here")
        if not mine and owner is not None:
            where = "here" if owner is self else "by another host"
            raise DiscoveryError(f"table {table_id} is already advertised {where}")

    async def advertise(self, table: TableAd) -> None:
        await trio.lowlevel.checkpoint()
        self._check(table.table_id, mine=False)
        self._network.put(self, TableSeen(table, self._addresses))

    async def update(self, table: TableAd) -> None:
        await trio.lowlevel.checkpoint()
        self._check(table.table_id, mine=True)
        self._network.put(self, TableSeen(table, self._addresses))

    async def withdraw(self, table_id: str) -> None:
        await trio.lowlevel.checkpoint()
        self._check(table_id, mine=True)
        self._network.expire(table_id)


if TYPE_CHECKING:  # both implementations satisfy the node's seam (checked by mypy)

    def _conforms(real: ZeroconfDiscovery, fake: FakeDiscovery) -> tuple[Discovery, Discovery]:
        return real, fake
