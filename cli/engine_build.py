"""The compiled rules engine of a checkout, built in the background while the game runs.

`./durak` installs only what playing needs and starts the game at once (scripts/bootstrap.sh,
issue #15): the engine runs as its Python sources, and the bots are as strong as the engine is
fast (docs/bots.md). The bootstrap then starts `python -m p2p_durak.cli.engine_build` in the
background, niced: it builds a wheel of the checkout with pip (an isolated build environment
brings mypy, whose mypyc compiles the hot modules; setup.py), takes the compiled modules out of
it into `p2p_durak/engine/_native/` and is done. The engine loads them at the next start, and
only while their source hash matches (engine/_compiled.py); a running game is never switched.

While it works, `_native-build.json` in the engine's folder says since when (and, if it failed,
why); `engine_strength()` reads it for the lobby's line about the bots' strength.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

import p2p_durak.engine
from p2p_durak.engine import COMPILED
from p2p_durak.engine._compiled import build_is_current  # the same check the import makes

STATUS_NAME = "_native-build.json"
STALE_AFTER = 30 * 60.0
"""Seconds after which a build that is still 'running' is taken for one that died (a kill -9,
a machine put to sleep): a compile takes 1-3 minutes on a slow laptop."""
WHEEL_NATIVE = "p2p_durak/engine/_native/"


class Strength(Enum):
    COMPILED = "compiled"  # this process runs the compiled engine: bots at full strength
    COMPILING = "compiling"  # a background build is running
    READY = "ready"  # a current build exists: full strength from the next start
    FAILED = "failed"  # the last background build failed (the reason says why)
    PYTHON = "python"  # no build: the engine stays Python


@dataclass(frozen=True)
class EngineStrength:
    strength: Strength
    since: float | None = None  # when the running build started (time.time())
    reason: str = ""  # why the last build failed


def engine_folder() -> Path:
    return Path(p2p_durak.engine.__file__).resolve().parent


def checkout_of(engine: Path) -> Path | None:
    """The checkout the engine's folder belongs to (an editable install), or None (a wheel)."""
    root = engine.parent.parent
    has_build_files = (root / "setup.py").is_file() and (root / "pyproject.toml").is_file()
    return root if has_build_files else None


def engine_strength(engine: Path | None = None, *, now: float | None = None) -> EngineStrength:
    """How strong the bots of this process are, and whether that changes at the next start."""
    if COMPILED:
        return EngineStrength(Strength.COMPILED)
    folder = engine_folder() if engine is None else engine
    status = _read_status(folder / STATUS_NAME)
    clock = time.time() if now is None else now
    if status.state == "building" and clock - status.started < STALE_AFTER:
        return EngineStrength(Strength.COMPILING, since=status.started)
    if "durak-pure" not in sys._xoptions and build_is_current(str(folder)):
        return EngineStrength(Strength.READY)
    if status.state == "failed":
        return EngineStrength(Strength.FAILED, reason=status.reason)
    return EngineStrength(Strength.PYTHON)


@dataclass(frozen=True)
class BuildStatus:
    """What `_native-build.json` says: "building" or "failed" (no file, or a broken one: "")."""

    state: str = ""
    started: float = 0.0
    reason: str = ""


def _read_status(path: Path) -> BuildStatus:
    try:
        fields = json.loads(path.read_text(encoding="utf-8"))
        return BuildStatus(str(fields["state"]), float(fields["started"]),
                           str(fields.get("reason", "")))
    except (OSError, ValueError, TypeError, KeyError):
        return BuildStatus()


def _write_status(path: Path, status: dict[str, object], *, exclusive: bool = False) -> bool:
    """Write the build's status; `exclusive`: only if there is none (two ./durak started at
    once must not build twice). False when another build holds it."""
    data = json.dumps(status).encode()
    if exclusive:
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        except FileExistsError:
            return False
        with os.fdopen(fd, "wb") as status_file:
            status_file.write(data)
        return True
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_bytes(data)
    os.replace(temporary, path)
    return True


