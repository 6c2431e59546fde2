"""Real processes on loopback whose nodes listen on one address only (`--bind`).

A joiner tells the host only the port it listens on (`JoinRequest.listen_port`, docs/protocol.md
§7.5); the host pairs it with the address the joiner's connection came from, and every other
player dials the joiner there. A node bound to one address must therefore dial from that
address: bound to 127.0.0.2 but dialling from 127.0.0.1 (the kernel's choice for a loopback
destination), the joiner was seated at an address nobody could reach, and its game never
started — each side waited for the other's link until the grace period ended it.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from p2p_durak.node.identity_store import load_or_create

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


def free_port(address: str) -> int:
    with socket.socket() as s:
        s.bind((address, 0))
        return int(s.getsockname()[1])


def homes_where_the_host_dials(tmp_path: Path) -> tuple[Path, Path]:
    """Data folders whose identities make the host dial the joiner (the smaller key dials):
    the joiner's address is the one that matters."""
    host, joiner = tmp_path / "a", tmp_path / "b"
    host_key = load_or_create(host).peer_id.key
    while load_or_create(joiner).peer_id.key < host_key:
        shutil.rmtree(joiner)
    return host, joiner


def start(args: list[str], log: Path, started: list[subprocess.Popen[bytes]]
          ) -> subprocess.Popen[bytes]:
    with log.open("wb") as out:  # the child keeps its own descriptor
        proc = subprocess.Popen([*DURAK, *args], stdout=out, stderr=subprocess.STDOUT,
                                env={**os.environ, "PYTHONUNBUFFERED": "1"})
    started.append(proc)
    return proc


def wait_for(path: Path, text: str) -> None:
    end = time.monotonic() + DEADLINE
    while time.monotonic() < end:
        if path.exists() and text in path.read_text(encoding="utf-8"):
            return
        time.sleep(0.05)  # polling a real process's output; bounded by DEADLINE
    raise AssertionError(f"{path.name} never said {text!r}: {path.read_text()[-2000:]}")


def finish(proc: subprocess.Popen[bytes], log: Path) -> dict[str, object]:
    try:
        proc.wait(timeout=DEADLINE)
    except subprocess.TimeoutExpired:
        proc.kill()
        raise AssertionError(f"{log.name} did not finish: {log.read_text()[-3000:]}") from None
    text = log.read_text(encoding="utf-8")
    summary: dict[str, object] = json.loads(text.strip().splitlines()[-1])
    assert proc.returncode == 0, text[-3000:]
    return summary


def test_a_joiner_bound_to_one_address_is_reached_at_it(
        tmp_path: Path, processes: list[subprocess.Popen[bytes]]) -> None:
    host_home, joiner_home = homes_where_the_host_dials(tmp_path)
    port = free_port("127.0.0.1")
    host = start(["host", "--no-mdns", "--bind", "127.0.0.1", "--port", str(port), "--seats",
                  "2", "--grace-seconds", "10", "--home", str(host_home), "--player", "Anna",
                  "--json"], tmp_path / "host.out", processes)
    wait_for(tmp_path / "host.out", "table «")
    joiner = start(["join", f"127.0.0.1:{port}", "--bind", "127.0.0.2", "--home",
                    str(joiner_home), "--player", "Boris", "--json"], tmp_path / "join.out",
                   processes)
    mine, theirs = finish(joiner, tmp_path / "join.out"), finish(host, tmp_path / "host.out")
    assert mine["finished"] is True, mine
    assert theirs["finished"] is True, theirs
    assert mine["halted"] == theirs["halted"] == []
