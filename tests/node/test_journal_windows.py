"""The journal's Windows code, run here: no pread/pwrite (a seek under a lock stands in), and
msvcrt's mandatory byte-range lock instead of flock (issue #15, docs/platforms.md).

`journal.sys` says "win32", `os.pread`/`os.pwrite` are gone, and `msvcrt` is a stand-in that
behaves as Windows documents `_locking`: a region is locked by one handle at a time, a second
lock attempt fails with EACCES, and only the handle that holds it can unlock it. The real
Windows API could not be run on this machine; what it does beyond this is in docs/platforms.md.
"""

from __future__ import annotations

import errno
import os
import threading
from pathlib import Path
from types import SimpleNamespace

import pytest
import test_journal as posix

from p2p_durak.node import journal
from p2p_durak.node.journal import WINDOWS_LOCK_OFFSET, Journal, JournalLocked, first_record


class FakeMsvcrt:
    LK_UNLCK = 0
    LK_NBLCK = 2

    def __init__(self) -> None:
        self.holders: dict[tuple[int, int], int] = {}  # the file -> the descriptor holding it
        self.calls: list[tuple[int, int]] = []  # (mode, offset)

    def locking(self, fd: int, mode: int, nbytes: int) -> None:
        info = os.fstat(fd)
        key, offset = (info.st_dev, info.st_ino), os.lseek(fd, 0, os.SEEK_CUR)
        self.calls.append((mode, offset))
        assert nbytes == 1
        if mode == self.LK_NBLCK:
            holder = self.holders.get(key)
            # a handle closed without unlocking (its process died) holds nothing any more
            if holder is not None and holder != fd and _is_open_on(holder, key):
                raise PermissionError(errno.EACCES, "Permission denied")
            self.holders[key] = fd
        elif mode == self.LK_UNLCK:
            if self.holders.get(key) != fd:
                raise PermissionError(errno.EACCES, "Permission denied")
            del self.holders[key]


def _is_open_on(fd: int, key: tuple[int, int]) -> bool:
    try:
        info = os.fstat(fd)
    except OSError:
        return False
    return (info.st_dev, info.st_ino) == key


@pytest.fixture(autouse=True)
def windows(monkeypatch: pytest.MonkeyPatch) -> FakeMsvcrt:
    fake = FakeMsvcrt()
    monkeypatch.setattr(journal, "sys", SimpleNamespace(platform="win32"))
    monkeypatch.setattr(journal, "msvcrt", fake, raising=False)
    monkeypatch.delattr(os, "pread")
    monkeypatch.delattr(os, "pwrite")
    return fake


def test_records_survive_reopen(tmp_path: Path) -> None:
    posix.test_records_survive_reopen(tmp_path)


def test_torn_tails_and_damage_are_told_apart_as_on_posix(tmp_path: Path) -> None:
    for name, check in (
            ("a", posix.test_damage_before_the_tail_raises_and_leaves_the_file_alone),
            ("b", posix.test_a_hole_in_the_unsynced_tail_before_later_records_is_a_power_cut),
            ("c", posix.test_a_closed_journal_proves_every_record)):
        (tmp_path / name).mkdir()
        check(tmp_path / name)


def test_one_writer_at_a_time_and_the_lock_is_released(tmp_path: Path,
                                                       windows: FakeMsvcrt) -> None:
    posix.test_one_writer_at_a_time(tmp_path)
    assert windows.holders == {}  # every journal closed: no lock left behind
    # one byte far past the end is locked, so that readers of the records are never refused
    assert {offset for _, offset in windows.calls} == {WINDOWS_LOCK_OFFSET}


def test_a_reader_reads_while_the_writer_holds_the_lock(tmp_path: Path,
                                                        windows: FakeMsvcrt) -> None:
    path = tmp_path / "log"
    with Journal.open(path) as writer:
        writer.append(b"first")
        assert windows.holders
        assert first_record(path) == b"first"


def test_reading_while_appending_from_threads(tmp_path: Path) -> None:
    # a seek then a write and a seek then a read on one descriptor: without the process-wide
    # lock around each pair, a reader's seek would move an appender's write elsewhere
    path = tmp_path / "log"
    seen: list[list[int]] = [[], []]  # each reader's counts of records, in its order
    with Journal.open(path) as log:
        stop = threading.Event()

        def reader(counts: list[int]) -> None:
            while not stop.is_set():
                counts.append(len(list(log.records())))

        def writer(n: int) -> None:
            for i in range(25):
                log.append(b"%d-%d" % (n, i), sync=False)

        readers = [threading.Thread(target=reader, args=(counts,)) for counts in seen]
        writers = [threading.Thread(target=writer, args=(n,)) for n in range(3)]
        for thread in readers + writers:
            thread.start()
        for thread in writers:
            thread.join()
        stop.set()
        for thread in readers:
            thread.join()
    records, _ = posix.reopen(path)
    assert sorted(records) == sorted(b"%d-%d" % (n, i) for n in range(3) for i in range(25))
    for counts in seen:  # each read saw a whole prefix, never fewer records than before
        assert counts == sorted(counts)


def test_a_journal_locked_by_another_handle_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "log"
    with Journal.open(path), pytest.raises(JournalLocked, match="already open"):
        Journal.open(path, create=False)
