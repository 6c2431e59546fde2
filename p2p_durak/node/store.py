"""What a node writes to disk for one game, so that a crash loses nothing.

One append-only journal per game (see `journal.py`: a torn or unsynced tail is detected and
dropped after a crash or power cut). Records that must survive a power cut (start, seed, made,
halted, verdict, finished) are synced before `_append` returns; "series", "signed" and "commit"
are written at once (a killed process loses none) and synced in the background, about once a
second: a power cut may lose the last of them, which the node learns again from its peers
(see `GameRunner` and docs/protocol.md §10.8). Records, each a canonical msgpack array:

    ["start", start, players, rules, table name, identity name, bind, advertised host, port]
                                    how to rejoin: the genesis, the peers, who we are, where we
                                    listen
    ["seed", bytes]                 the seed of this party's per-game secret, before any message
    ["series", games]               how many games of the series the player wants (0: as long
                                    as the others)
    ["made", deck message, coin]    a deck message this party made, before it is sent
    ["signed", entry envelope]      an entry this party signed as sequencer, before it is sent
    ["commit", entry, [acks...]]    a committed entry and its certificate
    ["halted", text]                the log stopped, and why
    ["verdict", text]               this node ended the game itself (a party stayed away past
                                    the grace period); verdict.txt and the transcript of what
                                    was committed are saved next to the journal
    ["finished"]                    the table stopped (the transcript is saved next to the
                                    journal; it is saved, too, after each game of a series)

On restart the node rebuilds its log from the commits (`OrderingLog.resume` re-verifies every
one) and its deck party from the seed and the made messages.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from p2p_durak.engine import RuleError, RuleSet
from p2p_durak.node.journal import Journal, JournalError, JournalLocked, atomic_write
from p2p_durak.node.lobby import GameStart
from p2p_durak.node.paths import ensure_private_dir
from p2p_durak.protocol import codec
from p2p_durak.protocol.envelope import decode_envelope
from p2p_durak.protocol.errors import ProtocolError
from p2p_durak.protocol.identity import PeerId
from p2p_durak.protocol.mental.messages import Message as DeckMessage
from p2p_durak.protocol.messages import PlayerInfo
from p2p_durak.protocol.transcript import Transcript

TRANSCRIPT_FILE = "transcript.durak"  # a game's signed transcript, in its folder

log = logging.getLogger(__name__)


class GameJournalCorrupt(JournalError):
    """A record passed its checksum but is not one this program writes (a writer's bug, or
    damage that a CRC-32 missed): the journal is refused, naming the file and the record,
    instead of failing later on a field of the wrong type."""


# the fields of each kind of record after its name (see the module docstring)
_SCHEMA: dict[str, tuple[type, ...]] = {
    "start": (bytes, tuple, bytes, str, str, str, str, str, int),
    "seed": (bytes,),
    "series": (int,),
    "made": (bytes, bytes),
    "signed": (bytes,),
    "commit": (bytes, tuple),
    "halted": (str,),
    "verdict": (str,),
    "finished": (),
}


def _checked(path: Path, index: int, data: bytes) -> tuple[object, ...]:
    """Record `index` of the journal at `path`, decoded and checked against `_SCHEMA`."""
    def bad(reason: str) -> GameJournalCorrupt:
        return GameJournalCorrupt(f"{path}: record {index} {reason}")

    try:
        record = codec.decode(data)
    except ProtocolError as exc:
        raise bad(f"does not decode: {exc.reason}") from None
    if type(record) is not tuple or not record or type(record[0]) is not str:
        raise bad("is not a named record")
    fields = _SCHEMA.get(record[0])
    if fields is None:
        raise bad(f"has an unknown kind {record[0]!r}")
    values = record[1:]
    if len(values) != len(fields) or not all(
            type(v) is t for v, t in zip(values, fields, strict=True)):
        raise bad(f"({record[0]!r}) does not have the fields "
                  + ", ".join(t.__name__ for t in fields))
    listed: tuple[object, ...] = ()
    if len(values) > 1 and isinstance(values[1], tuple):
        listed = values[1]  # the players of a start, the acks of a commit
    if record[0] == "start" and not all(
            type(p) is tuple and len(p) == 3 and type(p[0]) is bytes
            and type(p[1]) is str and type(p[2]) is str for p in listed):
        raise bad("('start') lists a player that is not (key, name, endpoint)")
    if record[0] == "commit" and not all(type(a) is bytes for a in listed):
        raise bad("('commit') has an ack that is not bytes")
    return record


@dataclass(frozen=True, slots=True)
class Resumable:
    """An unfinished game a restarted process can rejoin."""

    start: GameStart
    identity_name: str
    player_name: str
    bind: str
    advertise: str
    port: int
    journal_path: Path
    games: int | None = 1  # the series the player wanted (None: as long as the others)


class GameJournal:
    def __init__(self, folder: Path, party: int) -> None:
        self.folder = ensure_private_dir(folder)
        self.path = self.folder / f"party-{party}.journal"
        self._journal = Journal.open(self.path)
        try:
            self._records: list[object] = [_checked(self.path, i, r)
                                           for i, r in enumerate(self._journal.records())]
        except GameJournalCorrupt:
            self._journal.close()
            raise

    def _append(self, *record: object, sync: bool = True) -> None:
        self._journal.append(codec.encode(record), sync=sync)
        self._records.append(record)

    def sync(self) -> None:
        self._journal.sync()

    @property
    def durable_size(self) -> int:
        """Bytes of the journal file that a power cut would leave (see `Journal.durable_size`)."""
        return self._journal.durable_size

    def _of(self, kind: str) -> list[tuple[object, ...]]:
        return [r for r in self._records if isinstance(r, tuple) and r and r[0] == kind]

    def record_start(self, start: GameStart, identity_name: str, player_name: str, bind: str,
                     advertise: str, port: int) -> None:
        if self._of("start"):
            return
        players = [(p.identity.key, p.name, p.endpoint) for p in start.players]
        self._append("start", start.start.encode(), players, start.rules.canonical(),
                     start.table_name, identity_name, player_name, bind, advertise, port)

    def resumable(self) -> Resumable | None:
        found = self._of("start")
        if not found or self.is_finished or self._of("halted") or self._of("verdict"):
            return None
        (_, start_bytes, players, rules, table, ident, player, bind, host, port) = found[0]
        assert isinstance(start_bytes, bytes)
        assert isinstance(players, tuple)
        assert isinstance(rules, bytes)
        try:
            envelope = decode_envelope(start_bytes)
            infos = tuple(PlayerInfo(PeerId(bytes(k)), str(n), str(e))
                          for k, n, e in players)
            game = GameStart(envelope.game, envelope, infos, RuleSet.from_canonical(rules),
                             str(table))
        except (ProtocolError, RuleError, ValueError) as exc:
            raise GameJournalCorrupt(f"{self.path}: its start record does not decode: "
                                     f"{exc}") from None
        return Resumable(game, str(ident), str(player), str(bind), str(host),
                         int(port), self.path,  # type: ignore[call-overload]
                         self.series_games())

    def record_series(self, games: int | None) -> None:
        """How many games of the series the player wants (None: as long as the others), so
        that a restarted node plays on as it would have."""
        if not self._of("series"):
            self._append("series", 0 if games is None else games, sync=False)

    def series_games(self) -> int | None:
        found = self._of("series")
        if not found:
            return 1
        games = found[0][1]
        assert isinstance(games, int)
        return games or None

    @property
    def resumed(self) -> bool:
        return bool(self._of("commit"))

    @property
    def has_seed(self) -> bool:
        """Whether the game's seed is journaled: the party has played this game before."""
        return bool(self._of("seed"))

    def game_seed(self, fresh: Callable[[int], bytes] = os.urandom) -> bytes:
        """The game's secret seed: the journaled one, else a new one from `fresh` (the node's
        source of randomness: the OS in play, a seeded one in tests), journaled first."""
        seeds = self._of("seed")
        if seeds:
            seed = seeds[0][1]
            assert isinstance(seed, bytes)
            return seed
        seed = fresh(32)
        self._append("seed", seed)
        return seed

    def made(self) -> list[tuple[bytes, bytes]]:
        out = []
        for record in self._of("made"):
            data, coin = record[1], record[2]
            assert isinstance(data, bytes)
            assert isinstance(coin, bytes)
            out.append((data, coin))
        return out

    def has_made(self, message: DeckMessage) -> bool:
        data = codec.encode(message.to_wire())
        return any(data == d for d, _ in self.made())

    def record_made(self, message: DeckMessage, coin: bytes) -> None:
        if self.has_made(message):
            return
        self._append("made", codec.encode(message.to_wire()), coin)


    def signed(self, entry: bytes) -> None:
        # Written before it is sent, so a killed process never signs another entry for the
        # same position; synced with the next commit batch (see GameRunner). A power cut may
        # lose it: the restarted node learns it from a peer that saw it before it may sign
        # anything (docs/protocol.md §10.8, rule L10), so no fsync holds up the entry.
        self._append("signed", entry, sync=False)

    def signed_entry(self) -> bytes | None:
        signed = self._of("signed")
        if not signed:
            return None
        data = signed[-1][1]
        assert isinstance(data, bytes)
        return data

    def commit(self, entry: bytes, acks: tuple[bytes, ...]) -> None:
        # Every peer holds the committed log too (catch-up refetches what a power cut lost);
        # the runner syncs commits in the background instead of on every entry.
        self._append("commit", entry, list(acks), sync=False)

    def transcript(self, start: bytes) -> Transcript | None:
        """The committed log up to the last commit journaled with its certificate (positions
        caught up over have none, and a power cut may have cut the journal after one)."""
        commits = self._of("commit")
        certified = [i for i, c in enumerate(commits) if c[2]]
        if not certified:
            return None
        commits = commits[: certified[-1] + 1]
        entries = tuple(c[1] for c in commits if isinstance(c[1], bytes))
        acks = commits[-1][2]
        assert len(entries) == len(commits)
        assert isinstance(acks, tuple)
        return Transcript(start, entries, tuple(a for a in acks if isinstance(a, bytes)))

    def keep_rules(self, rules: bytes) -> None:
        """The rule set's canonical bytes next to the transcript, so an auditor can replay it."""
        path = self.folder / "rules.durak"
        if not path.exists():
            atomic_write(path, rules)

    def halted(self, text: str) -> None:
        self._append("halted", text)

    def verdict(self, text: str, transcript: bytes | None) -> None:
        """The game ended without a result: the committed part of it (signed entries and the
        certificate of the last one, as for a finished game) and why it ended."""
        if transcript is not None:
            atomic_write(self.folder / TRANSCRIPT_FILE, transcript)
        atomic_write(self.folder / "verdict.txt", text.encode() + b"\n")
        self._append("verdict", text)

    def keep_transcript(self, transcript: bytes) -> None:
        """A game of the series is over: the transcript so far, saved (the journal goes on)."""
        atomic_write(self.folder / TRANSCRIPT_FILE, transcript)

    def finish(self, transcript: bytes | None) -> None:
        if transcript is not None:
            self.keep_transcript(transcript)
        self._append("finished")

    @property
    def is_finished(self) -> bool:
        return bool(self._of("finished"))

    def close(self) -> None:
        self._journal.close()


