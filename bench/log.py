"""Benchmark of the ordered game log (issue #4): what committing one entry costs, 6 players.

    python bench/log.py              # 6 players, 4 games
    python bench/log.py --players 4 --games 10

Prints a readable report and, on its last line, one JSON object with every figure.

What is measured
Whole games of random bots (full-information engine states, `EngineMachine`) with N real
`OrderingLog`s in one process, each with its own identity and its own envelope cache (so every
node verifies every signature it receives, as on a real table), over an instant, lossless network.
Every message goes through its wire bytes. Times are CPU time of the benchmark thread
(``time.thread_time``) around each log call; the load average is printed so a run on a busy shared
machine can be told apart.

* ``cpu_per_entry_all``: CPU of all N logs per committed entry (what one process hosting the whole
  table pays).
* ``cpu_per_entry_node``: the busiest node's CPU per committed entry (what one node pays).
* ``latency``: the commit latency if each node had its own core and the network were instant: each
  node is a virtual clock, a message is handled no earlier than it was sent, and an entry's latency
  runs from the submission of its last intent to the moment the last node commits it. Racing
  intents close the fairness window early here (every bot that may act does), so this is the log's
  own cost, not the window's.
* Ed25519 sign and verify, measured in the same run, for scale.
"""

from __future__ import annotations

import argparse
import heapq
import json
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

from machine import cpu_model

from p2p_durak import engine
from p2p_durak.engine import CHANCE, Action, State
from p2p_durak.engine.presets import get_preset
from p2p_durak.protocol.codec import sha256
from p2p_durak.protocol.engine_machine import EngineMachine, action_bytes
from p2p_durak.protocol.envelope import Envelope
from p2p_durak.protocol.identity import ENVELOPE_CONTEXT, Identity
from p2p_durak.protocol.log import OrderingLog
from p2p_durak.protocol.log_effects import Broadcast, Committed, Halted, SendTo
from p2p_durak.protocol.messages import PlayerInfo, Start

GAME_ID = sha256(b"p2p-durak bench log")[:16]


def choose(state: State, seat: int, rng: random.Random) -> Action | None:
    if engine.is_over(state):
        return None
    actors = engine.to_act(state)
    if CHANCE in actors:
        if engine.sequencer(state) != seat:
            return None
        outcome = engine.chance_outcome(state)
        if outcome is not None:
            return outcome
        options = engine.legal_actions(state, CHANCE)
        return options[rng.randrange(len(options))]
    if seat not in actors:
        return None
    options = engine.legal_actions(state, seat)
    return options[rng.randrange(len(options))]


