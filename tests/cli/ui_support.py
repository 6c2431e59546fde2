"""Running the real application in-process: trio as a guest of asyncio, keys through a pipe."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass

import trio
from prompt_toolkit.application import Application
from prompt_toolkit.input import PipeInput, create_pipe_input
from prompt_toolkit.output import DummyOutput
from screen_strategy import choose_key, is_over

from p2p_durak.cli.app import build_app, run_ui
from p2p_durak.cli.backend import LobbyBackend, LocalLobbyBackend, TableOptions
from p2p_durak.cli.canvas import plain
from p2p_durak.cli.controller import Controller
from p2p_durak.cli.guest import IntentSink
from p2p_durak.cli.i18n import Look
from p2p_durak.node.api import TableSnapshot
from p2p_durak.node.tableinfo import DiscoveryEvent

BOT_NAMES = ("Anna", "Boris", "Vera", "Gleb", "Dasha")


def options(**changes: object) -> TableOptions:
    fields: dict[str, object] = {"players": 3, "seed": 5, "bot_level": "easy",
                                 "bot_delay": 0.0, "player_name": "Tester",
                                 "bot_names": BOT_NAMES}
    fields.update(changes)
    return TableOptions(**fields)  # type: ignore[arg-type]


@dataclass
class Ui:
    app: Application[None]
    controller: Controller
    pipe: PipeInput
    exited: trio.Event
    _changed: trio.Event
    renders: int = 0

    def screen(self, width: int = 80, height: int = 24) -> str:
        return plain(self.controller.render(width, height))

    def bump(self) -> None:
        self._changed.set()
        self._changed = trio.Event()

    async def until(self, predicate: Callable[[], bool]) -> None:
        """Wait until the predicate holds (checked after every repaint request)."""
        while not predicate():
            await self._changed.wait()

    async def press(self, keys: str) -> None:
        """Type `keys` into the terminal and wait until the controller has handled each."""
        target = self.controller.intents_handled + len(keys)
        self.pipe.send_text(keys)
        await self.until(lambda: self.controller.intents_handled >= target)

    async def press_and_see(self, key: str) -> TableSnapshot:
        """Press a key and wait for the snapshot it brings (so that the next choice is not
        made on the snapshot from before the move)."""
        table = self.controller.table
        before = table.snapshot
        await self.press(key)
        await self.until(lambda: self.settled() and table.snapshot is not before)
        after = table.snapshot
        assert after is not None
        return after

    async def play_to_the_end(self, moves: int = 800) -> None:
        """Play this seat's moves by the screen's keys until the game is over."""
        for _ in range(moves):
            await self.until(lambda: self.settled() and (
                choose_key(self.screen()) is not None or is_over(self.screen())))
            screen = self.screen()
            if is_over(screen):
                return
            await self.press_and_see(choose_key(screen) or "p")
        raise AssertionError(f"the game is not over after {moves} moves")

    async def rendered(self) -> None:
        """Wait until the app has drawn the current state (its mouse map is current)."""
        target = self.renders + 1
        self.app.invalidate()
        await self.until(lambda: self.renders >= target)

    def settled(self) -> bool:
        """Nothing on its way: no action pending, no snapshot unread."""
        session = self.controller.session
        if self.controller.table.pending:
            return False
        if session is not None:
            buffered = session.snapshots.statistics().current_buffer_used
            if buffered:
                return False
        return True


@asynccontextmanager
async def running_ui(look: Look | None = None, base: TableOptions | None = None, *,
                     autostart: bool = False,
                     tables: trio.MemoryReceiveChannel[DiscoveryEvent] | None = None,
                     backend: LobbyBackend | None = None) -> AsyncIterator[Ui]:
    """The app on a pipe and a dummy terminal, its controller driving a local backend."""
    with create_pipe_input() as pipe:
        async with trio.open_nursery() as nursery:
            controller = Controller(backend or LocalLobbyBackend(nursery, tables),
                                    look or Look("en", False), base or options(),
                                    autostart=autostart)
            sink = IntentSink()
            app = build_app(controller, sink, input=pipe, output=DummyOutput())
            ui = Ui(app, controller, pipe, trio.Event(), trio.Event())
            repaint = controller.invalidate

            def invalidate() -> None:
                repaint()
                ui.bump()

            controller.invalidate = invalidate

            token = trio.lowlevel.current_trio_token()

            def rendered() -> None:
                ui.renders += 1
                ui.bump()

            def after_render(_: object) -> None:  # on the asyncio side: wake trio properly
                token.run_sync_soon(rendered)

            app.after_render += after_render

            async def run() -> None:
                await run_ui(app, controller, sink)
                ui.exited.set()

            nursery.start_soon(run)
            try:
                yield ui
            finally:
                nursery.cancel_scope.cancel()
