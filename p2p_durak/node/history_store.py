"""The history of the evening: every finished game, in a small SQLite database.

`history.sqlite3` in the data folder indexes the games' own files — the transcripts of
networked games (`games/<id>/transcript.durak`, which `durak audit` checks) and the record
files of practice games (`practice/<table>-<game>.json`) — and is never the only copy of
anything: a game's file is written first (atomically), then its rows, in one transaction with
the file's size and time (`sources`). So:

- a killed process leaves the database as it was after its last whole transaction, and so
  does a power cut (WAL mode), which may also undo the last transactions: `synchronous=NORMAL`
  does not sync the database on every commit, since the durability is the game files' (each
  synced by `atomic_write`) and what a power cut undoes is indexed again from them;
- a database that is lost, or that SQLite finds damaged (it is then moved aside as
  `history.sqlite3.damaged-<time>`), is made again from the files (`catch_up`), and so is
  any game whose rows a crash kept from the database: `catch_up` indexes every file whose
  size or time differs from what `sources` holds;
- a file that is half-written (a temp file a crash left, never renamed) or is no game is
  skipped and named in `CatchUp.skipped`; a transcript that fails its audit too.

A networked transcript is audited again before its games are indexed (a second or two per
game in pure Python), so rebuilding a long history takes a while; the running game records
its games from its own table as they end, with nothing to re-check.
"""

from __future__ import annotations

import contextlib
import logging
import os
import sqlite3
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from p2p_durak.engine import RuleError, RuleSet
from p2p_durak.node.history import (
    PRACTICE_DIR,
    UNKNOWN_LEVEL,
    GameRecord,
    PlayerRecord,
    RecordError,
    decode_practice,
    encode_practice,
    practice_path,
    records_of_table,
)
from p2p_durak.node.journal import atomic_write, first_record
from p2p_durak.node.paths import ensure_private_dir
from p2p_durak.node.scoreboard import TONIGHT_HOURS, Scoreboard, scoreboard
from p2p_durak.node.store import TRANSCRIPT_FILE as TRANSCRIPT
from p2p_durak.protocol import codec
from p2p_durak.protocol.errors import ProtocolError
from p2p_durak.protocol.identity import Identity
from p2p_durak.protocol.messages import PlayerInfo

log = logging.getLogger(__name__)

DB_NAME = "history.sqlite3"
SCHEMA_VERSION = 2  # 2: `refused` (every table is CREATE IF NOT EXISTS: 1 becomes 2)
BUSY_SECONDS = 10.0  # another process (a bot host, the lobby) may be writing a game

