"""The history of the evening end to end in a real terminal: `durak play` against a bot in an
80×24 tmux window, the game played by the screen's keys; back in the lobby tonight's
scoreboard counts it, and `durak history` lists it afterwards."""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path

import pytest
from test_tmux import GAME_DEADLINE, _pane, durak_command, play_by_the_screen

pytestmark = [pytest.mark.tmux, pytest.mark.slow]


def test_a_practice_game_in_a_terminal_is_in_tonights_scoreboard(tmp_path: Path) -> None:
    deadline = time.monotonic() + GAME_DEADLINE
    with _pane(tmp_path, "--bots", "1", "--seed", "3", "--no-discovery") as pane:
        pane.wait_for("Your hand", deadline)
        screen, _ = play_by_the_screen(pane, deadline)
        assert "Game over" in screen
        tester_lost = "The durak: Tester" in screen
        pane.send("q")  # back to the lobby
        lobby = pane.wait_for("Tonight: 1 game", deadline)
        lines = lobby.rstrip("\n").split("\n")
        assert len(lines) <= 24
        assert max(len(line) for line in lines) <= 80
        assert f"You (Tester): the durak in {int(tester_lost)} of 1 game" in lobby
        pane.send("q")
        assert "DURAK-EXITED 0" in pane.wait_for("DURAK-EXITED", deadline)
    # the data folder under HOME (~/.local/share/p2p-durak here; the platform's usual place)
    home = next(tmp_path.rglob("history.sqlite3")).parent
    done = subprocess.run([*durak_command(), "history", "--home", str(home), "--json"],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    (game,) = json.loads(done.stdout)["games"]
    assert game["kind"] == "practice"
    assert [p["name"] for p in game["players"] if p["me"]] == ["Tester"]
    assert (game["durak"] == [0]) == tester_lost
