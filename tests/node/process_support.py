"""`durak` as real processes for node tests: start one with its output in a file, wait for a
line, wait for its end and read its JSON summary. Every wait is bounded by `DEADLINE`."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

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


def free_port(address: str = "127.0.0.1") -> int:
    with socket.socket() as s:
        s.bind((address, 0))
        return int(s.getsockname()[1])


def start_durak(args: list[str], log: Path, started: list[subprocess.Popen[bytes]]
                ) -> subprocess.Popen[bytes]:
    with log.open("wb") as out:  # the child keeps its own descriptor
        proc = subprocess.Popen([*DURAK, *args], stdout=out, stderr=subprocess.STDOUT,
                                env={**os.environ, "PYTHONUNBUFFERED": "1"})
    started.append(proc)
    return proc


def wait_for(path: Path, text: str, count: int = 1) -> None:
    end = time.monotonic() + DEADLINE
    while time.monotonic() < end:
        if path.exists() and path.read_text(encoding="utf-8").count(text) >= count:
            return
        time.sleep(0.05)  # polling a real process's output; bounded by DEADLINE
    raise AssertionError(f"{path.name} never said {text!r}: {path.read_text()[-2000:]}")


def summary(path: Path) -> dict[str, object]:
    last = path.read_text(encoding="utf-8").strip().splitlines()[-1]
    return json.loads(last)  # type: ignore[no-any-return]


def finish(proc: subprocess.Popen[bytes], log: Path) -> int:
    try:
        return proc.wait(timeout=DEADLINE)
    except subprocess.TimeoutExpired:
        tail = log.read_text(encoding="utf-8", errors="replace")[-3000:]
        raise AssertionError(f"{log.name} did not finish in {DEADLINE} s; it said:\n{tail}") \
            from None
    finally:
        if proc.poll() is None:
            proc.kill()
