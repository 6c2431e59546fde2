"""Benchmark of a whole table over loopback (issue #5): six bot peers, one OS process each.

    python bench/table.py                # 6 seats, 4 games back to back
    python bench/table.py --quick        # 1 game; under a minute; JSON on the last line
    python bench/table.py --profile DIR  # also cProfile every node into DIR/node-<i>.prof

Prints a readable report and, on its last line, one JSON object with every figure.

What runs
Six processes started from this file (``node`` mode), each running one real node: its own
identity, its TCP listener on 127.0.0.1, the lobby (one hosts, five join by address), the mesh,
the ordered log, the mental-poker deck, the journal in its own data folder and an "easy" bot as
its player: exactly what `durak host` / `durak join` run, without the printed game log. Games are
played back to back by the same processes (a fresh node and identity per game, as a new table
would have). Each process reports its own timings; the parent gathers them.

Figures
* ``first_move_s``: from the moment the host has signed the Start (the game's genesis) to the
  first committed player move (the first non-chance engine action), taken at the node that
  commits it first. Everything before the first move is in it: connecting the mesh, the seating
  coin, every seat's key and proven shuffle, the deal and its showing. Broken down into
  ``meshed`` (the last node has links to all others), ``seated`` (the seating committed),
  ``dealt`` (the DEAL chance action committed: shuffles done) and ``cards`` (the dealt cards
  shown to their owners); ``first_move_cpu_s`` is the CPU all nodes spent until then and
  ``entries_to_first_move`` the log entries it took.
* ``commit_ms``: submit-to-commit latency of every player move, as each node's GameRunner
  records it for its own moves (``runner.latencies["move"]``); median, p90, p99, max over all.
  ``commit_alone_ms`` / ``commit_raced_ms`` split the same moves, as the bot sees them, by
  whether only its party could act or several could (then the sequencer's fairness window runs).
* ``cpu_ms_per_entry_per_node``: CPU per committed log entry per node, lobby and deck included.
* ``sent_per_entry_per_node``: messages one node sends per committed entry, by kind (a broadcast
  counts once per link; retransmissions and relays included); ``writes_per_entry_per_node``:
  the stream writes that carried them.
* ``games_per_minute``: 60 / the mean time from Start signed to the last node's end of the
  game (audit done); ``back_to_back_per_minute`` also counts the lobby of the next game and the
  nodes' linger after each game (they keep answering late peers for a few seconds).
* ``rss_mb``: each node process's peak resident set (``ru_maxrss``) after its last game, and
  the largest after each game; ``runners_alive_after_games`` counts GameRunners that outlive
  their game (a leak if above 0).
* ``cpu_s_per_game``: CPU seconds of all six processes per game, lobby included, process
  start-up not (the machine's cores are shared by all of them, so with fewer than six cores
  the latencies include waiting for a core).

Latency is measured multi-process on purpose: one process per node is how the game is
deployed, and it is the only honest way to get each node's memory. With fewer cores than nodes,
the figures include the nodes queueing for the cores.

Time stamps are ``time.monotonic()`` (CLOCK_MONOTONIC, one clock for every process of the
machine), so they compare across processes.
"""

from __future__ import annotations

import argparse
import contextlib
import cProfile
import dataclasses
import gc
import json
import os
import platform
import resource
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

SEATS = 6
LEVEL = "easy"
JOIN_RETRY = 0.05  # the host opens the next table a moment after the previous game ends
JOIN_PATIENCE = 30.0
RESULT = "RESULT "


# ---- one node per process -------------------------------------------------------------------

@dataclass
class Stamps:
    """When this node saw each milestone of one game (time.monotonic())."""

    start: float = 0.0  # the Start in hand (the host: just signed it)
    seated: float | None = None
    dealt: float | None = None
    cards: float | None = None
    first_move: float | None = None
    first_move_seq: int = 0  # log entries committed up to the first move
    first_move_cpu: float = 0.0  # this process's CPU seconds from the Start to the first move
    meshed: float | None = None  # links to every other party up
    entries: int = 0  # log entries in the whole game
    sent: dict[str, int] = field(default_factory=dict)  # messages this node sent, by kind
    writes: int = 0  # stream writes (a write carries one or more messages)
    finished: float | None = None
    moves: int = 0
    own_moves: list[float] = field(default_factory=list)
    deck: list[float] = field(default_factory=list)
    alone: list[float] = field(default_factory=list)  # own moves when only we could act
    raced: list[float] = field(default_factory=list)  # own moves when several parties could


