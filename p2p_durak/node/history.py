"""What the history of the evening remembers of one finished game, and how it is found.

A `GameRecord` is one finished game (practice or networked): when, at which table, by which
variant, who sat where (people and bots, which of them is this installation's player), who
was the durak, and the series score after it. The records come from two places, by the same
code whether a game has just ended or the history is rebuilt from the files later:

- a networked game's table history (`records_of_table`): the `Seated` event of each game of
  the series and the engine's `GameOver` in its last move — live from the node's table
  machine, or from a transcript that `durak audit` checks (`records_of_transcript`);
- a practice game's record file (`practice/<table>-<game>.json`, written atomically by the
  practice table when the game ends: a practice game has no signed transcript).

`history_store.py` keeps them in SQLite; `scoreboard.py` adds them up.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from p2p_durak import engine as eng
from p2p_durak.engine import events as E
from p2p_durak.engine.presets import PRESETS
from p2p_durak.node.narrate import dummy_name
from p2p_durak.protocol.messages import PlayerInfo
from p2p_durak.protocol.table import AuditFinished, Forfeited, Moved, Seated, TableEvent

NETWORK = "network"
PRACTICE = "practice"
DUMMY = "dummy"  # `PlayerRecord.bot` of с болваном's dummy hand
UNKNOWN_LEVEL = "bot"  # `PlayerRecord.bot` of a bot whose level this node does not know
PRACTICE_DIR = "practice"
PRACTICE_MAGIC = "p2p-durak practice game"
PRACTICE_VERSION = 1


class RecordError(ValueError):
    """A practice record file is not one (damaged, foreign, of a later version)."""


@dataclass(frozen=True, slots=True)
class PlayerRecord:
    """One seat of a finished game."""

    name: str
    fingerprint: str = ""  # a networked player's identity; "" for practice seats
    bot: str = ""  # "": a person; else the bot's level, `UNKNOWN_LEVEL`, or `DUMMY`
    me: bool = False  # this installation's player

    @property
    def key(self) -> str:
        """Who this is across games: a networked player by fingerprint (names may repeat),
        a practice seat by its name and kind; this installation's player is one person in
        practice and at networked tables alike."""
        if self.me:
            return "me"
        if self.fingerprint:
            return self.fingerprint
        return f"{'bot' if self.bot else 'person'}:{self.name}"


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One finished game. `table_id` and `number` name it: the networked game id (hex) or the
    practice table's id, and the game's number in that table's series (1, 2, ...)."""

    table_id: str
    number: int
    kind: str  # NETWORK | PRACTICE
    finished_at: float  # Unix time
    table: str
    variant: str  # the preset id (the nearest preset when the table changed its rules)
    variant_changed: bool
    players: tuple[PlayerRecord, ...]  # in seat order
    durak: tuple[int, ...]  # indices into `players` (several in a team game; none: a draw)
    draw: bool
    series_duraks: tuple[int, ...]  # per player: how often the durak, over the series so far
    transcript: str = ""  # where the game's file lies, relative to the data folder

    @property
    def me(self) -> int | None:
        return next((i for i, p in enumerate(self.players) if p.me), None)

    def to_json(self) -> dict[str, object]:
        return dataclasses.asdict(self)

    @classmethod
    def from_json(cls, data: Mapping[str, object]) -> GameRecord:
        try:
            players = data["players"]
            if not isinstance(players, list):
                raise TypeError("players is not a list")
            fields = {f.name: data[f.name] for f in dataclasses.fields(cls)}
            fields["players"] = tuple(PlayerRecord(**p) for p in players)
            for name in ("durak", "series_duraks"):
                fields[name] = tuple(_ints(fields[name]))
            record = cls(**fields)  # type: ignore[arg-type]
        except (KeyError, TypeError) as exc:
            raise RecordError(f"not a game record: {exc}") from exc
        if not (isinstance(record.number, int) and record.number >= 1
                and all(0 <= d < len(record.players) for d in record.durak)
                and len(record.series_duraks) == len(record.players)
                and isinstance(record.finished_at, int | float)):
            raise RecordError("not a game record: its fields do not fit together")
        return record


def _ints(value: object) -> list[int]:
    if not isinstance(value, list | tuple) or not all(type(v) is int for v in value):
        raise TypeError(f"{value!r} is not a list of whole numbers")
    return list(value)


