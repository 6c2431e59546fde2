"""The background build of the compiled engine, and the lobby's line on the bots' strength
(issue #15: `./durak` starts at once in pure Python and says when the bots are at full
strength). A fake checkout and a fake `pip wheel` stand in for the minutes mypyc takes; the
real build is measured in docs/performance.md."""

from __future__ import annotations

import hashlib
import json
import sys
import time
from pathlib import Path

import pytest
import trio

from p2p_durak.cli import engine_build
from p2p_durak.cli.backend import LocalLobbyBackend, TableOptions
from p2p_durak.cli.canvas import plain
from p2p_durak.cli.controller import Controller
from p2p_durak.cli.engine_build import (
    STALE_AFTER,
    STATUS_NAME,
    EngineStrength,
    Strength,
    build,
    engine_strength,
)
from p2p_durak.cli.i18n import Look
from p2p_durak.cli.lobby_ui import LobbyUi
from p2p_durak.cli.lobby_view import render_lobby
from p2p_durak.engine._compiled import build_is_current

NAMES = ("cards", "core")

FAKE_PIP = '''
import hashlib, sys, zipfile
from pathlib import Path
args = sys.argv[1:]
out = Path(args[args.index("--wheel-dir") + 1])
root = Path(args[-1])
mode = (root / "pip-mode").read_text()
if mode == "refuse":
    print("p2p-durak: mypyc failed, the engine stays pure Python (a type error)")
    sys.exit(1)
engine = root / "p2p_durak" / "engine"
digest = hashlib.sha256()
for name in ("cards", "core"):
    digest.update(name.encode() + b"\\0" + (engine / f"{name}.py").read_bytes() + b"\\0")
stamp = digest.hexdigest() if mode == "compile" else "0" * 64
with zipfile.ZipFile(out / "p2p_durak-0.1.0-cp311-linux.whl", "w") as wheel:
    wheel.writestr("p2p_durak/engine/__init__.py", "")
    if mode != "pure":
        wheel.writestr("p2p_durak/engine/_native/core.so", b"compiled")
        wheel.writestr("p2p_durak/engine/_native/sources.sha256", stamp + " cards core\\n")
'''


@pytest.fixture(autouse=True)
def pure_process(monkeypatch: pytest.MonkeyPatch) -> None:
    """This test process may run the compiled engine (a compiled venv): the states below are
    those of a process that runs the Python one."""
    monkeypatch.setattr(engine_build, "COMPILED", False)


@pytest.fixture
def checkout(tmp_path: Path) -> Path:
    """A checkout's shape: setup.py, pyproject.toml, p2p_durak/engine with two sources."""
    root = tmp_path / "checkout"
    engine = root / "p2p_durak" / "engine"
    engine.mkdir(parents=True)
    for name in ("setup.py", "pyproject.toml"):
        (root / name).write_text("")
    for name in NAMES:
        (engine / f"{name}.py").write_text(f"# {name}\n")
    (root / "pip-mode").write_text("compile")
    (tmp_path / "fake_pip.py").write_text(FAKE_PIP)
    return root


def engine_of(root: Path) -> Path:
    return root / "p2p_durak" / "engine"


def fake_pip(root: Path) -> tuple[str, ...]:
    return (sys.executable, str(root.parent / "fake_pip.py"))


def write_stamp(engine: Path) -> None:
    digest = hashlib.sha256()
    for name in NAMES:
        digest.update(name.encode() + b"\0" + (engine / f"{name}.py").read_bytes() + b"\0")
    (engine / "_native").mkdir(exist_ok=True)
    (engine / "_native" / "sources.sha256").write_text(f"{digest.hexdigest()} cards core\n")


def test_a_build_puts_the_compiled_modules_in_place_and_says_ready(checkout: Path) -> None:
    engine = engine_of(checkout)
    assert engine_strength(engine).strength is Strength.PYTHON
    log = checkout.parent / "build.log"
    result = build(engine, pip=fake_pip(checkout), log=log)
    assert result.strength is Strength.READY  # used from the next start, not by this process
    assert (engine / "_native" / "core.so").read_bytes() == b"compiled"
    assert (engine / "_native" / ".gitignore").read_text() == "*\n"
    assert build_is_current(str(engine))
    assert not (engine / STATUS_NAME).exists()
    assert not (engine / "_native.next").exists()
    # current: a second start does not build again (the fake would fail if it ran)
    (checkout / "pip-mode").write_text("refuse")
    assert build(engine, pip=fake_pip(checkout)).strength is Strength.READY


def test_an_edited_engine_is_built_again_and_the_old_build_replaced(checkout: Path) -> None:
    engine = engine_of(checkout)
    build(engine, pip=fake_pip(checkout))
    (engine / "core.py").write_text("# core, edited\n")
    assert engine_strength(engine).strength is Strength.PYTHON  # the old build is not used
    assert build(engine, pip=fake_pip(checkout)).strength is Strength.READY
    assert build_is_current(str(engine))
    assert not (engine / "_native.old").exists()


@pytest.mark.parametrize(("mode", "reason"), [
    ("refuse", "p2p-durak: mypyc failed, the engine stays pure Python (a type error)"),
    ("pure", "the engine's sources changed during the build"),
    ("stale", "the engine's sources changed during the build"),
])
def test_a_failed_build_is_told_and_leaves_the_engine_pure(
        checkout: Path, mode: str, reason: str) -> None:
    engine = engine_of(checkout)
    (checkout / "pip-mode").write_text(mode)
    result = build(engine, pip=fake_pip(checkout))
    assert result == EngineStrength(Strength.FAILED, reason=reason)
    assert engine_strength(engine) == result  # the lobby tells it
    assert not (engine / "_native").exists()
    assert not (engine / "_native.next").exists()
    (checkout / "pip-mode").write_text("compile")  # the next start tries again
    assert build(engine, pip=fake_pip(checkout)).strength is Strength.READY


