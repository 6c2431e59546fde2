"""The golden wire vectors (tests/protocol/golden) and their fixed inputs, as its README states."""

from __future__ import annotations

import hashlib
from pathlib import Path

GOLDEN = Path(__file__).resolve().parent.parent / "protocol" / "golden"


def label(text: str) -> bytes:
    return hashlib.sha256(text.encode("ascii")).digest()


ALICE_SEED = label("p2p-durak test identity alice")
BOB_SEED = label("p2p-durak test identity bob")
CAROL_SEED = label("p2p-durak test identity carol")
GAME_ID = label("p2p-durak test game")[:16]
RULES_BYTES = bytes.fromhex("930124c3")
INITIATOR_EPHEMERAL = label("p2p-durak test ephemeral initiator")
RESPONDER_EPHEMERAL = label("p2p-durak test ephemeral responder")


def load(name: str) -> bytes:
    """One `.hex` file: a `#` comment line, then lowercase hex."""
    lines = (GOLDEN / f"{name}.hex").read_text(encoding="ascii").splitlines()
    assert lines[0].startswith("#"), f"{name}.hex lacks its comment line"
    return bytes.fromhex("".join(lines[1:]))


def names() -> list[str]:
    return sorted(path.stem for path in GOLDEN.glob("*.hex"))
