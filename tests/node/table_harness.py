"""A table of nodes in one trio process over a `MemoryNetwork`, with room for test doubles: any
seat may get its own `Node` subclass (a misbehaving runner or mesh), its own player, and each
node runs in its own cancel scope so that a test can kill it like a crashed process.

`run_table` returns when every node the test counts on (`wait_for`) has stopped playing; the
others are cancelled then.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Awaitable, Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import trio

from p2p_durak.engine import RuleSet
from p2p_durak.engine.presets import get_preset
from p2p_durak.node import game
from p2p_durak.node.game import GameRunner, Player, Problem, Timing
from p2p_durak.node.lobby import GameStart, TableConfig
from p2p_durak.node.memnet import MemoryNetwork
from p2p_durak.node.node import Node
from p2p_durak.node.players import BotPlayer
from p2p_durak.node.transport import Endpoint
from p2p_durak.protocol.identity import Identity
from p2p_durak.protocol.table import AuditFinished

GAME_LIMIT = 400.0  # virtual seconds (the autojump clock): a table that hangs fails the test


def make_node(network: MemoryNetwork, name: str, home: Path, seed: int,
              cls: type[Node] = Node) -> Node:
    rng = random.Random(seed)
    return cls(identity_of(name), name, home / name,
               network.listener(name, 9000), network.dialer(name), advertised_host=name,
               rng=rng.randbytes)


@dataclass
class Table:
    network: MemoryNetwork
    nodes: list[Node]
    players: list[Player]
    starts: list[GameStart] = field(default_factory=list)
    scopes: dict[int, trio.CancelScope] = field(default_factory=dict)

    def runner(self, i: int) -> GameRunner:
        runner = self.nodes[i].runner
        assert runner is not None, f"node {i} never started its game"
        return runner

    def fingerprint(self, i: int) -> str:
        return self.nodes[i].identity.fingerprint

    def party(self, i: int) -> int:
        """Node `i`'s party in the game (the order of the `Start`: the order they joined)."""
        return self.starts[0].party_of(self.nodes[i].identity.peer_id)

    def kill(self, i: int) -> None:
        """Node `i` dies like a killed process: its tasks stop, its connections break."""
        self.scopes[i].cancel()
        self.network.crash(self.nodes[i].name)


async def run_table(home: Path, *, n: int = 3, preset: str = "app_podkidnoy", seed: int = 1,
                    node_classes: dict[int, type[Node]] | None = None,
                    players: dict[int, Player] | None = None,
                    timing: Timing | None = None,
                    wait_for: Sequence[int] | None = None,
                    during: Callable[[Table], Awaitable[None]] | None = None,
                    rules: RuleSet | None = None) -> Table:
    """Seat `n` nodes (node 0 hosts) at a table with the clocks `timing` (whole seconds: they
    travel in the `Start`), play one game, return the table when the nodes in
    `wait_for` (default: all) are done and `during(table)`, run alongside the game, has
    returned. `rules`: the preset's own unless given."""
    network = MemoryNetwork()
    classes = node_classes or {}
    nodes = [make_node(network, f"p{i}", home, seed * 10 + i, classes.get(i, Node))
             for i in range(n)]
    chosen = players or {}
    table = Table(network, nodes,
                  [chosen.get(i) or BotPlayer(level="easy", seed=seed * 100 + i)
                   for i in range(n)])
    clocks = timing or Timing()
    config = TableConfig("test table", preset, rules or get_preset(preset).rules, n,
                         turn_seconds=int(clocks.turn_seconds), on_timeout=clocks.on_timeout,
                         grace_seconds=int(clocks.grace_seconds))
    waited = list(range(n)) if wait_for is None else list(wait_for)
    with trio.fail_after(GAME_LIMIT), _no_background_fsync():
        async with trio.open_nursery() as nursery:
            own: list[trio.Nursery] = []
            for i, node in enumerate(nodes):
                table.scopes[i] = trio.CancelScope()
                own.append(await nursery.start(_serve, node, table.scopes[i]))
            table.starts = await _seat_everyone(nodes, config)
            done = [trio.Event() for _ in nodes]
            for i, node in enumerate(nodes):
                own[i].start_soon(_play, node, table, i, done[i])
            done_during = trio.Event()
            if during is not None:
                nursery.start_soon(_then_set, during(table), done_during)
            else:
                done_during.set()
            for i in waited:
                await done[i].wait()
            await done_during.wait()
            nursery.cancel_scope.cancel()
    return table


