"""A real `durak host` attacked over raw TCP while it plays a series with a joiner in another
process (127.0.0.1): junk bytes, a frame header of 4 GiB, a zero-length frame, a handshake
claiming the host's own identity, a stranger's valid handshake, and a flood of connections that
send a frame header and then nothing. The host names each peer (its address, and the claimed or
proven fingerprint) and the reason on its output, tells the peer why with an `Error`, never
crashes, and its games with the honest joiner end alike on both: same result, audits clean.
(Charter: bad input gets a clear error naming the peer and the reason; the node never crashes,
never diverges from honest peers and never loses the game's data.)"""

from __future__ import annotations

import socket
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

from p2p_durak.node.doorman import MAX_STRANGERS
from p2p_durak.node.identity_store import load_or_create
from p2p_durak.protocol.channel import AcceptHandshake, PeerConnection, Role, StartHandshake
from p2p_durak.protocol.framing import NeedData
from p2p_durak.protocol.identity import Identity
from p2p_durak.protocol.messages import HandshakeInit

pytestmark = [pytest.mark.subprocess, pytest.mark.slow]
__all__ = ["processes"]  # the fixture, used by name

ERROR_FRAME = b"\x94\x04\x01"  # the msgpack head of an `Error` (tag 4, version 1)


def _connect(port: int) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=DEADLINE)
    sock.settimeout(DEADLINE)
    return sock


def _answer(sock: socket.socket) -> bytes:
    """Everything the host sends until it hangs up."""
    got = b""
    while data := sock.recv(65536):
        got += data
    sock.close()
    return got


def _send_and_listen(port: int, data: bytes) -> bytes:
    sock = _connect(port)
    sock.sendall(data)
    return _answer(sock)


def _stranger(port: int) -> bytes:
    """A valid handshake under a fresh identity, then silence: what does the host say?"""
    sock = _connect(port)
    conn = PeerConnection(Identity.generate(), Role.INITIATOR)
    sock.sendall(conn.send(StartHandshake()))
    while isinstance(conn.next_event(), NeedData):
        conn.receive_data(sock.recv(65536))
    sock.sendall(conn.send(AcceptHandshake()))
    return _answer(sock)


def test_a_host_under_attack_names_each_peer_and_plays_on(
        tmp_path: Path, processes: list[subprocess.Popen[bytes]]) -> None:
    port = free_port()
    host = start_durak(["host", "--no-mdns", "--bind", "127.0.0.1", "--port", str(port),
                        "--seats", "3", "--bots", "easy", "--home", str(tmp_path / "a"),
                        "--player", "Anna", "--games", "4", "--lang", "en", "--json"],
                       tmp_path / "host.out", processes)
    wait_for(tmp_path / "host.out", "table «")
    joiner = start_durak(["join", f"127.0.0.1:{port}", "--bind", "127.0.0.1", "--home",
                          str(tmp_path / "b"), "--player", "Boris", "--games", "4", "--lang",
                          "en", "--json"], tmp_path / "join.out", processes)
    wait_for(tmp_path / "join.out", "the game starts")
    own = load_or_create(tmp_path / "a").peer_id
    claim_own = HandshakeInit((1,), own, bytes(range(1, 33))).encode()
    answers = {
        "junk": _send_and_listen(port, b"\x00\x00\x00\x05hello"),
        "huge": _send_and_listen(port, b"\xff\xff\xff\xff"),
        "zero": _send_and_listen(port, b"\x00\x00\x00\x00"),
        "own identity": _send_and_listen(port, len(claim_own).to_bytes(4, "big") + claim_own),
        "stranger": _stranger(port),
    }
    for what, answer in answers.items():
        if what != "stranger":  # the stranger's Error is encrypted: it only has to come
            assert answer[4:7] == ERROR_FRAME, (what, answer)
        assert answer, what
    flood = []
    for _ in range(3 * MAX_STRANGERS):
        sock = _connect(port)
        sock.sendall((100).to_bytes(4, "big") + b"\x93")
        flood.append(sock)
    cut = sum(1 for sock in flood if sock.recv(65536) == b"")  # the first are cut for room
    assert cut >= 2 * MAX_STRANGERS

    assert finish(joiner, tmp_path / "join.out") == 0
    assert finish(host, tmp_path / "host.out") == 0
    for sock in flood:
        sock.close()
    said = (tmp_path / "host.out").read_text(encoding="utf-8")
    refused = [line for line in said.splitlines()
               if line.startswith("refused connection from a peer at 127.0.0.1:")]
    assert len(refused) >= len(answers) + 1, said[-3000:]
    for reason in ("exceeds 1024", "zero-length frame", f"claiming {own}",
                   "peer claims our own identity", "nothing here for it",
                   "cut: still in its handshake"):
        assert any(reason in line for line in refused), (reason, refused)
    mine, theirs = summary(tmp_path / "join.out"), summary(tmp_path / "host.out")
    assert mine["games"] == theirs["games"] == 4
    assert mine["series_duraks"] == theirs["series_duraks"]
    assert mine["audit_clean"] is True
    assert theirs["audit_clean"] is True
    transcript = next((tmp_path / "a" / "games").glob("*/transcript.durak"))
    audit = subprocess.run([*DURAK, "audit", str(transcript)], capture_output=True, text=True,
                           timeout=DEADLINE, check=False)
    assert audit.returncode == 0, audit.stdout + audit.stderr
