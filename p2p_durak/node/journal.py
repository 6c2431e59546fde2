"""Durable on-disk storage for a node: an append-only record journal and atomic small files.

Journal file layout (all integers big-endian)::

    magic   8 bytes   b"P2PDJRN" + format version (2; version 1 files are read, see below)
    record  12-byte header + payload, repeated:
              u32 payload length; the top bit set marks a *sync mark* (below)
              u32 CRC-32 of the payload
              u32 CRC-32 of the 8 bytes above (the header checks itself)

``append`` writes a record with one positioned write; with ``sync=True`` (the default) it syncs
the file before returning, so the record survives a crash or power loss. With ``sync=False`` it
survives the process being killed (it is in the kernel's page cache) but not a power cut until
the next sync (``sync()``, or a synced append).

What a power cut leaves: everything a completed sync covered, intact; after it, any of the
unsynced bytes, block by block — a block written, or still a hole of zeros (the file size may
reach the disk before the data), or junk on some file systems — and the file may end anywhere
after the synced part. So a bad record is *not* proof of damage even when valid records follow
it: a later block may have reached the disk while an earlier one did not.

Sync marks tell the two apart. After a sync completes, the journal knows the file is durable up
to some offset; the next append writes a sync mark (a record whose payload is that offset,
u64, never returned by ``records``) in front of its record, and ``close`` writes one for the
whole file. A mark that is on disk proves that every byte before the offset it names was made
durable before the mark was written, so no power cut can have torn them. ``Journal.open``:

- cuts the file at the first bad record (partial, zero-filled, junk, or failing a checksum) and
  drops everything after it — unsynced records after a hole are lost: they were never
  durable, and later records are useless without the ones before them —
- unless a valid sync mark anywhere after the bad record names an offset beyond its start:
  then the bad record was durable, and the damage cannot come from a crash. That raises
  :class:`JournalCorrupt` and the file is left untouched.

What can be lost is therefore at most what no sync had covered; what is refused is damage a mark
proves was durable. Damage in records synced after the last mark on disk (at most the records
of one sync interval, or the last synced records before a crash) is indistinguishable from a
torn tail and is cut. Version 1 files (no marks; written when every append was thought to be
synced) are read the same way, with no marks: a bad record ends them.

The header carries its own checksum so a damaged length is recognised as damage, instead of
being believed and swallowing the records after it.

``atomic_write`` replaces a small file (snapshot, secrets) all-or-nothing: write a temporary file
in the same folder, sync it, rename it over the target, sync the folder. Files are mode 0600.

Everything here is blocking file I/O; :class:`AsyncJournal` and the ``*_async`` helpers run it
in trio worker threads.
"""

from __future__ import annotations

import contextlib
import logging
import os
import secrets
import struct
import sys
import threading
import zlib
from collections.abc import Iterator
from pathlib import Path
from types import TracebackType

from p2p_durak.node import offload
from p2p_durak.node.paths import fsync_dir

if sys.platform == "win32":
    import msvcrt
else:
    import fcntl

log = logging.getLogger(__name__)

MAGIC = b"P2PDJRN\x02"
MAGIC_V1 = b"P2PDJRN\x01"
HEADER = struct.Struct(">III")
MARK_FLAG = 0x8000_0000  # in the length word: this record is a sync mark
MARK = struct.Struct(">Q")  # a sync mark's payload: the offset the file was durable up to
MAX_RECORD_BYTES = 64 * 1024 * 1024
FILE_MODE = 0o600
_READ_CHUNK = 1 << 20

StrPath = str | os.PathLike[str]


class JournalError(Exception):
    """A journal cannot be opened or written."""


class JournalCorrupt(JournalError):
    """The journal is damaged in a way a crash cannot explain."""

    def __init__(self, path: StrPath, offset: int, reason: str) -> None:
        super().__init__(f"{os.fspath(path)}: damaged at byte {offset}: {reason}")
        self.path = Path(path)
        self.offset = offset
        self.reason = reason


class JournalLocked(JournalError):
    """Another process (or another Journal object) has this journal open."""


def _crc(data: bytes | memoryview) -> int:
    return zlib.crc32(data) & 0xFFFFFFFF


