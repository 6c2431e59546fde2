"""Real processes on 127.0.0.1 over TCP: a host with a bot, a joiner in another process; then
the same with the joiner killed (SIGKILL) mid-game and restarted from its journal; and a host
whose process plays all four seats, whose honest game reports no problems."""

from __future__ import annotations

import signal
import subprocess
from pathlib import Path

import pytest
from process_support import (
    DEADLINE,
    DURAK,
    finish,
    free_port,
    processes,
    start_durak,
    summary,
    wait_for,
)

pytestmark = [pytest.mark.subprocess, pytest.mark.slow]
__all__ = ["processes"]  # the fixture, used by name


def _host(tmp_path: Path, port: int, started: list[subprocess.Popen[bytes]]
          ) -> subprocess.Popen[bytes]:
    return start_durak(["host", "--no-mdns", "--bind", "127.0.0.1", "--port", str(port),
                        "--seats", "3", "--bots", "easy", "--home", str(tmp_path / "a"),
                        "--player", "Anna", "--json", "--lang", "en"], tmp_path / "host.out",
                       started)


def test_a_game_between_processes(tmp_path: Path,
                                  processes: list[subprocess.Popen[bytes]]) -> None:
    port = free_port()
    host = _host(tmp_path, port, processes)
    wait_for(tmp_path / "host.out", "table «")
    joiner = start_durak(["join", f"127.0.0.1:{port}", "--bind", "127.0.0.1", "--home",
                          str(tmp_path / "b"), "--player", "Boris", "--json", "--lang", "en"],
                         tmp_path / "join.out", processes)
    assert finish(joiner, tmp_path / "join.out") == 0
    assert finish(host, tmp_path / "host.out") == 0
    mine, theirs = summary(tmp_path / "join.out"), summary(tmp_path / "host.out")
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
    port = free_port()
    host = _host(tmp_path, port, processes)
    wait_for(tmp_path / "host.out", "table «")
    joiner = start_durak(["join", f"127.0.0.1:{port}", "--bind", "127.0.0.1", "--home",
                          str(tmp_path / "b"), "--player", "Boris", "--lang", "en"],
                         tmp_path / "join.out", processes)
    wait_for(tmp_path / "join.out", "Done (бито):", 2)
    joiner.send_signal(signal.SIGKILL)
    joiner.wait(timeout=DEADLINE)
    resumed = start_durak(["resume", "--home", str(tmp_path / "b"), "--json", "--lang", "en"],
                          tmp_path / "resume.out", processes)
    assert finish(resumed, tmp_path / "resume.out") == 0
    assert finish(host, tmp_path / "host.out") == 0
    mine, theirs = summary(tmp_path / "resume.out"), summary(tmp_path / "host.out")
    assert mine["finished"] is True
    assert mine["audit_clean"] is True
    assert mine["durak"] == theirs["durak"]
    assert "rejoining game" in (tmp_path / "resume.out").read_text(encoding="utf-8")


def test_an_honest_four_seat_table_reports_no_problems(
        tmp_path: Path, processes: list[subprocess.Popen[bytes]]) -> None:
    """Four honest seats (three bots may throw in at once: their throw-ins race) and the end of
    the game closing every connection: none of it is a problem. The summary counts such news
    by kind apart from the problems (each a fault, naming the peer)."""
    host = start_durak(["host", "--no-mdns", "--bind", "127.0.0.1", "--seats", "4", "--bots",
                        "easy,easy,easy", "--home", str(tmp_path / "a"), "--json"],
                       tmp_path / "host.out", processes)
    assert finish(host, tmp_path / "host.out") == 0
    outcome = summary(tmp_path / "host.out")
    assert outcome["finished"] is True
    assert outcome["audit_clean"] is True
    assert outcome["problems"] == 0, outcome
    assert isinstance(outcome["news"], dict)
