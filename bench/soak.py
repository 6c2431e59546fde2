"""The soak: seeded fault plans over whole in-process games, every outcome checked.

Each plan seats 2 to 6 nodes (one trio process, `MemoryNetwork`, trio's autojump clock: virtual
time, so a plan's timeouts cost no wall time) at a table of one of several presets, lets bots
play one whole game, and injects faults as the game reaches given positions of the log:

    delay      a link stalls (TCP holds the bytes) for a while, then flows again
    partition  the nodes split into two sides for a while, then the partition heals
    drop       every connection between two nodes breaks (bytes in flight are lost; they redial)
    kill       a node dies like `kill -9` (its tasks stop, its connections break) and restarts
               from its journal after a while (`durak resume`)
    power      the same, but the journal keeps only what was synced (a power cut)
    clock      the clock jumps ahead (every timer of every node sees it at once)
    disk_full  a node's journal refuses every append from now on (ENOSPC), until it restarts
               with the space freed

A plan passes when every node ends with the others on one committed log whose transcript
audits clean (`durak audit`), nobody named for a fault — or when every node ends with the
same verdict naming the same party. It fails on an exception, a fork, a fault pinned on an
honest node, different verdicts, or a table still running past its time limit (a hang).
Plans are seeded (plan `i` of seed `s` is always the same plan) and the run is resumable: each
finished plan is a line of `--out`; a rerun skips them. `--replay I` runs one plan in this
process and prints its log. Failing plans are kept as regression tests
(tests/reliability/test_soak_regressions.py).

    nice -n 19 python bench/soak.py --plans 1000 --jobs 2 --out soak.jsonl
    python bench/soak.py --plans 4 --out /tmp/soak.jsonl           # CI's short version
"""

from __future__ import annotations

import argparse
import errno
import json
import logging
import random
import re
import sys
import tempfile
import time
import traceback
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path

import trio
import trio.testing

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "node"))  # the in-process table harness
import table_harness  # noqa: E402
from table_harness import Table, make_node, position, run_table  # noqa: E402

from p2p_durak.engine.presets import get_preset  # noqa: E402
from p2p_durak.node.game import GameRunner, Timing  # noqa: E402
from p2p_durak.node.journal import JournalError  # noqa: E402
from p2p_durak.node.players import BotPlayer  # noqa: E402
from p2p_durak.node.replay import audit_file  # noqa: E402
from p2p_durak.node.store import TRANSCRIPT_FILE  # noqa: E402
from p2p_durak.protocol.table import AuditFinished, TableEvent, TableMachine  # noqa: E402

PRESETS = ("app_podkidnoy", "app_perevodnoy", "podkidnoy", "perevodnoy", "app_dlinny")
KINDS = ("delay", "partition", "drop", "kill", "power", "clock", "disk_full")
TIMING = Timing(turn_seconds=30, on_timeout="bot", grace_seconds=60)
LIMIT = 1500.0  # virtual seconds a plan's table may run (its faults' time included)


@dataclass(frozen=True)
class Fault:
    kind: str
    at: int  # the log position that sets it off (the furthest any node has committed)
    node: int
    other: int = -1  # the second node of a delay or drop; the side's size of a partition
    seconds: float = 0.0  # how long it lasts; the jump of a clock


@dataclass(frozen=True)
class Plan:
    index: int
    seed: int
    preset: str
    seats: int
    faults: tuple[Fault, ...]


def make_plan(seed: int, index: int) -> Plan:
    rng = random.Random(f"bench/soak/{seed}/{index}")
    preset = rng.choice(PRESETS)
    seats = rng.choice([n for n in get_preset(preset).people if 2 <= n <= 6])
    faults = []
    for _ in range(rng.randint(1, 4)):
        kind = rng.choice(KINDS)
        node = rng.randrange(seats)
        other = rng.choice([i for i in range(seats) if i != node])
        at = rng.randint(1, 70)
        if kind == "delay":
            faults.append(Fault(kind, at, node, other, round(rng.uniform(0.2, 10), 2)))
        elif kind == "partition":
            faults.append(Fault(kind, at, node, rng.randint(1, max(1, seats - 1)),
                                round(rng.uniform(1, 25), 2)))
        elif kind == "drop":
            faults.append(Fault(kind, at, node, other))
        elif kind in ("kill", "power", "disk_full"):
            faults.append(Fault(kind, at, node, -1, round(rng.uniform(0.1, 20), 2)))
        else:
            faults.append(Fault(kind, at, node, -1, round(rng.uniform(0.5, 45), 2)))
    return Plan(index, seed, preset, seats, tuple(sorted(faults, key=lambda f: f.at)))