def encode_record(payload: bytes) -> bytes:
    """One record as it is stored: header + payload."""
    if len(payload) > MAX_RECORD_BYTES:
        raise ValueError(f"record of {len(payload)} bytes exceeds {MAX_RECORD_BYTES}")
    return _encode(len(payload), payload)


def encode_mark(durable: int) -> bytes:
    """A sync mark as it is stored: the file was durable up to byte `durable`."""
    return _encode(MARK.size | MARK_FLAG, MARK.pack(durable))


def _encode(length_word: int, payload: bytes) -> bytes:
    length_and_crc = struct.pack(">II", length_word, _crc(payload))
    return length_and_crc + struct.pack(">I", _crc(length_and_crc)) + payload


_MARK_HEAD = struct.pack(">I", MARK.size | MARK_FLAG)  # how every mark's header begins


OPEN_FLAGS: int = (getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NOINHERIT", 0)
                   | getattr(os, "O_BINARY", 0))
"""Added to every open: not inherited by child processes (O_CLOEXEC on POSIX, O_NOINHERIT on
Windows), and no newline translation (Windows opens files in text mode without O_BINARY)."""

_SEEK_LOCK = threading.Lock()
"""Windows has no pread/pwrite: a seek then a read or write stands in, one at a time in the
process, as a journal reads its records while another thread appends on the same descriptor."""

WINDOWS_LOCK_OFFSET = 2**31 - 2
"""Where a journal's writer locks one byte on Windows. Its locks are mandatory (a locked byte
cannot be read by anyone else), so the byte lies far past any journal's end, where no reader
looks; 2 GiB stays within the offsets of every C runtime's `_locking`."""


def _write_at(fd: int, data: memoryview, offset: int) -> int:
    if sys.platform == "win32":
        with _SEEK_LOCK:
            os.lseek(fd, offset, os.SEEK_SET)
            return os.write(fd, data)
    else:
        return os.pwrite(fd, data, offset)


def _read_at(fd: int, size: int, offset: int) -> bytes:
    if sys.platform == "win32":
        with _SEEK_LOCK:
            os.lseek(fd, offset, os.SEEK_SET)
            return os.read(fd, size)
    else:
        return os.pread(fd, size, offset)


def _sync(fd: int) -> None:
    if sys.platform == "darwin":  # pragma: no cover - macOS
        # fsync on macOS does not flush the drive's cache; F_FULLFSYNC does.
        fcntl.fcntl(fd, fcntl.F_FULLFSYNC)
    elif hasattr(os, "fdatasync"):
        os.fdatasync(fd)  # also persists the new file size, which is all appends change
    else:  # pragma: no cover
        os.fsync(fd)


def _pwrite_all(fd: int, data: bytes, offset: int) -> None:
    view = memoryview(data)
    while view:
        written = _write_at(fd, view, offset)
        view = view[written:]
        offset += written


def _pread_exact(fd: int, size: int, offset: int) -> bytes:
    chunks: list[bytes] = []
    while size > 0:
        chunk = _read_at(fd, min(size, _READ_CHUNK), offset)
        if not chunk:
            break
        chunks.append(chunk)
        size -= len(chunk)
        offset += len(chunk)
    return b"".join(chunks)


def _mark_after(fd: int, bad: int, end: int) -> int | None:
    """Where a valid sync mark that proves byte `bad` durable starts in (bad, end), if any (a
    mark names an offset at most its own start: one naming more is not ours)."""
    offset = bad + 1
    record = HEADER.size + MARK.size
    while offset + record <= end:
        chunk = _pread_exact(fd, min(_READ_CHUNK, end - offset), offset)
        if len(chunk) < record:
            return None
        index = chunk.find(_MARK_HEAD)
        while 0 <= index <= len(chunk) - record:
            header = chunk[index : index + HEADER.size]
            payload = chunk[index + HEADER.size : index + record]
            _, payload_crc, header_crc = HEADER.unpack(header)
            durable = MARK.unpack(payload)[0]
            if (_crc(header[:8]) == header_crc and _crc(payload) == payload_crc
                    and bad < durable <= offset + index):
                return offset + index
            index = chunk.find(_MARK_HEAD, index + 1)
        offset += len(chunk) - record + 1
    return None


class _Damage(Exception):
    def __init__(self, offset: int, reason: str, *, torn: bool | None = None) -> None:
        super().__init__(reason)
        self.offset = offset
        self.reason = reason
        self.torn = torn  # None: depends on what follows