def pip_command() -> tuple[str, ...]:
    """A pip to run `pip wheel` with: the venv's, else its base interpreter's (./durak makes
    its venv without pip when the system has one). The wheel is built in an isolated
    environment of pip's own, for the same interpreter either way."""
    base = getattr(sys, "_base_executable", sys.executable)
    for python in dict.fromkeys((sys.executable, base)):
        found = subprocess.run([python, "-m", "pip", "--version"], capture_output=True,
                               check=False)
        if found.returncode == 0:
            return (python, "-m", "pip")
    return (sys.executable, "-m", "pip")


def build(engine: Path | None = None, *, pip: tuple[str, ...] | None = None,
          log: Path | None = None) -> EngineStrength:
    """Compile the checkout's engine unless its build is current or another build runs.

    Returns the strength after it. Never raises for a failed build: the reason goes to the
    status file (the lobby shows it) and to the log.
    """
    folder = engine_folder() if engine is None else engine
    root = checkout_of(folder)
    if root is None or build_is_current(str(folder)):
        return engine_strength(folder)
    status_path = folder / STATUS_NAME
    started = time.time()
    claim = {"state": "building", "started": started, "pid": os.getpid()}
    if not _write_status(status_path, claim, exclusive=True):
        if engine_strength(folder).strength is Strength.COMPILING:
            return EngineStrength(Strength.COMPILING)  # another build is at it
        _write_status(status_path, claim)  # a failed or dead build's status: ours now
    try:
        reason = _compile(root, folder, pip_command() if pip is None else pip, log)
    except OSError as error:  # a full disk, a folder we may not write
        reason = f"{type(error).__name__}: {error}"
    if reason:
        _write_status(status_path, {"state": "failed", "started": started, "reason": reason})
        return EngineStrength(Strength.FAILED, reason=reason)
    status_path.unlink(missing_ok=True)
    return engine_strength(folder)


def _compile(root: Path, folder: Path, pip: tuple[str, ...], log: Path | None) -> str:
    """Build, unpack and put in place; the reason it failed, or "" when it worked."""
    env = {key: value for key, value in os.environ.items()
           if key not in ("DURAK_PURE", "DURAK_COMPILE")}
    with tempfile.TemporaryDirectory(prefix="durak-engine-") as scratch:
        command = [*pip, "wheel", "--no-deps", "--verbose", "--wheel-dir", scratch, str(root)]
        done = subprocess.run(command, env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True, check=False)
        if log is not None:
            with open(log, "a", encoding="utf-8") as log_file:
                log_file.write(done.stdout)
        said = [line.strip() for line in done.stdout.splitlines() if "p2p-durak:" in line]
        if done.returncode != 0:
            return said[-1] if said else f"pip wheel exited with {done.returncode}"
        wheels = list(Path(scratch).glob("*.whl"))
        if len(wheels) != 1:
            return f"pip wheel made {len(wheels)} wheels"
        fresh = folder / "_native.next"
        shutil.rmtree(fresh, ignore_errors=True)
        fresh.mkdir()
        with zipfile.ZipFile(wheels[0]) as wheel:
            for name in wheel.namelist():
                if name.startswith(WHEEL_NATIVE) and not name.endswith("/"):
                    (fresh / name[len(WHEEL_NATIVE):]).write_bytes(wheel.read(name))
    (fresh / ".gitignore").write_text("*\n")  # build output, never committed
    if not build_is_current(str(folder), str(fresh)):
        shutil.rmtree(fresh, ignore_errors=True)
        # mypyc or the C compiler refused (setup.py said why), or the sources were edited
        return said[-1] if said else "the engine's sources changed during the build"
    _put_in_place(fresh, folder / "_native")
    return ""


def _put_in_place(fresh: Path, native: Path) -> None:
    """Replace the old build by renames: a process starting meanwhile finds the old build, no
    build (and runs as Python) or the new one, never half of one."""
    old = native.with_name("_native.old")
    shutil.rmtree(old, ignore_errors=True)
    if native.exists():
        native.rename(old)
    fresh.rename(native)
    shutil.rmtree(old, ignore_errors=True)  # Windows keeps a loaded module's file: left there


def main() -> int:
    log = Path(sys.argv[1]) if len(sys.argv) > 1 else None
    result = build(log=log)
    print(f"p2p-durak: engine build: {result.strength.value} {result.reason}".rstrip())
    return 0 if result.strength is not Strength.FAILED else 1


if __name__ == "__main__":
    sys.exit(main())
