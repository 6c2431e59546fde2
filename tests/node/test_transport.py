from __future__ import annotations

import errno

import pytest
import trio
import trio.testing

from p2p_durak.node.mesh import dial_error
from p2p_durak.node.transport import (
    Dialer,
    Endpoint,
    Listener,
    MemoryNetwork,
    TcpDialer,
    TcpListener,
    remote_host,
)


async def echo(stream: trio.abc.Stream) -> None:
    async for data in stream:
        await stream.send_all(data)


async def receive_exactly(stream: trio.abc.Stream, size: int) -> bytes:
    data = b""
    while len(data) < size:
        chunk = await stream.receive_some()
        if not chunk:
            break
        data += chunk
    return data


async def round_trip(listener: Listener, dialer: Dialer, host: str | None = None) -> None:
    async with trio.open_nursery() as nursery:
        bound: Endpoint = await nursery.start(listener.serve, echo)
        assert bound.port != 0
        target = Endpoint(host or bound.host, bound.port)
        stream = await dialer.dial(target)
        async with stream:
            await stream.send_all(b"hello")
            assert await receive_exactly(stream, 5) == b"hello"
        nursery.cancel_scope.cancel()


async def test_tcp_round_trip_on_loopback() -> None:
    with trio.fail_after(10):
        await round_trip(TcpListener("127.0.0.1"), TcpDialer())


async def test_tcp_listener_reports_the_bound_port_and_refusal_is_an_oserror() -> None:
    with trio.fail_after(10):
        async with trio.open_nursery() as nursery:
            bound = await nursery.start(TcpListener("127.0.0.1").serve, echo)
            assert bound.host == "127.0.0.1"
            nursery.cancel_scope.cancel()
        # The listener is closed now: its port refuses connections.
        with pytest.raises(OSError, match="connect"):
            await TcpDialer().dial(bound)


async def test_a_tcp_dialer_bound_to_an_address_dials_from_it() -> None:
    """A peer pairs the address our connection came from with the port we listen on (a
    joiner's `listen_port`): a node listening on 127.0.0.2 only must not dial from 127.0.0.1."""
    seen: list[str] = []

    async def note_peer(stream: trio.abc.Stream) -> None:
        seen.append(remote_host(stream))

    with trio.fail_after(10):
        async with trio.open_nursery() as nursery:
            bound = await nursery.start(TcpListener("127.0.0.1").serve, note_peer)
            for dialer in (TcpDialer("127.0.0.2"), TcpDialer()):
                stream = await dialer.dial(bound)
                await trio.testing.wait_all_tasks_blocked()
                await stream.aclose()
            nursery.cancel_scope.cancel()
    assert seen == ["127.0.0.2", "127.0.0.1"]


async def test_a_refused_dial_is_named_as_the_system_says_it() -> None:
    """trio's error says only that every attempt failed; a player is told why."""
    with trio.fail_after(10):
        async with trio.open_nursery() as nursery:
            bound = await nursery.start(TcpListener("127.0.0.1").serve, echo)
            nursery.cancel_scope.cancel()
        with pytest.raises(OSError, match="connect") as refused:
            await TcpDialer().dial(bound)
    assert dial_error(refused.value) == "Connection refused"


async def test_memory_round_trip() -> None:
    net = MemoryNetwork()
    await round_trip(net.listener("a"), net.dialer("b"))
    assert net.open_connections("a", "b") == 0


async def test_memory_refuses_unknown_endpoints_and_double_binds() -> None:
    net = MemoryNetwork()
    with pytest.raises(OSError, match="refused") as refused:
        await net.dialer("b").dial(Endpoint("a", 1))
    assert refused.value.errno == errno.ECONNREFUSED
    async with trio.open_nursery() as nursery:
        bound = await nursery.start(net.listener("a", 7000).serve, echo)
        assert bound == Endpoint("a", 7000)
        with pytest.raises(OSError, match="in use") as in_use:
            await nursery.start(net.listener("a", 7000).serve, echo)
        assert in_use.value.errno == errno.EADDRINUSE
        other = await nursery.start(net.listener("a").serve, echo)
        assert other.host == "a"
        assert other.port != 7000
        nursery.cancel_scope.cancel()


