"""Whole games over real multicast: one `durak` process in each of several network namespaces on
one bridge. The host advertises its table over mDNS; every joiner finds it by name (no address
is ever given to a joiner) and the game is played to the end over TCP between the namespaces.

The second test kills one joiner with SIGKILL mid-game and starts it again in the same namespace
with `durak resume`; the game must still finish for everyone.

Every wait is bounded (a deadline per test), and the lab kills every process it started when the
test ends, passed or failed, so nothing here can hang or leak.
"""

from __future__ import annotations

import json
import os
import secrets
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from netns_harness import NetnsLab

pytestmark = [pytest.mark.netns, pytest.mark.subprocess, pytest.mark.slow]

DURAK = [sys.executable, "-m", "p2p_durak.cli.main"]
# Seconds for a whole test, audits included; it only bounds a hang. A game takes 15-30 s, but
# 75 s was overrun with the machine's load at 10-14 and a second pytest-xdist worker busy.
DEADLINE = 150.0
FIND_SECONDS = 20.0  # how long a joiner browses mDNS for the table
POLL = 0.05  # polling real processes' output files; every loop is bounded by the deadline


@dataclass
class Peer:
    """One `durak` process in one namespace, its output file and its data folder."""

    name: str
    host: int
    home: Path
    out: Path
    process: subprocess.Popen[bytes]

    def text(self) -> str:
        return self.out.read_text(encoding="utf-8", errors="replace") if self.out.exists() else ""

    def summary(self) -> dict[str, Any]:
        lines = self.text().strip().splitlines()
        assert lines, f"{self.name} printed nothing"
        try:
            result: dict[str, Any] = json.loads(lines[-1])
        except json.JSONDecodeError:
            raise AssertionError(f"{self.name} ended without a summary:\n{self.tail()}") from None
        return result

    def tail(self, chars: int = 3000) -> str:
        return self.text()[-chars:]


class Clock:
    """The test's one deadline: every wait takes what is left of it, never more."""

    def __init__(self, seconds: float) -> None:
        self.end = time.monotonic() + seconds

    def left(self) -> float:
        return max(0.0, self.end - time.monotonic())


