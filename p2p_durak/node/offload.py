"""Blocking work (an fsync, a searching bot) off the event loop — except under a virtual clock.

A worker thread's real duration is invisible to a virtual clock: while it runs, trio's autojump
clock sees every task blocked and jumps to the next deadline, again and again, so timeouts fire
during work that takes no virtual time and a test's outcome depends on how fast the machine is.
Under a :class:`trio.testing.MockClock` the work therefore runs inline: in virtual time it is
instantaneous, which is what a deterministic test means by it.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TypeVar

import trio

T = TypeVar("T")


def virtual_time() -> bool:
    """Whether this trio run keeps virtual time (a test's MockClock)."""
    testing = sys.modules.get("trio.testing")  # imported by whoever made a MockClock; a
    # node process that never did is not paying for the test framework's import here
    return testing is not None and isinstance(trio.lowlevel.current_clock(), testing.MockClock)


async def run_sync(fn: Callable[[], T]) -> T:
    """``fn()`` in a worker thread; once started it completes even if the caller is cancelled
    (the cancellation is delivered afterwards)."""
    if virtual_time():
        await trio.lowlevel.checkpoint_if_cancelled()
        result = fn()
        await trio.lowlevel.cancel_shielded_checkpoint()
        return result
    return await trio.to_thread.run_sync(fn)
