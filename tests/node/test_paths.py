from __future__ import annotations

import stat
from pathlib import Path

import pytest

from p2p_durak.node.paths import HOME_ENV, data_dir, ensure_private_dir


def test_argument_wins(tmp_path: Path) -> None:
    env = {HOME_ENV: "/env/home", "XDG_DATA_HOME": "/xdg", "HOME": "/home/u"}
    assert data_dir(tmp_path, environ=env) == tmp_path


def test_environment_override() -> None:
    env = {HOME_ENV: "/env/home", "XDG_DATA_HOME": "/xdg", "HOME": "/home/u"}
    assert data_dir(environ=env) == Path("/env/home")


def test_xdg_data_home() -> None:
    assert data_dir(environ={"XDG_DATA_HOME": "/xdg", "HOME": "/home/u"}) == Path("/xdg/p2p-durak")


@pytest.mark.parametrize("xdg", ["", "relative/dir"])
def test_default_under_home(xdg: str) -> None:
    env = {"XDG_DATA_HOME": xdg, "HOME": "/home/u"}
    assert data_dir(environ=env) == Path("/home/u/.local/share/p2p-durak")


def test_uses_the_real_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv(HOME_ENV, str(tmp_path / "x"))
    assert data_dir() == tmp_path / "x"


def test_ensure_private_dir(tmp_path: Path) -> None:
    target = tmp_path / "a" / "b" / "c"
    assert ensure_private_dir(target) == target
    for folder in (tmp_path / "a", tmp_path / "a" / "b", target):
        assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert ensure_private_dir(target) == target  # existing: fine
    (tmp_path / "file").write_bytes(b"")
    with pytest.raises(NotADirectoryError):
        ensure_private_dir(tmp_path / "file")
