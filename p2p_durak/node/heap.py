"""Keep the garbage collector's full passes off a running game's critical path.

CPython's full (oldest-generation) collection walks every tracked object of the process: in a
node that is the imported code, the engine's tables and the lobby, some 40,000 objects and about
30 ms of CPU on a 2-core laptop, several times that on a busy one. It comes once or twice per
game, when the heap has grown by a quarter, and for its duration the node neither acks nor
orders: every commit waiting on that node waits for it (the 99th percentile of the commit
latency).

While a game runs, the objects that existed when it started are frozen (`gc.freeze`: skipped by
every collection, still freed by reference counting), so a full pass walks only what the game
made. When the last game of the process ends they are unfrozen, so cyclic garbage left from
before (which a frozen object cannot become part of until then) is collected between games.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

_games = 0  # games of this process running now (one process may host several bot peers)


@contextmanager
def frozen_while_playing() -> Iterator[None]:
    global _games
    gc.freeze()  # a second game freezes what the first one made so far, too
    _games += 1
    try:
        yield
    finally:
        _games -= 1
        if _games == 0:
            gc.unfreeze()
