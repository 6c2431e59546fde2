"""Real processes on loopback whose nodes listen on one address only (`--bind`).

A joiner tells the host only the port it listens on (`JoinRequest.listen_port`, docs/protocol.md
§7.5); the host pairs it with the address the joiner's connection came from, and every other
player dials the joiner there. A node bound to one address must therefore dial from that
address: bound to 127.0.0.2 but dialling from 127.0.0.1 (the kernel's choice for a loopback
destination), the joiner was seated at an address nobody could reach, and its game never
started — each side waited for the other's link until the grace period ended it.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from process_support import finish, free_port, processes, start_durak, summary, wait_for

from p2p_durak.node.identity_store import load_or_create

pytestmark = [pytest.mark.subprocess, pytest.mark.slow]
__all__ = ["processes"]  # the fixture, used by name


def homes_where_the_host_dials(tmp_path: Path) -> tuple[Path, Path]:
    """Data folders whose identities make the host dial the joiner (the smaller key dials):
    the joiner's address is the one that matters."""
    host, joiner = tmp_path / "a", tmp_path / "b"
    host_key = load_or_create(host).peer_id.key
    while load_or_create(joiner).peer_id.key < host_key:
        shutil.rmtree(joiner)
    return host, joiner


def test_a_joiner_bound_to_one_address_is_reached_at_it(
        tmp_path: Path, processes: list[subprocess.Popen[bytes]]) -> None:
    host_home, joiner_home = homes_where_the_host_dials(tmp_path)
    port = free_port("127.0.0.1")
    host = start_durak(["host", "--no-mdns", "--bind", "127.0.0.1", "--port", str(port),
                        "--seats", "2", "--grace-seconds", "10", "--home", str(host_home),
                        "--player", "Anna", "--json"], tmp_path / "host.out", processes)
    wait_for(tmp_path / "host.out", "table «")
    joiner = start_durak(["join", f"127.0.0.1:{port}", "--bind", "127.0.0.2", "--home",
                          str(joiner_home), "--player", "Boris", "--json"],
                         tmp_path / "join.out", processes)
    for proc, out in ((joiner, tmp_path / "join.out"), (host, tmp_path / "host.out")):
        assert finish(proc, out) == 0, out.read_text(encoding="utf-8")[-3000:]
    mine, theirs = summary(tmp_path / "join.out"), summary(tmp_path / "host.out")
    assert mine["finished"] is True, mine
    assert theirs["finished"] is True, theirs
    assert mine["halted"] == theirs["halted"] == []
