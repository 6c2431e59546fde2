"""Benchmark of the mental-poker deck (issue #3), with the SRA baseline measured in the same run.

    python bench/deck.py            # full run (real SRA for every table size, a few minutes)
    python bench/deck.py --quick    # under a minute; SRA measured for one table, counted for others

Prints a readable report and, on its last line, one JSON object with every figure.

What is measured
Times are CPU time of the benchmark thread (``time.thread_time``) unless named wall; the load
average is printed so that a run on a busy shared machine can be told apart.

* Group unit costs (libsodium ristretto255 through rbcl).
* Shuffle proof create / verify (Terelius–Wikström, Fiat–Shamir) for 24..144 cards; medians.
* The whole shuffle and initial deal (keys, every seat's proven shuffle, a private hand to every
  seat, the trump reveal) with N real parties in one process. Every message goes through its
  wire form and is verified by every other party. Reported per node: the CPU the busiest node
  spent (``node_cpu``), the CPU and the wall time of all N nodes run one after another in
  this one process (``all_nodes_cpu``, ``one_process``), and the critical path if each node had
  its own core and the network were instant (``critical_path``: a message is processed no
  earlier than it was sent).
* SRA baseline, "the obvious way": commutative exponentiation mod a 2048-bit safe prime (RFC
  3526 group 14, cards encoded as quadratic residues), full-size exponents, no proofs. Per node:
  a cascade shuffle (n exponentiations), per-card locking (n), removing its layer from every
  dealt card of the others and its own (N·h) and from the trump (1).
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import platform
import secrets
import statistics
import sys
import time
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from machine import cpu_model

from p2p_durak.protocol.mental import group as g
from p2p_durak.protocol.mental.deck import DeckParty
from p2p_durak.protocol.mental.elgamal import CardCodec, remask
from p2p_durak.protocol.mental.events import CardRevealed, CardSeen, Send
from p2p_durak.protocol.mental.messages import Message, message_from_wire
from p2p_durak.protocol.mental.ops import KeysOp, Op, RevealOp, ShowOp, ShuffleOp
from p2p_durak.protocol.mental.shuffle import (
    ShuffleProof,
    prove_shuffle,
    shuffle,
    verify_shuffle,
)
from p2p_durak.protocol.mental.transcript import ProofContext

TARGETS = {
    "prove_52_ms": 25.0,
    "verify_52_ms": 35.0,
    "shuffle_deal_6x36_s": 0.5,
    "speedup_vs_sra": 10.0,
}

# RFC 3526, 2048-bit MODP group (id 14): a safe prime p = 2q + 1.
SRA_P = int(
    "FFFFFFFFFFFFFFFFC90FDAA22168C234C4C6628B80DC1CD129024E088A67CC74020BBEA63B139B22514A08798E34"
    "04DDEF9519B3CD3A431B302B0A6DF25F14374FE1356D6D51C245E485B576625E7EC6F44C42E9A637ED6B0BFF5CB6"
    "F406B7EDEE386BFB5A899FA5AE9F24117C4B1FE649286651ECE45B3DC2007CB8A163BF0598DA48361C55D39A6916"
    "3FA8FD24CF5F83655D23DCA3AD961C62F356208552BB9ED529077096966D670C354E4ABC9804F1746C08CA18217C"
    "32905E462E36CE3BE39E772C180E86039B2783A2EC07A28FB5C55DF06F4C52C9DE2BCBF6955817183995497CEA95"
    "6AE515D2261898FA051015728E5A8AACAA68FFFFFFFFFFFFFFFF",
    16,
)
SRA_Q = (SRA_P - 1) // 2


def median_ms(fn: Callable[[], object], repeats: int) -> float:
    """Median CPU time of this thread: the VM is shared, and CPU time is what "on one core"
    means; wall time under other tenants' load would measure them, not us."""
    times = []
    for _ in range(repeats):
        t0 = time.thread_time()
        fn()
        times.append(time.thread_time() - t0)
    return statistics.median(times) * 1e3


