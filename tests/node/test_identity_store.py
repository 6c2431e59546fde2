"""One Ed25519 identity per installation (issue 4, "an Ed25519 key per installation"), kept in
the data folder as its 32-byte seed with owner-only permissions (docs/protocol.md §2)."""

from __future__ import annotations

import stat
import sys
from pathlib import Path

import pytest

from p2p_durak.node.identity_store import identity_path, load_or_create
from p2p_durak.protocol.identity import SEED_SIZE, Identity


def test_the_first_use_creates_the_key_and_every_later_use_reads_it(tmp_path: Path) -> None:
    path = identity_path(tmp_path)
    assert not path.exists()
    first = load_or_create(tmp_path)
    assert path.read_bytes() == first.seed
    assert len(first.seed) == SEED_SIZE
    again = load_or_create(tmp_path)
    assert again.peer_id == first.peer_id
    assert again.fingerprint == first.fingerprint
    assert Identity.from_seed(path.read_bytes()).peer_id == first.peer_id


def test_installations_and_named_bot_keys_are_distinct(tmp_path: Path) -> None:
    mine = load_or_create(tmp_path / "one")
    other = load_or_create(tmp_path / "two")
    bot = load_or_create(tmp_path / "one", "bot1-easy")
    assert len({mine.peer_id, other.peer_id, bot.peer_id}) == 3
    assert load_or_create(tmp_path / "one", "bot1-easy").peer_id == bot.peer_id
    assert load_or_create(tmp_path / "one").peer_id == mine.peer_id


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX permissions")
def test_the_key_is_readable_by_its_owner_only(tmp_path: Path) -> None:
    load_or_create(tmp_path)
    path = identity_path(tmp_path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700


def test_a_damaged_key_file_is_refused_not_replaced(tmp_path: Path) -> None:
    path = identity_path(tmp_path)
    path.parent.mkdir(parents=True)
    path.write_bytes(b"\x01" * 31)
    with pytest.raises(ValueError, match="is not an identity key"):
        load_or_create(tmp_path)
    assert path.read_bytes() == b"\x01" * 31  # the player's identity is never silently swapped


@pytest.mark.parametrize("name", ["", "../node", "Node", "a/b", "x" * 65])
def test_identity_names_cannot_leave_the_identity_folder(tmp_path: Path, name: str) -> None:
    with pytest.raises(ValueError, match="not an identity name"):
        load_or_create(tmp_path, name)