@dataclass
class PlanResult:
    index: int
    preset: str
    seats: int
    faults: list[str]
    fired: list[str] = field(default_factory=list)
    outcome: str = ""  # finished | verdict | FAILED
    detail: str = ""
    positions: int = 0
    virtual_seconds: float = 0.0
    seconds: float = 0.0


class _Soak:
    """The plan's faults, fired from inside the game (under the autojump clock the game takes
    no virtual time: a polling task would see only its end)."""

    def __init__(self, plan: Plan, home: Path, clock: trio.testing.MockClock) -> None:
        self.plan = plan
        self.home = home
        self.clock = clock
        self.pending = list(plan.faults)
        self.fired: list[str] = []
        self.table: Table | None = None
        self.nursery: trio.Nursery | None = None
        self.revived: dict[int, GameRunner] = {}
        self.restarts: dict[int, int] = {}
        self.down: set[int] = set()
        self.cuts: dict[int, tuple[Path, int]] = {}  # power cuts: the journal, its synced size
        self.work = 0  # restarts and heals still to come

    def player(self, i: int, generation: int = 0) -> BotPlayer:
        return _SoakPlayer(self, seed=self.plan.seed * 1000 + i * 10 + generation)

    def names(self) -> list[str]:
        return [f"p{i}" for i in range(self.plan.seats)]

    def tick(self) -> None:
        table, nursery = self.table, self.nursery
        if table is None or nursery is None:
            return
        reached = max(position(node) for node in table.nodes)
        while self.pending and self.pending[0].at <= reached:
            fault = self.pending.pop(0)
            self.fire(fault, table, nursery)

    def fire(self, fault: Fault, table: Table, nursery: trio.Nursery) -> None:
        names = self.names()
        network = table.network
        me, other = names[fault.node], names[fault.other] if fault.other >= 0 else ""
        if fault.kind in ("kill", "power", "disk_full") and fault.node in self.down:
            return  # (already down: the fault would change nothing)
        self.fired.append(f"{fault.kind}@{fault.at}:{fault.node}")
        if fault.kind == "delay":
            network.partition(me, other)
            self._later(fault.seconds, lambda: network.heal(me, other))
        elif fault.kind == "partition":
            order = list(range(self.plan.seats))
            random.Random(f"{self.plan.index}/{fault.at}").shuffle(order)
            side = {names[i] for i in order[:fault.other]}
            pairs = [(a, b) for a in side for b in names if b not in side]
            for a, b in pairs:
                network.partition(a, b)

            def heal() -> None:
                for a, b in pairs:
                    network.heal(a, b)
            self._later(fault.seconds, heal)
        elif fault.kind == "drop":
            network.cut(me, other)
        elif fault.kind == "clock":
            self.clock.jump(fault.seconds)
        elif fault.kind in ("kill", "power"):
            self._kill(fault.node, table, power=fault.kind == "power")
            self._later(fault.seconds, None, restart=fault.node)
        elif fault.kind == "disk_full":
            self._fill_disk(fault.node, table, fault.seconds)

    def _later(self, seconds: float, then: object, restart: int = -1) -> None:
        assert self.nursery is not None
        self.work += 1

        async def wait_then() -> None:
            try:
                await trio.sleep(seconds)
                if restart >= 0:
                    await self._restart(restart)
                elif callable(then):
                    then()
            finally:
                self.work -= 1
        self.nursery.start_soon(wait_then)

    def _kill(self, i: int, table: Table, *, power: bool) -> None:
        runner = table.nodes[i].runner
        journal = runner.journal if runner is not None else None
        if power and journal is not None:
            # what the disk keeps: cut when the node is back (its cancelled tasks run their
            # `finally` blocks after this; a real power cut runs none, so the restart is what
            # sees the file cut at the last sync)
            self.cuts[i] = (journal.path, journal.durable_size)
        table.kill(i)
        self.down.add(i)

    def _fill_disk(self, i: int, table: Table, seconds: float) -> None:
        """From now on the node's journal fails every append as a full disk does; the node
        stops its game (nothing secret may go out unjournaled) and is restarted with the space
        freed, as a player would after `durak` said the disk is full."""
        runner = table.nodes[i].runner
        if runner is None:
            return
        raw = runner.journal._journal

        def full(record: bytes, *, sync: bool = True) -> None:
            raise JournalError(f"{raw.path}: append failed: "
                               f"[Errno {errno.ENOSPC}] No space left on device")
        raw.append = full  # type: ignore[method-assign]
        self.restarts[i] = self.restarts.get(i, 0)
        self._later(seconds, None, restart=i)

    async def _restart(self, i: int) -> None:
        table, nursery = self.table, self.nursery
        assert table is not None
        assert nursery is not None
        if i not in self.down:  # a full disk: the node is still running, or stopped itself
            table.kill(i)
            await trio.sleep(0.1)  # (its cancelled tasks unwind and close the journal)
        if i in self.cuts:
            path, durable = self.cuts.pop(i)
            with path.open("r+b") as file:
                file.truncate(durable)
        self.restarts[i] = self.restarts.get(i, 0) + 1
        back = make_node(table.network, f"p{i}", self.home, seed=self.plan.seed * 100 + i * 7
                         + self.restarts[i])
        scope = trio.CancelScope()
        table.scopes[i] = scope
        table.nodes[i] = back
        self.down.discard(i)
        self.work += 1
        nursery.start_soon(self._play_again, back, i, scope)

    async def _play_again(self, node: object, i: int, scope: trio.CancelScope) -> None:
        table = self.table
        assert table is not None
        try:
            with scope:
                async with trio.open_nursery() as own:
                    await own.start(node.serve)  # type: ignore[attr-defined]
                    await node.play(table.starts[i],  # type: ignore[attr-defined]
                                    self.player(i, self.restarts[i]))
                    self.revived[i] = node.runner  # type: ignore[attr-defined]
                    own.cancel_scope.cancel()
        finally:
            self.work -= 1

    async def during(self, table: Table) -> None:
        self.table = table
        async with trio.open_nursery() as nursery:
            self.nursery = nursery
            self.tick()
            # wait for the heals and restarts the game still needs (a restarted node plays to
            # the end; the harness waits only for the nodes that were never killed)
            while self.work or any(not _done(self.final(table, i))
                                   for i in range(self.plan.seats)):
                await trio.sleep(0.5)
                self.tick()

    def final(self, table: Table, i: int) -> GameRunner | None:
        node = table.nodes[i]
        return node.runner


