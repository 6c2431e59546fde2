"""The in-memory network for tests: hosts that listen and dial over memory streams, with
fault injection (see `transport.py` for the seams it implements)."""

from __future__ import annotations

import contextlib
import errno
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import trio
from trio.testing import MemoryReceiveStream, MemorySendStream, memory_stream_pump

from p2p_durak.node.transport import (
    Dialer,
    Endpoint,
    Listener,
    StreamHandler,
    TcpDialer,
    TcpListener,
)

# --- in memory ---------------------------------------------------------------------------------

MemoryStream = trio.StapledStream[MemorySendStream, MemoryReceiveStream]


@dataclass(eq=False)
class _Pipe:
    """One direction of a link; data moves only while the link is up."""

    link: _Link
    send: MemorySendStream = field(default_factory=MemorySendStream)
    receive: MemoryReceiveStream = field(default_factory=MemoryReceiveStream)

    closed: bool = False

    def __post_init__(self) -> None:
        self.send.send_all_hook = self._after_send
        self.send.close_hook = self._after_close

    def _after_close(self) -> None:
        self.closed = True
        self.flow()

    async def _after_send(self) -> None:
        if self.link.broken:
            raise trio.BrokenResourceError("connection reset: the link was cut")
        self.flow()

    def flow(self) -> None:
        """Move everything waiting in the send buffer across, unless the link is down."""
        if self.link.broken or self.link.stalled():
            return
        memory_stream_pump(self.send, self.receive)  # moves all buffered bytes, or the EOF

    def break_(self) -> None:
        # The receiver reads what already arrived, then end-of-stream; nothing more arrives.
        with contextlib.suppress(trio.ClosedResourceError):  # the receiver closed its end
            self.receive.put_eof()


@dataclass(eq=False)
class _Link:
    """One connection between a dialing host and a listening host."""

    network: MemoryNetwork
    dialer_host: str
    listener_host: str
    broken: bool = False

    def __post_init__(self) -> None:
        self.forward = _Pipe(self)  # dialer -> listener
        self.backward = _Pipe(self)  # listener -> dialer

    def stalled(self) -> bool:
        return self.network.is_partitioned(self.dialer_host, self.listener_host)

    def joins(self, a: str, b: str) -> bool:
        return {self.dialer_host, self.listener_host} == {a, b}

    def open(self) -> bool:
        return not self.broken and not (self.forward.closed and self.backward.closed)

    def dialer_stream(self) -> MemoryStream:
        return trio.StapledStream(self.forward.send, self.backward.receive)

    def listener_stream(self) -> MemoryStream:
        return trio.StapledStream(self.backward.send, self.forward.receive)

    def flow(self) -> None:
        for pipe in (self.forward, self.backward):
            # BrokenResourceError: that receiver closed its end; its sender learns on next write.
            with contextlib.suppress(trio.BrokenResourceError):
                pipe.flow()

    def break_(self) -> None:
        self.broken = True
        self.forward.break_()
        self.backward.break_()