class Table:
    """N logs on virtual clocks (one core each), an instant network, random bots."""

    def __init__(self, n: int, seed: int) -> None:
        self.n = n
        rules = get_preset("app_podkidnoy").rules
        game = engine.make_game(rules, n, seed % n)
        deck = list(range(game.n_cards))
        random.Random(seed).shuffle(deck)
        ids = [Identity.from_seed(sha256(b"bench %d" % s)) for s in range(n)]
        players = tuple(PlayerInfo(i.peer_id, f"P{s}") for s, i in enumerate(ids))
        start = Envelope.seal(ids[0], GAME_ID, Start(GAME_ID, bytes.fromhex(game.rules_hash),
                                                       players))
        machine = EngineMachine(game)
        initial = engine.new_game(game, deck)
        self.logs = [OrderingLog(i, start, machine, initial) for i in ids]
        self.rngs = [random.Random(f"{seed} {s}") for s in range(n)]
        self.free = [0.0] * n  # each node's virtual clock (seconds)
        self.cpu = [0.0] * n
        self.heap: list[tuple[float, int, str, tuple[Any, ...]]] = []
        self.order = 0
        self.submitted: dict[int, float] = {}  # the latest submission before each position
        self.committed: dict[int, float] = {}
        self.latencies: list[float] = []

    def push(self, at: float, kind: str, args: tuple[Any, ...]) -> None:
        self.order += 1
        heapq.heappush(self.heap, (at, self.order, kind, args))

    def work(self, seat: int, at: float, call: Callable[[int], list[Any]]) -> None:
        start = max(at, self.free[seat])
        before = time.thread_time()
        effects = call(int(start * 1000))
        cost = time.thread_time() - before
        self.cpu[seat] += cost
        done = start + cost
        self.free[seat] = done
        for effect in effects:
            if isinstance(effect, Broadcast):
                for dst in range(self.n):
                    if dst != seat:
                        self.push(done, "msg", (seat, dst, effect.data))
            elif isinstance(effect, SendTo):
                self.push(done, "msg", (seat, effect.seat, effect.data))
            elif isinstance(effect, Committed):
                self.committed[effect.seq] = max(self.committed.get(effect.seq, 0.0), done)
                self.push(done, "act", (seat,))
            elif isinstance(effect, Halted):
                raise RuntimeError(f"seat {seat} halted: {effect.diagnosis}")
        deadline = self.logs[seat].next_deadline()
        if deadline is not None:
            self.push(max(deadline / 1000, done), "tick", (seat,))

    def act(self, seat: int, at: float) -> None:
        log = self.logs[seat]
        if log.own_pending is not None:
            return
        action = choose(log.state, seat, self.rngs[seat])
        if action is None:
            return
        position = log.seq + 1

        def submit(now: int) -> list[Any]:
            return log.submit(action_bytes(action), now)[1]

        self.work(seat, at, submit)
        self.submitted[position] = max(self.submitted.get(position, 0.0), self.free[seat])

    def run(self) -> int:
        for seat in range(self.n):
            self.push(0.0, "act", (seat,))
        while self.heap:
            at, _, kind, args = heapq.heappop(self.heap)
            if kind == "msg":
                src, dst, data = args
                log = self.logs[dst]
                self.work(dst, at, lambda now, log=log, src=src, data=data:
                          log.receive(src, data, now))
            elif kind == "tick":
                (seat,) = args
                log = self.logs[seat]
                self.work(seat, at, lambda now, log=log: log.tick(now))
            else:
                self.act(args[0], at)
        for seq, done in self.committed.items():
            if seq in self.submitted:
                self.latencies.append(done - self.submitted[seq])
        return self.logs[0].seq


def ed25519_costs() -> tuple[float, float]:
    identity = Identity.from_seed(bytes(32))
    message = bytes(200)
    rounds = 500
    before = time.thread_time()
    for _ in range(rounds):
        signature = identity.sign(ENVELOPE_CONTEXT, message)
    sign = (time.thread_time() - before) / rounds
    before = time.thread_time()
    for _ in range(rounds):
        identity.peer_id.verify(ENVELOPE_CONTEXT, message, signature)
    verify = (time.thread_time() - before) / rounds
    return sign, verify


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    sign, verify = ed25519_costs()
    entries = 0
    cpu_all = 0.0
    cpu_node = 0.0
    latencies: list[float] = []
    for game in range(args.games):
        table = Table(args.players, args.seed + game)
        entries += table.run()
        cpu_all += sum(table.cpu)
        cpu_node += max(table.cpu)
        latencies += table.latencies
    ms = 1000.0
    figures = {
        "players": args.players,
        "games": args.games,
        "entries": entries,
        "cpu_per_entry_all_ms": round(cpu_all / entries * ms, 3),
        "cpu_per_entry_node_ms": round(cpu_node / entries * ms, 3),
        "latency_median_ms": round(statistics.median(latencies) * ms, 3),
        "latency_p90_ms": round(statistics.quantiles(latencies, n=10)[-1] * ms, 3),
        "ed25519_sign_us": round(sign * 1e6, 1),
        "ed25519_verify_us": round(verify * 1e6, 1),
        "loadavg": os.getloadavg(),
        "cpu": cpu_model(),
        "nproc": os.cpu_count(),
        "python": platform.python_version(),
    }
    print(f"ordered log, {args.players} players, {args.games} games, {entries} entries")
    print(f"  CPU per entry, all nodes in one process: {figures['cpu_per_entry_all_ms']} ms")
    print(f"  CPU per entry, busiest node:             {figures['cpu_per_entry_node_ms']} ms")
    print(f"  commit latency (own cores, instant net):  median {figures['latency_median_ms']} ms,"
          f" p90 {figures['latency_p90_ms']} ms")
    print(f"  Ed25519 sign {figures['ed25519_sign_us']} µs, verify {figures['ed25519_verify_us']}"
          f" µs; load average {figures['loadavg']}")
    print(json.dumps(figures))


if __name__ == "__main__":
    sys.exit(main())