def _done(runner: GameRunner | None) -> bool:
    return runner is not None and runner.finished.is_set()


class _SoakPlayer(BotPlayer):
    def __init__(self, soak: _Soak, *, seed: int) -> None:
        super().__init__(level="easy", seed=seed)
        self.soak = soak

    async def update(self, table: TableMachine, events: tuple[TableEvent, ...]) -> None:
        await super().update(table, events)
        self.soak.tick()


_PARTY = re.compile(r"party (\d+)")


def judge(plan: Plan, table: Table) -> tuple[str, str]:
    """("finished" | "verdict", detail) when the plan's outcome is one the protocol allows;
    raises `AssertionError` naming what is wrong otherwise."""
    runners = [table.nodes[i].runner for i in range(plan.seats)]
    if any(r is None for r in runners):
        raise AssertionError("a node never started its game")
    ended = [r for r in runners if r is not None]
    faults = [(i, p) for i, r in enumerate(ended) for p in r.reports if p.fault]
    if faults:
        i, problem = faults[0]
        raise AssertionError(f"node {i} named a party for a fault: {problem}")
    stopped = [r.diagnosis or r.verdict for r in ended]
    if all(s is None for s in stopped):
        table_harness.assert_finished_cleanly(ended)
        for i, r in enumerate(ended):
            assert isinstance(r.log.state.audit, AuditFinished)
            data = (r.journal.folder / TRANSCRIPT_FILE).read_bytes()
            verdict = audit_file(data)
            if not verdict.ok:
                raise AssertionError(f"node {i}'s transcript does not audit: {verdict.text}")
        return "finished", f"{ended[0].log.seq} positions"
    if any(s is None for s in stopped):
        raise AssertionError(f"some nodes finished, others stopped: {stopped}")
    named = {tuple(_PARTY.findall(str(s))[:1]) for s in stopped}
    if len(named) != 1 or named == {()}:
        raise AssertionError(f"the nodes' verdicts differ or name nobody: {stopped}")
    table_harness.assert_same_committed_log(ended)
    return "verdict", str(stopped[0])


