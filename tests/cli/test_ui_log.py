"""While the full-screen UI runs, log records go to `ui.log` in the data folder: a warning
printed on stderr (Python's last-resort handler) would be drawn over the table."""

from __future__ import annotations

import logging
import subprocess
import sys
from pathlib import Path

import pytest

from p2p_durak.cli import commands_play
from p2p_durak.cli.main import main
from p2p_durak.cli.ui_log import LOG_FILE

WARN = ("import logging, sys\n"
        "from pathlib import Path\n"
        "from p2p_durak.cli.ui_log import log_to_file\n"
        "def warn():\n"
        "    logging.getLogger('p2p_durak.node.mesh').warning('peer fault: a test')\n"
        "if sys.argv[1] == 'ui':\n"
        "    with log_to_file(Path(sys.argv[2])):\n"
        "        warn()\n"
        "else:\n"
        "    warn()\n")


def _run(mode: str, folder: Path) -> str:
    done = subprocess.run([sys.executable, "-c", WARN, mode, str(folder)], capture_output=True,
                          text=True, timeout=60, check=True)
    return done.stderr


def test_a_warning_goes_to_the_file_not_the_terminal(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    assert "peer fault: a test" in _run("plain", folder)  # what the screen used to get
    assert _run("ui", folder) == ""
    logged = (folder / LOG_FILE).read_text(encoding="utf-8")
    assert "WARNING p2p_durak.node.mesh: peer fault: a test" in logged


def test_durak_play_runs_the_ui_with_the_log_in_the_data_folder(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("P2P_DURAK_HOME", str(tmp_path))
    monkeypatch.setattr(sys.stdin, "isatty", lambda: True, raising=False)
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True, raising=False)
    ran: list[bool] = []

    def fake_guest(*_: object) -> None:  # the UI, as far as logging is concerned
        ran.append(True)
        logging.getLogger("p2p_durak.node.mesh").warning("peer fault: while playing")

    monkeypatch.setattr(commands_play, "run_guest", fake_guest)
    assert main(["play", "--bots", "1", "--lang", "en"]) == 0
    assert ran
    assert "peer fault: while playing" in (tmp_path / LOG_FILE).read_text(encoding="utf-8")
    # the handler is gone with the UI
    assert not any(getattr(h, "baseFilename", "").endswith(LOG_FILE)
                   for h in logging.getLogger().handlers)
