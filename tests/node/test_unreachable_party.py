"""A table that cannot go on because a player cannot be reached says so: whom it waits for and
why, to the person at the table (the UI showed "Dealing the cards…" and nothing else until the
grace period ended the game), in the log, and next to the verdict when the grace period ends it.

The charter: a peer that vanishes or cannot be reached gets a clear error naming the peer and
the reason.
"""

from __future__ import annotations

from pathlib import Path

import trio
import trio.testing
from node_support import make_nodes, seat_everyone

from p2p_durak.engine.presets import get_preset
from p2p_durak.node.api import TableSnapshot
from p2p_durak.node.game import AWAY_NOTICE_SECONDS
from p2p_durak.node.lobby import TableConfig
from p2p_durak.node.memnet import MemoryNetwork
from p2p_durak.node.node import Node
from p2p_durak.node.players import BotPlayer
from p2p_durak.node.session import HumanPlayer

GRACE = 40


def why_unreachable(me: Node, other: Node) -> str:
    """What `me` can know of why it has no link to `other`: the smaller key dials."""
    if me.identity.peer_id.key < other.identity.peer_id.key:
        return f"cannot connect to {other.name}:9000: no route to {other.name}:9000 (partitioned)"
    return "it has not connected to us"


async def a_table_whose_players_cannot_reach_each_other(
        tmp_path: Path, human: HumanPlayer, seen: list[TableSnapshot],
        heal_after: float | None) -> list[Node]:
    network = MemoryNetwork()
    nodes = make_nodes(network, tmp_path, 2, seed=3)
    config = TableConfig("t", "app_podkidnoy", get_preset("app_podkidnoy").rules, 2,
                         grace_seconds=GRACE)

    async def watch() -> None:
        async for snapshot in human.snapshots:
            seen.append(snapshot)

    with trio.fail_after(3600):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(watch)
            for node in nodes:
                await nursery.start(node.serve)
            starts = await seat_everyone(nodes, config)
            network.partition("p0", "p1")  # from the Start on, neither reaches the other
            human.seated(["Anna", "Boris"], {})
            nursery.start_soon(nodes[1].play, starts[1], BotPlayer(seed=1))
            if heal_after is not None:
                await nursery.start(nodes[0].play, starts[0], human)
                await trio.sleep(heal_after)
                network.heal("p0", "p1")
                await trio.sleep(AWAY_NOTICE_SECONDS)  # the links come back at once
            else:
                await nodes[0].play(starts[0], human)
            nursery.cancel_scope.cancel()
    return nodes


async def test_the_player_is_told_whom_the_table_waits_for_and_why(
        tmp_path: Path, autojump_clock: trio.testing.MockClock) -> None:
    human = HumanPlayer(table_name="t", preset_id="app_podkidnoy", names=["Anna"])
    seen: list[TableSnapshot] = []
    nodes = await a_table_whose_players_cannot_reach_each_other(tmp_path, human, seen,
                                                                heal_after=10)
    told = [s for s in seen if s.away is not None]
    assert told, "the person was never told that the table waits for Boris"
    why = why_unreachable(nodes[0], nodes[1])
    assert told[0].away == f"waiting for Boris, not connected: {why}"
    assert told[0].away_ru == f"ждём Boris, нет связи: {why}"
    assert told[0].state is None  # before anything could be committed: the keys never came
    assert seen[-1].away is None  # Boris is reachable again: the note is gone
    runner = nodes[0].runner
    assert runner is not None
    assert runner.diagnosis is None


async def test_the_verdict_of_a_party_never_reached_comes_with_the_reason(
        tmp_path: Path, autojump_clock: trio.testing.MockClock) -> None:
    human = HumanPlayer(table_name="t", preset_id="app_podkidnoy", names=["Anna"])
    seen: list[TableSnapshot] = []
    nodes = await a_table_whose_players_cannot_reach_each_other(tmp_path, human, seen,
                                                                heal_after=None)
    runner = nodes[0].runner
    assert runner is not None
    fingerprint = nodes[1].identity.fingerprint
    assert runner.verdict == (f"abandoned: party 1 ({fingerprint}) did not return within "
                              f"{GRACE} s at position 0")
    why = why_unreachable(nodes[0], nodes[1])
    abandoned = runner.reports[-1]
    assert (abandoned.party, abandoned.kind) == (1, "abandoned")
    assert abandoned.detail == f"{runner.verdict} ({why})"
    last = seen[-1]
    # the verdict in the player's words (tests/node/test_abandoned_screen.py), and still whom
    # and why — no longer "waiting for": the game is over
    assert last.notice == (f"Boris left the game (did not come back within {GRACE} s). "
                           "The game is over.")
    assert last.activity == "halted"
    assert last.away == f"Boris, not connected: {why}"
    assert last.away_ru == f"Boris, нет связи: {why}"
    before = [s for s in seen if s.activity != "halted"][-1]  # until the verdict
    assert before.away == f"waiting for Boris, not connected: {why}"