@contextlib.contextmanager
def _no_background_fsync() -> Iterator[None]:
    """The runner fsyncs its journal on a worker thread once a second. Under the autojump
    clock a thread's real milliseconds are idle time, so virtual time would race ahead while
    the disk works (and the timers under test with it). Durability is the journal tests' job."""
    saved = game.SYNC_SECONDS
    game.SYNC_SECONDS = 1e9
    try:
        yield
    finally:
        game.SYNC_SECONDS = saved


async def _then_set(work: Awaitable[None], event: trio.Event) -> None:
    try:
        await work
    finally:
        event.set()


def identity_of(name: str) -> Identity:
    return Identity.from_seed(name.encode().ljust(32, b"_"))


def position(node: Node) -> int:
    """The node's last committed position (0 before its game runs)."""
    runner = node.runner
    return runner.log.seq if runner is not None and hasattr(runner, "log") else 0


async def until(predicate: Callable[[], bool], step: float = 0.05) -> None:
    """Wait (virtual time) until `predicate()` holds."""
    while True:
        if predicate():
            return
        await trio.sleep(step)


async def _serve(node: Node, scope: trio.CancelScope, *,
                 task_status: trio.TaskStatus[trio.Nursery] = trio.TASK_STATUS_IGNORED) -> None:
    """The node's own nursery (its listener now, its game later), under its own scope."""
    with scope:
        async with trio.open_nursery() as nursery:
            await nursery.start(node.serve)
            task_status.started(nursery)


async def _play(node: Node, table: Table, i: int, done: trio.Event) -> None:
    """The node plays on the clocks of the table's `Start` (the `timing` of `run_table`)."""
    try:
        await node.play(table.starts[i], table.players[i])
    finally:
        done.set()


async def _seat_everyone(nodes: list[Node], config: TableConfig) -> list[GameStart]:
    nodes[0].host_table(config)
    starts: dict[int, GameStart] = {}

    async def host() -> None:
        starts[0] = await nodes[0].wait_for_start()

    async def join(i: int) -> None:
        starts[i] = await nodes[i].join(Endpoint("p0", 9000))

    async with trio.open_nursery() as lobby:
        lobby.start_soon(host)
        for i in range(1, len(nodes)):
            lobby.start_soon(join, i)
    return [starts[i] for i in range(len(nodes))]


# ---- what the honest nodes must agree on ---------------------------------------------------

def assert_same_committed_log(runners: Sequence[GameRunner]) -> None:
    """No two nodes committed different entries at any position both have reached."""
    common = min(r.log.seq for r in runners)
    for seq in range(1, common + 1):
        entries = {r.log.entry_bytes(seq) for r in runners}
        assert len(entries) == 1, f"nodes committed different entries at position {seq}"


def assert_finished_cleanly(runners: Sequence[GameRunner]) -> None:
    assert_same_committed_log(runners)
    for runner in runners:
        assert runner.diagnosis is None, runner.diagnosis
        assert runner.finished.is_set()
        assert runner.log.state.audit == AuditFinished(())
    assert len({r.log.seq for r in runners}) == 1
    assert len({r.log.state_hash for r in runners}) == 1


def faults(runner: GameRunner) -> list[Problem]:
    return [p for p in runner.reports if p.fault]


def blamed(runner: GameRunner, party: int, kind: str) -> list[Problem]:
    return [p for p in faults(runner) if p.party == party and p.kind == kind]


def assert_blames_only(runner: GameRunner, party: int, fingerprint: str) -> None:
    """Every fault this node saw names `party`, with its identity's fingerprint."""
    for problem in faults(runner):
        assert problem.party == party, f"an honest party was blamed: {problem}"
        assert problem.fingerprint == fingerprint
        assert f"party {party} ({fingerprint})" in str(problem)