def variant_of(rules: eng.RuleSet) -> tuple[str, bool]:
    """The preset a table played (its id) and whether the table changed its rules: the
    preset with these very rules, else the one that differs in the fewest knobs (a table's
    options and `--rule` change a few). The transcript names the rules only by their hash."""
    exact = next((p.id for p in PRESETS.values() if p.rules == rules), None)
    if exact is not None:
        return exact, False
    knobs = [f.name for f in dataclasses.fields(eng.RuleSet)]

    def distance(preset_rules: eng.RuleSet) -> int:
        return sum(getattr(preset_rules, k) != getattr(rules, k) for k in knobs)

    nearest = min(PRESETS.values(), key=lambda p: (distance(p.rules), p.id))
    return nearest.id, True


def records_of_table(*, table_id: str, table_name: str, rules: eng.RuleSet,
                     players: Sequence[PlayerInfo], history: Iterable[TableEvent],
                     finished_at: float, transcript: str,
                     bots: Mapping[str, str] | None = None, me: str = "") -> list[GameRecord]:
    """Every finished game of a networked table's history (a series holds several).

    A game is finished when its end-of-game deck audit is: the result is the engine's
    `GameOver`, unless the audit caught a liar, who then loses by forfeit (`Forfeited`, which
    follows the `AuditFinished`: that result stands and is scored). A game is finished, too,
    when a party abandoned it (`Forfeited` "abandoned": every other party claimed it, it is the
    durak, the table stops). A game that ended otherwise before its audit (the grace period's
    verdict, with no result) is not finished, and the running node never records it either.

    `players`: the `Start`'s, in party order. `bots`: fingerprint → level of the bots this
    node knows of (its own bot peers; a table does not say which of the others are bots).
    `me`: the fingerprint of this installation's player."""
    variant, changed = variant_of(rules)
    bots = bots or {}
    out: list[GameRecord] = []
    seated: Seated | None = None
    result: tuple[tuple[int, ...], bool] | None = None  # the game's (durak, draw)
    settled = False  # audited, or forfeited: the result stands
    series: list[int] = []

    def finish() -> None:
        nonlocal series
        if seated is None or result is None or not settled:
            return
        seats = _seats(seated, players, bots, me)
        if len(series) != len(seats):
            series = [0] * len(seats)
        for seat in result[0]:
            series[seat] += 1
        out.append(GameRecord(table_id, len(out) + 1, NETWORK, finished_at, table_name,
                              variant, changed, seats, result[0], result[1], tuple(series),
                              transcript))

    for event in history:
        if isinstance(event, Seated):
            finish()
            seated, result, settled = event, None, False
        elif isinstance(event, Moved):
            over = next((e for e in event.events if isinstance(e, E.GameOver)), None)
            if over is not None:
                result = (over.durak, over.draw)
        elif isinstance(event, AuditFinished | Forfeited):
            settled = True
            if isinstance(event, Forfeited):
                result = (event.result.durak, event.result.draw)
    finish()
    return out


def _seats(seated: Seated, players: Sequence[PlayerInfo], bots: Mapping[str, str],
           me: str) -> tuple[PlayerRecord, ...]:
    """Who sat where (engine seats; с болваном: the dummy's hand has a seat and no player)."""
    game = seated.game
    n_seats = game.n_players if game is not None else len(seated.seat_of_party)
    party_at = {seat: party for party, seat in enumerate(seated.seat_of_party)}
    seats = []
    for seat in range(n_seats):
        party = party_at.get(seat)
        if party is None:
            seats.append(PlayerRecord(dummy_name("en"), bot=DUMMY))
            continue
        fingerprint = players[party].identity.fingerprint
        seats.append(PlayerRecord(players[party].name, fingerprint, bots.get(fingerprint, ""),
                                  fingerprint == me))
    return tuple(seats)


# ---- practice record files ----------------------------------------------------------------

def practice_path(home: Path, record: GameRecord) -> Path:
    return home / PRACTICE_DIR / f"{record.table_id}-{record.number}.json"


def encode_practice(record: GameRecord) -> bytes:
    body = {"format": PRACTICE_MAGIC, "version": PRACTICE_VERSION, **record.to_json()}
    return json.dumps(body, ensure_ascii=False, sort_keys=True).encode() + b"\n"


def decode_practice(data: bytes) -> GameRecord:
    try:
        body = json.loads(data)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise RecordError(f"not a practice record: {exc}") from exc
    if not isinstance(body, dict) or body.get("format") != PRACTICE_MAGIC:
        raise RecordError("not a practice record")
    if body.get("version") != PRACTICE_VERSION:
        raise RecordError(f"unsupported practice record version {body.get('version')!r}")
    record = GameRecord.from_json(body)
    if record.kind != PRACTICE:
        raise RecordError("a practice record of another kind of game")
    return record
