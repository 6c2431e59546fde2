"""Journal and atomic-write latency: what a durable commit costs the node.

Usage: python bench/journal.py [--records N] [--size BYTES] [--dir PATH] [--store sqlite]

Each append is one positioned write plus fdatasync, so the figure is dominated by the storage's
sync latency; run it on the disk the data folder lives on (default: a temporary folder there).
The unsynced append (`sync=False`) is what the node pays for each commit on its event loop.

`--store sqlite` runs the same workload on `SqliteRecords`, the journal's records in one SQLite
table (WAL mode; a synced append commits with `synchronous=FULL`, an unsynced one with
`NORMAL`, which survives a killed process but not a power cut, as the journal's does): the
measurement behind docs/decisions/0011-journal-stays-a-file.md. Run the two alternately.
"""

from __future__ import annotations

import argparse
import sqlite3
import statistics
import tempfile
import time
from pathlib import Path

from p2p_durak.node.journal import Journal, atomic_write
from p2p_durak.node.paths import data_dir, ensure_private_dir


class SqliteRecords:
    """The journal's interface over SQLite (a prototype for the comparison, not used by the
    node): append(record, sync=), sync(), records(), close()."""

    def __init__(self, path: Path) -> None:
        self._db = sqlite3.connect(path, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("CREATE TABLE IF NOT EXISTS records (seq INTEGER PRIMARY KEY, "
                         "payload BLOB NOT NULL)")
        self._db.execute("PRAGMA quick_check").fetchone()  # as the journal checks on open
        self._synchronous = ""

    @classmethod
    def open(cls, path: Path) -> SqliteRecords:
        return cls(path)

    def _mode(self, mode: str) -> None:
        if mode != self._synchronous:
            self._db.execute(f"PRAGMA synchronous={mode}")
            self._synchronous = mode

    def append(self, record: bytes, *, sync: bool = True) -> None:
        self._mode("FULL" if sync else "NORMAL")
        self._db.execute("INSERT INTO records (payload) VALUES (?)", (record,))

    def sync(self) -> None:
        # SQLite syncs the WAL only when a FULL transaction commits (or at a checkpoint): one
        # that writes (an empty one syncs nothing) makes the frames before it durable
        self._mode("FULL")
        self._db.execute("INSERT INTO records (payload) VALUES (x'')")

    def records(self) -> list[bytes]:
        return [r for (r,) in self._db.execute("SELECT payload FROM records ORDER BY seq")]

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> SqliteRecords:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def percentile(samples: list[float], fraction: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--records", type=int, default=500)
    parser.add_argument("--size", type=int, default=300)
    parser.add_argument("--dir", type=Path, default=None)
    parser.add_argument("--store", choices=("journal", "sqlite"), default="journal")
    args = parser.parse_args()
    base = args.dir or ensure_private_dir(data_dir().parent)
    store = Journal if args.store == "journal" else SqliteRecords
    with tempfile.TemporaryDirectory(dir=base) as folder:
        path = Path(folder) / "bench.journal"
        payload = bytes(args.size)
        appends: list[float] = []
        unsynced: list[float] = []
        with store.open(path) as journal:
            for _ in range(args.records):
                start = time.perf_counter()
                journal.append(payload)
                appends.append(time.perf_counter() - start)
            for _ in range(args.records):
                start = time.perf_counter()
                journal.append(payload, sync=False)
                unsynced.append(time.perf_counter() - start)
            start = time.perf_counter()
            journal.sync()
            sync_all = time.perf_counter() - start
            start = time.perf_counter()
            count = sum(1 for _ in journal.records())
            read_all = time.perf_counter() - start
        start = time.perf_counter()
        with store.open(path) as journal:
            reopen = time.perf_counter() - start
        writes: list[float] = []
        for _ in range(100):
            start = time.perf_counter()
            atomic_write(Path(folder) / "secret", bytes(64))
            writes.append(time.perf_counter() - start)
    ms = 1000.0
    print(f"store: {args.store}, folder: {base}")
    print(
        f"append {args.size} B x {args.records}: median {statistics.median(appends) * ms:.3f} ms, "
        f"p99 {percentile(appends, 0.99) * ms:.3f} ms"
    )
    print(
        f"append {args.size} B x {args.records}, sync=False: median "
        f"{statistics.median(unsynced) * ms:.4f} ms, p99 {percentile(unsynced, 0.99) * ms:.4f} "
        f"ms; then sync(): {sync_all * ms:.2f} ms"
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
