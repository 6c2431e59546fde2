"""Journal and atomic-write latency: what a durable commit costs the node.

Usage: python bench/journal.py [--records N] [--size BYTES] [--dir PATH]

Each append is one positioned write plus fdatasync, so the figure is dominated by the storage's
sync latency; run it on the disk the data folder lives on (default: a temporary folder there).
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from p2p_durak.node.journal import Journal, atomic_write
from p2p_durak.node.paths import data_dir, ensure_private_dir


def percentile(samples: list[float], fraction: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--records", type=int, default=500)
    parser.add_argument("--size", type=int, default=300)
    parser.add_argument("--dir", type=Path, default=None)
    args = parser.parse_args()
    base = args.dir or ensure_private_dir(data_dir().parent)
    with tempfile.TemporaryDirectory(dir=base) as folder:
        payload = bytes(args.size)
        appends: list[float] = []
        with Journal.open(Path(folder) / "bench.journal") as journal:
            for _ in range(args.records):
                start = time.perf_counter()
                journal.append(payload)
                appends.append(time.perf_counter() - start)
            start = time.perf_counter()
            count = sum(1 for _ in journal.records())
            read_all = time.perf_counter() - start
        start = time.perf_counter()
        with Journal.open(Path(folder) / "bench.journal") as journal:
            reopen = time.perf_counter() - start
        writes: list[float] = []
        for _ in range(100):
            start = time.perf_counter()
            atomic_write(Path(folder) / "secret", bytes(64))
            writes.append(time.perf_counter() - start)
    ms = 1000.0
    print(f"folder: {base}")
    print(
        f"append {args.size} B x {args.records}: median {statistics.median(appends) * ms:.3f} ms, "
        f"p99 {percentile(appends, 0.99) * ms:.3f} ms"
    )
    print(
        f"read back {count} records: {read_all * ms:.2f} ms; "
        f"reopen (full check): {reopen * ms:.2f} ms"
    )
    print(
        f"atomic_write 64 B x 100: median {statistics.median(writes) * ms:.3f} ms, "
        f"p99 {percentile(writes, 0.99) * ms:.3f} ms"
    )


if __name__ == "__main__":
    main()
