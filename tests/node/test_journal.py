from __future__ import annotations

import os
import stat
import struct
import threading
from pathlib import Path

import pytest
import trio
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from p2p_durak.node.journal import (
    HEADER,
    MAGIC,
    MAGIC_V1,
    MAX_RECORD_BYTES,
    AsyncJournal,
    Journal,
    JournalCorrupt,
    JournalError,
    JournalLocked,
    atomic_write,
    atomic_write_async,
    encode_mark,
    encode_record,
    read_file,
    read_file_async,
)

RECORDS = [b"", b"a", b"hello world", bytes(range(256)) * 5]


def write_journal(path: Path, records: list[bytes]) -> None:
    with Journal.open(path) as journal:
        for record in records:
            journal.append(record)


def reopen(path: Path) -> tuple[list[bytes], int]:
    with Journal.open(path) as journal:
        return list(journal.records()), journal.recovered_bytes


def test_records_survive_reopen(tmp_path: Path) -> None:
    path = tmp_path / "log"
    write_journal(path, RECORDS)
    assert reopen(path) == (RECORDS, 0)
    with Journal.open(path) as journal:
        assert len(journal) == len(RECORDS)
        journal.append(b"more")
        assert list(journal.records()) == [*RECORDS, b"more"]
        assert journal.size == path.stat().st_size