def _node_main(args: argparse.Namespace) -> None:
    import trio

    signal.signal(signal.SIGUSR1, _dump_state)  # the parent asks before it gives up on us
    _import_node()  # before the clocks start: a game's CPU must not include the imports
    _count_sends()
    # The default (wall-clock) timer: a Python-level timer such as time.process_time slows a
    # node so much that the table stalls (see docs/performance.md).
    profiler = cProfile.Profile() if args.profile else None
    if profiler is not None:
        profiler.enable()
    try:
        for game in range(args.games):
            cpu_before = time.process_time()
            _SENT.clear()
            _WRITES[0] = 0
            stamps, signed = trio.run(_play_one, args, game)
            cpu = time.process_time() - cpu_before
            _RUNNERS.clear()
            gc.collect()
            # GameRunners still alive after their game: anything above 0 is a leak
            alive = sum(1 for o in gc.get_objects() if type(o).__name__ == "GameRunner")
            usage = resource.getrusage(resource.RUSAGE_SELF)
            print(RESULT + json.dumps({
                **dataclasses.asdict(stamps), "game": game, "role": args.role, "signed": signed,
                "cpu": cpu, "maxrss_kb": usage.ru_maxrss, "rss_kb": _rss_kb(),
                "runners_alive": alive,
                "done": time.monotonic(),
            }), flush=True)
    finally:
        if profiler is not None:
            profiler.disable()
            profiler.dump_stats(args.profile)


_RUNNERS: list[Any] = []
_SENT: dict[str, int] = {}
_WRITES = [0]


def _count_sends() -> None:
    """Count what this node writes to its links (messages by kind, and writes)."""
    from p2p_durak.node.link import Link
    from p2p_durak.protocol.envelope import Envelope

    def count(message: Any) -> None:
        inner = message.message if isinstance(message, Envelope) else message
        kind = type(inner).__name__
        _SENT[kind] = _SENT.get(kind, 0) + 1

    if not hasattr(Link, "send_many"):  # an older node (--baseline runs): one write a message
        send = Link.send

        async def counted_one(self: Link, message: Any, *rest: Any) -> None:
            _WRITES[0] += 1
            count(message)
            await send(self, message, *rest)

        Link.send = counted_one  # type: ignore[method-assign]
        return
    send_many = Link.send_many

    async def counted(self: Link, messages: Any) -> None:
        _WRITES[0] += 1
        for message, _ in messages:
            count(message)
        await send_many(self, messages)

    Link.send_many = counted  # type: ignore[method-assign]


def _import_node() -> None:
    """Load every module a game uses (the first game would otherwise pay for the imports)."""
    import p2p_durak.bots.levels
    import p2p_durak.engine.presets
    import p2p_durak.node.game
    import p2p_durak.node.headless
    import p2p_durak.node.lobby
    import p2p_durak.node.players
    import p2p_durak.protocol.table  # noqa: F401


def _dump_state(*_: object) -> None:
    """Where this node's game stands (on SIGUSR1): what a stalled table is waiting for."""
    for runner in _RUNNERS:
        log, table = runner.log, runner.log.state
        links = [p for p in range(len(runner.mesh.parties)) if runner.mesh.connected(p)]
        print(f"party {runner.party}: committed {log.seq}, waiting for {table.waiting_for()}, "
              f"deck owed {table.owed() is not None}, {len(table.legal())} legal, own intent "
              f"{log.own_pending}, recovering {log.recovering}, halted {log.halted}, turn "
              f"offered at {runner._turn_seq}, links to {links}, next deadline "
              f"{log.next_deadline()}, result {table.state.result if table.state else None}, "
              f"audit {table.audit}, deck due {table.deck_due()}, finished "
              f"{runner.finished.is_set()}, last reports {[str(p) for p in runner.reports[-3:]]}",
              file=sys.stderr, flush=True)


def _rss_kb() -> int:
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