def test_one_build_at_a_time_and_a_dead_one_does_not_block(checkout: Path) -> None:
    engine = engine_of(checkout)
    started = time.time() - 5
    (engine / STATUS_NAME).write_text(json.dumps({"state": "building", "started": started}))
    (checkout / "pip-mode").write_text("refuse")  # it must not run
    assert build(engine, pip=fake_pip(checkout)).strength is Strength.COMPILING
    assert engine_strength(engine) == EngineStrength(Strength.COMPILING, since=started)
    dead = time.time() - STALE_AFTER - 1  # killed, or the laptop slept: taken over
    (engine / STATUS_NAME).write_text(json.dumps({"state": "building", "started": dead}))
    assert engine_strength(engine).strength is Strength.PYTHON
    (checkout / "pip-mode").write_text("compile")
    assert build(engine, pip=fake_pip(checkout)).strength is Strength.READY


def test_an_installed_wheel_is_not_built(tmp_path: Path) -> None:
    engine = tmp_path / "site-packages" / "p2p_durak" / "engine"
    engine.mkdir(parents=True)
    assert build(engine, pip=("false",)).strength is Strength.PYTHON


def test_strength_reads_the_running_engine_first(checkout: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    engine = engine_of(checkout)
    write_stamp(engine)
    assert engine_strength(engine).strength is Strength.READY
    monkeypatch.setattr(engine_build, "COMPILED", True)
    assert engine_strength(engine).strength is Strength.COMPILED


LINES = {
    Strength.COMPILED: ("Bots at full strength (compiled rules engine)",
                        "Боты в полную силу (скомпилированный движок правил)"),
    Strength.COMPILING: ("Bots at reduced strength while the rules engine compiles (1:05 so far)",
                         "Боты пока слабее: движок правил компилируется в фоне (идёт 1:05)"),
    Strength.READY: ("Compiled engine ready: bots at full strength once you restart durak",
                     "Движок скомпилирован: боты в полную силу после перезапуска durak"),
    Strength.FAILED: ("Bots at reduced strength: the engine did not compile (no compiler)",
                      "Боты слабее: движок не скомпилировался (no compiler)"),
    Strength.PYTHON: ("Bots at reduced strength: the rules engine runs as pure Python",
                      "Боты слабее: движок правил работает на чистом Python"),
}


@pytest.mark.parametrize("strength", list(Strength))
@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_lobby_says_how_strong_the_bots_are(strength: Strength, lang: str) -> None:
    engine = EngineStrength(strength, since=1000.0, reason="no compiler")
    screen = plain(render_lobby(LobbyUi(engine=engine), Look(lang, False), 80, 24,
                                now=1065.0)).splitlines()
    expected = LINES[strength][lang == "ru"]
    assert any(line.strip() == expected for line in screen), screen
    assert len(screen) == 24
    assert all(len(line) <= 80 for line in screen)


def base() -> TableOptions:
    return TableOptions(players=2, seed=1, player_name="Olga", bot_delay=0.0)


async def test_the_lobby_follows_a_build_until_it_is_done(
        tmp_path: Path, autojump_clock: trio.abc.Clock) -> None:
    states = [EngineStrength(Strength.COMPILING, since=0.0)] * 3 + [
        EngineStrength(Strength.READY)]
    asked: list[EngineStrength] = []

    def status() -> EngineStrength:
        asked.append(states[min(len(asked), len(states) - 1)])
        return asked[-1]

    async with trio.open_nursery() as nursery:
        backend = LocalLobbyBackend(nursery, home=tmp_path)
        controller = Controller(backend, Look("en", False), base(), engine_status=status,
                                wall_clock=lambda: 42.0)
        send, receive = trio.open_memory_channel[str](0)
        await nursery.start(controller.run, receive)
        await trio.sleep(60)
        assert controller.lobby.engine == EngineStrength(Strength.READY)
        assert len(asked) == 4  # it stops looking once the build is done
        screen = plain(controller.render(80, 24))
        assert LINES[Strength.READY][0] in screen
        await send.aclose()


@pytest.mark.parametrize(("states", "ends", "asks"), [
    # ./durak starts the build just before the game: on a busy machine it says so late
    ([Strength.PYTHON, Strength.PYTHON, Strength.COMPILING, Strength.READY], Strength.READY, 4),
    # none ever starts (a wheel install, DURAK_PURE): it stops looking after a minute
    ([Strength.PYTHON], Strength.PYTHON, 31),
    ([Strength.COMPILED], Strength.COMPILED, 1),
])
async def test_the_lobby_waits_a_minute_for_a_build_to_start(
        tmp_path: Path, autojump_clock: trio.abc.Clock, states: list[Strength], ends: Strength,
        asks: int) -> None:
    asked: list[Strength] = []

    def status() -> EngineStrength:
        asked.append(states[min(len(asked), len(states) - 1)])
        return EngineStrength(asked[-1], since=0.0)

    async with trio.open_nursery() as nursery:
        backend = LocalLobbyBackend(nursery, home=tmp_path)
        controller = Controller(backend, Look("en", False), base(), engine_status=status)
        send, receive = trio.open_memory_channel[str](0)
        await nursery.start(controller.run, receive)
        await trio.sleep(600)
        assert controller.lobby.engine is not None
        assert controller.lobby.engine.strength is ends
        assert len(asked) == asks
        await send.aclose()
