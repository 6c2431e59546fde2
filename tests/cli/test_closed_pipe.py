"""`durak rules | head` and the like (issue #20): when the reader of stdout has gone, the
command ends quietly as Unix tools do — no BrokenPipeError traceback, no "Exception ignored"
at exit, and the status a shell shows for a tool its pipe stopped (141). A real pipe whose
read end is closed before the child writes anything, so the closed pipe is met for sure."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from p2p_durak.cli.main import PIPE_CLOSED

DURAK = [sys.executable, "-m", "p2p_durak.cli.main"]


@pytest.mark.parametrize("argv", [["rules"], ["rules", "app_podkidnoy", "--lang", "ru"]])
def test_a_closed_pipe_ends_the_command_quietly(argv: list[str]) -> None:
    read_end, write_end = os.pipe()
    os.close(read_end)  # `head` has read its lines and gone
    try:
        done = subprocess.run([*DURAK, *argv], stdout=write_end, stderr=subprocess.PIPE,
                              timeout=120, check=False)
    finally:
        os.close(write_end)
    assert done.stderr.decode() == ""
    assert done.returncode == PIPE_CLOSED