async def _play_one(args: argparse.Namespace, game: int) -> tuple[Stamps, float | None]:
    import trio

    from p2p_durak.engine.actions import CHANCE, DEAL
    from p2p_durak.engine.presets import DEFAULT_PRESET, get_preset
    from p2p_durak.node.game import GameRunner, Turn
    from p2p_durak.node.headless import make_node
    from p2p_durak.node.lobby import GameStart, JoinFailed, TableConfig
    from p2p_durak.node.players import BotPlayer
    from p2p_durak.node.transport import Endpoint
    from p2p_durak.protocol.table import CardsLearned, Moved, Seated, TableEvent, TableMachine

    stamps = Stamps()

    class TimedBot(BotPlayer):
        submitted: tuple[float, bool] | None = None  # when we last moved, and if in a race
        runner: GameRunner | None = None

        async def turn(self, turn: Turn, runner: GameRunner) -> None:
            contested = len(turn.table.waiting_for()) > 1  # a fairness window may run
            await super().turn(turn, runner)
            self.submitted = (time.monotonic(), contested)

        async def update(self, table: TableMachine, events: tuple[TableEvent, ...]) -> None:
            now = time.monotonic()
            if self.submitted is not None and any(
                    isinstance(e, Moved) and e.seat == table.my_seat for e in events):
                since, contested = self.submitted
                (stamps.raced if contested else stamps.alone).append(now - since)
                self.submitted = None
            for event in events:
                if isinstance(event, Seated) and stamps.seated is None:
                    stamps.seated = now
                elif isinstance(event, CardsLearned) and stamps.cards is None:
                    stamps.cards = now
                elif isinstance(event, Moved):
                    if event.action.kind == DEAL and stamps.dealt is None:
                        stamps.dealt = now
                    if event.seat != CHANCE:
                        stamps.moves += 1
                        if stamps.first_move is None:
                            stamps.first_move = now
                            stamps.first_move_cpu = time.process_time() - cpu_at_start
                            if self.runner is not None:
                                stamps.first_move_seq = self.runner.log.seq
            await super().update(table, events)

    home = Path(args.home)
    port = args.ports[game] if args.role == "host" else 0
    node = make_node(home, f"{args.role}-{args.index}", bind="127.0.0.1", port=port,
                     advertise="127.0.0.1", identity_name=f"game-{game}")
    signed: float | None = None
    async with trio.open_nursery() as nursery:
        await nursery.start(node.serve)
        start: GameStart
        if args.role == "host":
            preset = get_preset(DEFAULT_PRESET)
            node.host_table(TableConfig(f"bench {game}", preset.id, preset.rules, args.seats))
            start = await node.wait_for_start()
            signed = time.monotonic()
        else:
            start = await _join(node, Endpoint("127.0.0.1", args.ports[game]), JoinFailed)
        stamps.start = time.monotonic()
        cpu_at_start = time.process_time()
        player = TimedBot(level=LEVEL, seed=args.seed * 1000 + game * 10 + args.index)
        played = trio.Event()
        ended = trio.Event()  # the game is over: finished, or stopped (halted, abandoned)

        async def play(task_status: Any = trio.TASK_STATUS_IGNORED) -> None:
            await node.play(start, player, task_status=task_status)
            played.set()
            ended.set()

        async def stamp_finish() -> None:
            await runner.finished.wait()
            stamps.finished = time.monotonic()
            ended.set()

        runner = await nursery.start(play)
        player.runner = runner
        _RUNNERS[:] = [runner]  # only the game in play: older ones must not be kept alive
        nursery.start_soon(_watch_mesh, runner, stamps)
        nursery.start_soon(stamp_finish)
        await ended.wait()
        stamps.own_moves = list(runner.latencies["move"])
        stamps.deck = list(runner.latencies["deck"])
        stamps.entries = runner.log.seq
        stamps.sent, stamps.writes = dict(_SENT), _WRITES[0]
        if runner.diagnosis is not None or not runner.finished.is_set():
            raise SystemExit(f"node {args.index}: the game stopped: "
                             f"{runner.diagnosis or 'unfinished'}")
        await played.wait()  # the runner lingers a little for peers that still need our acks
        nursery.cancel_scope.cancel()
    return stamps, signed


async def _watch_mesh(runner: Any, stamps: Stamps) -> None:
    import trio

    mesh = runner.mesh
    others = [p for p in range(len(mesh.parties)) if p != mesh.me]
    # The mesh has no event for "all links up"; polling from outside keeps the node untouched.
    while not all(mesh.connected(p) for p in others):  # noqa: ASYNC110
        await trio.sleep(0.005)
    stamps.meshed = time.monotonic()