def run_plan(plan: Plan) -> PlanResult:
    logging.disable(logging.CRITICAL)  # (the nodes log every fault they see and survive)
    result = PlanResult(plan.index, plan.preset, plan.seats,
                        [f"{f.kind}@{f.at}:{f.node}" for f in plan.faults])
    started = time.process_time()
    clock = trio.testing.MockClock(autojump_threshold=0)
    with tempfile.TemporaryDirectory(prefix="durak-soak-") as home:
        soak = _Soak(plan, Path(home), clock)

        async def main() -> Table:
            return await run_table(
                Path(home), n=plan.seats, preset=plan.preset, seed=plan.seed * 7919 + plan.index,
                players={i: soak.player(i) for i in range(plan.seats)}, timing=TIMING,
                wait_for=[], during=soak.during)

        table_harness.GAME_LIMIT = LIMIT
        try:
            table = trio.run(main, clock=clock)
            result.outcome, result.detail = judge(plan, table)
            result.positions = max(position(n) for n in table.nodes)
        except trio.TooSlowError:
            result.outcome, result.detail = "FAILED", f"hang: still running after {LIMIT} s"
        except AssertionError as error:
            result.outcome, result.detail = "FAILED", str(error)
        except BaseException as error:  # a plan's crash is its result
            if isinstance(error, KeyboardInterrupt):
                raise
            result.outcome = "FAILED"
            result.detail = "".join(traceback.format_exception(error, limit=12))[-4000:]
        result.virtual_seconds = round(clock.current_time(), 1)
    result.fired = soak.fired
    result.seconds = round(time.process_time() - started, 2)
    return result


def done_indexes(out: Path) -> set[int]:
    if not out.exists():
        return set()
    return {json.loads(line)["index"] for line in out.read_text().splitlines() if line.strip()}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plans", type=int, default=4)
    parser.add_argument("--first", type=int, default=0, help="index of the first plan")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--out", type=Path, default=Path("soak.jsonl"))
    parser.add_argument("--replay", type=int, help="run plan I in this process, with its log")
    args = parser.parse_args(argv)
    if args.replay is not None:
        plan = make_plan(args.seed, args.replay)
        print(plan)
        result = run_plan(plan)
        print(json.dumps(asdict(result), indent=1))
        return 0 if result.outcome != "FAILED" else 1
    skip = done_indexes(args.out)
    plans = [make_plan(args.seed, i) for i in range(args.first, args.first + args.plans)
             if i not in skip]
    failed = 0
    with args.out.open("a") as sink, ProcessPoolExecutor(args.jobs) as pool:
        for result in pool.map(run_plan, plans):
            sink.write(json.dumps(asdict(result)) + "\n")
            sink.flush()
            mark = "FAILED" if result.outcome == "FAILED" else "ok"
            print(f"plan {result.index:5} {result.preset:15} {result.seats} seats "
                  f"{' '.join(result.fired) or '-':40} {mark} {result.outcome} "
                  f"{result.detail[:100]!r}", flush=True)
            failed += result.outcome == "FAILED"
    rows = [json.loads(line) for line in args.out.read_text().splitlines() if line.strip()]
    outcomes: dict[str, int] = {}
    for row in rows:
        outcomes[row["outcome"]] = outcomes.get(row["outcome"], 0) + 1
    print(f"{len(rows)} plans: {outcomes}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
