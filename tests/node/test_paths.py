from __future__ import annotations

import stat
from pathlib import Path

import platformdirs
import pytest

from p2p_durak.node.paths import APP_DIR_NAME, HOME_ENV, data_dir, ensure_private_dir


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


@pytest.mark.parametrize("xdg", [None, "", "relative/dir", "/xdg"])
def test_linux_place_is_platformdirs_place(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, xdg: str | None
) -> None:
    # our XDG rule and platformdirs' Unix rule must name the same folder, or Linux players
    # would lose their data the day the code switched to platformdirs there
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv(HOME_ENV, raising=False)
    if xdg is None:
        monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    else:
        monkeypatch.setenv("XDG_DATA_HOME", xdg)
    usual = Path(platformdirs.unix.Unix(APP_DIR_NAME, appauthor=False).user_data_dir)
    assert data_dir(system="linux") == usual


def _home_without_xdg(monkeypatch: pytest.MonkeyPatch, home: Path) -> dict[str, str]:
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    return {"HOME": str(home)}


def test_macos_uses_application_support(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    env = _home_without_xdg(monkeypatch, tmp_path)
    usual = tmp_path / "Library" / "Application Support" / APP_DIR_NAME
    assert data_dir(environ=env, system="darwin") == usual
    assert not usual.exists()  # naming the folder does not create it


def test_windows_uses_local_app_data(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    env = _home_without_xdg(monkeypatch, tmp_path)
    # platformdirs' own override of the known folder, so the Windows rule runs on any system
    monkeypatch.setenv("WIN_PD_OVERRIDE_LOCAL_APPDATA", "C:\\Users\\u\\AppData\\Local")
    found = str(data_dir(environ=env, system="win32"))
    assert found.startswith("C:\\Users\\u\\AppData\\Local")
    assert found.endswith(APP_DIR_NAME)


@pytest.mark.parametrize("system", ["darwin", "win32"])
def test_a_folder_of_an_older_version_is_still_found(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, system: str
) -> None:
    env = _home_without_xdg(monkeypatch, tmp_path)
    # a Windows path is relative here: it lands in tmp_path as one folder name with backslashes
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("WIN_PD_OVERRIDE_LOCAL_APPDATA", "C:\\Users\\u\\AppData\\Local")
    usual = data_dir(environ=env, system=system)
    older = tmp_path / ".local" / "share" / APP_DIR_NAME
    assert usual != older
    older.mkdir(parents=True)
    assert data_dir(environ=env, system=system) == older  # the identity and games made before
    usual.mkdir(parents=True)
    assert data_dir(environ=env, system=system) == usual  # once the usual place exists, it wins


def test_ensure_private_dir(tmp_path: Path) -> None:
    target = tmp_path / "a" / "b" / "c"
    assert ensure_private_dir(target) == target
    for folder in (tmp_path / "a", tmp_path / "a" / "b", target):
        assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert ensure_private_dir(target) == target  # existing: fine
    (tmp_path / "file").write_bytes(b"")
    with pytest.raises(NotADirectoryError):
        ensure_private_dir(tmp_path / "file")