def _scan(fd: int, start: int, end: int, *, marks: bool) -> Iterator[tuple[int, bool, bytes]]:
    """Yield (offset, is a sync mark, payload) for each whole record in [start, end); raise
    _Damage at the first bad one, saying whether it looks like a torn tail."""
    offset = start
    while offset < end:
        header = _pread_exact(fd, HEADER.size, offset)
        if len(header) < HEADER.size or offset + HEADER.size > end:
            raise _Damage(offset, "incomplete record header", torn=True)
        length, payload_crc, header_crc = HEADER.unpack(header)
        if _crc(header[:8]) != header_crc:
            raise _Damage(offset, "record header fails its checksum")
        mark = marks and length & MARK_FLAG != 0
        if mark:
            length &= ~MARK_FLAG
            if length != MARK.size:
                raise _Damage(offset, f"a sync mark of {length} bytes")
        if length > MAX_RECORD_BYTES:
            raise _Damage(offset, f"record length {length} exceeds the limit")
        record_end = offset + HEADER.size + length
        if record_end > end:
            # A valid header is one we wrote: the payload after it was cut short.
            raise _Damage(offset, "incomplete record payload", torn=True)
        payload = _pread_exact(fd, length, offset + HEADER.size)
        if len(payload) != length:
            raise _Damage(offset, "file shrank while reading", torn=False)
        if _crc(payload) != payload_crc:
            raise _Damage(offset, "record payload fails its checksum")
        if mark and MARK.unpack(payload)[0] > offset:
            raise _Damage(offset, "a sync mark names bytes after itself")
        yield offset, mark, payload
        offset = record_end