_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    table_id TEXT NOT NULL,
    number INTEGER NOT NULL,           -- the game's number in its table's series
    kind TEXT NOT NULL,                -- network | practice
    finished_at REAL NOT NULL,         -- Unix time
    table_name TEXT NOT NULL,
    variant TEXT NOT NULL,             -- preset id (the nearest, when variant_changed)
    variant_changed INTEGER NOT NULL,
    draw INTEGER NOT NULL,
    transcript TEXT NOT NULL,          -- the game's file, relative to the data folder
    PRIMARY KEY (table_id, number)
);
CREATE INDEX IF NOT EXISTS games_by_time ON games (finished_at);
CREATE TABLE IF NOT EXISTS seats (
    table_id TEXT NOT NULL,
    number INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    name TEXT NOT NULL,
    fingerprint TEXT NOT NULL,         -- networked players; '' for practice seats
    bot TEXT NOT NULL,                 -- '' a person, else the level, 'bot' or 'dummy'
    me INTEGER NOT NULL,               -- this installation's player
    durak INTEGER NOT NULL,            -- the durak of this game
    series_duraks INTEGER NOT NULL,    -- how often the durak over the series so far
    PRIMARY KEY (table_id, number, seat),
    FOREIGN KEY (table_id, number) REFERENCES games (table_id, number)
);
CREATE TABLE IF NOT EXISTS sources (
    path TEXT PRIMARY KEY,             -- relative to the data folder
    size INTEGER NOT NULL,
    mtime_ns INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS refused (   -- files that could not be indexed (schema 2)
    path TEXT PRIMARY KEY,
    size INTEGER NOT NULL,
    mtime_ns INTEGER NOT NULL,
    reason TEXT NOT NULL
);
"""


@dataclass(frozen=True, slots=True)
class CatchUp:
    """What `catch_up` did: games newly indexed, and files it could not read (with why)."""

    indexed: int = 0
    skipped: tuple[tuple[str, str], ...] = ()
    rebuilt: bool = False  # the database was made anew (lost or damaged)


class HistoryStore:
    """One connection to the data folder's history (open, use, close; cheap to open)."""

    def __init__(self, home: Path, connection: sqlite3.Connection, fresh: bool) -> None:
        self.home = home
        self._db = connection
        self.fresh = fresh  # made anew by this open: everything must be indexed again

    @classmethod
    def open(cls, home: Path) -> HistoryStore:
        ensure_private_dir(home)
        path = home / DB_NAME
        fresh = not path.exists()
        try:
            db = _connect(path)
        except sqlite3.OperationalError:
            raise  # locked by a writer for too long, no permission: not damage
        except sqlite3.DatabaseError as exc:
            _move_aside(path, exc)
            db, fresh = _connect(path), True
        return cls(home, db, fresh)

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> HistoryStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ---- writing --------------------------------------------------------------------------

    def add(self, records: Sequence[GameRecord], source: Path | None = None) -> int:
        """Index `records` (a game already there stays as it is) and, in the same
        transaction, the file they came from; returns how many games were new."""
        new = 0
        with self._db:  # one transaction: all of it or (killed meanwhile) none of it
            for r in records:
                cursor = self._db.execute(
                    "INSERT OR IGNORE INTO games VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (r.table_id, r.number, r.kind, r.finished_at, r.table, r.variant,
                     int(r.variant_changed), int(r.draw), r.transcript))
                if cursor.rowcount == 0:
                    continue
                new += 1
                self._db.executemany(
                    "INSERT INTO seats VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    [(r.table_id, r.number, seat, p.name, p.fingerprint, p.bot, int(p.me),
                      int(seat in r.durak), r.series_duraks[seat])
                     for seat, p in enumerate(r.players)])
            if source is not None:
                stat = source.stat()
                rel = self._relative(source)
                self._db.execute("INSERT OR REPLACE INTO sources VALUES (?, ?, ?)",
                                 (rel, stat.st_size, stat.st_mtime_ns))
                self._db.execute("DELETE FROM refused WHERE path = ?", (rel,))
        return new

    def _relative(self, path: Path) -> str:
        return path.relative_to(self.home).as_posix()

    # ---- reading --------------------------------------------------------------------------

    def games(self, *, since: float | None = None, limit: int | None = None
              ) -> list[GameRecord]:
        """Finished games, the latest first (`since`: finished at or after this Unix time)."""
        rows = self._db.execute(
            "SELECT table_id, number, kind, finished_at, table_name, variant, variant_changed,"
            " draw, transcript FROM games WHERE finished_at >= ?"
            " ORDER BY finished_at DESC, table_id, number DESC LIMIT ?",
            (since if since is not None else float("-inf"), -1 if limit is None else limit)
        ).fetchall()
        out = []
        for (table_id, number, kind, when, table, variant, changed, draw, transcript) in rows:
            seats = self._db.execute(
                "SELECT name, fingerprint, bot, me, durak, series_duraks FROM seats"
                " WHERE table_id = ? AND number = ? ORDER BY seat", (table_id, number)
            ).fetchall()
            out.append(GameRecord(
                table_id, number, kind, when, table, variant, bool(changed),
                tuple(PlayerRecord(n, fp, bot, bool(me)) for n, fp, bot, me, _, _ in seats),
                tuple(i for i, s in enumerate(seats) if s[4]), bool(draw),
                tuple(s[5] for s in seats), transcript))
        return out

    # ---- rebuilding from the files ----------------------------------------------------------

    def catch_up(self) -> CatchUp:
        """Index every game file the database does not hold as it is on disk. A file that
        cannot be indexed is named each time, but read again only once it has changed (a
        transcript's audit costs seconds: the lobby catches up whenever it is shown)."""
        known = {p: (s, m) for p, s, m in
                 self._db.execute("SELECT path, size, mtime_ns FROM sources")}
        refused = {p: ((s, m), why) for p, s, m, why in
                   self._db.execute("SELECT path, size, mtime_ns, reason FROM refused")}
        indexed, skipped = 0, []
        for path in self._game_files():
            rel = self._relative(path)
            try:
                stat = path.stat()
            except OSError:
                continue  # gone meanwhile
            seen = (stat.st_size, stat.st_mtime_ns)
            if known.get(rel) == seen:
                continue
            if rel in refused and refused[rel][0] == seen:
                skipped.append((rel, refused[rel][1]))
                continue
            try:
                records = self._read(path)
            except (OSError, RecordError) as exc:
                skipped.append((rel, str(exc)))
                log.warning("history: %s is not indexed: %s", rel, exc)
                with self._db:
                    self._db.execute("INSERT OR REPLACE INTO refused VALUES (?, ?, ?, ?)",
                                     (rel, *seen, str(exc)))
                continue
            indexed += self.add(records, path)
        return CatchUp(indexed, tuple(skipped), self.fresh)

    def _game_files(self) -> Iterator[Path]:
        yield from sorted(self.home.glob(f"games/*/{TRANSCRIPT}"))
        yield from sorted(self.home.glob(f"{PRACTICE_DIR}/*.json"))

    def _read(self, path: Path) -> list[GameRecord]:
        if path.name == TRANSCRIPT:
            return transcript_records(self.home, path, path.stat().st_mtime)
        return [decode_practice(path.read_bytes())]


