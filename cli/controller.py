"""The UI's trio side: it turns keys into screen changes and session actions.

Key handlers (prompt-toolkit, on the asyncio host) only post key names; this controller,
running in trio, reads them one at a time, changes what the screens point at, and submits
actions to the session. Snapshots from the session and discovery events from the backend
arrive on their own tasks; after every change the controller asks the app to repaint.
Rendering reads the controller's state only (`render`), so nothing is drawn from anywhere
but the latest snapshot and the lobby's list.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Awaitable, Callable
from contextlib import suppress

import trio

from p2p_durak.cli.backend import LobbyBackend, LobbyError, TableOptions
from p2p_durak.cli.canvas import Line, asciify, fit, pad_lines, wrap
from p2p_durak.cli.engine_build import EngineStrength, Strength
from p2p_durak.cli.help_view import render_help
from p2p_durak.cli.i18n import BOT_NAMES, PLAYER_NAME, Look, default_names_in
from p2p_durak.cli.lobby_ui import BUTTONS, CreateForm, LobbyUi
from p2p_durak.cli.lobby_view import render_create, render_lobby
from p2p_durak.cli.net_backend import NetworkSeat
from p2p_durak.cli.table_ui import SHIFT_DIGIT_KEYS, Notice, TableUi, notice_of, refusal
from p2p_durak.cli.table_view import (
    MIN_HEIGHT,
    MIN_WIDTH,
    Post,
    render_table_screen,
    turn_status,
)
from p2p_durak.cli.waiting_view import is_waiting_room, render_waiting
from p2p_durak.engine import Action, IllegalAction, RuleError
from p2p_durak.node.api import Session
from p2p_durak.protocol.messages import PROTOCOL_VERSION

TABLE_KEYS: dict[str, str] = {
    "left": "left", "right": "right", "home": "home", "end": "end",
    "up": "target_prev", "s-tab": "target_prev", "down": "target_next", "tab": "target_next",
    "space": "mark", "enter": "play", "b": "beat", "t": "take", "p": "pass", "d": "pass",
    "r": "transfer", "s": "show", "k": "lead_stock", "v": "doubt", "x": "exchange",
    "g": "send_back",
    "e": "dummy",  # с болваном: the keys switch between his hand and the dummy's
}


ENGINE_POLL_SECONDS = 2.0  # how often the lobby looks at a running background build
ENGINE_START_SECONDS = 60.0  # how long it waits for one to start before saying "pure Python"
QUIT_LEAVE_SECONDS = 2.0  # Ctrl-C in practice or a waiting room: the leave's time to quit


async def _leave(session: Session) -> None:
    """Leave, whatever state the session's table is in (a node already stopped is left)."""
    with suppress(trio.ClosedResourceError, trio.BrokenResourceError):
        await session.leave()