async def _join(node: Any, endpoint: Any, join_failed: type[Exception]) -> Any:
    import trio

    with trio.fail_after(JOIN_PATIENCE):
        while True:
            try:
                return await node.join(endpoint)
            except join_failed:  # the host is not listening for this game yet
                await trio.sleep(JOIN_RETRY)


# ---- the parent -------------------------------------------------------------------------------

def _free_ports(count: int) -> list[int]:
    sockets = []
    try:
        for _ in range(count):
            s = socket.socket()
            s.bind(("127.0.0.1", 0))
            sockets.append(s)
        return [int(s.getsockname()[1]) for s in sockets]
    finally:
        for s in sockets:
            s.close()


def _spawn(index: int, role: str, ports: list[int], games: int, seats: int, seed: int,
           work: Path, profile: Path | None) -> subprocess.Popen[str]:
    argv = [sys.executable, __file__, "node", "--role", role, "--index", str(index),
            "--ports", ",".join(map(str, ports)), "--games", str(games), "--seats", str(seats),
            "--seed", str(seed), "--home", str(work / f"node-{index}")]
    if profile is not None:
        argv += ["--profile", str(profile / f"node-{index}.prof")]
    log = (work / f"node-{index}.log").open("w")
    return subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=log, text=True)


def run_table(games: int, seats: int, seed: int, deadline: float,
              profile: Path | None) -> list[list[dict[str, Any]]]:
    """Play `games` games with `seats` node processes; per node, its per-game records."""
    with tempfile.TemporaryDirectory(prefix="durak-bench-") as tmp:
        work = Path(tmp)
        ports = _free_ports(games)
        procs = [_spawn(0, "host", ports, games, seats, seed, work, profile)]
        procs += [_spawn(i, "join", ports, games, seats, seed, work, profile)
                  for i in range(1, seats)]
        end = time.monotonic() + deadline
        outputs: list[str] = []
        try:
            for proc in procs:
                out, _ = proc.communicate(timeout=max(1.0, end - time.monotonic()))
                outputs.append(out)
        except subprocess.TimeoutExpired:
            for proc in procs:
                if proc.poll() is None:
                    proc.send_signal(signal.SIGUSR1)
            time.sleep(3.0)  # let them print where they stand
            raise SystemExit(f"the table did not finish within {deadline:.0f} s; logs:\n"
                             + _logs(work)) from None
        finally:
            for proc in procs:
                if proc.poll() is None:
                    proc.kill()
                    proc.wait()
        failed = [i for i, proc in enumerate(procs) if proc.returncode != 0]
        if failed:
            raise SystemExit(f"node processes {failed} failed; logs:\n" + _logs(work))
        return [[json.loads(line[len(RESULT):]) for line in out.splitlines()
                 if line.startswith(RESULT)] for out in outputs]


def _logs(work: Path) -> str:
    return "\n".join(f"== {p.name}\n{p.read_text()[-2000:]}" for p in sorted(work.glob("*.log")))


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    rank = q / 100 * (len(ordered) - 1)
    low = int(rank)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (rank - low)