def unit_costs(repeats: int) -> dict[str, float]:
    k = g.random_scalar(os.urandom)
    p = g.base_mul(g.random_scalar(os.urandom))
    q = g.base_mul(g.random_scalar(os.urandom))
    n = 400

    def per_op(fn: Callable[[], object]) -> float:
        return median_ms(lambda: [fn() for _ in range(n)], repeats) / n * 1e3

    e = secrets.randbelow(SRA_Q - 3) + 3
    m = pow(5, 2, SRA_P)
    return {
        "ristretto_mul_us": per_op(lambda: g.mul(k, p)),
        "ristretto_base_mul_us": per_op(lambda: g.base_mul(k)),
        "ristretto_add_us": per_op(lambda: g.add(p, q)),
        "ristretto_decode_us": per_op(lambda: g.decode_point(p)),
        "modexp_2048_full_us": median_ms(lambda: [pow(m, e, SRA_P) for _ in range(20)], repeats)
        / 20
        * 1e3,
    }


def one_proof_size(n: int, repeats: int) -> dict[str, float]:
    ctx = ProofContext(b"bench", "shuffle", 0)
    key = g.base_mul(g.random_scalar(os.urandom))
    # A deck that has been shuffled once: the general case (the public initial deck, whose c1
    # are all G, verifies faster and would flatter the figures).
    initial = CardCodec(n).initial_deck(key)
    deck = remask(initial, key, [g.random_scalar(os.urandom) for _ in range(n)])
    perm = list(range(n))
    secrets.SystemRandom().shuffle(perm)
    rs = [g.random_scalar(os.urandom) for _ in range(n)]
    outputs, proof = shuffle(ctx, key, deck, perm, rs, os.urandom)
    wire = proof.to_bytes()
    remask_ms = median_ms(lambda: remask([deck[j] for j in perm], key, rs), repeats)
    prove_ms = median_ms(
        lambda: prove_shuffle(ctx, key, deck, outputs, perm, rs, os.urandom), repeats
    )
    verify_ms = median_ms(lambda: verify_shuffle(ctx, key, deck, outputs, proof), repeats)
    decode_ms = median_ms(lambda: ShuffleProof.from_bytes(wire, n), repeats)
    assert verify_shuffle(ctx, key, deck, outputs, proof)
    bad = [outputs[1], outputs[0], *outputs[2:]]
    assert not verify_shuffle(ctx, key, deck, bad, proof), "a tampered deck must fail"
    print(
        f"  n={n:4d}  remask {remask_ms:6.1f} ms  prove {prove_ms:6.1f} ms  "
        f"verify {verify_ms:6.1f} ms  decode {decode_ms:5.1f} ms  {len(wire) / 1024:5.1f} KiB",
        flush=True,
    )
    return {
        "remask_ms": round(remask_ms, 2),
        "prove_ms": round(prove_ms, 2),
        "verify_ms": round(verify_ms, 2),
        "decode_proof_ms": round(decode_ms, 2),
        "proof_kib": round(len(wire) / 1024, 1),
    }


def shuffle_proofs(sizes: list[int], repeats: int) -> dict[str, dict[str, float]]:
    return {str(n): one_proof_size(n, repeats) for n in sizes}


class TimedTable:
    """N parties in one process; timing of every call, and the sent-at time of every message."""

    def __init__(self, n_seats: int, n_cards: int) -> None:
        self.parties = [DeckParty(b"bench-game", s, n_seats, n_cards) for s in range(n_seats)]
        self.cpu = [0.0] * n_seats
        self.clock = [0.0] * n_seats  # simulated: each node on its own core, instant network
        self.seen: dict[int, dict[int, int]] = {s: {} for s in range(n_seats)}
        self.public: dict[int, int] = {}

    def _call(self, seat: int, ready: float, fn: Callable[[], list[Any]]) -> list[Any]:
        t0 = time.thread_time()
        events = fn()
        spent = time.thread_time() - t0
        self.cpu[seat] += spent
        self.clock[seat] = max(self.clock[seat], ready) + spent
        for e in events:
            if isinstance(e, CardSeen):
                self.seen[seat][e.slot] = e.card_id
            if isinstance(e, CardRevealed):
                self.public[e.slot] = e.card_id
        return events

    def run(self, op: Op) -> None:
        queue: deque[tuple[Message, float]] = deque()
        start = max(self.clock)
        for party in self.parties:
            events = self._call(party.seat, start, functools.partial(party.begin, op))
            queue += [(e.message, self.clock[party.seat]) for e in events if isinstance(e, Send)]
        while queue:
            msg, sent_at = queue.popleft()
            wire = msg.to_wire()
            for party in self.parties:
                if party.seat == msg.seat:
                    continue
                events = self._call(party.seat, sent_at, functools.partial(deliver, party, wire))
                queue += [
                    (e.message, self.clock[party.seat]) for e in events if isinstance(e, Send)
                ]