class Journal:
    """An append-only file of byte records. One writer at a time (enforced with a lock file
    lock where the platform has ``fcntl``). Methods are thread-safe."""

    def __init__(self, path: Path, fd: int, end: int, count: int, recovered: int, *,
                 marks: bool = True, durable: int = 0) -> None:
        self._path = path
        self._fd = fd
        self._end = end
        self._count = count
        self._marks = marks  # a version 1 file gets no sync marks (its readers would refuse them)
        self._durable = durable  # the file is known to be durable up to here
        self._marked = durable  # ... and a mark on the disk (or written) says so up to here
        self._appended = False
        self._lock = threading.Lock()
        # Held by `sync` while it waits for the disk, and by `close`: appends take only `_lock`,
        # so a background sync never holds up an append (on a node: a commit on the event loop).
        self._sync_lock = threading.Lock()
        self._closed = False
        self._failed: BaseException | None = None
        self.recovered_bytes = recovered
        """How many bytes of torn tail ``open`` cut off (0 after a clean shutdown)."""

    @classmethod
    def open(cls, path: StrPath, *, create: bool = True) -> Journal:
        """Open (creating it if ``create``) the journal at ``path``, repairing a torn tail.

        The parent folder must exist. Raises :class:`JournalCorrupt`, :class:`JournalLocked`,
        ``FileNotFoundError`` (``create=False``) or another ``OSError``.
        """
        target = Path(path)
        created = False
        if create:
            try:
                fd = os.open(target, os.O_RDWR | os.O_CREAT | os.O_EXCL | OPEN_FLAGS, FILE_MODE)
                created = True
            except FileExistsError:
                fd = os.open(target, os.O_RDWR | OPEN_FLAGS)
        else:
            fd = os.open(target, os.O_RDWR | OPEN_FLAGS)
        try:
            _lock_file(fd, target)
            if created:
                _pwrite_all(fd, MAGIC, 0)
                _sync(fd)
                fsync_dir(target.parent)
            return cls._recover(target, fd)
        except BaseException:
            _close_locked(fd)
            raise

    @classmethod
    def _recover(cls, path: Path, fd: int) -> Journal:
        size = os.fstat(fd).st_size
        magic = _pread_exact(fd, len(MAGIC), 0)
        if magic not in (MAGIC, MAGIC_V1):
            if MAGIC.startswith(magic) and size == len(magic):
                # Crashed while being created: finish creating it.
                _pwrite_all(fd, MAGIC, 0)
                _sync(fd)
                return cls(path, fd, len(MAGIC), 0, 0)
            raise JournalCorrupt(path, 0, "not a p2p-durak journal (bad magic)")
        marks = magic == MAGIC
        end = len(MAGIC)
        count = 0
        proven = 0  # the greatest offset a sync mark read so far names
        try:
            for offset, mark, payload in _scan(fd, len(MAGIC), size, marks=marks):
                end = offset + HEADER.size + len(payload)
                if mark:
                    proven = max(proven, MARK.unpack(payload)[0])
                else:
                    count += 1
        except _Damage as damage:
            torn = damage.torn
            if torn is None:  # only a mark after it can prove it was durable (see above)
                torn = not marks or _mark_after(fd, damage.offset, size) is None
            if not torn:
                raise JournalCorrupt(path, damage.offset, damage.reason) from None
            log.warning(
                "%s: cutting %d bytes of unsynced tail at byte %d (%s)",
                path,
                size - damage.offset,
                damage.offset,
                damage.reason,
            )
            os.ftruncate(fd, damage.offset)
            _sync(fd)  # now all of it is durable: the next append marks it
            return cls(path, fd, damage.offset, count, size - damage.offset, marks=marks,
                       durable=damage.offset)
        return cls(path, fd, end, count, 0, marks=marks, durable=proven)

    @property
    def path(self) -> Path:
        return self._path

    def __len__(self) -> int:
        return self._count

    @property
    def size(self) -> int:
        """Bytes in the file, magic included."""
        return self._end

    @property
    def durable_size(self) -> int:
        """The bytes a completed sync made durable (what a power cut now would leave; at least
        what a sync mark proved when the file was opened)."""
        return self._durable

    def append(self, record: bytes, *, sync: bool = True) -> None:
        """Add one record and make it durable before returning.

        With ``sync=False`` the record is written (it survives the process being killed: it is
        in the kernel's page cache) but made durable against a power cut only by the next
        synced append or `sync()` — for records that can be recovered otherwise, on hot paths.
        If the write or the sync fails the journal refuses further appends (the file's state
        is then unknown until it is reopened, which repairs a torn tail).
        """
        blob = encode_record(bytes(record))
        with self._lock:
            self._check_writable()
            mark = self._mark_due()  # in the same write: a mark costs no I/O of its own
            try:
                _pwrite_all(self._fd, mark + blob, self._end)
                if sync:
                    _sync(self._fd)
            except OSError as exc:
                self._failed = exc
                raise JournalError(f"{self._path}: append failed: {exc}") from exc
            self._end += len(mark) + len(blob)
            self._count += 1
            self._appended = True
            if sync:
                self._durable = self._end

    def _mark_due(self) -> bytes:
        """A sync mark for what became durable since the last one (b"": none due). Call with
        `_lock` held, then write it."""
        if not self._marks or self._durable <= self._marked:
            return b""
        self._marked = self._durable
        return encode_mark(self._durable)

    def sync(self) -> None:
        """Make every record written before the call durable. Appends may go on meanwhile
        (they are written, and made durable by the next sync)."""
        with self._sync_lock:
            with self._lock:
                self._check_writable()
                end = self._end
            try:
                _sync(self._fd)  # the file stays open: `close` waits for `_sync_lock`
            except OSError as exc:
                with self._lock:
                    self._failed = exc
                raise JournalError(f"{self._path}: sync failed: {exc}") from exc
            with self._lock:
                self._durable = max(self._durable, end)

    def records(self) -> Iterator[bytes]:
        """The records in order, read back from disk (checksums verified again)."""
        with self._lock:
            self._check_open()
            end = self._end
        try:
            for _, mark, payload in _scan(self._fd, len(MAGIC), end, marks=self._marks):
                if not mark:
                    yield payload
        except _Damage as damage:
            raise JournalCorrupt(self._path, damage.offset, damage.reason) from None

    def close(self) -> None:
        """Close the file. After appends, first make everything durable and say so with a sync
        mark, so that damage anywhere in a cleanly closed journal is refused on open."""
        with self._sync_lock, self._lock:
            if self._closed:
                return
            try:
                if self._appended and self._marks and self._failed is None:
                    with contextlib.suppress(OSError):  # then the tail stays unproven
                        _sync(self._fd)
                        self._durable = self._end
                        mark = self._mark_due()
                        _pwrite_all(self._fd, mark, self._end)
                        _sync(self._fd)
                        self._end += len(mark)
            finally:
                self._closed = True
                _close_locked(self._fd)

    def __enter__(self) -> Journal:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def _check_open(self) -> None:
        if self._closed:
            raise JournalError(f"{self._path}: journal is closed")

    def _check_writable(self) -> None:
        self._check_open()
        if self._failed is not None:
            raise JournalError(
                f"{self._path}: an earlier append failed ({self._failed}); reopen the journal"
            )


