"""Log records go to a file while the full-screen UI runs, never to the terminal.

Without a handler of its own, Python's logging prints WARNING records on stderr ("last
resort"), and in a full-screen prompt-toolkit window those lines are written over the table
(a peer fault while bots connect to a networked table did exactly that). While the UI runs,
the root logger writes to `ui.log` in the node's data folder instead (nothing at all when the
folder cannot be written).
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from p2p_durak.node.paths import ensure_private_dir

LOG_FILE = "ui.log"


@contextmanager
def log_to_file(folder: Path) -> Iterator[Path | None]:
    """Route the root logger's records to `folder/ui.log` for the duration; the file, or None
    when it cannot be opened (then records are dropped rather than drawn on the screen)."""
    root = logging.getLogger()
    handler: logging.Handler
    path: Path | None = folder / LOG_FILE
    try:
        ensure_private_dir(folder)
        handler = logging.FileHandler(folder / LOG_FILE, encoding="utf-8")
    except OSError:
        handler, path = logging.NullHandler(), None
    handler.setLevel(logging.WARNING)
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root.addHandler(handler)
    try:
        yield path
    finally:
        root.removeHandler(handler)
        handler.close()
