"""A link between two honest players stalls (a partition: TCP holds the bytes) and heals.

While p1 and p2 cannot hear each other, the game goes on through p0: p1 learns p2's acks from the
certificates p0 sends it (and the other way round). When the link heals, the messages it held
arrive at last: acks and entries of positions committed long ago. They are late, not replays —
nobody may be named for them (charter: never name an honest peer; docs/protocol.md §10.7: "a
late retransmission looks like a replay").
"""

from __future__ import annotations

from pathlib import Path

import pytest
import trio
import trio.testing
from table_harness import Table, assert_finished_cleanly, faults, position, run_table

from p2p_durak.node.players import BotPlayer
from p2p_durak.protocol.table import TableEvent, TableMachine


class PartitioningPlayer(BotPlayer):
    """A bot whose node, once it committed position `at`, loses its link to p2 (the game runs
    in zero virtual time: the cut must come from inside it, not from a polling test)."""

    def __init__(self, *, seed: int, at: int) -> None:
        super().__init__(level="easy", seed=seed)
        self.at = at
        self.table: Table | None = None
        self.partitioned = trio.Event()

    async def update(self, table: TableMachine, events: tuple[TableEvent, ...]) -> None:
        await super().update(table, events)
        assert self.table is not None
        if not self.partitioned.is_set() and position(self.table.nodes[1]) >= self.at:
            self.table.network.partition("p1", "p2")
            self.partitioned.set()


@pytest.mark.parametrize("seed", [2, 3])
async def test_messages_held_by_a_partition_are_late_not_replays(
        tmp_path: Path, autojump_clock: trio.testing.MockClock, seed: int) -> None:
    player = PartitioningPlayer(seed=seed * 100 + 1, at=10)
    reached: dict[str, int] = {}

    async def during(table: Table) -> None:
        player.table = table
        await player.partitioned.wait()
        reached["cut"] = position(table.nodes[1])
        await trio.sleep(20)
        reached["healed"] = position(table.nodes[1])
        table.network.heal("p1", "p2")

    table = await run_table(tmp_path, seed=seed, players={1: player}, during=during)
    runners = [table.runner(i) for i in range(3)]
    assert reached["healed"] >= reached["cut"] + 5, reached  # the game went on meanwhile
    for runner in runners:
        assert faults(runner) == [], "\n".join(runner.problems)
    assert_finished_cleanly(runners)