class Controller:
    def __init__(self, backend: LobbyBackend, look: Look, base_options: TableOptions, *,
                 invalidate: Callable[[], None] = lambda: None,
                 exit_app: Callable[[], None] = lambda: None,
                 autostart: bool = False,
                 discovery_note: Notice | None = None,
                 engine_status: Callable[[], EngineStrength] | None = None,
                 wall_clock: Callable[[], float] = time.time) -> None:
        """`engine_status`: how strong the bots are (cli/engine_build.py), for the lobby's
        line about it; None: no such line (tests). `wall_clock`: for how long it compiles."""
        self.backend = backend
        self.look = look
        self.base = base_options
        self.invalidate = invalidate
        self.exit_app = exit_app
        self.autostart = autostart
        self.screen = "lobby"  # lobby | create | table
        self.help = False
        self.lobby = LobbyUi(discovery=discovery_note, own_fingerprint=backend.fingerprint)
        self.form = CreateForm()
        self.form.select_preset(base_options.preset_id)
        self.form.players = base_options.players
        self.table = TableUi()
        self.session: Session | None = None
        self.intents_handled = 0
        self.quitting = False  # Ctrl-C at a networked game: quit once our leave is through
        self.too_small = False  # the last drawing was the "too small" message only
        self._nursery: trio.Nursery | None = None
        self._engine_status = engine_status
        self._wall_clock = wall_clock

    # ---- running --------------------------------------------------------------------------

    async def run(self, intents: trio.MemoryReceiveChannel[str], *,
                  task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        async with trio.open_nursery() as nursery:
            self._nursery = nursery
            nursery.start_soon(self._watch_tables)
            if self._engine_status is not None:
                nursery.start_soon(self._watch_engine, self._engine_status)
            self._refresh_tonight()
            task_status.started()
            if self.autostart:
                await self._practice(self.base)
            async for key in intents:
                await self.handle(key)
                self.intents_handled += 1
                self.invalidate()
            nursery.cancel_scope.cancel()

    async def _watch_tables(self) -> None:
        async for event in self.backend.tables:
            self.lobby.apply(event)
            self.invalidate()

    async def _watch_session(self, session: Session) -> None:
        async for snapshot in session.snapshots:
            if self.session is session:
                self.table.update(default_names_in(snapshot, self.look.lang))
                self.invalidate()
        if self.session is session:
            self.session = None
            self.screen = "lobby"
            self.help = False
            self._refresh_tonight()
            self.invalidate()

    async def _watch_engine(self, status: Callable[[], EngineStrength]) -> None:
        """Keep the lobby's line on the bots' strength true while a background build runs
        (it ends ready or failed), or may be about to start: ./durak starts it just before
        the game, and on a busy machine it says so after the lobby is up."""
        waited = 0.0
        while True:
            self.lobby.engine = status()  # a few small files: no thread (a millisecond)
            self.invalidate()
            strength = self.lobby.engine.strength
            if strength not in (Strength.COMPILING, Strength.PYTHON) or (
                    strength is Strength.PYTHON and waited >= ENGINE_START_SECONDS):
                return
            await trio.sleep(ENGINE_POLL_SECONDS)
            waited += ENGINE_POLL_SECONDS

    def _refresh_tonight(self) -> None:
        """Read tonight's scoreboard again for the lobby (the games just played are in it)."""
        if self._nursery is not None:
            self._nursery.start_soon(self._read_tonight)

    async def _read_tonight(self) -> None:
        self.lobby.tonight = await self.backend.tonight()
        self.invalidate()

    # ---- keys -----------------------------------------------------------------------------

    async def handle(self, key: str) -> None:
        if key == "c-c":
            session = self.session
            if self.quitting or not (isinstance(session, NetworkSeat) and session.started):
                with trio.move_on_after(QUIT_LEAVE_SECONDS):
                    await self._leave_table(wait=True)
                self.exit_app()
                return
            # mid-game at a networked table: the graceful leave first (the others are told
            # at the end of the bout and play on, instead of waiting out the grace period for
            # a vanished player), then quit; a second Ctrl-C quits at once
            self.quitting = True
            self.lobby.notice = notice_of("lobby.leaving")
            await self._leave_table()
            assert self._nursery is not None
            self._nursery.start_soon(self._quit_when_gone, session)
            return
        if self.too_small and key != "l":
            return  # the player cannot see what a key would do: it does nothing
        if key == "l":  # at any time, the help screen too
            if not self.look.toggle_lang():
                self._notify(notice_of("lang.no_cyrillic"))
            elif self.table.snapshot is not None:  # the bots' default names follow
                self.table.snapshot = default_names_in(self.table.snapshot, self.look.lang)
            return
        if self.help:
            if key in ("escape", "?", "f1", "q", "h", "enter"):
                self.help = False
            return
        if key in ("?", "f1", "h"):
            self.help = True
            return
        if self.screen == "table":
            await self._table_key(key)
        elif self.screen == "create":
            await self._create_key(key)
        else:
            await self._lobby_key(key)

    async def _lobby_key(self, key: str) -> None:
        lobby = self.lobby
        if key == "up":
            lobby.move(-1)
        elif key == "down":
            lobby.move(1)
        elif key.startswith("click:row:"):
            lobby.cursor = int(key.rsplit(":", 1)[1])
            await self._join()
        elif key == "enter" and not lobby.tables:  # nobody around: bots fill the seats
            await self._practice(self.base)
        elif key == "enter":
            await self._join()
        elif key == "c":
            self.screen = "create"
            self.form.notice = None
        elif key == "p":
            await self._practice(self.base)
        elif key == "q":  # (not Esc: one Esc too many after the form would quit the game)
            self.exit_app()

    async def _create_key(self, key: str) -> None:
        form = self.form
        if key.startswith("click:"):  # a field's name, its value, or a button
            _, what, index = key.split(":")
            form.focus = int(index)
            key = {"value": "right", "button": "enter"}.get(what, "")
        if key in ("up", "s-tab"):
            form.move(-1)
        elif key in ("down", "tab"):
            form.move(1)
        elif key == "left":
            form.change(-1)
        elif key in ("right", "space"):
            form.change(1)
        elif key in ("escape", "q"):
            self.screen = "lobby"
        elif key == "enter":
            try:
                options = form.options(self.base)
            except RuleError as error:
                form.notice = refusal(error.message_en, error.message_ru)
                return
            if form.field_name == BUTTONS[1]:
                await self._create(options)
            else:
                await self._practice(options)

    async def _table_key(self, key: str) -> None:
        table = self.table
        if table.snapshot is None or is_waiting_room(table.snapshot):
            if key in ("q", "escape"):
                await self._leave_table()  # nothing is at stake before the deal: at once
            elif key == "b" and isinstance(self.session, NetworkSeat):
                await self.session.fill_with_bots()
            return
        if key in ("q", "escape"):
            # after the game, or once it stopped for good (no result: nothing to lose)
            over = table.snapshot is not None and table.snapshot.activity in ("over", "halted")
            if key == "escape" and not over:  # Esc clears the notice and cancels a Q
                table.notice = None
                table.leave_armed = False
                return
            if table.leave_armed or over:
                await self._leave_table()
            else:
                table.leave_armed = True
            return
        if key == "n":
            await self._next_game()
            return
        if key.startswith("click:"):
            command = key.removeprefix("click:")
        elif len(key) == 1 and key.isdigit():
            command = f"card:{(int(key) - 1) % 10}"
        elif len(key) == 1 and key in SHIFT_DIGIT_KEYS:
            command = f"card:{10 + SHIFT_DIGIT_KEYS.index(key)}"
        else:
            command = TABLE_KEYS.get(key, "")
        if not command:
            return
        if table.pending and command != "dummy" and not command.startswith((
                "left", "right", "home", "end", "target", "mark")):
            return  # one action at a time
        action = table.command(command)
        if action is not None:
            table.notice = None
            self._submit(action)

    def _notify(self, notice: Notice) -> None:
        """A notice on the screen being shown."""
        if self.screen == "table":
            self.table.notice = notice
        elif self.screen == "create":
            self.form.notice = notice
        else:
            self.lobby.notice = notice

    # ---- talking to the backend and the session -------------------------------------------

    def _submit(self, action: Action) -> None:
        session = self.session
        if session is None or self._nursery is None:
            return
        self.table.pending = True
        self._nursery.start_soon(self._act, session, action)

    async def _act(self, session: Session, action: Action) -> None:
        try:
            await session.act(action)
        except IllegalAction as error:
            self.table.notice = refusal(error.message("en"), error.message("ru"))
        finally:
            self.table.pending = False
            self.invalidate()

    async def _next_game(self) -> None:
        if self.session is None:
            return
        try:
            await self.session.next_game()
        except IllegalAction as error:
            self.table.notice = refusal(error.message("en"), error.message("ru"))

    async def _practice(self, options: TableOptions) -> None:
        await self._open(self.backend.practice(self._named(options)))

    async def _create(self, options: TableOptions) -> None:
        await self._open(self.backend.create_table(self._named(options)))

    def _named(self, options: TableOptions) -> TableOptions:
        """The default names in the language shown now (after `L`, a new table's bots are
        «Аня, Борис», not "Anna, Boris"); a name the player gave stays."""
        lang = self.look.lang
        bots = BOT_NAMES[lang] if options.bot_names in BOT_NAMES.values() else options.bot_names
        name = PLAYER_NAME[lang] if options.player_name in PLAYER_NAME.values() \
            else options.player_name
        return dataclasses.replace(options, bot_names=bots, player_name=name)

    async def _join(self) -> None:
        seen = self.lobby.selected()
        if seen is None:
            return
        if not seen.table.compatible:
            self.lobby.notice = notice_of("lobby.incompatible",
                                          theirs=seen.table.protocol_version,
                                          ours=PROTOCOL_VERSION)
            return
        if not seen.table.seats_free:
            self.lobby.notice = notice_of("lobby.full")
            return
        await self._open(self.backend.join(seen))

    async def _open(self, opening: Awaitable[Session]) -> None:
        assert self._nursery is not None
        try:
            session = await opening
        except LobbyError as error:
            self._notify(Notice(error.message_en, error.message_ru))
            return
        self.session = session
        self.table = TableUi()
        self.screen = "table"
        self.help = False
        self._nursery.start_soon(self._watch_session, session)

    async def _quit_when_gone(self, seat: NetworkSeat) -> None:
        await seat.gone()
        self.exit_app()

    async def _leave_table(self, *, wait: bool = False) -> None:
        """Back to the lobby at once; the session's leave runs on (a networked node plays its
        graceful leave out in the background) unless `wait`."""
        session, self.session = self.session, None
        self.screen = "lobby"
        self.table = TableUi()
        self._refresh_tonight()
        if session is None:
            return
        if wait or self._nursery is None:
            await _leave(session)
        else:
            self._nursery.start_soon(_leave, session)

    # ---- drawing --------------------------------------------------------------------------

    def render(self, width: int, height: int, post: Post | None = None) -> list[Line]:
        self.too_small = width < MIN_WIDTH or height < MIN_HEIGHT
        return as_shown(self._render(width, height, post), self.look, width)

    def _render(self, width: int, height: int, post: Post | None) -> list[Line]:
        look = self.look
        if width < MIN_WIDTH or height < MIN_HEIGHT:
            text = look.messages("too_small", need_w=MIN_WIDTH, need_h=MIN_HEIGHT,
                                 w=width, h=height)
            lines: list[Line] = [[("class:notice.error", t)] for t in wrap(text, width)]
            return [fit(line, width) for line in pad_lines(lines, height)]
        if self.help:
            snap = self.table.snapshot if self.screen == "table" else None
            if snap is not None:
                players = sum(not seat.is_dummy for seat in snap.seats)  # (с болваном)
                return render_help(snap.preset_id, snap.rules, players, look,
                                   width, height, status=turn_status(self.table, look))
            if self.screen == "create":  # the chosen rules, and the form's keys
                form = self.form
                return render_help(form.preset.id, form.preset.rules, form.players, look,
                                   width, height, keys_of="help.form_lines")
            return render_help(self.form.preset.id, None, None, look, width, height,
                               lobby=True)
        if self.screen == "table":
            snap = self.table.snapshot
            if snap is not None and is_waiting_room(snap):
                can_fill = isinstance(self.session, NetworkSeat) and self.session.can_fill
                return render_waiting(snap, look, width, height, can_fill=can_fill)
            return render_table_screen(self.table, look, width, height, post)
        if self.screen == "create":
            return render_create(self.form, self.base, look, width, height, post)
        return render_lobby(self.lobby, look, width, height, post,
                            you=self._named(self.base).player_name, now=self._wall_clock())



def as_shown(lines: list[Line], look: Look, width: int) -> list[Line]:
    """A screen as this terminal gets it: in ASCII mode every symbol has its stand-in."""
    if not look.ascii_only:
        return lines
    # transliterated words are longer: fit again, and the ellipsis of a cut is ASCII too
    return asciify([fit(line, width) for line in
                    asciify(lines, transliterate=look.lang == "en")])
