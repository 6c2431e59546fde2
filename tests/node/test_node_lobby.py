"""The lobby: joiners are seated or refused with a reason; a full table starts for everyone."""

from __future__ import annotations

import dataclasses

import pytest
import trio
import trio.testing

from p2p_durak.engine import RuleSet
from p2p_durak.node.link import PeerFault, accept_link, open_link
from p2p_durak.node.lobby import HostedTable, JoinFailed, TableConfig, join_table
from p2p_durak.node.memnet import MemoryNetwork
from p2p_durak.node.transport import Endpoint
from p2p_durak.protocol import codec
from p2p_durak.protocol.identity import Identity
from p2p_durak.protocol.messages import (
    PROTOCOL_VERSION,
    JoinRefused,
    JoinRequest,
    RefuseCode,
    TableInfo,
    TimeoutPolicy,
    TurnTimer,
)


async def _host(network: MemoryNetwork, table: HostedTable, nursery: trio.Nursery) -> None:
    async def handler(stream: trio.abc.Stream) -> None:
        try:
            link = await accept_link(stream, table.identity, admit=lambda peer: None,
                                     label="joiner")
        except PeerFault:
            return
        await table.handle(link)

    await nursery.start(network.listener("host", 4000).serve, handler)


def _table(seats: int) -> HostedTable:
    config = TableConfig("Кухня", "app_podkidnoy", RuleSet(), seats)
    return HostedTable(config, Identity.from_seed(b"h" * 32), "Хозяин", Endpoint("host", 4000))


async def test_a_full_table_starts_for_everyone(autojump_clock: trio.testing.MockClock) -> None:
    network = MemoryNetwork()
    table = _table(3)
    starts = {}
    async with trio.open_nursery() as nursery:
        await _host(network, table, nursery)

        async def joiner(name: str) -> None:
            me = Identity.from_seed(name.encode() * 32)
            starts[name] = await join_table(me, network.dialer(name), Endpoint("host", 4000),
                                            name=name, listen_port=5000,
                                            expected_host=table.identity.peer_id)

        async with trio.open_nursery() as joiners:
            joiners.start_soon(joiner, "a")
            joiners.start_soon(joiner, "b")
        nursery.cancel_scope.cancel()
    assert table.start is not None
    for start in starts.values():
        assert start.start.encode() == table.start.start.encode()
        assert start.rules == RuleSet()
    endpoints = {p.name: p.endpoint for p in table.start.players}
    assert endpoints == {"Хозяин": "host:4000", "a": "a:5000", "b": "b:5000"}


async def test_other_rules_are_refused_with_a_reason(
        autojump_clock: trio.testing.MockClock) -> None:
    network = MemoryNetwork()
    table = _table(2)
    async with trio.open_nursery() as nursery:
        await _host(network, table, nursery)
        other = codec.sha256(RuleSet(transfer=True).canonical())
        with pytest.raises(JoinFailed, match="other rules") as refused:
            await join_table(Identity.generate(), network.dialer("x"), Endpoint("host", 4000),
                             name="x", listen_port=1, rules_hash=other)
        nursery.cancel_scope.cancel()
    # a Russian waiting room reads the refusal by its code (the detail is the host's English)
    assert refused.value.reason_ru == "у стола другие правила"
    assert table.players[1:] == []
    assert any("other rules" in r for r in table.refusals)


async def test_a_join_request_for_another_game_is_refused(
        autojump_clock: trio.testing.MockClock) -> None:
    """docs/protocol.md §9 step 3 and §12 (`RefuseCode.UNKNOWN_GAME`): a join request naming
    another game id than the table's is refused, not seated."""
    network = MemoryNetwork()
    table = _table(2)
    me = Identity.from_seed(b"z" * 32)
    async with trio.open_nursery() as nursery:
        await _host(network, table, nursery)
        link = await open_link(await network.dialer("z").dial(Endpoint("host", 4000)), me,
                               expected=table.identity.peer_id, label="host")
        info = await link.receive()
        assert isinstance(info, TableInfo)
        other_game = bytes(16) if info.game != bytes(16) else b"\x01" * 16
        await link.send(JoinRequest(other_game, PROTOCOL_VERSION, info.rules_hash, "z",
                                    me.peer_id, 1))
        answer = await link.receive()
        nursery.cancel_scope.cancel()
    assert isinstance(answer, JoinRefused)
    assert answer.code is RefuseCode.UNKNOWN_GAME
    assert table.players[1:] == []


