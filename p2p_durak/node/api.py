"""The seam between a running table and whoever shows it (the terminal UI, the headless log).

A `Session` is one seat at one table. It publishes immutable `TableSnapshot`s on a memory channel
after every change (the UI renders the latest one; it never touches engine state) and takes the
seat's actions with `act`. The networked session (mental-poker deck, ordered log) and the local
practice session (engine and bots in one process) both implement it, so the UI and the headless
runner work with either.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

import trio

from p2p_durak.engine import Action, RuleSet, State
from p2p_durak.engine.events import Event
from p2p_durak.protocol.messages import TurnTimer


@dataclass(frozen=True, slots=True)
class SeatInfo:
    seat: int
    name: str
    is_bot: bool = False
    bot_level: str = ""
    fingerprint: str = ""
    connected: bool = True
    team: int | None = None
    is_dummy: bool = False  # с болваном: the dummy's seat, which its controller plays


@dataclass(frozen=True, slots=True)
class LogLine:
    """One thing that happened, for the move log: the engine event and who caused it."""

    seq: int
    event: Event


@dataclass(frozen=True, slots=True)
class TableSnapshot:
    table_name: str
    preset_id: str
    rules: RuleSet
    seats: tuple[SeatInfo, ...]
    my_seat: int
    state: State | None  # this seat's partial view; None until the deal
    legal: tuple[Action, ...] = ()  # what this seat (с болваном: and the dummy) may do now
    # seats the table is waiting for (с болваном: for the dummy's move, its controller's)
    waiting_for: tuple[int, ...] = ()
    activity: str = "lobby"  # lobby | keys | shuffling | dealing | playing | audit | over | halted
    progress: tuple[int, int] | None = None  # e.g. shuffles done / seats
    # a networked table's deck step (keys, seating, shuffle, deal): the other players whose
    # part it still waits for, by name (this node makes its own part at once)
    deck_waits_for: tuple[str, ...] = ()
    deadline: float | None = None  # seconds left on the turn timer, when one runs
    clocks: TurnTimer | None = None  # a networked table's turn timer and grace period
    log: tuple[LogLine, ...] = ()  # recent events, oldest first
    duraks: tuple[int, ...] = ()  # per seat, over the series so far
    game_number: int = 1
    notice: str | None = None  # the last refusal or problem, for the status line
    notice_ru: str | None = None  # the same in Russian, when `notice` is a text, not a key
    # a networked table: the players it has had no link to for a while, and why (English,
    # Russian); shown instead of what the table is doing, which cannot go on without them
    away: str | None = None
    away_ru: str | None = None
    extra: dict[str, str] = field(default_factory=dict)


class Session(Protocol):
    @property
    def snapshots(self) -> trio.MemoryReceiveChannel[TableSnapshot]:
        """Every new snapshot (the UI may skip to the newest)."""
        ...

    async def act(self, action: Action) -> None:
        """Submit an action for this seat. An action the engine refuses raises
        `p2p_durak.engine.IllegalAction` (with its reason) and changes nothing."""
        ...

    async def next_game(self) -> None:
        """Ask for the next game of the series (once the current one is over)."""
        ...

    async def leave(self) -> None:
        ...