def deliver(party: DeckParty, wire: list[object]) -> list[Any]:
    return party.receive(message_from_wire(wire))


def hand_size(n_seats: int, n_cards: int) -> int:
    return min(6, (n_cards - 1) // n_seats)


def deck_game(n_seats: int, n_cards: int) -> dict[str, float]:
    table = TimedTable(n_seats, n_cards)
    table.run(KeysOp("keys"))
    keys_cpu = max(table.cpu)
    keys_total = sum(table.cpu)
    t0 = time.perf_counter()
    table.run(ShuffleOp("shuffle", tuple(range(n_cards))))
    h = hand_size(n_seats, n_cards)
    grants = tuple((slot, (slot // h,)) for slot in range(n_seats * h))
    table.run(ShowOp("deal", grants))
    table.run(RevealOp("trump", (n_seats * h,)))
    one_process = time.perf_counter() - t0
    for seat in range(n_seats):
        assert sorted(table.seen[seat]) == list(range(seat * h, (seat + 1) * h))
    cards = [c for s in range(n_seats) for c in table.seen[s].values()]
    cards.append(table.public[n_seats * h])
    assert len(set(cards)) == len(cards), "every dealt card is distinct"
    return {
        "node_cpu_ms": round((max(table.cpu) - keys_cpu) * 1e3, 1),
        "critical_path_ms": round(max(table.clock) * 1e3 - keys_cpu * 1e3, 1),
        "one_process_ms": round(one_process * 1e3, 1),
        "all_nodes_cpu_ms": round((sum(table.cpu) - keys_total) * 1e3, 1),
    }


def sra_game(n_seats: int, n_cards: int) -> dict[str, float]:
    """The obvious SRA deal, run for real; per-node CPU is measured node by node."""
    cpu = [0.0] * n_seats
    deck = [pow(i + 2, 2, SRA_P) for i in range(n_cards)]
    encoding = {m: i for i, m in enumerate(deck)}
    keys = []
    for _ in range(n_seats):
        while True:
            e = secrets.randbelow(SRA_Q - 3) + 3
            if e % SRA_Q:
                break
        keys.append((e, pow(e, -1, SRA_Q)))
    rnd = secrets.SystemRandom()
    for seat, (e, _) in enumerate(keys):  # cascade shuffle
        t0 = time.thread_time()
        deck = [pow(c, e, SRA_P) for c in deck]
        rnd.shuffle(deck)
        cpu[seat] += time.thread_time() - t0
    locks: list[list[int]] = []
    for seat, (_, d) in enumerate(keys):  # swap the shuffle layer for per-card locks
        t0 = time.thread_time()
        ks = [secrets.randbelow(SRA_Q - 3) + 3 for _ in range(n_cards)]
        deck = [pow(c, d * k % SRA_Q, SRA_P) for c, k in zip(deck, ks, strict=True)]
        locks.append([pow(k, -1, SRA_Q) for k in ks])
        cpu[seat] += time.thread_time() - t0
    h = hand_size(n_seats, n_cards)
    hands: dict[int, list[int]] = {s: [] for s in range(n_seats)}
    for slot in range(n_seats * h + 1):  # every hand card, then the trump (owner None)
        owner = slot // h if slot < n_seats * h else None
        c = deck[slot]
        for seat in range(n_seats):
            if seat == owner:
                continue
            t0 = time.thread_time()
            c = pow(c, locks[seat][slot], SRA_P)
            cpu[seat] += time.thread_time() - t0
        if owner is not None:
            t0 = time.thread_time()
            c = pow(c, locks[owner][slot], SRA_P)
            cpu[owner] += time.thread_time() - t0
            hands[owner].append(encoding[c])
        else:
            assert c in encoding
    dealt = [c for cards in hands.values() for c in cards]
    assert len(set(dealt)) == len(dealt)
    return {"node_cpu_ms": round(max(cpu) * 1e3, 1)}


def sra_count(n_seats: int, n_cards: int) -> int:
    return 2 * n_cards + n_seats * hand_size(n_seats, n_cards) + 1


def machine() -> dict[str, str]:
    import rbcl

    return {
        "cpu": cpu_model(),
        "nproc": str(os.cpu_count()),
        "python": platform.python_version(),
        "rbcl": getattr(rbcl, "__version__", "1.1.x"),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="finish within a minute")
    args = parser.parse_args()
    repeats = 3 if args.quick else 7
    t_start = time.perf_counter()
    cpu_start = time.process_time()
    result: dict[str, Any] = {"quick": args.quick, "machine": machine(), "targets": TARGETS}
    result["loadavg_start"] = os.getloadavg()[0]
    print(f"machine: {result['machine']}", flush=True)

    units = unit_costs(3 if args.quick else 5)
    result["units"] = {k: round(v, 2) for k, v in units.items()}
    print("unit costs:", result["units"], flush=True)

    print("shuffle proofs (median of", repeats, "runs):", flush=True)
    result["shuffle_proof"] = shuffle_proofs([24, 36, 52, 54, 104, 144], repeats)

    print("whole shuffle + initial deal + trump, per node:", flush=True)
    games: dict[str, Any] = {}
    modexp_ms = units["modexp_2048_full_us"] / 1e3
    for n_cards in (36, 52):
        for n_seats in (2, 4, 6, 10):
            ours = deck_game(n_seats, n_cards)
            count = sra_count(n_seats, n_cards)
            real_sra = not args.quick or (n_seats, n_cards) == (2, 36)
            sra = (
                sra_game(n_seats, n_cards)
                if real_sra
                else {"node_cpu_ms": round(count * modexp_ms, 1)}
            )
            sra["modexps_per_node"] = count
            sra["measured"] = real_sra
            speedup = sra["node_cpu_ms"] / ours["node_cpu_ms"]
            games[f"{n_seats}x{n_cards}"] = {
                "ours": ours,
                "sra": sra,
                "speedup_node_cpu": round(speedup, 1),
            }
            print(
                f"  {n_seats:2d} seats x {n_cards} cards: node cpu {ours['node_cpu_ms']:7.1f} ms, "
                f"critical path {ours['critical_path_ms']:7.1f} ms, all nodes "
                f"{ours['all_nodes_cpu_ms']:7.1f} ms cpu / {ours['one_process_ms']:7.1f} ms wall "
                f"| SRA node cpu {sra['node_cpu_ms']:8.1f} ms "
                f"({'measured' if real_sra else 'counted'}) -> {speedup:4.1f}x",
                flush=True,
            )
    result["games"] = games

    p52 = result["shuffle_proof"]["52"]
    g636 = games["6x36"]
    result["verdict"] = {
        "prove_52_ms": [p52["prove_ms"], p52["prove_ms"] <= TARGETS["prove_52_ms"]],
        "verify_52_ms": [p52["verify_ms"], p52["verify_ms"] <= TARGETS["verify_52_ms"]],
        "shuffle_deal_6x36_critical_path_s": [
            g636["ours"]["critical_path_ms"] / 1e3,
            g636["ours"]["critical_path_ms"] / 1e3 <= TARGETS["shuffle_deal_6x36_s"],
        ],
        "shuffle_deal_6x36_all_nodes_one_core_s": [
            g636["ours"]["all_nodes_cpu_ms"] / 1e3,
            g636["ours"]["all_nodes_cpu_ms"] / 1e3 <= TARGETS["shuffle_deal_6x36_s"],
        ],
        "min_speedup_vs_sra": [
            min(v["speedup_node_cpu"] for v in games.values()),
            min(v["speedup_node_cpu"] for v in games.values()) >= TARGETS["speedup_vs_sra"],
        ],
    }
    result["seconds_wall"] = round(time.perf_counter() - t_start, 1)
    result["seconds_cpu"] = round(time.process_time() - cpu_start, 1)
    result["loadavg_end"] = os.getloadavg()[0]
    print("verdict:", result["verdict"], flush=True)
    print(json.dumps(result, separators=(",", ":")))


if __name__ == "__main__":
    main()