def evening(home: Path, now: float) -> Scoreboard:
    """Tonight's scoreboard: the games of the last `TONIGHT_HOURS` (after indexing what the
    database lacks)."""
    with HistoryStore.open(home) as store:
        store.catch_up()
        return scoreboard(store.games(since=now - TONIGHT_HOURS * 3600))


# ---- recording a game as it ends ------------------------------------------------------------

def record_practice(home: Path, record: GameRecord) -> None:
    """A practice game is over: its record file (atomically), then its rows."""
    index_practice(home, record, keep_practice(home, record))


def keep_practice(home: Path, record: GameRecord) -> Path:
    """A practice game's record file, written atomically and synced: from here on the game is
    in the history (its rows may follow later: any catch-up indexes the file)."""
    path = practice_path(home, record)
    ensure_private_dir(path.parent)
    atomic_write(path, encode_practice(record))
    return path


def index_practice(home: Path, record: GameRecord, path: Path) -> None:
    with HistoryStore.open(home) as store:
        store.add([record], path)


def record_network(home: Path, *, table_id: str, table_name: str, rules: RuleSet,
                   players: Sequence[PlayerInfo], history: Sequence[object],
                   transcript: Path) -> None:
    """A networked game is over and its transcript saved: index the series' finished games
    (the earlier ones are there already)."""
    bots, me = local_players(home)
    records = records_of_table(
        table_id=table_id, table_name=table_name, rules=rules, players=players,
        history=history,  # type: ignore[arg-type]
        finished_at=time.time(), transcript=transcript.relative_to(home).as_posix(),
        bots=bots, me=me)
    with HistoryStore.open(home) as store:
        store.add(records, transcript)


