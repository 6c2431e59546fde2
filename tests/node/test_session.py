"""A person's seat at a networked table: snapshots after every commit, moves refused with the
engine's reason and nothing changed, a whole game played through the Session interface."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
import trio
import trio.testing

from p2p_durak import engine as eng
from p2p_durak.engine.presets import get_preset
from p2p_durak.node.api import TableSnapshot
from p2p_durak.node.game import Player
from p2p_durak.node.lobby import TableConfig
from p2p_durak.node.memnet import MemoryNetwork
from p2p_durak.node.node import Node
from p2p_durak.node.players import BotPlayer
from p2p_durak.node.session import HumanPlayer
from p2p_durak.node.transport import Endpoint
from p2p_durak.protocol.identity import Identity


async def _table(home: Path, players: list[Player]) -> list[Node]:
    network = MemoryNetwork()
    n = len(players)
    nodes = [Node(Identity.from_seed(bytes([i + 1]) * 32), f"p{i}", home / f"p{i}",
                  network.listener(f"p{i}", 9000), network.dialer(f"p{i}"),
                  advertised_host=f"p{i}", rng=random.Random(i).randbytes) for i in range(n)]
    config = TableConfig("kitchen", "app_podkidnoy", get_preset("app_podkidnoy").rules, n)
    async with trio.open_nursery() as nursery:
        for node in nodes:
            await nursery.start(node.serve)
        nodes[0].host_table(config)
        starts = {}

        async def host() -> None:
            starts[0] = await nodes[0].wait_for_start()

        async def join(i: int) -> None:
            starts[i] = await nodes[i].join(Endpoint("p0", 9000))

        async with trio.open_nursery() as lobby:
            lobby.start_soon(host)
            for i in range(1, n):
                lobby.start_soon(join, i)
        async with trio.open_nursery() as games:
            for i, node in enumerate(nodes):
                games.start_soon(node.play, starts[i], players[i])
        nursery.cancel_scope.cancel()
    return nodes


async def _person(human: HumanPlayer, seen: list[TableSnapshot]) -> None:
    """Plays by the snapshots alone: first tries a move that is never legal, then the first
    legal move whenever it has some."""
    tried_illegal = False
    async for snap in human.snapshots:
        seen.append(snap)
        if snap.state is not None and snap.state.phase == eng.Phase.OVER:
            if snap.activity == "over":
                return
            continue
        if not snap.legal:
            continue
        if not tried_illegal:
            tried_illegal = True
            with pytest.raises(eng.IllegalAction) as info:
                await human.act(eng.Action(eng.Kind.LEAD, snap.my_seat, (999,)))
            assert info.value.message("ru")
        await human.act(snap.legal[0])


async def test_a_person_plays_a_whole_game_through_the_session(
        tmp_path: Path, autojump_clock: trio.testing.MockClock) -> None:
    human = HumanPlayer(table_name="kitchen", preset_id="app_podkidnoy",
                        names=["me", "bot a", "bot b"], bots={1: "easy", 2: "easy"})
    seen: list[TableSnapshot] = []
    async with trio.open_nursery() as nursery:
        nursery.start_soon(_person, human, seen)
        nodes = await _table(tmp_path, [human, BotPlayer(level="easy", seed=1),
                                        BotPlayer(level="easy", seed=2)])
        nursery.cancel_scope.cancel()
    assert seen[-1].activity == "over"
    final = seen[-1].state
    assert final is not None
    assert final.result is not None
    assert {s.name for s in seen[-1].seats} == {"me", "bot a", "bot b"}
    assert any(snap.activity == "shuffling" for snap in seen)
    # before the first bout the person knows of the others' hands only the trumps they showed
    me = seen[-1].my_seat
    first_lead = next(s.state for s in seen if s.state is not None
                      and s.state.phase == eng.Phase.LEAD)
    shown = {c for c in first_lead.claims if c >= 0}
    for seat in range(3):
        if seat != me:
            assert set(eng.cards_of(first_lead.hands[seat])) <= shown
            assert first_lead.hidden[seat] > 0
    runner = nodes[0].runner
    assert runner is not None
    assert runner.diagnosis is None
