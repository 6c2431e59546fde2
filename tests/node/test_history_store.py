"""The history of the evening's storage: SQLite in WAL mode, an index over the game files that
is made again from them when it is lost, damaged, or misses a game a crash kept from it."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from p2p_durak.node.history import (
    PRACTICE,
    GameRecord,
    PlayerRecord,
    RecordError,
    decode_practice,
    encode_practice,
    practice_path,
)
from p2p_durak.node.history_store import DB_NAME, HistoryStore, record_practice

NOW = 1_800_000_000.0


def practice_game(table: str = "t1", number: int = 1, durak: tuple[int, ...] = (1,),
                  when: float = NOW, names: tuple[str, ...] = ("Olga", "Anna", "Boris"),
                  variant: str = "app_podkidnoy") -> GameRecord:
    players = tuple(PlayerRecord(n, bot="" if i == 0 else "easy", me=i == 0)
                    for i, n in enumerate(names))
    series = tuple(int(i in durak) for i in range(len(names)))
    return GameRecord(table, number, PRACTICE, when, "Kitchen", variant, False, players,
                      durak, not durak, series)


def test_a_recorded_game_reads_back_from_a_wal_database(tmp_path: Path) -> None:
    game = practice_game()
    record_practice(tmp_path, game)
    with HistoryStore.open(tmp_path) as store:
        assert store.games() == [game]
    db = sqlite3.connect(tmp_path / DB_NAME)
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    # the database is an index: the game's own file is there too, and names the same game
    assert decode_practice(practice_path(tmp_path, game).read_bytes()) == game


def test_the_same_game_recorded_twice_is_one_game(tmp_path: Path) -> None:
    # every node of this data folder (the player's and its bot peers) records the game
    record_practice(tmp_path, practice_game())
    record_practice(tmp_path, practice_game(when=NOW + 1))
    with HistoryStore.open(tmp_path) as store:
        assert [g.finished_at for g in store.games()] == [NOW]


def test_games_come_latest_first_and_since_a_time(tmp_path: Path) -> None:
    for n in range(1, 4):
        record_practice(tmp_path, practice_game(number=n, when=NOW + n))
    with HistoryStore.open(tmp_path) as store:
        assert [g.number for g in store.games()] == [3, 2, 1]
        assert [g.number for g in store.games(since=NOW + 2)] == [3, 2]
        assert [g.number for g in store.games(limit=1)] == [3]


def _three_games(home: Path) -> list[GameRecord]:
    games = [practice_game(number=n, when=NOW + n, durak=(n % 3,)) for n in (1, 2, 3)]
    for game in games:
        record_practice(home, game)
    return games[::-1]


def test_a_lost_database_is_made_again_from_the_game_files(tmp_path: Path) -> None:
    games = _three_games(tmp_path)
    for suffix in ("", "-wal", "-shm"):
        (tmp_path / f"{DB_NAME}{suffix}").unlink(missing_ok=True)
    with HistoryStore.open(tmp_path) as store:
        assert store.fresh
        caught = store.catch_up()
        assert (caught.indexed, caught.skipped, caught.rebuilt) == (3, (), True)
        assert store.games() == games
        assert store.catch_up().indexed == 0  # indexed once


@pytest.mark.parametrize("damage", ["junk", "zeros", "truncated"])
def test_a_damaged_database_is_moved_aside_and_made_again(tmp_path: Path, damage: str) -> None:
    games = _three_games(tmp_path)
    with HistoryStore.open(tmp_path):
        pass  # (closing the last connection checkpoints the WAL into the main file)
    path = tmp_path / DB_NAME
    data = path.read_bytes()
    if damage == "junk":
        path.write_bytes(b"this is no database" * 10 + data[190:])
    elif damage == "zeros":  # a page of the table's b-tree zeroed
        path.write_bytes(data[:4096] + bytes(4096) + data[8192:])
    else:
        path.write_bytes(data[: len(data) // 2])
    with HistoryStore.open(tmp_path) as store:
        caught = store.catch_up()
        assert caught.rebuilt
        assert store.games() == games
    assert list(tmp_path.glob(f"{DB_NAME}.damaged-*"))


def test_a_game_whose_rows_a_crash_kept_out_is_indexed_later(tmp_path: Path) -> None:
    # the practice table writes the game's file first, then its rows: killed in between,
    # the file is there and the database lacks the game
    record_practice(tmp_path, practice_game(number=1))
    late = practice_game(number=2, when=NOW + 5)
    path = practice_path(tmp_path, late)
    path.write_bytes(encode_practice(late))
    with HistoryStore.open(tmp_path) as store:
        assert not store.fresh
        assert store.catch_up().indexed == 1
        assert [g.number for g in store.games()] == [2, 1]


def test_a_half_written_or_foreign_file_is_skipped_and_named(tmp_path: Path) -> None:
    record_practice(tmp_path, practice_game(number=1))
    folder = tmp_path / "practice"
    whole = encode_practice(practice_game(number=2))
    (folder / "t1-2.json").write_bytes(whole[: len(whole) // 2])  # a torn file
    (folder / ".t1-3.json.0a1b2c.tmp").write_bytes(whole)  # atomic_write's unrenamed temp
    (folder / "notes.json").write_bytes(b'{"format": "something else"}')
    for suffix in ("", "-wal", "-shm"):
        (tmp_path / f"{DB_NAME}{suffix}").unlink(missing_ok=True)
    with HistoryStore.open(tmp_path) as store:
        caught = store.catch_up()
        assert [g.number for g in store.games()] == [1]
    assert sorted(path for path, _ in caught.skipped) == ["practice/notes.json",
                                                          "practice/t1-2.json"]
    assert all("not a practice record" in why for _, why in caught.skipped)


def test_a_record_whose_fields_do_not_fit_is_refused() -> None:
    bad = practice_game().to_json()
    bad["durak"] = [7]  # no such seat
    with pytest.raises(RecordError):
        GameRecord.from_json(bad)


WRITER = textwrap.dedent("""
    import sys
    from pathlib import Path
    from p2p_durak.node.history import PRACTICE, GameRecord, PlayerRecord
    from p2p_durak.node.history_store import record_practice
    home = Path(sys.argv[1])
    players = (PlayerRecord("Olga", me=True), PlayerRecord("Anna", bot="easy"))
    for n in range(1, 100_000):
        record_practice(home, GameRecord("kill", n, PRACTICE, float(n), "Kitchen",
                                         "app_podkidnoy", False, players, (n % 2,), False,
                                         (n // 2, (n + 1) // 2)))
        print(n, flush=True)
""")


@pytest.mark.subprocess
def test_a_process_killed_while_writing_loses_no_recorded_game(tmp_path: Path) -> None:
    """kill -9 a real process that records games back to back: every game it said it had
    recorded is in the database, which opens undamaged; any game whose file it wrote before
    it died is indexed from that file."""
    out = tmp_path / "writer.out"
    with out.open("wb") as sink:
        proc = subprocess.Popen([sys.executable, "-c", WRITER, str(tmp_path)], stdout=sink)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:  # a real process: bounded polling of its output
            if out.read_text().count("\n") >= 25:
                break
            time.sleep(0.02)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    said = [int(x) for x in out.read_text().split()]
    assert len(said) >= 25
    with HistoryStore.open(tmp_path) as store:
        assert not store.fresh  # opened undamaged: nothing moved aside
        held = {g.number for g in store.games()}
        assert set(said) <= held
        store.catch_up()
        files = {int(p.stem.split("-")[1]) for p in (tmp_path / "practice").glob("kill-*.json")}
        assert {g.number for g in store.games()} == files
    assert not list(tmp_path.glob(f"{DB_NAME}.damaged-*"))


def test_a_database_locked_by_another_writer_is_not_taken_for_damage(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Another process holding the write lock past the busy timeout makes the recording fail
    (the caller logs it) without moving the database aside; the game's file is there, and the
    next catch-up indexes it."""
    from p2p_durak.node import history_store

    monkeypatch.setattr(history_store, "BUSY_SECONDS", 0.05)
    record_practice(tmp_path, practice_game(number=1))
    other = sqlite3.connect(tmp_path / DB_NAME, isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")
    with pytest.raises(sqlite3.OperationalError, match="locked"):
        record_practice(tmp_path, practice_game(number=2))
    other.execute("ROLLBACK")
    other.close()
    assert not list(tmp_path.glob(f"{DB_NAME}.damaged-*"))
    with HistoryStore.open(tmp_path) as store:
        assert store.catch_up().indexed == 1
        assert [g.number for g in store.games()] == [2, 1]
    # a new database another writer holds locked while it is being made: not damage either
    for suffix in ("", "-wal", "-shm"):
        (tmp_path / f"{DB_NAME}{suffix}").unlink(missing_ok=True)
    maker = sqlite3.connect(tmp_path / DB_NAME, isolation_level=None)
    maker.execute("PRAGMA journal_mode=WAL")
    maker.execute("BEGIN EXCLUSIVE")
    with pytest.raises(sqlite3.OperationalError, match="locked"):
        HistoryStore.open(tmp_path)
    maker.execute("ROLLBACK")
    maker.close()
    assert not list(tmp_path.glob(f"{DB_NAME}.damaged-*"))


def test_a_file_that_cannot_be_indexed_is_read_again_only_once_it_changes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    record_practice(tmp_path, practice_game(number=1))
    torn = tmp_path / "practice" / "t1-2.json"
    whole = encode_practice(practice_game(number=2))
    torn.write_bytes(whole[:40])
    with HistoryStore.open(tmp_path) as store:
        first = store.catch_up()
    assert [p for p, _ in first.skipped] == ["practice/t1-2.json"]
    reads: list[Path] = []
    real = HistoryStore._read

    def counting(self: HistoryStore, path: Path) -> list[GameRecord]:
        reads.append(path)
        return real(self, path)

    monkeypatch.setattr(HistoryStore, "_read", counting)
    with HistoryStore.open(tmp_path) as store:
        again = store.catch_up()
    assert again.skipped == first.skipped  # still named, with the same reason
    assert reads == []  # but not read again
    torn.write_bytes(whole)  # (written whole at last: a new size)
    with HistoryStore.open(tmp_path) as store:
        done = store.catch_up()
        assert (done.indexed, done.skipped) == (1, ())
        assert [g.number for g in store.games()] == [2, 1]
    assert reads == [torn]


def test_a_schema_1_database_gains_the_refused_table(tmp_path: Path) -> None:
    record_practice(tmp_path, practice_game(number=1))
    db = sqlite3.connect(tmp_path / DB_NAME)
    with db:
        db.execute("DROP TABLE refused")
        db.execute("PRAGMA user_version=1")
    db.close()
    with HistoryStore.open(tmp_path) as store:
        assert not store.fresh  # kept, not rebuilt
        assert store.catch_up().indexed == 0
        assert [g.number for g in store.games()] == [1]