def first_record(path: StrPath) -> bytes | None:
    """The first record of a journal, read without opening it for writing (no lock, no
    repair: its writer may be running); None when the file holds no whole first record."""
    fd = os.open(path, os.O_RDONLY | OPEN_FLAGS)
    try:
        magic = _pread_exact(fd, len(MAGIC), 0)
        if magic not in (MAGIC, MAGIC_V1):
            return None
        size = os.fstat(fd).st_size
        with contextlib.suppress(_Damage):
            for _, mark, payload in _scan(fd, len(MAGIC), size, marks=magic == MAGIC):
                if not mark:
                    return payload
        return None
    finally:
        os.close(fd)


def _lock_file(fd: int, path: Path) -> None:
    """One writer at a time: an exclusive lock, released when the descriptor is closed (by
    the process's end too)."""
    try:
        if sys.platform == "win32":  # pragma: no cover - Windows
            with _SEEK_LOCK:
                os.lseek(fd, WINDOWS_LOCK_OFFSET, os.SEEK_SET)
                msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        else:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except (BlockingIOError, PermissionError):  # Windows says EACCES
        raise JournalLocked(f"{path} is already open for writing") from None


def _close_locked(fd: int) -> None:
    """Close a journal's descriptor and so release its lock (Windows asks that a locked
    region be unlocked before the file is closed)."""
    if sys.platform == "win32":  # pragma: no cover - Windows
        with _SEEK_LOCK, contextlib.suppress(OSError):
            os.lseek(fd, WINDOWS_LOCK_OFFSET, os.SEEK_SET)
            msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)
    os.close(fd)


# --- small files -------------------------------------------------------------------------------


def atomic_write(path: StrPath, data: bytes, *, mode: int = FILE_MODE) -> None:
    """Replace the file at ``path`` with ``data`` all-or-nothing and durably (mode 0600).

    After a crash the file holds either its old content or ``data``, never a mix; a stray
    temporary file (``.<name>.<random>.tmp``) may be left next to it.
    """
    target = Path(path)
    temporary = target.with_name(f".{target.name}.{secrets.token_hex(6)}.tmp")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | OPEN_FLAGS, mode)
    try:
        try:
            if sys.platform != "win32":
                os.fchmod(fd, mode)  # the umask may have removed bits we asked for
            _pwrite_all(fd, bytes(data), 0)
            _sync(fd)
        finally:
            os.close(fd)
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    fsync_dir(target.parent)


def read_file(path: StrPath) -> bytes:
    """The whole content of a small file (``FileNotFoundError`` if there is none)."""
    return Path(path).read_bytes()


async def atomic_write_async(path: StrPath, data: bytes, *, mode: int = FILE_MODE) -> None:
    """:func:`atomic_write` in a worker thread; once started it completes even if cancelled."""
    await offload.run_sync(lambda: atomic_write(path, data, mode=mode))


async def read_file_async(path: StrPath) -> bytes:
    return await offload.run_sync(lambda: read_file(path))


class AsyncJournal:
    """A :class:`Journal` for trio code: each call runs in a worker thread.

    An ``append`` that has started completes (and is durable) even if the caller is cancelled;
    the cancellation is delivered afterwards.
    """

    def __init__(self, journal: Journal) -> None:
        self.journal = journal

    @classmethod
    async def open(cls, path: StrPath, *, create: bool = True) -> AsyncJournal:
        journal = await offload.run_sync(lambda: Journal.open(path, create=create))
        return cls(journal)

    def __len__(self) -> int:
        return len(self.journal)

    async def append(self, record: bytes) -> None:
        await offload.run_sync(lambda: self.journal.append(record))

    async def records(self) -> list[bytes]:
        return await offload.run_sync(lambda: list(self.journal.records()))

    async def aclose(self) -> None:
        await offload.run_sync(self.journal.close)

    async def __aenter__(self) -> AsyncJournal:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()
