"""How nodes open byte streams to each other: a ``Listener``/``Dialer`` seam.

The node codes against :class:`Listener` and :class:`Dialer` only. Production uses TCP
(:class:`TcpListener`, :class:`TcpDialer`); tests use a :class:`MemoryNetwork`, where every
connection is a pair of in-memory streams and a test can break links on purpose:

- :meth:`MemoryNetwork.partition` makes traffic between two hosts stall (bytes wait, as TCP
  would retransmit them) and new dials between them fail; :meth:`MemoryNetwork.heal` delivers
  what waited;
- :meth:`MemoryNetwork.cut` breaks the open connections between two hosts, as a crashed peer
  process does: readers see end-of-stream, writers get ``trio.BrokenResourceError``;
- :meth:`MemoryNetwork.crash` cuts every connection of a host.

Framing is not done here: these are plain byte streams.

A listener is a service in trio's style: ``endpoint = await nursery.start(listener.serve,
handler)`` returns once it accepts connections, with the bound :class:`Endpoint`. Each accepted
stream is given to ``handler`` in its own task and closed (``aclose_forcefully``) when the
handler returns. As with ``trio.serve_listeners``, an exception escaping a handler ends
``serve``: handlers must catch what a misbehaving peer can cause.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Protocol

import trio

StreamHandler = Callable[[trio.abc.Stream], Awaitable[object]]


@dataclass(frozen=True, slots=True, order=True)
class Endpoint:
    """Where a node listens: a host (address or name) and a TCP port."""

    host: str
    port: int

    def __str__(self) -> str:
        return f"{self.host}:{self.port}"


class Listener(Protocol):
    async def serve(
        self,
        handler: StreamHandler,
        *,
        task_status: trio.TaskStatus[Endpoint] = trio.TASK_STATUS_IGNORED,
    ) -> None:
        """Accept connections until cancelled; reports the bound endpoint via ``task_status``."""
        ...


class Dialer(Protocol):
    async def dial(self, endpoint: Endpoint) -> trio.abc.Stream:
        """Open a stream to ``endpoint``; raises ``OSError`` when it cannot be reached."""
        ...


# --- TCP ---------------------------------------------------------------------------------------


class TcpListener:
    """Listens on one IPv4 address (all of them by default) and ``port`` (0: any free port).

    The reported endpoint is the bound socket address, so with the default host its ``host`` is
    ``0.0.0.0``: peers learn the addresses to dial from discovery, and the port from here.
    """

    def __init__(self, host: str = "0.0.0.0", port: int = 0) -> None:
        self._host = host
        self._port = port

    async def serve(
        self,
        handler: StreamHandler,
        *,
        task_status: trio.TaskStatus[Endpoint] = trio.TASK_STATUS_IGNORED,
    ) -> None:
        listeners = await trio.open_tcp_listeners(self._port, host=self._host)
        address = listeners[0].socket.getsockname()
        task_status.started(Endpoint(str(address[0]), int(address[1])))
        await trio.serve_listeners(handler, listeners)


class TcpDialer:
    """Dials TCP endpoints with ``trio.open_tcp_stream`` (``TCP_NODELAY`` is on by default).

    ``local``: the address to dial from — a node that listens on one address only must dial
    from it, since a peer pairs the address a connection came from with the port we announce
    (a joiner's ``listen_port``) to reach us later. None: the kernel chooses.
    """

    def __init__(self, local: str | None = None) -> None:
        self.local = local

    async def dial(self, endpoint: Endpoint) -> trio.abc.Stream:
        return await trio.open_tcp_stream(endpoint.host, endpoint.port, local_address=self.local)


def remote_host(stream: trio.abc.Stream) -> str:
    """The address (TCP) or host name (memory network) of an accepted stream's peer; "" when
    unknown. The lobby pairs it with the port a joiner announces to reach it later."""
    sock = getattr(stream, "socket", None)
    if sock is not None:
        try:
            return str(sock.getpeername()[0])
        except OSError:
            return ""
    return str(getattr(stream, "remote_host", ""))



def remote_address(stream: trio.abc.Stream) -> str:
    """`host:port` of a stream's peer (TCP), its host name (memory network); "" when unknown:
    how a node names a peer that has not proven an identity yet."""
    sock = getattr(stream, "socket", None)
    if sock is not None:
        try:
            host, port = sock.getpeername()[:2]
        except OSError:
            return ""
        return f"{host}:{port}"
    return remote_host(stream)


_IN_MEMORY = frozenset({"MemoryNetwork", "MemoryListener", "MemoryDialer", "MemoryStream"})


def __getattr__(name: str) -> Any:
    # The in-memory network lives in `memnet` (it needs trio.testing, which pulls in pytest);
    # importing it lazily keeps the program's start-up free of test machinery.
    if name in _IN_MEMORY:
        from p2p_durak.node import memnet

        return getattr(memnet, name)
    raise AttributeError(name)