async def test_partition_stalls_traffic_until_healed(
    autojump_clock: trio.testing.MockClock,
) -> None:
    net = MemoryNetwork()
    async with trio.open_nursery() as nursery:
        bound = await nursery.start(net.listener("a").serve, echo)
        stream = await net.dialer("b").dial(bound)
        await stream.send_all(b"1")
        assert await stream.receive_some() == b"1"

        net.partition("a", "b")
        await stream.send_all(b"2")
        with trio.move_on_after(60) as waited:
            await stream.receive_some()
        assert waited.cancelled_caught  # nothing gets through a partition
        with pytest.raises(OSError, match="partitioned") as unreachable:
            await net.dialer("b").dial(bound)
        assert unreachable.value.errno == errno.EHOSTUNREACH
        # other hosts are unaffected
        third = await net.dialer("c").dial(bound)
        await third.send_all(b"x")
        assert await third.receive_some() == b"x"

        net.heal("a", "b")
        assert await receive_exactly(stream, 1) == b"2"  # the waiting byte is delivered
        await stream.aclose()
        await third.aclose()
        nursery.cancel_scope.cancel()


async def test_cut_looks_like_a_crashed_peer() -> None:
    net = MemoryNetwork()
    handler_saw: list[bytes] = []

    async def record(stream: trio.abc.Stream) -> None:
        async for data in stream:
            handler_saw.append(data)
        handler_saw.append(b"<eof>")

    async with trio.open_nursery() as nursery:
        bound = await nursery.start(net.listener("a").serve, record)
        stream = await net.dialer("b").dial(bound)
        await stream.send_all(b"before")
        await trio.testing.wait_all_tasks_blocked()
        assert net.cut("a", "b") == 1
        await trio.testing.wait_all_tasks_blocked()
        assert handler_saw == [b"before", b"<eof>"]
        assert await stream.receive_some() == b""  # our reader sees end-of-stream
        with pytest.raises(trio.BrokenResourceError):
            await stream.send_all(b"after")  # and our writer sees a reset
        assert net.open_connections("a", "b") == 0
        nursery.cancel_scope.cancel()


async def test_crash_cuts_every_connection_of_a_host() -> None:
    net = MemoryNetwork()
    async with trio.open_nursery() as nursery:
        a = await nursery.start(net.listener("a").serve, echo)
        c = await nursery.start(net.listener("c").serve, echo)
        to_a = await net.dialer("b").dial(a)
        to_c = await net.dialer("b").dial(c)
        a_to_c = await net.dialer("a").dial(c)
        assert net.crash("a") == 2
        assert await to_a.receive_some() == b""
        assert await a_to_c.receive_some() == b""
        await to_c.send_all(b"still fine")
        assert await receive_exactly(to_c, 10) == b"still fine"
        nursery.cancel_scope.cancel()


async def test_stopping_a_listener_closes_its_connections_and_refuses_new_ones() -> None:
    net = MemoryNetwork()
    async with trio.open_nursery() as nursery:
        server_scope = trio.CancelScope()

        async def serve(task_status: trio.TaskStatus[Endpoint] = trio.TASK_STATUS_IGNORED) -> None:
            with server_scope:
                await net.listener("a").serve(echo, task_status=task_status)

        bound = await nursery.start(serve)
        stream = await net.dialer("b").dial(bound)
        server_scope.cancel()
        assert await stream.receive_some() == b""
        await trio.testing.wait_all_tasks_blocked()
        with pytest.raises(OSError, match="refused"):
            await net.dialer("b").dial(bound)


async def test_handler_errors_propagate_like_trio_serve_listeners() -> None:
    net = MemoryNetwork()

    async def broken(stream: trio.abc.Stream) -> None:
        raise RuntimeError("handler bug")

    with pytest.RaisesGroup(pytest.RaisesGroup(RuntimeError)):
        async with trio.open_nursery() as nursery:
            bound = await nursery.start(net.listener("a").serve, broken)
            await net.dialer("b").dial(bound)


async def test_memory_streams_pass_trio_conformance_checks() -> None:
    net = MemoryNetwork()
    async with trio.open_nursery() as nursery:
        accepted: trio.MemorySendChannel[trio.abc.Stream]
        accepted, incoming = trio.open_memory_channel[trio.abc.Stream](10)

        async def hand_over(stream: trio.abc.Stream) -> None:
            await accepted.send(stream)
            await trio.sleep_forever()

        bound = await nursery.start(net.listener("a").serve, hand_over)

        async def make_pair() -> tuple[trio.abc.Stream, trio.abc.Stream]:
            client = await net.dialer("b").dial(bound)
            server = await incoming.receive()
            return client, server

        await trio.testing.check_half_closeable_stream(make_pair, None)
        nursery.cancel_scope.cancel()
