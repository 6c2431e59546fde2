"""Private Linux network namespaces joined by a bridge, for real-multicast tests.

A lab is K "host" namespaces, each with one veth (``eth0``, address 10.77.0.<i+1>/24) plugged into
a bridge that lives in its own namespace. Nothing is created in the root namespace, so traffic
between the hosts (multicast included) can never reach a real network: the bridge namespace has
no uplink and the host namespaces have no other interface than ``lo`` and their veth.

Everything is torn down when the lab closes, also when building it fails half-way. Processes
started through the lab are killed first, because a namespace whose last process has not exited
keeps existing after ``ip netns del``.

Two ways into a namespace:
- ``lab.popen(i, argv)`` / ``lab.run(i, argv)`` run a command under ``ip netns exec``;
- ``lab.call_in(i, fn)`` runs ``fn`` in a fresh OS thread that has entered the namespace with
  ``setns(2)``. Sockets keep the namespace they were created in, so an object that opens its
  sockets in ``fn`` (a ``zeroconf.Zeroconf``, for instance) works inside the namespace from then
  on, while the calling process stays where it was.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import functools
import os
import secrets
import shutil
import subprocess
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

T = TypeVar("T")

SUBNET_PREFIX = "10.77.0"  # only ever configured inside lab namespaces
PREFIX_LEN = 24
NAME_PREFIX = "pdk"
MAX_HOSTS = 200
_CLONE_NEWNET = 0x40000000
_NETNS_DIR = "/run/netns"
_IP_TIMEOUT = 10.0


class NetnsUnavailable(RuntimeError):
    """Namespaces cannot be made here (not root, no ``ip``, or the kernel refused)."""


def _ip(*args: str) -> None:
    ip = shutil.which("ip")
    if ip is None:
        raise NetnsUnavailable("the `ip` command (iproute2) is not installed")
    result = subprocess.run(
        [ip, *args], capture_output=True, text=True, timeout=_IP_TIMEOUT, check=False
    )
    if result.returncode != 0:
        raise subprocess.CalledProcessError(
            result.returncode, ["ip", *args], result.stdout, result.stderr
        )


@functools.cache
def netns_unavailable_reason() -> str | None:
    """Why this machine cannot run lab tests, or None if it can (probed once per process)."""
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        return "network namespaces need root"
    if shutil.which("ip") is None:
        return "the `ip` command (iproute2) is not installed"
    probe = f"{NAME_PREFIX}-probe-{secrets.token_hex(4)}"
    try:
        _ip("netns", "add", probe)
    except (subprocess.CalledProcessError, OSError, subprocess.TimeoutExpired) as exc:
        detail = getattr(exc, "stderr", "") or str(exc)
        return f"`ip netns add` failed: {detail.strip()}"
    try:
        _ip("netns", "del", probe)
    except (subprocess.CalledProcessError, OSError, subprocess.TimeoutExpired) as exc:
        return f"`ip netns del` failed: {exc}"
    return None


@functools.cache
def _libc_setns() -> Callable[[int, int], int]:
    libc = ctypes.CDLL(None, use_errno=True)
    setns: Callable[[int, int], int] = libc.setns
    return setns


@dataclass(frozen=True)
class LabHost:
    """One namespace of a lab: its name, its address on the bridge and its interface name."""

    index: int
    netns: str
    address: str
    interface: str = "eth0"


@dataclass
class NetnsLab:
    """A built lab; use :func:`netns_lab` to make one."""

    bridge_netns: str
    hosts: list[LabHost]
    _processes: list[subprocess.Popen[bytes]] = field(default_factory=list)
    _closed: bool = False

    def exec_argv(self, host: int, argv: Sequence[str]) -> list[str]:
        """The command line that runs ``argv`` inside host ``host``'s namespace."""
        ip = shutil.which("ip") or "ip"
        return [ip, "netns", "exec", self.hosts[host].netns, *argv]

    def popen(self, host: int, argv: Sequence[str], **kwargs: Any) -> subprocess.Popen[bytes]:
        """Start ``argv`` inside a host namespace; the lab kills it on close if still running."""
        proc: subprocess.Popen[bytes] = subprocess.Popen(self.exec_argv(host, argv), **kwargs)
        self._processes.append(proc)
        return proc

    def run(
        self, host: int, argv: Sequence[str], *, timeout: float = 30.0
    ) -> subprocess.CompletedProcess[str]:
        """Run ``argv`` inside a host namespace to completion (text output, bounded time)."""
        return subprocess.run(
            self.exec_argv(host, argv),
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )

    def call_in(self, host: int, fn: Callable[[], T]) -> T:
        """Run ``fn`` in a fresh thread that has entered host ``host``'s network namespace."""
        return call_in_netns(self.hosts[host].netns, fn)

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        for proc in self._processes:
            if proc.poll() is None:
                proc.kill()
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=5)
            for stream in (proc.stdin, proc.stdout, proc.stderr):
                if stream is not None:
                    stream.close()
        errors: list[str] = []
        for name in [h.netns for h in self.hosts] + [self.bridge_netns]:
            try:
                _ip("netns", "del", name)
            except (subprocess.CalledProcessError, OSError, subprocess.TimeoutExpired) as exc:
                errors.append(f"{name}: {exc}")
        if errors:
            raise RuntimeError("could not delete lab namespaces: " + "; ".join(errors))