@dataclass(frozen=True, slots=True)
class UnfinishedGames:
    """What a restarted process finds in its data folder: the games it can rejoin, and the
    game folders whose journal another process holds open (a running copy of `durak` is
    playing them: rejoining would make two writers of one seat)."""

    resumable: tuple[Resumable, ...]
    running: tuple[Path, ...]


def scan_unfinished(home: Path) -> UnfinishedGames:
    """Every game in the data folder that this installation's peers have not finished."""
    out = []
    running = []
    for path in sorted((home / "games").glob("*/party-*.journal")):
        party = int(path.stem.split("-")[1])
        try:
            journal = GameJournal(path.parent, party)
        except JournalLocked:
            running.append(path.parent)
            continue
        except JournalError as exc:  # (the other games still resume)
            log.warning("cannot resume the game in %s: %s", path.parent, exc)
            continue
        try:
            found = journal.resumable()
        except GameJournalCorrupt as exc:
            log.warning("cannot resume the game in %s: %s", path.parent, exc)
            continue
        finally:
            journal.close()
        if found is not None:
            out.append(found)
    return UnfinishedGames(tuple(out), tuple(dict.fromkeys(running)))


def unfinished_games(home: Path) -> list[Resumable]:
    """The games in the data folder this process can rejoin (see `scan_unfinished`)."""
    return list(scan_unfinished(home).resumable)
