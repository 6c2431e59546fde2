"""The installation's identities, kept in the data folder.

One Ed25519 key per installation (`node`) identifies the player everywhere; a process that hosts
bots keeps one key per bot name so a restarted bot is the same peer and can rejoin its game.
Keys are written atomically with owner-only permissions.
"""

from __future__ import annotations

import re
from pathlib import Path

from p2p_durak.node.journal import atomic_write, read_file
from p2p_durak.node.paths import ensure_private_dir
from p2p_durak.protocol.identity import SEED_SIZE, Identity

_NAME = re.compile(r"[a-z0-9][a-z0-9_.-]{0,63}")


def identity_path(home: Path, name: str = "node") -> Path:
    if not _NAME.fullmatch(name):
        raise ValueError(f"not an identity name: {name!r}")
    return home / "identity" / f"{name}.key"


def load_or_create(home: Path, name: str = "node") -> Identity:
    """The identity called `name`, created on first use."""
    path = identity_path(home, name)
    if path.exists():
        seed = read_file(path)
        if len(seed) != SEED_SIZE:
            raise ValueError(f"{path} is not an identity key ({len(seed)} bytes)")
        return Identity.from_seed(seed)
    ensure_private_dir(path.parent)
    identity = Identity.generate()
    atomic_write(path, identity.seed)
    return identity
