"""Real processes on 127.0.0.1 over TCP: a host with a bot, a joiner in another process; then
the same with the joiner killed (SIGKILL) mid-game and restarted from its journal; and a host
whose process plays all four seats, whose honest game reports no problems."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

pytestmark = [pytest.mark.subprocess, pytest.mark.slow]

DURAK = [sys.executable, "-m", "p2p_durak.cli.main"]
DEADLINE = 120.0


@pytest.fixture
def processes() -> Iterator[list[subprocess.Popen[bytes]]]:
    """Every process a test starts; whatever is left running is killed and reaped."""
    started: list[subprocess.Popen[bytes]] = []
    yield started
    for proc in started:
        if proc.poll() is None:
            proc.kill()
        proc.wait(timeout=DEADLINE)


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _start(args: list[str], log: Path, started: list[subprocess.Popen[bytes]]
           ) -> subprocess.Popen[bytes]:
    with log.open("wb") as out:  # the child keeps its own descriptor
        proc = subprocess.Popen([*DURAK, *args], stdout=out, stderr=subprocess.STDOUT,
                                env={**os.environ, "PYTHONUNBUFFERED": "1"})
    started.append(proc)
    return proc


def _wait_for(path: Path, text: str, count: int = 1) -> None:
    end = time.monotonic() + DEADLINE
    while time.monotonic() < end:
        if path.exists() and path.read_text(encoding="utf-8").count(text) >= count:
            return
        time.sleep(0.05)  # polling a real process's output; bounded by DEADLINE
    raise AssertionError(f"{path.name} never said {text!r}: {path.read_text()[-2000:]}")


def _summary(path: Path) -> dict[str, object]:
    last = path.read_text(encoding="utf-8").strip().splitlines()[-1]
    return json.loads(last)  # type: ignore[no-any-return]


def _finish(proc: subprocess.Popen[bytes], log: Path) -> int:
    try:
        return proc.wait(timeout=DEADLINE)
    except subprocess.TimeoutExpired:
        tail = log.read_text(encoding="utf-8", errors="replace")[-3000:]
        raise AssertionError(f"{log.name} did not finish in {DEADLINE} s; it said:\n{tail}") \
            from None
    finally:
        if proc.poll() is None:
            proc.kill()


def _host(tmp_path: Path, port: int, started: list[subprocess.Popen[bytes]]
          ) -> subprocess.Popen[bytes]:
    return _start(["host", "--no-mdns", "--bind", "127.0.0.1", "--port", str(port), "--seats",
                   "3", "--bots", "easy", "--home", str(tmp_path / "a"), "--player", "Anna",
                   "--json", "--lang", "en"], tmp_path / "host.out", started)


def test_a_game_between_processes(tmp_path: Path,
                                  processes: list[subprocess.Popen[bytes]]) -> None:
    port = _port()
    host = _host(tmp_path, port, processes)
    _wait_for(tmp_path / "host.out", "table «")
    joiner = _start(["join", f"127.0.0.1:{port}", "--bind", "127.0.0.1", "--home",
                     str(tmp_path / "b"), "--player", "Boris", "--json", "--lang", "en"],
                    tmp_path / "join.out", processes)
    assert _finish(joiner, tmp_path / "join.out") == 0
    assert _finish(host, tmp_path / "host.out") == 0
    mine, theirs = _summary(tmp_path / "join.out"), _summary(tmp_path / "host.out")
    assert mine["finished"] is True
    assert mine["audit_clean"] is True
    assert (mine["durak"], mine["draw"]) == (theirs["durak"], theirs["draw"])
    assert (mine["problems"], theirs["problems"]) == (0, 0), (mine, theirs)
    transcript = next((tmp_path / "b" / "games").glob("*/transcript.durak"))
    audit = subprocess.run([*DURAK, "audit", str(transcript), "--lang", "en"],
                           capture_output=True, text=True, timeout=DEADLINE, check=False)
    assert audit.returncode == 0, audit.stdout + audit.stderr
    assert "every signature, hash link and move verified" in audit.stdout


def test_a_killed_player_rejoins_and_the_game_goes_on(
        tmp_path: Path, processes: list[subprocess.Popen[bytes]]) -> None:
    port = _port()
    host = _host(tmp_path, port, processes)
    _wait_for(tmp_path / "host.out", "table «")
    joiner = _start(["join", f"127.0.0.1:{port}", "--bind", "127.0.0.1", "--home",
                     str(tmp_path / "b"), "--player", "Boris", "--lang", "en"],
                    tmp_path / "join.out", processes)
    _wait_for(tmp_path / "join.out", "Done (бито):", 2)
    joiner.send_signal(signal.SIGKILL)
    joiner.wait(timeout=DEADLINE)
    resumed = _start(["resume", "--home", str(tmp_path / "b"), "--json", "--lang", "en"],
                     tmp_path / "resume.out", processes)
    assert _finish(resumed, tmp_path / "resume.out") == 0
    assert _finish(host, tmp_path / "host.out") == 0
    mine, theirs = _summary(tmp_path / "resume.out"), _summary(tmp_path / "host.out")
    assert mine["finished"] is True
    assert mine["audit_clean"] is True
    assert mine["durak"] == theirs["durak"]
    assert "rejoining game" in (tmp_path / "resume.out").read_text(encoding="utf-8")


def test_an_honest_four_seat_table_reports_no_problems(
        tmp_path: Path, processes: list[subprocess.Popen[bytes]]) -> None:
    """Four honest seats (three bots may throw in at once: their throw-ins race) and the end of
    the game closing every connection: none of it is a problem. The summary counts such news
    by kind apart from the problems (each a fault, naming the peer)."""
    host = _start(["host", "--no-mdns", "--bind", "127.0.0.1", "--seats", "4", "--bots",
                   "easy,easy,easy", "--home", str(tmp_path / "a"), "--json"],
                  tmp_path / "host.out", processes)
    assert _finish(host, tmp_path / "host.out") == 0
    outcome = _summary(tmp_path / "host.out")
    assert outcome["finished"] is True
    assert outcome["audit_clean"] is True
    assert outcome["problems"] == 0, outcome
    assert isinstance(outcome["news"], dict)
