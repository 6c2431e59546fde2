"""The lobby's state: tables seen on the network, the chosen one, and the new-table form."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from p2p_durak.bots.levels import LEVELS
from p2p_durak.cli.backend import TableOptions
from p2p_durak.cli.engine_build import EngineStrength
from p2p_durak.cli.table_ui import Notice
from p2p_durak.engine import RuleError
from p2p_durak.engine.presets import Preset, TableChoice, table_choices, table_presets
from p2p_durak.node.scoreboard import Scoreboard
from p2p_durak.node.tableinfo import DiscoveryEvent, TableGone, TableSeen

TIMERS: tuple[float | None, ...] = (None, 15.0, 30.0, 60.0)
THROW_IN_BY = ("all_non_defenders", "neighbours_of_defender")
TIMER_POLICIES = ("bot", "lose")
GRACES = (60, 30, 120, 300)  # seconds a networked table waits for a gone or silent player


@dataclass
class LobbyUi:
    tables: dict[str, TableSeen] = field(default_factory=dict)  # by table id, first seen first
    cursor: int = 0
    notice: Notice | None = None
    discovery: Notice | None = None  # why discovery is off, when it is
    own_fingerprint: str | None = None  # this installation's, for players to compare
    tonight: Scoreboard | None = None  # the evening's games so far (the history's)
    engine: EngineStrength | None = None  # how strong the bots are (the engine's build)

    def apply(self, event: DiscoveryEvent) -> None:
        if isinstance(event, TableSeen):
            self.tables[event.table.table_id] = event
        elif isinstance(event, TableGone):
            self.tables.pop(event.table_id, None)
        self.cursor = max(0, min(self.cursor, len(self.tables) - 1))

    def listed(self) -> list[TableSeen]:
        return list(self.tables.values())

    def selected(self) -> TableSeen | None:
        listed = self.listed()
        return listed[self.cursor] if listed else None

    def move(self, step: int) -> None:
        if self.tables:
            self.cursor = (self.cursor + step) % len(self.tables)


FIELDS = ("preset", "players", "deck", "transfer", "throw_in_by", "teams", "pogony", "choice",
          "timer",
          "timer_policy", "grace", "bots", "network_bots", "practice", "network")
DECKS = (36, 52, 32, 24)
BUTTONS = ("practice", "network")


@dataclass
class CreateForm:
    """The new-table form: a working preset and the options a player may change."""

    presets: list[Preset] = field(default_factory=table_presets)
    preset_index: int = 0
    players: int = 3
    deck_size: int = 36
    transfer: bool = False
    throw_in_by: str = "all_non_defenders"
    teams: bool = False
    pogony: bool = False
    timer_index: int = 0
    timer_policy: str = "bot"
    grace_index: int = 0
    bot_level: str = "medium"
    network_bots: int = 0
    choice_index: int = 0  # of the preset's rule choices (`table_choices`), 0: its own
    focus: int = 0
    notice: Notice | None = None

    def __post_init__(self) -> None:
        self.load_preset()

    @property
    def preset(self) -> Preset:
        return self.presets[self.preset_index]

    @property
    def choices(self) -> tuple[TableChoice, ...]:
        return table_choices(self.preset.id)

    @property
    def field_name(self) -> str:
        return FIELDS[self.focus]

    def select_preset(self, preset_id: str) -> None:
        for index, preset in enumerate(self.presets):
            if preset.id == preset_id:
                self.preset_index = index
                self.load_preset()

    def load_preset(self) -> None:
        """Take the options from the preset's own rules."""
        rules = self.preset.rules
        self.choice_index = 0
        self.deck_size = rules.deck_size
        self.transfer = rules.transfer
        self.throw_in_by = rules.throw_in_by
        self.teams = rules.teams != "none"
        self.pogony = rules.pogony_sixes
        people = self.preset.people  # (с болваном: the dummy's seat is not a player's)
        if self.players not in people:
            self.players = people[0] if self.teams else min(people, key=lambda n: abs(n - 3))

    def move(self, step: int) -> None:
        self.focus = (self.focus + step) % len(FIELDS)

    def change(self, step: int) -> None:
        """←/→ on the focused field."""
        name = self.field_name
        self.notice = None
        if name == "preset":
            self.preset_index = (self.preset_index + step) % len(self.presets)
            self.load_preset()
        elif name == "choice":
            if self.choices:
                self.choice_index = (self.choice_index + step) % len(self.choices)
        elif name == "players":
            self.players = min(6, max(2, self.players + step))
        elif name == "deck":
            at = DECKS.index(self.deck_size) if self.deck_size in DECKS else 0
            self.deck_size = DECKS[(at + step) % len(DECKS)]
        elif name == "transfer":
            self.transfer = not self.transfer
        elif name == "throw_in_by":
            values = THROW_IN_BY if not self.teams else (*THROW_IN_BY, "opponents_of_defender")
            at = values.index(self.throw_in_by) if self.throw_in_by in values else 0
            self.throw_in_by = values[(at + step) % len(values)]
        elif name == "teams":
            self.teams = not self.teams
            if self.teams:
                self.players = 4 if self.players < 5 else 6
                self.throw_in_by = "opponents_of_defender"
            elif self.throw_in_by == "opponents_of_defender":
                self.throw_in_by = "all_non_defenders"
        elif name == "pogony":
            self.pogony = not self.pogony
        elif name == "timer":
            self.timer_index = (self.timer_index + step) % len(TIMERS)
        elif name == "timer_policy":
            self.timer_policy = TIMER_POLICIES[
                (TIMER_POLICIES.index(self.timer_policy) + step) % len(TIMER_POLICIES)]
        elif name == "grace":
            self.grace_index = (self.grace_index + step) % len(GRACES)
        elif name == "bots":
            self.bot_level = LEVELS[
                (LEVELS.index(self.bot_level) + step) % len(LEVELS)]
        elif name == "network_bots":
            self.network_bots = (self.network_bots + step) % self.players
        self.network_bots = min(self.network_bots, self.players - 1)

    def options(self, base: TableOptions) -> TableOptions:
        """The form's choices over `base` (names, seed, delays); raises `RuleError`."""
        options = replace(base, preset_id=self.preset.id, players=self.players,
                          deck_size=self.deck_size, network_bots=self.network_bots,
                          transfer=self.transfer, throw_in_by=self.throw_in_by,
                          teams=self.teams, pogony=self.pogony,
                          timer=TIMERS[self.timer_index], timer_policy=self.timer_policy,
                          grace_seconds=GRACES[self.grace_index],
                          bot_level=self.bot_level,
                          rule_changes=base.rule_changes + self._choice_changes())
        options.rules()  # refuse now what cannot be played
        return options

    def _choice_changes(self) -> tuple[tuple[str, object], ...]:
        """The knobs the chosen rule choice changes (none for the preset's own)."""
        choices = self.choices
        return choices[self.choice_index].changes if choices else ()

    def check(self, base: TableOptions) -> RuleError | None:
        try:
            self.options(base)
        except RuleError as error:
            return error
        return None