def start(lab: NetnsLab, host: int, name: str, argv: Sequence[str], tmp: Path,
          home: Path | None = None, suffix: str = "") -> Peer:
    home = home or tmp / f"home-{host}"
    out = tmp / f"{name}{suffix}.out"
    with out.open("wb") as sink:  # the child keeps its own descriptor
        process = lab.popen(host, [*DURAK, *argv], stdout=sink, stderr=subprocess.STDOUT,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    return Peer(name, host, home, out, process)


def wait_for(peer: Peer, clock: Clock, said: Callable[[str], bool], what: str) -> None:
    while clock.left() > 0:
        if said(peer.text()):
            return
        if peer.process.poll() is not None:
            if said(peer.text()):
                return
            raise AssertionError(f"{peer.name} exited ({peer.process.returncode}) before "
                                 f"{what}:\n{peer.tail()}")
        time.sleep(POLL)
    raise AssertionError(f"{peer.name}: no {what} in time:\n{peer.tail()}")


def wait_exit(peers: Sequence[Peer], clock: Clock) -> dict[str, int]:
    codes: dict[str, int] = {}
    for peer in peers:
        try:
            codes[peer.name] = peer.process.wait(timeout=clock.left())
        except subprocess.TimeoutExpired:
            stuck = "\n\n".join(f"== {p.name}\n{p.tail(1500)}" for p in peers)
            raise AssertionError(f"{peer.name} did not finish in time:\n{stuck}") from None
    return codes


def table_name() -> str:
    # Unique per run, so a stray advertisement from anywhere else can never be mistaken for ours.
    return f"netns-{secrets.token_hex(4)}"


def start_host(lab: NetnsLab, tmp: Path, table: str, seats: int) -> Peer:
    address = lab.hosts[0].address
    return start(lab, 0, "host", ["host", "--name", table, "--seats", str(seats),
                                  "--interface", address, "--bind", address,
                                  "--home", str(tmp / "home-0"), "--player", "Host",
                                  "--json"], tmp)


def start_joiner(lab: NetnsLab, tmp: Path, table: str, host: int) -> Peer:
    address = lab.hosts[host].address
    return start(lab, host, f"joiner{host}",
                 ["join", "--table", table, "--wait", str(FIND_SECONDS),
                  "--interface", address, "--bind", address, "--home", str(tmp / f"home-{host}"),
                  "--player", f"P{host}", "--json"], tmp)


def open_table(lab: NetnsLab, tmp: Path, clock: Clock) -> tuple[Peer, list[Peer]]:
    """The host in namespace 0 with a seat for every namespace, and a joiner in each of the
    others that finds the table by its name over mDNS (at the host's lab address)."""
    table = table_name()
    host = start_host(lab, tmp, table, len(lab.hosts))
    wait_for(host, clock, lambda text: "table «" in text, "table line")
    joiners = [start_joiner(lab, tmp, table, i) for i in range(1, len(lab.hosts))]
    for joiner in joiners:
        wait_for(joiner, clock, lambda text: f"found «{table}»" in text, "mDNS find")
        assert f"at {lab.hosts[0].address}:" in joiner.text()
    return host, joiners


def audit(lab: NetnsLab, peer: Peer, clock: Clock) -> None:
    transcripts = sorted(peer.home.glob("games/*/transcript.durak"))
    assert len(transcripts) == 1, f"{peer.name}: transcripts {transcripts}"
    result = lab.run(peer.host, [*DURAK, "audit", str(transcripts[0])],
                     timeout=max(1.0, clock.left()))
    assert result.returncode == 0, f"{peer.name}: {result.stdout}{result.stderr}"
    assert "every signature, hash link and move verified" in result.stdout


def check_agreement(peers: Sequence[Peer], codes: dict[str, int]) -> None:
    report = "\n\n".join(f"== {p.name} (exit {codes.get(p.name)})\n{p.tail(1500)}" for p in peers)
    assert all(code == 0 for code in codes.values()), report
    summaries = {p.name: p.summary() for p in peers}
    for name, summary in summaries.items():
        assert summary["finished"] is True, f"{name}: {summary}"
        assert summary["audit_clean"] is True, f"{name}: {summary}"
        assert summary["halted"] == [], f"{name}: {summary}"
    outcomes = {(tuple(s["durak"]), s["draw"]) for s in summaries.values()}
    assert len(outcomes) == 1, f"the peers disagree on the outcome: {summaries}"


def check_no_refusals(peers: Sequence[Peer]) -> None:
    """Nobody turned a fellow player's connection away: at the start a node's game may run a
    moment after a peer dials it (the host withdraws its table from mDNS first), and the link
    waits for it instead of being refused (each refusal was logged as a peer's fault)."""
    for peer in peers:
        said = [line for line in peer.text().splitlines()
                if "refused connection" in line or "GOING_AWAY" in line
                or "peer fault" in line]
        assert said == [], f"{peer.name}:\n" + "\n".join(said)


@pytest.mark.parametrize("nodes", [4])
def test_nodes_in_namespaces_find_the_table_by_mdns_and_finish_a_game(
        make_lab: Callable[[int], NetnsLab], tmp_path: Path, nodes: int) -> None:
    clock = Clock(DEADLINE)
    lab = make_lab(nodes)
    host, joiners = open_table(lab, tmp_path, clock)
    peers = [host, *joiners]
    check_agreement(peers, wait_exit(peers, clock))
    check_no_refusals(peers)
    for peer in peers:
        audit(lab, peer, clock)


def test_a_node_killed_mid_game_resumes_in_its_namespace_and_the_game_finishes(
        make_lab: Callable[[int], NetnsLab], tmp_path: Path) -> None:
    nodes = 3
    clock = Clock(DEADLINE)
    lab = make_lab(nodes)
    host, joiners = open_table(lab, tmp_path, clock)
    victim = joiners[-1]
    # A few bouts in: well into the game, with cards dealt and moves committed by everyone.
    wait_for(victim, clock, lambda text: text.count("Done (бито):") >= 2, "second bout")
    victim.process.send_signal(signal.SIGKILL)
    assert victim.process.wait(timeout=max(1.0, clock.left())) == -signal.SIGKILL
    assert '"finished"' not in victim.text()
    resumed = start(lab, victim.host, victim.name, ["resume", "--home", str(victim.home),
                                                    "--json"], tmp_path, home=victim.home,
                    suffix="-resumed")
    wait_for(resumed, clock, lambda text: "rejoining game" in text, "rejoin line")
    peers = [host, *joiners[:-1], resumed]
    check_agreement(peers, wait_exit(peers, clock))
    for peer in peers:
        audit(lab, peer, clock)