def call_in_netns(netns: str, fn: Callable[[], T]) -> T:
    """Run ``fn`` in a new OS thread that first joins the named network namespace.

    A fresh thread is used (and then ends) so no pooled thread is ever left in the namespace.
    """
    outcome: list[T] = []
    failure: list[BaseException] = []

    def body() -> None:
        try:
            fd = os.open(os.path.join(_NETNS_DIR, netns), os.O_RDONLY | os.O_CLOEXEC)
            try:
                if _libc_setns()(fd, _CLONE_NEWNET) != 0:
                    err = ctypes.get_errno()
                    raise OSError(err, f"setns into {netns}: {os.strerror(err)}")
            finally:
                os.close(fd)
            outcome.append(fn())
        except BaseException as exc:
            failure.append(exc)

    thread = threading.Thread(target=body, name=f"netns-{netns}")
    thread.start()
    thread.join()
    if failure:
        raise failure[0]
    return outcome[0]


@contextlib.contextmanager
def netns_lab(hosts: int) -> Iterator[NetnsLab]:
    """Build ``hosts`` namespaces on one private bridge; tear everything down on exit."""
    if not 1 <= hosts <= MAX_HOSTS:
        raise ValueError(f"a lab has 1..{MAX_HOSTS} hosts, not {hosts}")
    reason = netns_unavailable_reason()
    if reason is not None:
        raise NetnsUnavailable(reason)
    remove_stale_labs()
    # The creator's pid in every name lets a later run remove labs of a killed test process.
    stem = f"{NAME_PREFIX}-{os.getpid()}-{secrets.token_hex(3)}"
    lab = NetnsLab(bridge_netns=f"{stem}-br", hosts=[])
    made: list[str] = []

    def ip(command: str) -> None:
        _ip(*command.split())

    try:
        br = lab.bridge_netns
        ip(f"netns add {br}")
        made.append(br)
        ip(f"-n {br} link add br0 type bridge")
        # mDNS groups are link-local and always flooded; snooping off keeps any group flooded.
        ip(f"-n {br} link set br0 type bridge mcast_snooping 0")
        ip(f"-n {br} link set br0 up")
        for index in range(hosts):
            host = LabHost(index, f"{stem}-{index}", f"{SUBNET_PREFIX}.{index + 1}")
            ns, eth = host.netns, host.interface
            ip(f"netns add {ns}")
            made.append(ns)
            lab.hosts.append(host)
            ip(f"-n {br} link add p{index} type veth peer name {eth} netns {ns}")
            ip(f"-n {br} link set p{index} master br0")
            ip(f"-n {br} link set p{index} up")
            ip(f"-n {ns} link set lo up")
            ip(f"-n {ns} addr add {host.address}/{PREFIX_LEN} dev {eth}")
            ip(f"-n {ns} link set {eth} up")
            ip(f"-n {ns} route add 224.0.0.0/4 dev {eth}")
    except BaseException:
        _teardown_partial(lab, made)
        raise
    try:
        yield lab
    finally:
        lab.close()


def remove_stale_labs() -> list[str]:
    """Delete lab namespaces whose creating process no longer exists; returns their names."""
    removed: list[str] = []
    for name in lab_namespaces():
        parts = name.split("-")
        if len(parts) < 3 or not parts[1].isdigit():
            continue
        pid = int(parts[1])
        try:
            os.kill(pid, 0)
            continue  # its creator is alive: not ours to remove
        except ProcessLookupError:
            pass
        except PermissionError:
            continue
        with contextlib.suppress(subprocess.CalledProcessError, OSError, subprocess.TimeoutExpired):
            _ip("netns", "del", name)
            removed.append(name)
    return removed


def _teardown_partial(lab: NetnsLab, made: list[str]) -> None:
    lab._closed = True
    for name in reversed(made):
        with contextlib.suppress(subprocess.CalledProcessError, OSError, subprocess.TimeoutExpired):
            _ip("netns", "del", name)


def lab_namespaces() -> list[str]:
    """Names of all namespaces a lab may have made (for leak checks in tests)."""
    try:
        names = os.listdir(_NETNS_DIR)
    except OSError as exc:
        if exc.errno == errno.ENOENT:
            return []
        raise
    return sorted(n for n in names if n.startswith(f"{NAME_PREFIX}-"))