def test_new_journal_is_private_and_starts_with_magic(tmp_path: Path) -> None:
    path = tmp_path / "log"
    write_journal(path, [])
    assert path.read_bytes() == MAGIC
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_open_without_create(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        Journal.open(tmp_path / "missing", create=False)


def test_crash_during_creation_is_finished_on_open(tmp_path: Path) -> None:
    for prefix in (b"", MAGIC[:3]):
        path = tmp_path / f"log{len(prefix)}"
        path.write_bytes(prefix)
        assert reopen(path) == ([], 0)
        assert path.read_bytes() == MAGIC


def test_not_a_journal(tmp_path: Path) -> None:
    path = tmp_path / "log"
    path.write_bytes(b"something else entirely")
    with pytest.raises(JournalCorrupt, match="bad magic"):
        Journal.open(path)


@pytest.mark.parametrize(
    "tear",
    [
        pytest.param(lambda blob: blob[:5], id="partial header"),
        pytest.param(lambda blob: blob[: HEADER.size], id="header only"),
        pytest.param(lambda blob: blob[:-1], id="partial payload"),
        pytest.param(lambda blob: bytes(len(blob)), id="zero-filled extension"),
        pytest.param(
            lambda blob: blob[: HEADER.size] + bytes(len(blob) - HEADER.size), id="zero payload"
        ),
        pytest.param(lambda blob: blob[:-1] + bytes([blob[-1] ^ 1]), id="garbled last byte"),
        pytest.param(lambda blob: blob + bytes(4096), id="whole record then zero blocks"),
        pytest.param(lambda blob: blob[:7] + bytes(100), id="header prefix then zeros"),
        pytest.param(lambda blob: blob[:-9] + b"\xff" * 9, id="junk instead of the payload end"),
    ],
)
def test_torn_tail_is_cut_and_never_read(tmp_path: Path, tear: object) -> None:
    path = tmp_path / "log"
    write_journal(path, RECORDS)
    good_size = path.stat().st_size
    last = encode_record(b"the record being written when the power went out")
    torn = tear(last)  # type: ignore[operator]
    with path.open("ab") as file:
        file.write(torn)
    records, recovered = reopen(path)
    if torn.startswith(last):  # the record itself made it; only zeros followed
        assert records == [*RECORDS, b"the record being written when the power went out"]
        assert path.stat().st_size == good_size + len(last)
    else:
        assert records == RECORDS
        assert recovered == len(torn)
        assert path.stat().st_size == good_size
    # The repaired journal takes appends again.
    with Journal.open(path) as journal:
        journal.append(b"after")
    assert reopen(path)[0][-1] == b"after"


def test_damage_before_the_tail_raises_and_leaves_the_file_alone(tmp_path: Path) -> None:
    path = tmp_path / "log"
    write_journal(path, RECORDS)
    data = bytearray(path.read_bytes())
    second = len(MAGIC) + len(encode_record(RECORDS[0]))
    data[second + HEADER.size] ^= 0x40  # a payload byte of record 2 of 4
    path.write_bytes(bytes(data))
    with pytest.raises(JournalCorrupt, match="payload fails its checksum") as caught:
        Journal.open(path)
    assert caught.value.offset == second
    assert path.read_bytes() == bytes(data)


def test_a_damaged_last_header_with_records_before_is_a_torn_tail(tmp_path: Path) -> None:
    path = tmp_path / "log"
    write_journal(path, RECORDS)
    last = encode_record(b"last")
    with path.open("ab") as file:
        file.write(bytes([last[0] ^ 0xFF]) + last[1:])
    assert reopen(path) == (RECORDS, len(last))


def test_a_damaged_length_is_not_believed(tmp_path: Path) -> None:
    path = tmp_path / "log"
    write_journal(path, RECORDS)
    data = bytearray(path.read_bytes())
    # Make the first record claim to run past the end of the file.
    data[len(MAGIC) : len(MAGIC) + 4] = struct.pack(">I", 10_000_000)
    path.write_bytes(bytes(data))
    with pytest.raises(JournalCorrupt, match="header fails its checksum"):
        Journal.open(path)


def test_records_rechecks_what_it_reads(tmp_path: Path) -> None:
    path = tmp_path / "log"
    write_journal(path, RECORDS)
    with Journal.open(path) as journal:
        with path.open("r+b") as file:
            file.seek(len(MAGIC) + HEADER.size)
            file.write(b"X")
        with pytest.raises(JournalCorrupt):
            list(journal.records())


def test_one_writer_at_a_time(tmp_path: Path) -> None:
    path = tmp_path / "log"
    with Journal.open(path), pytest.raises(JournalLocked):
        Journal.open(path)
    Journal.open(path).close()


def test_closed_and_oversized(tmp_path: Path) -> None:
    journal = Journal.open(tmp_path / "log")
    with pytest.raises(ValueError, match="exceeds"):
        journal.append(bytes(MAX_RECORD_BYTES + 1))
    journal.close()
    journal.close()
    with pytest.raises(JournalError, match="closed"):
        journal.append(b"x")
    with pytest.raises(JournalError, match="closed"):
        list(journal.records())


def test_failed_append_poisons_the_journal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "log"
    journal = Journal.open(path)
    journal.append(b"kept")

    def no_space(*args: object) -> int:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "pwrite", no_space)
    with pytest.raises(JournalError, match="append failed"):
        journal.append(b"lost")
    monkeypatch.undo()
    with pytest.raises(JournalError, match="reopen"):
        journal.append(b"refused")
    journal.close()
    assert reopen(path)[0] == [b"kept"]


