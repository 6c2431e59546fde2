"""Fixtures for tests that need private network namespaces (see netns_harness.py).

Tests using ``make_lab`` are skipped, with the reason, where namespaces cannot be made
(not root, no iproute2, or the kernel refuses); everywhere else they run.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterator

import pytest
from netns_harness import (
    NAME_PREFIX,
    NetnsLab,
    lab_namespaces,
    netns_lab,
    netns_unavailable_reason,
)


@pytest.fixture
def make_lab() -> Iterator[Callable[[int], NetnsLab]]:
    """``make_lab(k)`` builds a lab of k hosts, torn down after the test (even on failure)."""
    reason = netns_unavailable_reason()
    if reason is not None:
        pytest.skip(f"network namespaces unavailable: {reason}")
    with contextlib.ExitStack() as stack:

        def build(hosts: int) -> NetnsLab:
            return stack.enter_context(netns_lab(hosts))

        yield build


def _own_namespaces() -> set[str]:
    # Only the labs of this process (their names carry its pid): other pytest-xdist workers and
    # other people's test runs on the machine make and delete labs of their own meanwhile.
    mine = f"{NAME_PREFIX}-{os.getpid()}-"
    return {name for name in lab_namespaces() if name.startswith(mine)}


@pytest.fixture
def no_leaked_namespaces() -> Iterator[None]:
    before = _own_namespaces()
    yield
    leaked = _own_namespaces() - before
    assert not leaked, f"namespaces left behind: {sorted(leaked)}"
