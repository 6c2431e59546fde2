"""Where a node keeps its files.

The data folder is, first found wins: the ``home`` argument, the ``P2P_DURAK_HOME`` environment
variable, then the platform's usual place for an application's data:

* Linux and other Unix: ``$XDG_DATA_HOME/p2p-durak``, else ``~/.local/share/p2p-durak``
  (relative ``XDG_DATA_HOME`` values are ignored, as the XDG Base Directory specification asks;
  platformdirs' rule on these systems is the same, and a test holds the two together);
* macOS: ``~/Library/Application Support/p2p-durak`` (platformdirs);
* Windows: ``%LOCALAPPDATA%\\p2p-durak`` (platformdirs, from the system's known folder).

Versions before platformdirs used the Unix rule everywhere, so on macOS and Windows a folder
they made (``~/.local/share/p2p-durak``) is used as long as the usual place does not exist yet:
a player keeps her identity and games after an update. See docs/decisions/0012-platformdirs.md.
The folder holds secrets, so it is created readable by its owner only.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from pathlib import Path

from platformdirs.macos import MacOS
from platformdirs.windows import Windows

APP_DIR_NAME = "p2p-durak"
HOME_ENV = "P2P_DURAK_HOME"
PRIVATE_DIR_MODE = 0o700


def data_dir(
    home: str | os.PathLike[str] | None = None,
    *,
    environ: Mapping[str, str] | None = None,
    system: str | None = None,
) -> Path:
    """The node's data folder (not created; see :func:`ensure_private_dir`).

    ``environ`` stands for ``os.environ`` and ``system`` for ``sys.platform`` (for tests); on
    macOS and Windows platformdirs reads the process environment and the system itself.
    """
    env = os.environ if environ is None else environ
    if home is not None:
        return Path(home).expanduser()
    override = env.get(HOME_ENV)
    if override:
        return Path(override).expanduser()
    before_platformdirs = unix_data_dir(env)
    usual = usual_data_dir(env, sys.platform if system is None else system)
    if usual != before_platformdirs and not usual.exists() and before_platformdirs.is_dir():
        return before_platformdirs  # made by an older version: keep the player's identity
    return usual


def usual_data_dir(environ: Mapping[str, str], system: str) -> Path:
    """The platform's usual place for the game's data (``system`` as in ``sys.platform``)."""
    if system == "win32":
        return Path(Windows(APP_DIR_NAME, appauthor=False, roaming=False).user_data_dir)
    if system == "darwin":
        return Path(MacOS(APP_DIR_NAME, appauthor=False).user_data_dir)
    return unix_data_dir(environ)


def unix_data_dir(environ: Mapping[str, str]) -> Path:
    """The XDG rule: the data folder on Linux, and everywhere before platformdirs."""
    xdg = environ.get("XDG_DATA_HOME")
    if xdg and os.path.isabs(xdg):
        return Path(xdg) / APP_DIR_NAME
    user_home = environ.get("HOME") or str(Path.home())
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
