"""Fixtures for tests that need private network namespaces (see netns_harness.py).

Tests using ``make_lab`` are skipped, with the reason, where namespaces cannot be made
(not root, no iproute2, or the kernel refuses); everywhere else they run.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator

import pytest
from netns_harness import NetnsLab, lab_namespaces, netns_lab, netns_unavailable_reason


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


@pytest.fixture
def no_leaked_namespaces() -> Iterator[None]:
    before = set(lab_namespaces())
    yield
    leaked = set(lab_namespaces()) - before
    assert not leaked, f"namespaces left behind: {sorted(leaked)}"
