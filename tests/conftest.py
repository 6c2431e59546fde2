"""Suite-wide settings for running the tests in parallel (pytest-xdist, `./run-tests`).

Tests that start real processes (`subprocess`), network namespaces (`netns`) or a terminal
(`tmux`) each keep several processes busy against a wall-clock deadline. Under `--dist
loadgroup` they all go to one xdist group, so they run one after another on a single worker
while the other workers take the in-process tests: two of them never compete for the two cores
(docs/decisions/0009-parallel-tests.md). Their names are already unique per worker: tmux
sockets and lab namespaces carry the worker's pid, TCP ports are chosen by the kernel.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings

# The bots of real `durak` processes (and of the lobby's bot seats) send their moves at once:
# whole games play against a wall-clock deadline there. Their reply delay (issue #22: a reply
# time must not tell the hand) is tested in process, on the autojump clock, where it costs no
# time: tests/node/test_bot_reply_delay.py. Children inherit the environment.
os.environ.setdefault("P2P_DURAK_BOT_DELAY", "0")

# Every property test is derandomized (its examples are fixed); what still varies from run to
# run is the time an example takes, which on two shared cores running two workers says nothing
# about the code. No test asks for a deadline or a speed check of its own.
settings.register_profile("suite", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("suite")

REAL_TIME_MARKERS = ("subprocess", "netns", "tmux")
REAL_TIME_GROUP = "real-time"


@pytest.hookimpl(tryfirst=True)  # before xdist reads the groups in its own hook
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if any(item.get_closest_marker(name) for name in REAL_TIME_MARKERS):
            item.add_marker(pytest.mark.xdist_group(REAL_TIME_GROUP))


def pytest_runtest_setup(item: pytest.Item) -> None:
    # xdist tells the scheduler a test's group by appending "@group" to its node id. pytest 9.2
    # ignores that change (pytest-xdist issue 1386), and the groups then go unheeded without a
    # word: say so here instead of letting the real-time tests race each other.
    if (getattr(item.config.option, "loadgroup", False)
            and item.get_closest_marker("xdist_group") is not None and "@" not in item.nodeid):
        pytest.fail("pytest-xdist did not apply --dist loadgroup to this test (its node id has "
                    "no @group); pytest 9.2 breaks that: keep pytest<9.2 (pyproject.toml)",
                    pytrace=False)