def test_appends_from_many_threads(tmp_path: Path) -> None:
    path = tmp_path / "log"
    with Journal.open(path) as journal:

        def writer(n: int) -> None:
            for i in range(20):
                journal.append(b"%d-%d" % (n, i))

        threads = [threading.Thread(target=writer, args=(n,)) for n in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    records, _ = reopen(path)
    assert sorted(records) == sorted(b"%d-%d" % (n, i) for n in range(4) for i in range(20))


def test_an_append_does_not_wait_for_a_background_sync(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A node syncs its commits on a worker thread while the event loop appends the next ones:
    the append must not queue behind the disk. `close` waits for the sync (its file stays open)."""
    import p2p_durak.node.journal as journal_module

    path = tmp_path / "log"
    journal = Journal.open(path)
    journal.append(b"before", sync=False)
    in_sync, release, release2 = threading.Event(), threading.Event(), threading.Event()
    real_sync = journal_module._sync

    def slow_sync(fd: int) -> None:
        in_sync.set()
        assert release.wait(10)
        assert release2.wait(10)
        real_sync(fd)

    monkeypatch.setattr(journal_module, "_sync", slow_sync)
    syncer = threading.Thread(target=journal.sync)
    syncer.start()
    assert in_sync.wait(10)
    appender = threading.Thread(target=lambda: journal.append(b"during", sync=False))
    appender.start()
    appender.join(5)
    appended = not appender.is_alive()
    release.set()
    if not appended:  # let both finish before failing
        release2.set()
        appender.join(10)
    assert appended, "the append waited for the sync"
    closer = threading.Thread(target=journal.close)
    closer.start()
    closer.join(0.05)
    assert closer.is_alive()  # waits for the sync in flight
    release2.set()
    syncer.join(10)
    closer.join(10)
    assert not syncer.is_alive()
    assert not closer.is_alive()
    monkeypatch.undo()
    assert reopen(path)[0] == [b"before", b"during"]


def test_a_failed_sync_poisons_the_journal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import p2p_durak.node.journal as journal_module

    path = tmp_path / "log"
    journal = Journal.open(path)
    journal.append(b"kept", sync=False)

    def failing_sync(fd: int) -> None:
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(journal_module, "_sync", failing_sync)
    with pytest.raises(JournalError, match="sync failed"):
        journal.sync()
    monkeypatch.undo()
    with pytest.raises(JournalError, match="reopen"):
        journal.append(b"refused")
    journal.close()


# A crash simulation: the bytes of a journal cut at any point, with garbage or zeros after the
# cut, always reopen as a prefix of what was appended, and keep every record that was complete.
@settings(
    derandomize=True, max_examples=150, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    records=st.lists(st.binary(max_size=300), max_size=8),
    cut_fraction=st.floats(0, 1),
    tail=st.one_of(
        st.just(b""),
        st.binary(max_size=64).map(lambda junk: bytes(len(junk))),
        st.binary(min_size=1, max_size=64),
    ),
)
def test_crash_at_any_byte_keeps_a_prefix(
    tmp_path_factory: pytest.TempPathFactory,
    records: list[bytes],
    cut_fraction: float,
    tail: bytes,
) -> None:
    path = tmp_path_factory.mktemp("crash") / "log"
    data = MAGIC + b"".join(encode_record(record) for record in records)  # as append writes it
    cut = len(MAGIC) + round((len(data) - len(MAGIC)) * cut_fraction)
    path.write_bytes(data[:cut] + tail)
    complete = 0
    offset = len(MAGIC)
    for record in records:
        offset += HEADER.size + len(record)
        if offset <= cut:
            complete += 1
    found, _ = reopen(path)  # never JournalCorrupt: nothing valid follows a torn record
    assert found[:complete] == records[:complete]
    assert len(found) <= complete + 1
    if len(found) == complete + 1:  # junk that happens to parse is impossible here
        assert found[complete] == records[complete]


def test_atomic_write_replaces_and_is_private(tmp_path: Path) -> None:
    path = tmp_path / "secret"
    atomic_write(path, b"one")
    atomic_write(path, b"two")
    assert read_file(path) == b"two"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert sorted(p.name for p in tmp_path.iterdir()) == ["secret"]


def test_atomic_write_failure_keeps_the_old_content(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "snapshot"
    atomic_write(path, b"old")

    def broken_replace(*args: object) -> None:
        raise OSError(5, "I/O error")

    monkeypatch.setattr(os, "replace", broken_replace)
    with pytest.raises(OSError, match="I/O error"):
        atomic_write(path, b"new")
    monkeypatch.undo()
    assert read_file(path) == b"old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["snapshot"]


async def test_async_wrappers(tmp_path: Path) -> None:
    path = tmp_path / "log"
    async with await AsyncJournal.open(path) as journal:
        await journal.append(b"x")
        await journal.append(b"y")
        assert len(journal) == 2
        assert await journal.records() == [b"x", b"y"]
    await atomic_write_async(tmp_path / "small", b"data")
    assert await read_file_async(tmp_path / "small") == b"data"


async def test_a_started_append_completes_even_if_cancelled(tmp_path: Path) -> None:
    path = tmp_path / "log"
    journal = await AsyncJournal.open(path)
    with trio.CancelScope() as scope:
        scope.cancel()
        await journal.append(b"durable")
    assert scope.cancelled_caught
    await journal.aclose()
    assert reopen(path)[0] in ([], [b"durable"])


# ---- power cuts with unsynced appends ---------------------------------------------------------
# `append(sync=False)` leaves a record in the page cache: a power cut may then lose it, or write
# some of the file's blocks and not others (the size may be updated while a block before the end
# is still a hole of zeros). Only what a sync made durable is sure to be there.

BLOCK = 64  # a small "disk block" so that short records span several blocks


def written_with_unsynced_tail(path: Path, synced: list[bytes], unsynced: list[bytes]) -> list[int]:
    """A journal of `synced` records (each synced), then `unsynced` ones (sync=False), left as a
    killed process leaves it (not closed). Returns where each unsynced record starts (the size
    that is sure to be durable first) and the file's end."""
    journal = Journal.open(path)
    for record in synced:
        journal.append(record)
    starts = [journal.size]
    for record in unsynced:
        journal.append(record, sync=False)
        starts.append(journal.size)
    os.close(journal._fd)  # no close(): the process died
    return starts


SYNCED = [b"seed", b"made %d" % 1, bytes(range(200))]
UNSYNCED = [b"commit %d " % i + bytes(range(1, 91)) for i in range(8)]


def test_a_hole_in_the_unsynced_tail_before_later_records_is_a_power_cut(tmp_path: Path) -> None:
    """The block holding an unsynced record stayed zeros while a later block was written: the
    records from the hole on are lost (they were never durable), the rest is kept."""
    path = tmp_path / "log"
    starts = written_with_unsynced_tail(path, SYNCED, UNSYNCED)
    data = bytearray(path.read_bytes())
    third = starts[2]
    hole = (third // BLOCK + 1) * BLOCK  # a block inside the third unsynced record
    data[hole : hole + BLOCK] = bytes(BLOCK)
    path.write_bytes(bytes(data))
    records, recovered = reopen(path)
    assert records == [*SYNCED, *UNSYNCED[:2]]
    assert recovered == len(data) - third
    assert path.stat().st_size == third


def test_a_torn_unsynced_record_followed_by_zeros_is_cut(tmp_path: Path) -> None:
    path = tmp_path / "log"
    starts = written_with_unsynced_tail(path, SYNCED, UNSYNCED)
    data = bytearray(path.read_bytes())
    second = starts[1]
    data[second + 20 :] = bytes(len(data) - second - 20)  # half of it written, then zeros
    path.write_bytes(bytes(data))
    assert reopen(path) == ([*SYNCED, UNSYNCED[0]], len(data) - second)


def test_the_unsynced_tail_may_be_lost_whole(tmp_path: Path) -> None:
    path = tmp_path / "log"
    durable = written_with_unsynced_tail(path, SYNCED, UNSYNCED)[0]
    data = path.read_bytes()
    path.write_bytes(data[:durable] + bytes(len(data) - durable))  # size kept, data not
    assert reopen(path) == (SYNCED, len(data) - durable)
    path.write_bytes(data[:durable])  # size not kept either
    assert reopen(path) == (SYNCED, 0)


def test_damage_in_what_a_sync_made_durable_is_refused_whatever_follows(tmp_path: Path) -> None:
    """A record the journal proved durable (a later sync covered it) cannot be torn by a power
    cut: damage there is refused, even when the unsynced tail after it is a mess of zeros."""
    path = tmp_path / "log"
    starts = written_with_unsynced_tail(path, SYNCED, UNSYNCED)
    data = bytearray(path.read_bytes())
    second = len(MAGIC) + len(encode_record(SYNCED[0]))
    data[second + HEADER.size] ^= 0x01  # a payload byte of synced record 2
    last = starts[-2]
    data[last:] = bytes(len(data) - last)  # and the last unsynced record lost
    path.write_bytes(bytes(data))
    with pytest.raises(JournalCorrupt, match="payload fails its checksum") as caught:
        Journal.open(path)
    assert caught.value.offset == second
    assert path.read_bytes() == bytes(data)


@settings(
    derandomize=True, max_examples=200, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    ops=st.lists(
        st.tuples(st.binary(min_size=1, max_size=150).map(lambda b: b.replace(b"\0", b"\1")),
                  st.sampled_from(["sync", "nosync", "nosync", "later"])),
        min_size=1,
        max_size=12,
    ),
    holes=st.lists(st.tuples(st.floats(0, 1), st.sampled_from(["zeros", "junk"])), max_size=3),
    keep_fraction=st.one_of(st.just(1.0), st.floats(0, 1)),
)
def test_a_power_cut_image_reopens_with_every_synced_record(
    tmp_path_factory: pytest.TempPathFactory,
    ops: list[tuple[bytes, str]],
    holes: list[tuple[float, str]],
    keep_fraction: float,
) -> None:
    """Appends with and without sync (and background syncs, "later"); then a power cut: the bytes
    up to the last completed sync are intact, some blocks after it stayed zeros or hold junk (the
    others were written), and the file may end anywhere after the durable part. The journal
    reopens without error, as a prefix of what was appended that keeps every record a sync
    covered."""
    path = tmp_path_factory.mktemp("cut") / "log"
    journal = Journal.open(path)
    durable, synced_records = journal.size, 0
    for index, (record, how) in enumerate(ops):
        journal.append(record, sync=how == "sync")
        if how in ("sync", "later"):
            if how == "later":
                journal.sync()
            durable, synced_records = journal.size, index + 1
    os.close(journal._fd)
    data = bytearray(path.read_bytes())
    for where, fate in holes:  # somewhere in the unsynced part
        block = (durable + round((len(data) - durable) * where)) // BLOCK
        start, end = max(block * BLOCK, durable), (block + 1) * BLOCK
        if fate == "zeros":
            data[start:end] = bytes(len(data[start:end]))
        elif fate == "junk":
            data[start:end] = bytes((7 * i + 13) & 0xFF for i in range(len(data[start:end])))
    cut = durable + round((len(data) - durable) * keep_fraction)
    path.write_bytes(bytes(data[:cut]))
    found, _ = reopen(path)
    appended = [record for record, _ in ops]
    assert found == appended[: len(found)]
    assert len(found) >= synced_records


def test_a_version_1_journal_has_no_marks_and_ends_at_its_first_bad_record(tmp_path: Path) -> None:
    """Version 1 journals were written with unsynced appends and no marks: nothing proves a
    record durable, so a bad one (a power cut's hole) ends the journal, whatever follows."""
    path = tmp_path / "log"
    records = [encode_record(r) for r in RECORDS]
    hole = bytes(len(records[1]))
    path.write_bytes(MAGIC_V1 + records[0] + hole + b"".join(records[2:]))
    assert reopen(path) == ([RECORDS[0]], len(hole) + sum(len(r) for r in records[2:]))
    with Journal.open(path) as journal:  # it stays a version 1 journal, without marks
        journal.append(b"after")
    assert path.read_bytes() == MAGIC_V1 + records[0] + encode_record(b"after")


def test_a_closed_journal_proves_every_record(tmp_path: Path) -> None:
    """`close` syncs and marks: damage to the last record of a cleanly closed journal is
    refused (without the mark it would look like a torn tail and be cut)."""
    path = tmp_path / "log"
    with Journal.open(path) as journal:
        for record in RECORDS:
            journal.append(record, sync=False)
    data = bytearray(path.read_bytes())
    assert data.endswith(encode_mark(len(data) - len(encode_mark(0))))
    data[-len(encode_mark(0)) - 1] ^= 0x01  # the last payload byte of the last record
    path.write_bytes(bytes(data))
    with pytest.raises(JournalCorrupt, match="payload fails its checksum"):
        Journal.open(path)
