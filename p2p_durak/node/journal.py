"""Durable on-disk storage for a node: an append-only record journal and atomic small files.

Journal file layout (all integers big-endian)::

    magic   8 bytes   b"P2PDJRN" + format version (1)
    record  12-byte header + payload, repeated:
              u32 payload length
              u32 CRC-32 of the payload
              u32 CRC-32 of the 8 bytes above (the header checks itself)

``append`` writes a record with one positioned write and syncs it to disk before returning, so a
record that ``append`` returned for survives a crash or power loss. A crash *during* an append
leaves a torn tail: part of the record, possibly followed by zeros or junk where the file system
extended the file without writing the data. ``Journal.open`` detects it and truncates the file
back to the last whole record, so a torn record is never returned.

Damage is told apart from a torn tail by what follows it: since every append is synced before
the next one starts, a crash can only tear the *last* record. So a bad record followed by a valid
record anywhere later in the file is damage, not a crash: it raises :class:`JournalCorrupt` and
the file is left untouched. (The search for a later valid record stops at the first one found;
with records back to back that is at most one record away.)

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

if sys.platform != "win32":
    import fcntl

log = logging.getLogger(__name__)

MAGIC = b"P2PDJRN\x01"
HEADER = struct.Struct(">III")
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
    length_and_crc = struct.pack(">II", len(payload), _crc(payload))
    return length_and_crc + struct.pack(">I", _crc(length_and_crc)) + payload


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
        written = os.pwrite(fd, view, offset)
        view = view[written:]
        offset += written


def _pread_exact(fd: int, size: int, offset: int) -> bytes:
    chunks: list[bytes] = []
    while size > 0:
        chunk = os.pread(fd, min(size, _READ_CHUNK), offset)
        if not chunk:
            break
        chunks.append(chunk)
        size -= len(chunk)
        offset += len(chunk)
    return b"".join(chunks)


_MAX_LENGTH_FIRST_BYTE = MAX_RECORD_BYTES.to_bytes(4, "big")[0]


def _record_at(fd: int, chunk: bytes, index: int, position: int, end: int) -> bool:
    """Whether a whole, checksum-valid record starts at ``chunk[index]`` (file ``position``)."""
    header = chunk[index : index + HEADER.size]
    fields: tuple[int, int, int] = HEADER.unpack(header)
    length, payload_crc, header_crc = fields
    if _crc(header[:8]) != header_crc or length > MAX_RECORD_BYTES:
        return False
    if position + HEADER.size + length > end:
        return False
    start = index + HEADER.size
    payload = chunk[start : start + length]
    if len(payload) < length:
        payload = _pread_exact(fd, length, position + HEADER.size)
    return _crc(payload) == payload_crc


def _valid_record_after(fd: int, bad: int, end: int) -> bool:
    """Whether a whole, valid record starts anywhere in (bad, end)."""
    offset = bad + 1
    while offset + HEADER.size <= end:
        chunk = _pread_exact(fd, min(_READ_CHUNK, end - offset), offset)
        last = len(chunk) - HEADER.size
        if last < 0:
            return False
        for index in range(last + 1):
            # A length byte above the limit's top byte cannot start a record: skip cheaply.
            if chunk[index] <= _MAX_LENGTH_FIRST_BYTE and _record_at(
                fd, chunk, index, offset + index, end
            ):
                return True
        offset += last + 1
    return False


class _Damage(Exception):
    def __init__(self, offset: int, reason: str, *, torn: bool | None = None) -> None:
        super().__init__(reason)
        self.offset = offset
        self.reason = reason
        self.torn = torn  # None: depends on what follows


def _scan(fd: int, start: int, end: int) -> Iterator[tuple[int, bytes]]:
    """Yield (offset, payload) for each whole record in [start, end); raise _Damage at the
    first bad one, saying whether it looks like a torn tail."""
    offset = start
    while offset < end:
        header = _pread_exact(fd, HEADER.size, offset)
        if len(header) < HEADER.size or offset + HEADER.size > end:
            raise _Damage(offset, "incomplete record header", torn=True)
        length, payload_crc, header_crc = HEADER.unpack(header)
        if _crc(header[:8]) != header_crc:
            raise _Damage(offset, "record header fails its checksum")
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
        yield offset, payload
        offset = record_end


class Journal:
    """An append-only file of byte records. One writer at a time (enforced with a lock file
    lock where the platform has ``fcntl``). Methods are thread-safe."""

    def __init__(self, path: Path, fd: int, end: int, count: int, recovered: int) -> None:
        self._path = path
        self._fd = fd
        self._end = end
        self._count = count
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
                fd = os.open(target, os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, FILE_MODE)
                created = True
            except FileExistsError:
                fd = os.open(target, os.O_RDWR | os.O_CLOEXEC)
        else:
            fd = os.open(target, os.O_RDWR | os.O_CLOEXEC)
        try:
            _lock_file(fd, target)
            if created:
                _pwrite_all(fd, MAGIC, 0)
                _sync(fd)
                fsync_dir(target.parent)
            return cls._recover(target, fd)
        except BaseException:
            os.close(fd)
            raise

    @classmethod
    def _recover(cls, path: Path, fd: int) -> Journal:
        size = os.fstat(fd).st_size
        magic = _pread_exact(fd, len(MAGIC), 0)
        if magic != MAGIC:
            if MAGIC.startswith(magic) and size == len(magic):
                # Crashed while being created: finish creating it.
                _pwrite_all(fd, MAGIC, 0)
                _sync(fd)
                return cls(path, fd, len(MAGIC), 0, 0)
            raise JournalCorrupt(path, 0, "not a p2p-durak journal (bad magic)")
        end = len(MAGIC)
        count = 0
        try:
            for offset, payload in _scan(fd, len(MAGIC), size):
                end = offset + HEADER.size + len(payload)
                count += 1
        except _Damage as damage:
            torn = damage.torn
            if torn is None:
                torn = not _valid_record_after(fd, damage.offset, size)
            if not torn:
                raise JournalCorrupt(path, damage.offset, damage.reason) from None
            log.warning(
                "%s: cutting %d bytes of torn tail at byte %d (%s)",
                path,
                size - damage.offset,
                damage.offset,
                damage.reason,
            )
            os.ftruncate(fd, damage.offset)
            _sync(fd)
            return cls(path, fd, damage.offset, count, size - damage.offset)
        return cls(path, fd, end, count, 0)

    @property
    def path(self) -> Path:
        return self._path

    def __len__(self) -> int:
        return self._count

    @property
    def size(self) -> int:
        """Bytes in the file, magic included."""
        return self._end

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
            try:
                _pwrite_all(self._fd, blob, self._end)
                if sync:
                    _sync(self._fd)
            except OSError as exc:
                self._failed = exc
                raise JournalError(f"{self._path}: append failed: {exc}") from exc
            self._end += len(blob)
            self._count += 1

    def sync(self) -> None:
        """Make every record written before the call durable. Appends may go on meanwhile
        (they are written, and made durable by the next sync)."""
        with self._sync_lock:
            with self._lock:
                self._check_writable()
            try:
                _sync(self._fd)  # the file stays open: `close` waits for `_sync_lock`
            except OSError as exc:
                with self._lock:
                    self._failed = exc
                raise JournalError(f"{self._path}: sync failed: {exc}") from exc

    def records(self) -> Iterator[bytes]:
        """The records in order, read back from disk (checksums verified again)."""
        with self._lock:
            self._check_open()
            end = self._end
        try:
            for _, payload in _scan(self._fd, len(MAGIC), end):
                yield payload
        except _Damage as damage:
            raise JournalCorrupt(self._path, damage.offset, damage.reason) from None

    def close(self) -> None:
        with self._sync_lock, self._lock:
            if self._closed:
                return
            self._closed = True
            os.close(self._fd)  # also releases the lock

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


def _lock_file(fd: int, path: Path) -> None:
    if sys.platform == "win32":  # pragma: no cover - no advisory locks there
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        raise JournalLocked(f"{path} is already open for writing") from None


# --- small files -------------------------------------------------------------------------------


def atomic_write(path: StrPath, data: bytes, *, mode: int = FILE_MODE) -> None:
    """Replace the file at ``path`` with ``data`` all-or-nothing and durably (mode 0600).

    After a crash the file holds either its old content or ``data``, never a mix; a stray
    temporary file (``.<name>.<random>.tmp``) may be left next to it.
    """
    target = Path(path)
    temporary = target.with_name(f".{target.name}.{secrets.token_hex(6)}.tmp")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, mode)
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