def summarize(per_node: list[list[dict[str, Any]]], wall: float) -> dict[str, Any]:
    games = len(per_node[0])
    first_moves: list[float] = []
    phases: dict[str, list[float]] = {"meshed": [], "seated": [], "dealt": [], "cards": []}
    durations: list[float] = []
    moves: list[int] = []
    entries: list[int] = []
    before_first: list[int] = []
    setup_cpu: list[float] = []
    for g in range(games):
        records = [node[g] for node in per_node]
        signed = records[0]["signed"]
        first_moves.append(min(r["first_move"] for r in records) - signed)
        for phase, values in phases.items():
            # meshed: when the last node has all its links; the rest: the first node to see it
            pick = max if phase == "meshed" else min
            values.append(pick(r[phase] for r in records) - signed)
        durations.append(max(r["finished"] for r in records) - signed)
        moves.append(records[0]["moves"])
        entries.append(records[0]["entries"])
        before_first.append(min(r["first_move_seq"] for r in records))
        setup_cpu.append(sum(r["first_move_cpu"] for r in records))
    commits = [x * 1000 for node in per_node for r in node for x in r["own_moves"]]
    deck = [x * 1000 for node in per_node for r in node for x in r["deck"]]
    alone = [x * 1000 for node in per_node for r in node for x in r["alone"]]
    raced = [x * 1000 for node in per_node for r in node for x in r["raced"]]
    cpu = sum(r["cpu"] for node in per_node for r in node)
    all_entries = sum(entries) * len(per_node)  # entries committed, summed over the nodes
    sent: dict[str, int] = {}
    for node in per_node:
        for r in node:
            for kind, count in r["sent"].items():
                sent[kind] = sent.get(kind, 0) + count
    writes = sum(r["writes"] for node in per_node for r in node)
    maxrss = [node[-1]["maxrss_kb"] / 1024 for node in per_node]
    span = max(r["done"] for node in per_node for r in node) - per_node[0][0]["signed"]
    return {
        "seats": len(per_node), "games": games, "moves_per_game": statistics.mean(moves),
        "first_move_s": {"median": statistics.median(first_moves), "max": max(first_moves)},
        "first_move_phases_s": {k: statistics.median(v) for k, v in phases.items()},
        # CPU of all nodes from the Start to the first move (mesh, seating, keys, shuffles, deal)
        "first_move_cpu_s": statistics.median(setup_cpu),
        "commit_ms": {"count": len(commits), "median": statistics.median(commits),
                      "p90": _percentile(commits, 90), "p99": _percentile(commits, 99),
                      "max": max(commits)},
        "commit_alone_ms": {"count": len(alone), "median": statistics.median(alone),
                            "p99": _percentile(alone, 99)},
        "commit_raced_ms": {"count": len(raced), "median": statistics.median(raced),
                            "p99": _percentile(raced, 99)},
        "deck_step_ms": {"count": len(deck), "median": statistics.median(deck),
                         "p99": _percentile(deck, 99)},
        "game_s": {"mean": statistics.mean(durations), "max": max(durations)},
        "games_per_minute": 60 / statistics.mean(durations),
        "back_to_back_per_minute": 60 * games / span if games > 1 else None,
        "rss_mb": {"max": max(maxrss), "mean": statistics.mean(maxrss),
                   # the largest node's peak after each game: growth would be a leak
                   "after_each_game": [max(node[g]["maxrss_kb"] for node in per_node) / 1024
                                       for g in range(games)]},
        "runners_alive_after_games": max(r["runners_alive"] for node in per_node for r in node),
        "cpu_s_per_game": cpu / games,
        "entries_per_game": statistics.mean(entries),
        "entries_to_first_move": statistics.median(before_first),
        # what one node spends per committed entry (lobby and deck included)
        "cpu_ms_per_entry_per_node": 1000 * cpu / sum(entries) / len(per_node),
        # what one node sends per committed entry (lobby included): messages by kind, writes
        "sent_per_entry_per_node": {k: round(v / all_entries, 2) for k, v in sorted(sent.items())},
        "writes_per_entry_per_node": writes / all_entries,
        "cpu_cores": os.cpu_count(),
        "wall_s": wall,
    }


TARGETS = {"first_move_s": 1.0, "commit_median_ms": 5.0, "commit_p99_ms": 20.0, "rss_mb": 100.0}


def verdicts(s: dict[str, Any]) -> dict[str, bool]:
    return {
        "first_move_s": s["first_move_s"]["median"] < TARGETS["first_move_s"],
        "commit_median_ms": s["commit_ms"]["median"] <= TARGETS["commit_median_ms"],
        "commit_p99_ms": s["commit_ms"]["p99"] <= TARGETS["commit_p99_ms"],
        "rss_mb": s["rss_mb"]["max"] < TARGETS["rss_mb"],
    }


def machine() -> dict[str, Any]:
    model = platform.processor() or "unknown"
    with contextlib.suppress(OSError), open("/proc/cpuinfo", encoding="utf-8") as info:
        model = next((line.split(":", 1)[1].strip() for line in info
                      if line.startswith("model name")), model)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    return {"cpu": model, "cores": os.cpu_count(), "python": platform.python_version(),
            "load_avg_1min": load}


