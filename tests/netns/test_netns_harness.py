from __future__ import annotations

import os
import socket
import subprocess
import sys
from collections.abc import Callable

import netns_harness
import pytest
from netns_harness import NetnsLab, lab_namespaces, netns_lab

pytestmark = pytest.mark.netns


def test_hosts_reach_each_other_and_nothing_else(
    no_leaked_namespaces: None, make_lab: Callable[[int], NetnsLab]
) -> None:
    lab = make_lab(3)
    assert [h.address for h in lab.hosts] == ["10.77.0.1", "10.77.0.2", "10.77.0.3"]
    for host in lab.hosts:
        links = lab.run(host.index, ["ip", "-o", "link", "show"]).stdout
        assert sorted(line.split(":")[1].strip().split("@")[0] for line in links.splitlines()) == [
            "eth0",
            "lo",
        ]
        routes = lab.run(host.index, ["ip", "route", "show"]).stdout
        assert "default" not in routes
        assert "224.0.0.0/4 dev eth0" in routes
    # The lab's range exists only inside the lab.
    root = subprocess.run(["ip", "-o", "addr"], capture_output=True, text=True, check=True)
    assert "10.77.0." not in root.stdout

    server = lab.call_in(1, lambda: socket.create_server((lab.hosts[1].address, 0)))
    with server:
        port = server.getsockname()[1]
        client = lab.call_in(
            0, lambda: socket.create_connection((lab.hosts[1].address, port), timeout=5)
        )
        with client:
            connection, peer = server.accept()
            with connection:
                assert peer[0] == lab.hosts[0].address
                client.sendall(b"ping")
                assert connection.recv(4) == b"ping"


def test_call_in_reports_errors_from_the_namespace(make_lab: Callable[[int], NetnsLab]) -> None:
    lab = make_lab(1)

    def fails() -> None:
        raise LookupError("inside")

    with pytest.raises(LookupError, match="inside"):
        lab.call_in(0, fails)


def test_everything_is_removed_on_exit_even_after_an_error(no_leaked_namespaces: None) -> None:
    if netns_harness.netns_unavailable_reason():
        pytest.skip(f"network namespaces unavailable: {netns_harness.netns_unavailable_reason()}")
    names: list[str] = []
    sleepers: list[subprocess.Popen[bytes]] = []

    def failing_test_body() -> None:
        with netns_lab(2) as lab:
            names.extend([lab.bridge_netns, *(h.netns for h in lab.hosts)])
            assert set(names) <= set(lab_namespaces())
            sleepers.append(lab.popen(0, [sys.executable, "-c", "import time; time.sleep(60)"]))
            raise RuntimeError("test body")

    with pytest.raises(RuntimeError, match="test body"):
        failing_test_body()
    assert not set(names) & set(lab_namespaces())
    assert sleepers[0].returncode is not None  # killed, not left running in a dead namespace


def test_a_failed_build_removes_what_it_made(
    monkeypatch: pytest.MonkeyPatch, no_leaked_namespaces: None
) -> None:
    if netns_harness.netns_unavailable_reason():
        pytest.skip(f"network namespaces unavailable: {netns_harness.netns_unavailable_reason()}")
    real_ip = netns_harness._ip
    calls = 0

    def flaky_ip(*args: str) -> None:
        nonlocal calls
        calls += 1
        if args[0] == "-n" and "route" in args:
            raise subprocess.CalledProcessError(2, ["ip", *args], "", "injected failure")
        real_ip(*args)

    monkeypatch.setattr(netns_harness, "_ip", flaky_ip)
    with pytest.raises(subprocess.CalledProcessError), netns_lab(2):
        pass
    assert calls > 3


def test_lab_size_is_checked() -> None:
    with pytest.raises(ValueError, match="hosts"), netns_lab(0):
        pass


def test_labs_of_dead_processes_are_removed(no_leaked_namespaces: None) -> None:
    if netns_harness.netns_unavailable_reason():
        pytest.skip(f"network namespaces unavailable: {netns_harness.netns_unavailable_reason()}")
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    stale = f"{netns_harness.NAME_PREFIX}-{dead.pid}-abcdef-0"
    alive = f"{netns_harness.NAME_PREFIX}-{os.getpid()}-abcdef-0"
    netns_harness._ip("netns", "add", stale)
    netns_harness._ip("netns", "add", alive)
    try:
        assert stale in netns_harness.remove_stale_labs()
        assert lab_namespaces().count(alive) == 1
    finally:
        for name in (stale, alive):
            if name in lab_namespaces():
                netns_harness._ip("netns", "del", name)
