"""What the lobby needs from the node: discovered tables, and sessions to play in.

`LobbyBackend` is the seam between the lobby screen and whatever runs tables. The lobby reads
discovery events (`TableSeen` / `TableGone` from `p2p_durak.node.discovery`) from `tables`,
and asks for a `Session` to create a networked table, join one, or practise alone against
bots. `LocalLobbyBackend` plays practice games with `LocalSession` and watches any discovery
channel it is given; it cannot host or join networked tables and says so with a `LobbyError`,
which the lobby shows. `durak` runs `NetworkLobbyBackend` (`cli/net_backend.py`), which can.

`TableOptions` is what the "new table" form produces: a preset plus the options a player may
change (transfer, who throws in, teams, epaulettes, the turn timer, bots), turned into a
validated `RuleSet` by `rules()`.
"""

from __future__ import annotations

import logging
import math
import sqlite3
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import trio

from p2p_durak.engine import RuleError, RuleSet, validate
from p2p_durak.engine.presets import DEFAULT_PRESET, get_preset
from p2p_durak.engine.rules import engine_seats
from p2p_durak.node import offload
from p2p_durak.node.api import Session
from p2p_durak.node.history import GameRecord
from p2p_durak.node.history_store import evening, index_practice, keep_practice
from p2p_durak.node.local_session import LocalSession, PracticeSetup
from p2p_durak.node.scoreboard import Scoreboard
from p2p_durak.node.tableinfo import DiscoveryEvent, TableSeen

log = logging.getLogger(__name__)

TEAM_KNOBS: dict[str, Any] = {
    "attack_target": "next_active_opponent",
    "throw_in_by": "opponents_of_defender",
    "transfer_target": "next_active_opponent",
    "loser_rule": "team_last",
}
"""How the app's team presets differ from every-man-for-himself play (besides `teams`)."""

SOLO_KNOBS: dict[str, Any] = {
    "teams": "none",
    "attack_target": "left_neighbour",
    "throw_in_by": "all_non_defenders",
    "transfer_target": "next_clockwise",
    "loser_rule": "last_with_cards",
}


class LobbyError(Exception):
    """Something the lobby cannot do, in both languages."""

    def __init__(self, message_en: str, message_ru: str) -> None:
        super().__init__(message_en)
        self.message_en = message_en
        self.message_ru = message_ru

    def message(self, lang: str) -> str:
        return self.message_ru if lang == "ru" else self.message_en


@dataclass(frozen=True)
class TableOptions:
    """A table to create or practise at. `None` options keep the preset's own value."""

    preset_id: str = DEFAULT_PRESET
    players: int = 3
    deck_size: int | None = None
    transfer: bool | None = None
    throw_in_by: str | None = None  # all_non_defenders | neighbours_of_defender
    teams: bool | None = None
    pogony: bool | None = None
    timer: float | None = None  # seconds per turn
    timer_policy: str = "bot"  # bot | lose
    grace_seconds: int = 60  # networked: how long the others wait for a gone or silent player
    bot_level: str = "medium"
    network_bots: int = 0  # seats the creator's process fills with bots at a networked table
    seed: int | None = None
    table_name: str = ""
    player_name: str = "You"
    bot_names: tuple[str, ...] = ()
    bot_delay: float = 0.8
    rule_changes: tuple[tuple[str, Any], ...] = field(default=())  # any other knobs

    def rules(self) -> RuleSet:
        """The preset's rules with these options; raises `RuleError` when unplayable."""
        rules = get_preset(self.preset_id).rules
        changes: dict[str, Any] = {}
        if self.teams is not None and self.teams != (rules.teams != "none"):
            if self.teams:
                size = {4: "2v2", 6: "3v3"}.get(self.players)
                if size is None:
                    raise RuleError("teams", "teams need 4 or 6 players",
                                    "командами играют вчетвером или вшестером")
                changes.update(TEAM_KNOBS, teams=size, min_players=self.players,
                               max_players=self.players)
            else:
                changes.update(SOLO_KNOBS, min_players=2, max_players=6)
        if self.deck_size is not None:
            changes["deck_size"] = self.deck_size
        if self.transfer is not None:
            changes["transfer"] = self.transfer
            if not self.transfer:
                changes["transfer_by_showing"] = "off"
        if self.throw_in_by is not None:
            changes["throw_in_by"] = self.throw_in_by
        if self.pogony is not None:
            changes["pogony_sixes"] = self.pogony
        changes.update(self.rule_changes)
        rules = rules.with_options(**changes)
        validate(rules, engine_seats(rules, self.players))
        return rules

    def practice_setup(self) -> PracticeSetup:
        names = (self.player_name,) + tuple(self.bot_names[: self.players - 1])
        if len(names) < self.players:
            names += tuple(f"Bot {i}" for i in range(len(names), self.players))
        rules = self.rules()
        return PracticeSetup(
            rules=rules, n_players=engine_seats(rules, self.players), preset_id=self.preset_id,
            table_name=self.table_name or get_preset(self.preset_id).name_en,
            names=names, bot_level=self.bot_level, seed=self.seed, timer=self.timer,
            timer_policy=self.timer_policy, bot_delay=self.bot_delay)