def report(s: dict[str, Any]) -> None:
    fm, ph, c = s["first_move_s"], s["first_move_phases_s"], s["commit_ms"]
    ok = verdicts(s)
    mark = {True: "met", False: "MISSED"}
    print(f"{s['seats']} node processes on 127.0.0.1, {s['games']} game(s) of 36 cards, "
          f"{s['moves_per_game']:.0f} player moves per game")
    print(f"start -> first move: median {fm['median']:.2f} s, max {fm['max']:.2f} s "
          f"(meshed {ph['meshed']:.2f}, seated {ph['seated']:.2f}, dealt {ph['dealt']:.2f}, "
          f"cards shown {ph['cards']:.2f}) "
          f"[target < 1 s: {mark[ok['first_move_s']]}]; CPU of all nodes until then "
          f"{s['first_move_cpu_s']:.2f} s")
    print(f"commit latency over {c['count']} moves: median {c['median']:.1f} ms "
          f"[target <= 5: {mark[ok['commit_median_ms']]}], p90 {c['p90']:.1f}, "
          f"p99 {c['p99']:.1f} ms [target <= 20: {mark[ok['commit_p99_ms']]}], "
          f"max {c['max']:.1f}")
    alone, raced = s["commit_alone_ms"], s["commit_raced_ms"]
    print(f"  seen by the player: {alone['count']} moves when only it could act: median "
          f"{alone['median']:.1f} ms, p99 {alone['p99']:.1f}; {raced['count']} when several "
          f"could (fairness window): median {raced['median']:.1f} ms, p99 {raced['p99']:.1f}")
    print(f"deck steps: median {s['deck_step_ms']['median']:.1f} ms, "
          f"p99 {s['deck_step_ms']['p99']:.1f} ms")
    b2b = s["back_to_back_per_minute"]
    print(f"games per minute: {s['games_per_minute']:.2f} (mean game {s['game_s']['mean']:.1f} s"
          + (f"; back to back with lobby and linger {b2b:.2f}" if b2b else "") + ")")
    print(f"memory per node (peak RSS): max {s['rss_mb']['max']:.1f} MB, "
          f"mean {s['rss_mb']['mean']:.1f} MB [target < 100: {mark[ok['rss_mb']]}]; after each "
          f"game: {', '.join(f'{m:.1f}' for m in s['rss_mb']['after_each_game'])} MB")
    print(f"CPU of all nodes per game: {s['cpu_s_per_game']:.1f} s for "
          f"{s['entries_per_game']:.0f} log entries ({s['entries_to_first_move']:.0f} before the "
          f"first move): {s['cpu_ms_per_entry_per_node']:.1f} ms per entry per node, "
          f"{s['cpu_cores']} cores for {s['seats']} nodes; wall {s['wall_s']:.1f} s")
    sent = ", ".join(f"{k} {v}" for k, v in s["sent_per_entry_per_node"].items())
    print(f"sent per entry per node: {sent}; {s['writes_per_entry_per_node']:.1f} writes")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="mode")
    node = sub.add_parser("node", help="(internal) run one node")
    node.add_argument("--role", choices=("host", "join"), required=True)
    node.add_argument("--index", type=int, required=True)
    node.add_argument("--ports", type=lambda t: [int(p) for p in t.split(",")], required=True)
    node.add_argument("--games", type=int, required=True)
    node.add_argument("--seats", type=int, required=True)
    node.add_argument("--seed", type=int, required=True)
    node.add_argument("--home", required=True)
    node.add_argument("--profile")
    parser.add_argument("--quick", action="store_true", help="one game (under a minute)")
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--seats", type=int, default=SEATS)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--deadline", type=float, default=300.0, help="seconds before giving up")
    parser.add_argument("--profile", type=Path, help="write each node's cProfile here")
    args = parser.parse_args()
    if args.mode == "node":
        _node_main(args)
        return
    # A SIGTERM (e.g. from `timeout`) unwinds like an error, so the node processes are killed.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    games = 1 if args.quick else args.games
    if args.profile is not None:
        args.profile.mkdir(parents=True, exist_ok=True)
    began = time.monotonic()
    per_node = run_table(games, args.seats, args.seed, 55.0 if args.quick else args.deadline,
                         args.profile)
    figures = summarize(per_node, time.monotonic() - began)
    figures["targets"] = TARGETS
    figures["met"] = verdicts(figures)
    figures["machine"] = machine()
    figures["latency_mode"] = "multi-process: one OS process per node, TCP over 127.0.0.1"
    report(figures)
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
