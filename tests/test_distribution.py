"""The sdist and the wheel hold every module, and each installs into a clean virtual
environment where `durak` plays a game (issue #15).

protocol/ and cli/ are mapped into the package by setuptools (decision 0001), so a module
missing from a distribution would not show in the editable install the other tests use: only
a real build and a clean install catch it. Built pure Python (DURAK_COMPILE=later keeps this
checkout's compiled engine) to stay in tens of seconds.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tarfile
import venv
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
from package_map import modules  # noqa: E402  (scripts/ is not a package)

pytestmark = [pytest.mark.slow, pytest.mark.subprocess]

BUILD_ENV = {**os.environ, "DURAK_COMPILE": "later", "PIP_DISABLE_PIP_VERSION_CHECK": "1"}


def wheel_paths() -> set[str]:
    """Each module's file as the wheel must hold it: p2p_durak/protocol/channel.py, …"""
    paths = set()
    for name, path in modules():
        stem = name.replace(".", "/")
        paths.add(f"{stem}/__init__.py" if path.name == "__init__.py" else f"{stem}.py")
    return paths


@pytest.fixture(scope="module")
def dists(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    out = tmp_path_factory.mktemp("dist")
    # the wheel is built from the sdist, as pip and pipx do for an sdist
    subprocess.run([sys.executable, "-m", "build", "--no-isolation", "--outdir", str(out),
                    str(ROOT)], check=True, env=BUILD_ENV, capture_output=True)
    (sdist,) = out.glob("*.tar.gz")
    (wheel,) = out.glob("*.whl")
    return {"sdist": sdist, "wheel": wheel}


def test_the_wheel_holds_every_module_and_only_p2p_durak(dists: dict[str, Path]) -> None:
    names = set(zipfile.ZipFile(dists["wheel"]).namelist())
    assert wheel_paths() <= names, sorted(wheel_paths() - names)
    tops = {name.split("/", 1)[0] for name in names}
    assert {top for top in tops if not top.endswith(".dist-info")} == {"p2p_durak"}


def test_the_sdist_holds_every_source(dists: dict[str, Path]) -> None:
    with tarfile.open(dists["sdist"]) as sdist:
        names = {name.split("/", 1)[1] for name in sdist.getnames() if "/" in name}
    sources = {str(path.relative_to(ROOT)) for _, path in modules()}
    assert sources <= names, sorted(sources - names)
    assert {"pyproject.toml", "setup.py", "README.md"} <= names


def _scripts(env_dir: Path) -> Path:
    return env_dir / ("Scripts" if os.name == "nt" else "bin")


@pytest.fixture(scope="module")
def venvs(dists: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A clean venv for each distribution (nothing of the checkout or of its venv), installed
    side by side: most of the time is pip waiting for the package index."""
    made = {kind: tmp_path_factory.mktemp(f"venv-{kind}") for kind in dists}
    for env_dir in made.values():
        venv.create(env_dir, with_pip=False)  # this venv's pip installs (seconds less each)
    # --no-compile: pip would byte-compile every dependency; the runs below compile what they use
    installs = {kind: subprocess.Popen(
        [sys.executable, "-m", "pip", "--python", str(_scripts(env_dir) / "python"), "install",
         "--quiet", "--no-compile", str(dists[kind])], env=BUILD_ENV, cwd=env_dir,
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        for kind, env_dir in made.items()}
    for kind, install in installs.items():
        output, _ = install.communicate(timeout=600)
        assert install.returncode == 0, f"pip install of the {kind}: {output[-3000:]}"
    return made


@pytest.fixture(params=["sdist", "wheel"])
def installed(request: pytest.FixtureRequest, venvs: dict[str, Path]) -> Path:
    return venvs[request.param]


def _run(command: list[str | Path], cwd: Path) -> subprocess.CompletedProcess[str]:
    # from a folder outside the checkout, with no PYTHONPATH: only the installed copy is found
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    return subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=240, check=False)


def test_durak_version_and_python_m(installed: Path) -> None:
    for command in ([_scripts(installed) / "durak", "--version"],
                    [_scripts(installed) / "python", "-m", "p2p_durak", "--version"]):
        result = _run(command, installed)
        assert result.returncode == 0, result.stderr
        assert result.stdout.strip() == "durak 0.1.0"


def test_a_headless_bot_game_from_the_installed_package(installed: Path) -> None:
    # a networked game between two node processes on 127.0.0.1: engine, bots, protocol (the
    # mental-poker deck), node and cli all come from the installed distribution
    result = _run([_scripts(installed) / "durak", "host", "--seats", "2", "--level", "random",
                   "--bots", "random", "--bind", "127.0.0.1", "--no-mdns",
                   "--home", str(installed / "home"), "--seed", "1", "--json"], installed)
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    summary = json.loads(result.stdout.strip().splitlines()[-1])
    assert summary["finished"]
    assert summary["audit_clean"]
    assert summary["problems"] == 0
    package = _run([_scripts(installed) / "python", "-c",
                    "import p2p_durak.protocol, p2p_durak.cli; "
                    "print(p2p_durak.protocol.__file__); print(p2p_durak.cli.__file__)"],
                   installed)
    for line in package.stdout.split():
        assert Path(line).is_relative_to(installed), line


def test_pipx_installs_the_wheel_and_the_sdist(
        dists: dict[str, Path], tmp_path: Path) -> None:
    # issue 15: `pipx install` of the built sdist and wheel gives a working `durak`; pipx itself
    # comes from the package index into a venv of its own, and keeps its apps under tmp_path
    tools = tmp_path / "pipx-venv"
    venv.create(tools, with_pip=False)
    got = subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(_scripts(tools) / "python"), "install",
         "--quiet", "--no-compile", "pipx"], env=BUILD_ENV, capture_output=True, text=True,
        timeout=600, check=False)
    assert got.returncode == 0, got.stdout[-2000:] + got.stderr[-2000:]
    for kind, dist in dists.items():
        home, bin_dir = tmp_path / f"pipx-home-{kind}", tmp_path / f"pipx-bin-{kind}"
        env = {**BUILD_ENV, "PIPX_HOME": str(home), "PIPX_BIN_DIR": str(bin_dir),
               "PIPX_MAN_DIR": str(tmp_path / "man"), "PIPX_DEFAULT_PYTHON": sys.executable}
        env.pop("PYTHONPATH", None)
        done = subprocess.run([_scripts(tools) / "pipx", "install", str(dist)], env=env,
                              cwd=tmp_path, capture_output=True, text=True, timeout=600,
                              check=False)
        assert done.returncode == 0, f"pipx install of the {kind}: {done.stderr[-3000:]}"
        version = _run([bin_dir / "durak", "--version"], tmp_path)
        assert version.returncode == 0, version.stderr
        assert version.stdout.strip() == "durak 0.1.0"
