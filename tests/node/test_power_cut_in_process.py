"""A node that loses power mid-game (not just its process): its journal keeps only what was
synced — the seed and the deck messages it made (synced before they are sent), not the commits
and signed entries written since the last sync (synced in the background about once a second;
never, here: the harness turns the background sync off). It restarts, rejoins, and the game
goes on with nobody accused: in particular it signs no second entry for a position it had
signed before (which its peers would rightly call equivocation).
"""

from __future__ import annotations

import os
from pathlib import Path

import trio
import trio.testing
from table_harness import Table, assert_finished_cleanly, faults, make_node, run_table

from p2p_durak.node.game import GameRunner, Player, Timing
from p2p_durak.node.lobby import GameStart
from p2p_durak.node.mesh import Mesh
from p2p_durak.node.node import Node
from p2p_durak.node.players import BotPlayer
from p2p_durak.node.store import GameJournal


class _Fuse:
    """Cuts the power of one node right after it journals its `at`-th commit: what the journal
    file then keeps is what a sync had made durable (`image` bytes)."""

    def __init__(self, at: int) -> None:
        self.at = at
        self.blown = trio.Event()
        self.image = 0
        self.journal: GameJournal | None = None
        self.table: Table | None = None
        self.node = -1

    def node_class(self) -> type[Node]:
        fuse = self

        class PowerCutNode(Node):
            def _new_runner(self, start: GameStart, mesh: Mesh, player: Player,
                            journal: GameJournal, timing: Timing) -> GameRunner:
                fuse.wire(journal)
                return super()._new_runner(start, mesh, player, journal, timing)

        return PowerCutNode

    def wire(self, journal: GameJournal) -> None:
        self.journal = journal
        commit = journal.commit
        count = 0

        def commit_then_cut(entry: bytes, acks: tuple[bytes, ...]) -> None:
            nonlocal count
            commit(entry, acks)
            count += 1
            if count == self.at:
                self.image = journal.durable_size
                assert self.table is not None
                self.table.kill(self.node)
                self.blown.set()

        journal.commit = commit_then_cut  # type: ignore[method-assign]


async def _power_cut_and_return(table: Table, tmp_path: Path, fuse: _Fuse,
                                revived: list[GameRunner]) -> None:
    fuse.table = table
    await fuse.blown.wait()
    await trio.sleep(5)
    assert fuse.journal is not None
    path = fuse.journal.path
    assert path.stat().st_size > fuse.image, "nothing was lost: the test would test nothing"
    with path.open("r+b") as file:
        file.truncate(fuse.image)
        os.fsync(file.fileno())
    back = make_node(table.network, f"p{fuse.node}", tmp_path, seed=77)
    async with trio.open_nursery() as nursery:
        await nursery.start(back.serve)
        await back.play(table.starts[fuse.node], BotPlayer(level="easy", seed=99))
        assert back.runner is not None
        revived.append(back.runner)
        nursery.cancel_scope.cancel()


async def _run(tmp_path: Path, node: int, at: int) -> None:
    revived: list[GameRunner] = []
    fuse = _Fuse(at)
    fuse.node = node
    table = await run_table(
        tmp_path, seed=5, wait_for=[i for i in range(3) if i != node],
        node_classes={node: fuse.node_class()},
        during=lambda t: _power_cut_and_return(t, tmp_path, fuse, revived))
    assert revived, "the restarted node did not finish its game"
    runners = [table.runner(i) for i in range(3) if i != node] + revived
    for runner in runners:
        assert not faults(runner), runner.problems
    assert_finished_cleanly(runners)


async def test_the_first_sequencer_loses_power_and_the_game_goes_on(
        tmp_path: Path, autojump_clock: trio.testing.MockClock) -> None:
    """Node 0 (the host, party 0) orders the first entry, the keys step: after the power cut
    its journal holds no commit at all, so it must not start the log afresh."""
    await _run(tmp_path, node=0, at=1)


async def test_a_player_loses_power_in_the_middle_of_the_game(
        tmp_path: Path, autojump_clock: trio.testing.MockClock) -> None:
    """Node 1 comes back many positions behind: it catches up over several entries at once
    (the journal keeps only the last one's certificate)."""
    await _run(tmp_path, node=1, at=40)
