"""Where a node keeps its files.

The data folder is, first found wins: the ``home`` argument, the ``P2P_DURAK_HOME`` environment
variable, ``$XDG_DATA_HOME/p2p-durak``, ``~/.local/share/p2p-durak``. Relative ``XDG_DATA_HOME``
values are ignored, as the XDG Base Directory specification asks. The folder holds secrets, so
it is created readable by its owner only.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

APP_DIR_NAME = "p2p-durak"
HOME_ENV = "P2P_DURAK_HOME"
PRIVATE_DIR_MODE = 0o700


def data_dir(
    home: str | os.PathLike[str] | None = None, *, environ: Mapping[str, str] | None = None
) -> Path:
    """The node's data folder (not created; see :func:`ensure_private_dir`)."""
    env = os.environ if environ is None else environ
    if home is not None:
        return Path(home).expanduser()
    override = env.get(HOME_ENV)
    if override:
        return Path(override).expanduser()
    xdg = env.get("XDG_DATA_HOME")
    if xdg and os.path.isabs(xdg):
        return Path(xdg) / APP_DIR_NAME
    user_home = env.get("HOME") or str(Path.home())
    return Path(user_home) / ".local" / "share" / APP_DIR_NAME


def fsync_dir(path: str | os.PathLike[str]) -> None:
    """Make a folder's entries (a new, renamed or removed file) durable."""
    flags = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0)
    try:
        fd = os.open(path, flags)
    except OSError:
        if os.name == "nt":  # folders cannot be opened (nor need syncing) there
            return
        raise
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def ensure_private_dir(path: str | os.PathLike[str]) -> Path:
    """Create ``path`` (and missing parents) with mode 0700 if needed; return it.

    An existing folder is left as it is (its mode is the user's choice). New folders are
    made durable by syncing their parent.
    """
    target = Path(path)
    missing: list[Path] = []
    probe = target
    while not probe.exists():
        missing.append(probe)
        if probe.parent == probe:
            break
        probe = probe.parent
    for folder in reversed(missing):
        try:
            folder.mkdir(mode=PRIVATE_DIR_MODE)
        except FileExistsError:
            continue  # made concurrently by someone else
        fsync_dir(folder.parent)
    if not target.is_dir():
        raise NotADirectoryError(f"{target} exists and is not a folder")
    return target
