"""Two people, two machines, two terminals: `durak` with no arguments in two 80×24 tmux
windows, each in its own network namespace on one bridge (real zeroconf, real multicast, TCP
between the namespaces). Sasha (English locale) creates a table for two with the new-table
form; it appears in Masha's lobby (Russian locale) by mDNS alone; she joins it from the list;
they play the whole game by the keys the screens offer, and both screens show its end.

Every wait is bounded; the tmux server and the lab are torn down whatever happens.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from netns_harness import NetnsLab

sys.path.insert(0, str(Path(__file__).parents[1] / "cli"))  # the terminal tests' helpers
from screen_strategy import choose_key, is_over
from test_tmux import LOCALE_VARIABLES, Pane, durak_command, ensure_tmux

pytestmark = [pytest.mark.netns, pytest.mark.tmux, pytest.mark.slow]

DEADLINE = 150.0  # the whole test: start, mDNS, the key exchange, a game of two people
POLL = 0.05


@contextmanager
def terminals(lab: NetnsLab, tmp_path: Path, people: list[tuple[str, str]]
              ) -> Iterator[list[Pane]]:
    """`durak` for each (login name, locale) in an 80×24 window of one tmux server, person k
    in lab host k's namespace with a data folder of their own."""
    tmux = ensure_tmux()
    socket = f"durak-lobby-{os.getpid()}-{tmp_path.name}"
    unset = " ".join(f"-u {name}" for name in LOCALE_VARIABLES)
    env = {**os.environ, "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"}  # tmux itself: UTF-8
    panes = []
    try:
        for host, (login, locale) in enumerate(people):
            home = tmp_path / login
            home.mkdir()
            command = " ".join(lab.exec_argv(host, [
                "env", *unset.split(), f"LANG={locale}", f"HOME={home}", f"USER={login}",
                *durak_command()]))
            shell = f"{command} 2>{home / 'stderr.txt'}; echo DURAK-EXITED $?; sleep 600"
            verb = "new-session" if host == 0 else "new-window"
            target = ["-s", "lobby"] if host == 0 else ["-t", "lobby", "-n", login]
            args = [tmux, "-L", socket, "-f", "/dev/null", verb, "-d", *target]
            if host == 0:
                args += ["-n", login, "-x", "80", "-y", "24"]
            subprocess.run([*args, shell], env=env, check=True, timeout=10)
            panes.append(Window(tmux, socket, f"lobby:{login}"))
        yield panes
    finally:
        subprocess.run([tmux, "-L", socket, "kill-server"], capture_output=True, check=False,
                       timeout=10)
        for login, _ in people:
            errors = tmp_path / login / "stderr.txt"
            if errors.exists() and errors.read_text().strip():
                print(f"{login}'s stderr:\n{errors.read_text()}")


class Window(Pane):
    """A `Pane` that is one window of a shared tmux server."""

    def __init__(self, tmux: str, socket: str, target: str) -> None:
        super().__init__(tmux, socket)
        self.target = target

    def capture(self) -> str:
        return self.run("capture-pane", "-p", "-t", self.target)

    def send(self, key: str) -> None:
        if key.startswith("C-") or key in ("Enter", "Escape", "Up", "Down", "Left", "Right"):
            self.run("send-keys", "-t", self.target, key)
        else:
            self.run("send-keys", "-t", self.target, "-l", key)

    def until(self, predicate: Callable[[str], bool], deadline: float, what: str) -> str:
        while time.monotonic() < deadline:
            screen = self.capture()
            if predicate(screen):
                return screen
            time.sleep(POLL)
        raise AssertionError(f"{self.target}: {what} never came:\n{self.capture()}")


def play_both(panes: list[Window], deadline: float) -> list[str]:
    """Whoever's screen offers a move makes it, until both screens show the end."""
    moves = 0
    while True:
        screens = [pane.capture() for pane in panes]
        if all(is_over(screen) for screen in screens):
            assert moves > 5
            return screens
        moved = False
        for pane, screen in zip(panes, screens, strict=True):
            key = choose_key(screen)
            if key is None:
                continue
            pane.send(key)
            moves += 1
            moved = True
            pane.until(lambda now, before=screen: now != before, deadline, "an answer to a key")
        if not moved:
            time.sleep(POLL)
        assert time.monotonic() < deadline, f"no end after {moves} moves:\n" + "\n".join(screens)


def test_a_table_made_in_one_lobby_is_joined_from_another_and_played_out(
        make_lab: Callable[[int], NetnsLab], tmp_path: Path) -> None:
    lab = make_lab(2)
    deadline = time.monotonic() + DEADLINE
    with terminals(lab, tmp_path, [("sasha", "en_US.UTF-8"), ("masha", "ru_RU.UTF-8")]) as (
            sasha, masha):
        sasha.until(lambda s: "No tables found yet" in s, deadline, "Sasha's lobby")
        masha.until(lambda s: "Столов пока нет" in s, deadline, "Masha's lobby")

        sasha.send("c")
        sasha.until(lambda s: "New table" in s, deadline, "the form")
        sasha.send("Down")
        sasha.send("Left")  # players: 2
        form = sasha.until(lambda s: "◀ 2 ▶" in s, deadline, "two players")
        assert "Open the table on the network" in form
        sasha.send("Up")
        sasha.send("Up")  # from the first field round to the last: the network button
        sasha.send("Enter")
        room = sasha.until(lambda s: "Waiting for players: 1 of 2 seated" in s, deadline,
                           "the waiting room")
        assert "Sasha (you)" in room

        lobby = masha.until(lambda s: "Sasha" in s, deadline, "the table in Masha's lobby")
        (row,) = [line for line in lobby.splitlines() if line[3:].startswith("Sasha")]
        assert "Подкидной" in row
        assert "1/2" in row
        masha.send("Enter")

        ends = play_both([sasha, masha], deadline)
        assert "Game over" in ends[0]
        assert "Партия окончена" in ends[1]
        for screen in ends:
            lines = screen.rstrip("\n").split("\n")
            assert len(lines) <= 24
            assert max(len(line) for line in lines) <= 80
        assert "Sasha (you)" in ends[0]
        assert "Masha (вы)" in ends[1]

        for pane in (sasha, masha):
            pane.send("C-c")
            pane.until(lambda s: "DURAK-EXITED" in s, deadline, "the exit")
            assert "DURAK-EXITED 0" in pane.capture()