class MemoryNetwork:
    """Hosts (plain names) that listen and dial over in-memory streams, with fault injection."""

    def __init__(self, *, backlog: int = 64) -> None:
        self._backlog = backlog
        self._listening: dict[Endpoint, trio.MemorySendChannel[MemoryStream]] = {}
        self._next_port: dict[str, int] = {}
        self._partitions: set[frozenset[str]] = set()
        self._links: list[_Link] = []

    def listener(self, host: str, port: int = 0) -> MemoryListener:
        return MemoryListener(self, host, port)

    def dialer(self, host: str) -> MemoryDialer:
        return MemoryDialer(self, host)

    # faults

    def is_partitioned(self, a: str, b: str) -> bool:
        return frozenset((a, b)) in self._partitions

    def partition(self, a: str, b: str) -> None:
        """Stall all traffic between hosts ``a`` and ``b`` and refuse new dials between them."""
        if a == b:
            raise ValueError("a host cannot be partitioned from itself")
        self._partitions.add(frozenset((a, b)))

    def heal(self, a: str, b: str) -> None:
        """End a partition; bytes that waited are delivered now."""
        self._partitions.discard(frozenset((a, b)))
        for link in self._live_links():
            if link.joins(a, b):
                link.flow()

    def cut(self, a: str, b: str) -> int:
        """Break every open connection between ``a`` and ``b``; returns how many."""
        cut = [link for link in self._live_links() if link.joins(a, b)]
        for link in cut:
            link.break_()
        return len(cut)

    def crash(self, host: str) -> int:
        """Break every open connection of ``host`` (its listeners stop with their tasks)."""
        cut = [
            link for link in self._live_links() if host in (link.dialer_host, link.listener_host)
        ]
        for link in cut:
            link.break_()
        return len(cut)

    def open_connections(self, a: str, b: str) -> int:
        return sum(1 for link in self._live_links() if link.joins(a, b))

    def _live_links(self) -> list[_Link]:
        self._links = [link for link in self._links if link.open()]
        return list(self._links)

    # plumbing for MemoryListener / MemoryDialer

    def bind(self, endpoint: Endpoint) -> tuple[Endpoint, trio.MemoryReceiveChannel[MemoryStream]]:
        if endpoint.port == 0:
            port = self._next_port.get(endpoint.host, 40000)
            while Endpoint(endpoint.host, port) in self._listening:
                port += 1
            self._next_port[endpoint.host] = port + 1
            endpoint = Endpoint(endpoint.host, port)
        if endpoint in self._listening:
            raise OSError(errno.EADDRINUSE, f"address already in use: {endpoint}")
        send, receive = trio.open_memory_channel[MemoryStream](self._backlog)
        self._listening[endpoint] = send
        return endpoint, receive

    def unbind(self, endpoint: Endpoint) -> None:
        send = self._listening.pop(endpoint, None)
        if send is not None:
            send.close()

    def connect(self, from_host: str, endpoint: Endpoint) -> MemoryStream:
        if from_host != endpoint.host and self.is_partitioned(from_host, endpoint.host):
            raise OSError(errno.EHOSTUNREACH, f"no route to {endpoint} (partitioned)")
        accept = self._listening.get(endpoint)
        if accept is None:
            raise OSError(errno.ECONNREFUSED, f"connection refused by {endpoint}")
        link = _Link(self, from_host, endpoint.host)
        accepted = link.listener_stream()
        accepted.remote_host = from_host  # type: ignore[attr-defined]  # read by remote_host()
        try:
            accept.send_nowait(accepted)
        except trio.WouldBlock:
            raise OSError(errno.ECONNREFUSED, f"backlog of {endpoint} is full") from None
        self._links.append(link)
        return link.dialer_stream()


class MemoryListener:
    def __init__(self, network: MemoryNetwork, host: str, port: int = 0) -> None:
        self._network = network
        self._wanted = Endpoint(host, port)

    async def serve(
        self,
        handler: StreamHandler,
        *,
        task_status: trio.TaskStatus[Endpoint] = trio.TASK_STATUS_IGNORED,
    ) -> None:
        endpoint, incoming = self._network.bind(self._wanted)
        try:
            async with trio.open_nursery() as handlers:
                task_status.started(endpoint)
                try:
                    async for stream in incoming:
                        handlers.start_soon(_run_handler, handler, stream)
                finally:
                    # Stop accepting at once, before the handlers finish.
                    self._network.unbind(endpoint)
        finally:
            self._network.unbind(endpoint)
            # Connections dialled but never handed to a handler: their dialers see EOF.
            while True:
                try:
                    unhandled = incoming.receive_nowait()
                except (trio.WouldBlock, trio.EndOfChannel):
                    break
                await trio.aclose_forcefully(unhandled)
            incoming.close()


async def _run_handler(handler: StreamHandler, stream: trio.abc.Stream) -> None:
    try:
        await handler(stream)
    finally:
        await trio.aclose_forcefully(stream)


class MemoryDialer:
    def __init__(self, network: MemoryNetwork, host: str) -> None:
        self._network = network
        self.host = host

    async def dial(self, endpoint: Endpoint) -> trio.abc.Stream:
        await trio.lowlevel.checkpoint()
        return self._network.connect(self.host, endpoint)


if TYPE_CHECKING:  # every implementation satisfies the node's seams (checked by mypy)

    def _conforms(
        tcp: TcpListener, memory: MemoryListener, tcp_dialer: TcpDialer, mem_dialer: MemoryDialer
    ) -> tuple[Listener, Listener, Dialer, Dialer]:
        return tcp, memory, tcp_dialer, mem_dialer