async def test_a_joiner_pins_the_advertised_host_fingerprint(
        autojump_clock: trio.testing.MockClock) -> None:
    """The mDNS advertisement names the host by fingerprint (docs/protocol.md §9 step 1): a
    joiner refuses whoever answers at the address with another identity, and joins the host
    that proves the advertised one."""
    network = MemoryNetwork()
    table = _table(2)
    impostor = Identity.from_seed(b"i" * 32)
    async with trio.open_nursery() as nursery:
        await _host(network, table, nursery)
        with pytest.raises(JoinFailed, match=f"expected fingerprint {impostor.fingerprint}"):
            await join_table(Identity.from_seed(b"x" * 32), network.dialer("x"),
                             Endpoint("host", 4000), name="x", listen_port=1,
                             host_fingerprint=impostor.fingerprint)
        assert table.players[1:] == []
        start = await join_table(Identity.from_seed(b"y" * 32), network.dialer("y"),
                                 Endpoint("host", 4000), name="y", listen_port=1,
                                 host_fingerprint=table.identity.fingerprint)
        nursery.cancel_scope.cancel()
    assert [p.name for p in start.players] == ["Хозяин", "y"]


async def test_unreachable_table_says_so() -> None:
    network = MemoryNetwork()
    with pytest.raises(JoinFailed, match="cannot reach") as failed:
        await join_table(Identity.generate(), network.dialer("x"), Endpoint("nowhere", 1),
                         name="x", listen_port=1)
    assert failed.value.reason_ru.startswith("нет связи с nowhere:1")


def _clocked_table(seats: int, **clocks: object) -> HostedTable:
    config = TableConfig("Кухня", "app_podkidnoy", RuleSet(), seats, **clocks)  # type: ignore[arg-type]
    return HostedTable(config, Identity.from_seed(b"h" * 32), "Хозяин", Endpoint("host", 4000))


async def test_the_clocks_reach_every_joiner_in_the_table_info_and_the_start(
        autojump_clock: trio.testing.MockClock) -> None:
    network = MemoryNetwork()
    table = _clocked_table(2, turn_seconds=20, on_timeout="lose", grace_seconds=90)
    clocks = TurnTimer(20, TimeoutPolicy.LOSE, 90)
    assert table.info().timer == clocks
    async with trio.open_nursery() as nursery:
        await _host(network, table, nursery)
        me = Identity.from_seed(b"j" * 32)
        start = await join_table(me, network.dialer("j"), Endpoint("host", 4000), name="j",
                                 listen_port=5000, timer=clocks)
        nursery.cancel_scope.cancel()
    assert start.timer == clocks
    assert table.start is not None
    assert table.start.timer == clocks


async def test_a_joiner_refuses_clocks_other_than_advertised_or_shown(
        autojump_clock: trio.testing.MockClock) -> None:
    network = MemoryNetwork()
    table = _clocked_table(3, turn_seconds=20)
    outcome: dict[str, object] = {}
    async with trio.open_nursery() as nursery:
        await _host(network, table, nursery)

        async def joiner(name: str, timer: TurnTimer | None = None) -> None:
            me = Identity.from_seed(name.encode() * 32)
            try:
                outcome[name] = await join_table(me, network.dialer(name),
                                                 Endpoint("host", 4000), name=name,
                                                 listen_port=5000, timer=timer)
            except JoinFailed as exc:
                outcome[name] = exc.reason

        # what mDNS said is not what the host now shows: refused before sitting down
        await joiner("x", TurnTimer(60, TimeoutPolicy.BOT, 60))
        async with trio.open_nursery() as joiners:
            joiners.start_soon(joiner, "a")
            await trio.testing.wait_all_tasks_blocked()
            # the host changes its clocks after "a" sat down: "a" agreed to the old ones
            table.config = dataclasses.replace(table.config, turn_seconds=5, on_timeout="lose")
            joiners.start_soon(joiner, "b")
        nursery.cancel_scope.cancel()
    assert outcome["x"] == ("the table's clocks are now 20 s per move, then a bot moves; grace "
                            "60 s, not 60 s per move, then a bot moves; grace 60 s as advertised")
    assert outcome["a"] == ("the host started with other clocks (5 s per move, then the player "
                            "loses; grace 60 s) than it showed (20 s per move, then a bot moves; "
                            "grace 60 s)")
    assert not isinstance(outcome["b"], str)


def test_table_clocks_out_of_bounds_are_refused() -> None:
    for clocks, complaint in (({"turn_seconds": -1}, "turn timer"),
                              ({"turn_seconds": 7200}, "turn timer"),
                              ({"on_timeout": "pause"}, "runs out"),
                              ({"grace_seconds": 0}, "grace")):
        with pytest.raises(ValueError, match=complaint):
            TableConfig("t", "app_podkidnoy", RuleSet(), 2, **clocks)  # type: ignore[arg-type]


def test_every_refusal_has_its_russian_words() -> None:
    from p2p_durak.node.lobby import REFUSED_RU
    from p2p_durak.protocol.messages import RefuseCode

    assert set(REFUSED_RU) == set(RefuseCode)
