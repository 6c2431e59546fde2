"""Trio as a guest on prompt-toolkit's asyncio loop.

prompt-toolkit runs on asyncio only; the node runs on trio. `run_guest` runs a trio function
as a guest of a fresh asyncio loop (`trio.lowlevel.start_guest_run`): both share one thread,
so the UI and the node never need locks. From inside trio, `run_app` runs a prompt-toolkit
application as an asyncio task on the host loop and waits for it; cancelling the wait exits
the app, and the app's exit ends the wait. Key handlers reach trio through an `IntentSink`,
which wakes trio with `TrioToken.run_sync_soon` (a plain `send_nowait` from the asyncio side
would not wake a trio run that is waiting for I/O).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from contextlib import suppress
from typing import Any, TypeVar

import outcome
import trio
from prompt_toolkit.application import Application

T = TypeVar("T")


def run_guest(async_fn: Callable[..., Awaitable[T]], *args: Any,
              clock: trio.abc.Clock | None = None,
              instruments: Sequence[trio.abc.Instrument] = ()) -> T:
    """`trio.run`, but with trio as the guest of an asyncio loop (`asyncio.run`).

    Same call shape as `trio.run`, so pytest-trio can use it: `@pytest.mark.trio(run=run_guest)`.
    """

    async def host() -> T:
        loop = asyncio.get_running_loop()
        done: asyncio.Future[outcome.Outcome[T]] = loop.create_future()
        trio.lowlevel.start_guest_run(
            async_fn, *args,
            run_sync_soon_threadsafe=loop.call_soon_threadsafe,
            done_callback=done.set_result,
            host_uses_signal_set_wakeup_fd=True,
            clock=clock,
            instruments=instruments,
        )
        return (await done).unwrap()

    return asyncio.run(host())


async def run_app(app: Application[Any]) -> Any:
    """Run a prompt-toolkit app on the host loop until it exits; its result."""
    loop = asyncio.get_running_loop()  # the asyncio host, seen from guest code
    token = trio.lowlevel.current_trio_token()
    finished = trio.Event()
    task = loop.create_task(app.run_async())

    def wake(_: object) -> None:
        with suppress(trio.RunFinishedError):
            token.run_sync_soon(finished.set)

    task.add_done_callback(wake)
    try:
        await finished.wait()
    finally:
        if not task.done():
            if app.is_running:
                app.exit()
            else:  # not started yet
                task.cancel()
            with trio.CancelScope(shield=True):
                await finished.wait()
    return task.result()


class IntentSink:
    """Where key handlers post key names; trio receives them on a memory channel."""

    def __init__(self) -> None:
        self._early: list[str] = []
        self._send: trio.MemorySendChannel[str] | None = None
        self._token: trio.lowlevel.TrioToken | None = None

    def attach(self, send: trio.MemorySendChannel[str]) -> None:
        """From trio: deliver here from now on (keys posted before are delivered first)."""
        self._send = send
        self._token = trio.lowlevel.current_trio_token()
        early, self._early = self._early, []
        for key in early:
            self._deliver(key)

    def post(self, key: str) -> None:
        """From anywhere on the host thread (a key handler, a mouse handler)."""
        if self._token is None:
            self._early.append(key)
            return
        with suppress(trio.RunFinishedError):
            self._token.run_sync_soon(self._deliver, key)

    def _deliver(self, key: str) -> None:
        if self._send is not None:
            with suppress(trio.ClosedResourceError, trio.BrokenResourceError, trio.WouldBlock):
                self._send.send_nowait(key)