def local_players(home: Path) -> tuple[dict[str, str], str]:
    """The bots this installation hosts (fingerprint → level, unknown: the keys are named by
    number) and its player's fingerprint ("" before it has one)."""
    bots: dict[str, str] = {}
    me = ""
    for key in sorted((home / "identity").glob("*.key")):
        try:
            fingerprint = Identity.from_seed(key.read_bytes()).fingerprint
        except (OSError, ValueError):
            continue
        if key.stem == "node":
            me = fingerprint
        elif key.stem.startswith("bot-"):
            bots[fingerprint] = UNKNOWN_LEVEL
    return bots, me


def transcript_records(home: Path, path: Path, finished_at: float) -> list[GameRecord]:
    """The finished games of a saved transcript, once its log passed `durak audit`'s checks
    (every signature, hash link, proof and move); the table's name comes from the journal's
    first record (the transcript does not hold it)."""
    from p2p_durak.node.replay import audit_file  # (the table machine: only when rebuilding)

    rules_path = path.with_name("rules.durak")
    try:
        rules = RuleSet.from_canonical(rules_path.read_bytes()) if rules_path.exists() else None
    except (RuleError, ValueError, ProtocolError) as exc:
        raise RecordError(f"its rules.durak is damaged: {exc}") from exc
    verdict = audit_file(path.read_bytes(), rules)
    if verdict.table is None:  # (a liar the deck audit caught is no fault of the file: the
        # log verified, and the table's forfeit is the result that stands)
        raise RecordError(verdict.text.splitlines()[0] if verdict.text else "not audited")
    from p2p_durak.protocol.envelope import decode_envelope
    from p2p_durak.protocol.messages import Start
    from p2p_durak.protocol.transcript import Transcript

    start = decode_envelope(Transcript.load(path.read_bytes()).start).message
    assert isinstance(start, Start)
    bots, me = local_players(home)
    return records_of_table(
        table_id=start.game.hex(), table_name=journaled_table_name(path.parent),
        rules=verdict.table.rules, players=start.players, history=verdict.table.history,
        finished_at=finished_at, transcript=path.relative_to(home).as_posix(), bots=bots,
        me=me)


def journaled_table_name(folder: Path) -> str:
    """The table's name as a journal of the game's folder recorded it at the start."""
    for journal in sorted(folder.glob("party-*.journal")):
        with contextlib.suppress(OSError, ProtocolError):
            payload = first_record(journal)
            record = codec.decode(payload) if payload is not None else None
            if isinstance(record, tuple) and len(record) > 4 and record[0] == "start":
                return str(record[4])
    return ""


def _connect(path: Path) -> sqlite3.Connection:
    db = sqlite3.connect(path, timeout=BUSY_SECONDS, isolation_level="DEFERRED")
    try:
        db.execute("PRAGMA journal_mode=WAL")
        # no fsync per game: a power cut may undo the last rows (never tear them: WAL), and the
        # files they index are durable already, so the next catch-up restores them
        db.execute("PRAGMA synchronous=NORMAL")
        db.execute("PRAGMA foreign_keys=ON")
        check = db.execute("PRAGMA quick_check").fetchone()
        if check is None or check[0] != "ok":
            raise sqlite3.DatabaseError(f"quick_check: {check[0] if check else 'no answer'}")
        version = db.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise sqlite3.DatabaseError(f"made by a later version (schema {version})")
        if version < SCHEMA_VERSION:  # new (reading needs no write lock: WAL readers never wait)
            db.executescript(f"BEGIN IMMEDIATE; {_SCHEMA} PRAGMA user_version={SCHEMA_VERSION};"
                             " COMMIT;")
    except BaseException:
        db.close()
        raise
    return db


def _move_aside(path: Path, why: Exception) -> None:
    """A damaged database is kept for whoever wants to look at it, and made anew."""
    aside = path.with_name(f"{path.name}.damaged-{time.strftime('%Y%m%d-%H%M%S')}")
    log.warning("history: %s is damaged (%s): moved to %s, rebuilt from the game files",
                path, why, aside.name)
    for suffix in ("", "-wal", "-shm"):
        with contextlib.suppress(FileNotFoundError):
            os.replace(f"{path}{suffix}", f"{aside}{suffix}")