class LobbyBackend(Protocol):
    @property
    def tables(self) -> trio.MemoryReceiveChannel[DiscoveryEvent]:
        """Tables appearing, changing and going away on the network."""
        ...

    @property
    def fingerprint(self) -> str | None:
        """This installation's identity fingerprint, for the player to compare with the others'
        (None where the backend plays no networked table)."""
        ...

    async def create_table(self, options: TableOptions) -> Session:
        """Host a networked table and sit at it (raises `LobbyError`)."""
        ...

    async def join(self, table: TableSeen) -> Session:
        """Take a free seat at a discovered table (raises `LobbyError`)."""
        ...

    async def practice(self, options: TableOptions) -> Session:
        """A table of bots on this machine, with the player in seat 0."""
        ...

    async def tonight(self) -> Scoreboard | None:
        """The evening's scoreboard from the history of the data folder (None: there is no
        data folder, or its history cannot be read)."""
        ...


class LocalLobbyBackend:
    """Practice tables with `LocalSession`; discovery events from any channel given."""

    def __init__(self, nursery: trio.Nursery,
                 tables: trio.MemoryReceiveChannel[DiscoveryEvent] | None = None,
                 home: Path | None = None) -> None:
        """`home`: the data folder whose history records the games (None: none is kept)."""
        self._nursery = nursery
        self._history_home = home
        if tables is None:
            # nothing is discovered: a channel that stays open and silent
            self._silence, tables = trio.open_memory_channel[DiscoveryEvent](math.inf)
        self._tables = tables

    @property
    def tables(self) -> trio.MemoryReceiveChannel[DiscoveryEvent]:
        return self._tables

    @property
    def fingerprint(self) -> str | None:
        return None

    async def create_table(self, options: TableOptions) -> Session:
        await trio.lowlevel.checkpoint()
        raise LobbyError("this lobby plays practice games only (durak hosts networked tables)",
                         "здесь только тренировка (сетевые столы открывает durak)")

    async def join(self, table: TableSeen) -> Session:
        await trio.lowlevel.checkpoint()
        raise LobbyError("this lobby plays practice games only (durak joins networked tables)",
                         "здесь только тренировка (за сетевые столы садятся в durak)")

    async def practice(self, options: TableOptions) -> Session:
        try:
            session = LocalSession(options.practice_setup(),
                                   None if self._history_home is None else self._record)
        except RuleError as error:
            raise LobbyError(error.message_en, error.message_ru) from error
        except ValueError as error:
            raise LobbyError(str(error), str(error)) from error
        await self._nursery.start(session.run)
        return session

    def _record(self, record: GameRecord) -> None:
        """A practice game is over (on the event loop): its file at once, its rows in a
        worker thread (closing the database checkpoints its log: tens of milliseconds the
        screen need not wait; a catch-up indexes the file should the thread not run)."""
        home = self._history_home
        assert home is not None
        path = keep_practice(home, record)

        async def index() -> None:
            try:
                await offload.run_sync(lambda: index_practice(home, record, path))
            except (OSError, sqlite3.Error) as error:
                log.warning("practice game %s-%d is not indexed yet: %s", record.table_id,
                            record.number, error)

        self._nursery.start_soon(index)

    async def tonight(self) -> Scoreboard | None:
        home = self._history_home
        if home is None:
            return None
        try:
            return await offload.run_sync(lambda: evening(home, time.time()))
        except (OSError, sqlite3.Error) as error:
            log.warning("the history of %s cannot be read: %s", home, error)
            return None
