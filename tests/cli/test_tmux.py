"""End to end in a real terminal: tmux runs `durak play` against bots in an 80×24 window, the
test plays a whole game by sending keys, and the captured screen shows the end of the game.

The test reads the screen as a player would (`screen_strategy`): it presses the number of the
first card shown in [brackets], else takes or passes. It polls the pane (a real terminal has
no other signal), bounded by a deadline.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from screen_strategy import choose_key, is_over

pytestmark = [pytest.mark.tmux, pytest.mark.slow]

GAME_DEADLINE = 90.0
POLL = 0.03


def ensure_tmux() -> str:
    found = shutil.which("tmux")
    if found:
        return found
    apt = shutil.which("apt-get")
    problem = "apt-get is not available"
    if apt and os.geteuid() == 0:
        done = subprocess.run([apt, "install", "-y", "-q", "tmux"], capture_output=True,
                              text=True, timeout=300, check=False)
        problem = done.stderr.strip()[-300:] or f"apt-get exited with {done.returncode}"
        found = shutil.which("tmux")
        if found:
            return found
    pytest.skip(f"tmux is not installed and could not be installed ({problem})")


def durak_command() -> list[str]:
    script = Path(sys.executable).parent / "durak"
    if script.exists():
        return [str(script)]
    return [sys.executable, "-m", "p2p_durak.cli.main"]


class Pane:
    def __init__(self, tmux: str, socket: str) -> None:
        self.tmux = tmux
        self.socket = socket

    def run(self, *args: str) -> str:
        done = subprocess.run([self.tmux, "-L", self.socket, *args], capture_output=True,
                              text=True, timeout=10, check=True)
        return done.stdout

    def capture(self) -> str:
        return self.run("capture-pane", "-p", "-t", "game")

    def send(self, key: str) -> None:
        if key.startswith("C-") or key in ("Enter", "Escape"):
            self.run("send-keys", "-t", "game", key)
        else:
            self.run("send-keys", "-t", "game", "-l", key)

    def steady(self, deadline: float) -> str:
        """The screen once two captures in a row agree."""
        previous = self.capture()
        while time.monotonic() < deadline:
            time.sleep(POLL)
            current = self.capture()
            if current == previous:
                return current
            previous = current
        raise AssertionError(f"the screen never settled:\n{previous}")

    def wait_for(self, text: str, deadline: float) -> str:
        while time.monotonic() < deadline:
            screen = self.capture()
            if text in screen:
                return screen
            time.sleep(POLL)
        raise AssertionError(f"{text!r} never appeared:\n{self.capture()}")


ENGLISH = ("--lang", "en")
LOCALE_VARIABLES = ("LC_ALL", "LC_CTYPE", "LC_MESSAGES", "LANGUAGE", "LANG")


@contextmanager
def _pane(tmp_path: Path, *args: str, lang: tuple[str, ...] = ENGLISH,
          locale: str = "C.UTF-8") -> Iterator[Pane]:
    """`durak play` with `args` in an 80×24 tmux window, its locale `LANG=locale` (and no
    other locale variable), `lang` its language options."""
    tmux = ensure_tmux()
    # one server per test: a new one under the name of a server still shutting down fails
    socket = f"durak-test-{os.getpid()}-{tmp_path.name}"
    command = durak_command() + ["play", *args, "--level", "easy", *lang,
                                 "--bot-delay", "0", "--name", "Tester"]
    unset = " ".join(f"-u {name}" for name in LOCALE_VARIABLES)
    shell = (f"env {unset} LANG={locale} HOME={tmp_path} " + " ".join(command)
             + f" 2>{tmp_path / 'stderr.txt'}; echo DURAK-EXITED $?; sleep 600")
    env = {**os.environ, "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"}  # tmux itself: UTF-8
    subprocess.run([tmux, "-L", socket, "-f", "/dev/null", "new-session", "-d", "-s", "game",
                    "-x", "80", "-y", "24", shell], env=env, check=True, timeout=10)
    try:
        yield Pane(tmux, socket)
    finally:
        subprocess.run([tmux, "-L", socket, "kill-server"], capture_output=True, check=False,
                       timeout=10)
        errors = (tmp_path / "stderr.txt")
        if errors.exists() and errors.read_text().strip():
            print(errors.read_text())


@pytest.fixture
def pane(tmp_path: Path) -> Iterator[Pane]:
    with _pane(tmp_path, "--bots", "2", "--seed", "3") as opened:
        yield opened


@pytest.fixture
def dummy_pane(tmp_path: Path) -> Iterator[Pane]:
    """с болваном: two bots, the player and the dummy."""
    with _pane(tmp_path, "--preset", "s_bolvanom", "--bots", "2", "--seed", "4") as opened:
        yield opened


def play_by_the_screen(pane: Pane, deadline: float) -> tuple[str, list[str]]:
    """Play this seat's moves by reading the screen until the game is over: the last screen
    and every screen a key was pressed on."""
    seen: list[str] = []
    while True:
        screen = pane.steady(deadline)
        if is_over(screen):
            return screen, seen
        key = choose_key(screen)
        if key is None:
            time.sleep(POLL)
            assert time.monotonic() < deadline, screen
            continue
        pane.send(key)
        seen.append(screen)
        while time.monotonic() < deadline and pane.capture() == screen:
            time.sleep(POLL)  # a refused key changes the notice line, so this ends too
        assert time.monotonic() < deadline, \
            f"no end of the game after {len(seen)} keys:\n{screen}"


def test_a_whole_game_against_bots_in_a_real_terminal(pane: Pane) -> None:
    deadline = time.monotonic() + GAME_DEADLINE
    screen = pane.wait_for("Your hand", deadline)
    assert "Throw-in durak" in screen

    # too small a window says so, and the table comes back when it grows again
    pane.run("resize-window", "-t", "game", "-x", "60", "-y", "20")
    pane.wait_for("too small", deadline)
    pane.run("resize-window", "-t", "game", "-x", "80", "-y", "24")
    pane.wait_for("Your hand", deadline)

    screen, pressed = play_by_the_screen(pane, deadline)
    keys = len(pressed)

    lines = screen.rstrip("\n").split("\n")
    assert "Game over" in screen
    assert "Series after game 1" in screen
    assert "N — play again" in screen
    assert "Tester (you)" in screen
    assert len(lines) <= 24
    assert max(len(line) for line in lines) <= 80
    assert keys > 5

    pane.send("n")
    assert "game 2" in pane.wait_for("game 2", deadline)
    pane.send("C-c")
    assert "DURAK-EXITED 0" in pane.wait_for("DURAK-EXITED", deadline)


def test_a_dummy_game_in_a_real_terminal(dummy_pane: Pane) -> None:
    """с болваном at 80×24: the seats list names the dummy and who plays it, and the game is
    played to its end by the screen's keys (P passes for the dummy when the keys are on its
    row)."""
    deadline = time.monotonic() + GAME_DEADLINE
    screen = dummy_pane.wait_for("Your hand", deadline)
    assert "Durak with a dummy" in screen
    assert "Dummy (" in screen
    screen, pressed = play_by_the_screen(dummy_pane, deadline)
    assert "Game over" in screen
    assert "the dummy" not in screen.split("Series after game 1")[1]  # players only
    lines = screen.rstrip("\n").split("\n")
    assert len(lines) <= 24
    assert max(len(line) for line in lines) <= 80
    # at seed 4 he leads first, so he plays the dummy: its row was on the screen
    assert any("The dummy's hand" in shown for shown in pressed)
    dummy_pane.send("C-c")
    assert "DURAK-EXITED 0" in dummy_pane.wait_for("DURAK-EXITED", deadline)


ENGLISH_WORDS = ("Your", "cards", "Moves", "pass", "take", "trump", "stock", "help", "leave",
                 "Game over", "Table")
"""Words of the English screens that a Russian screen must not show (mixed languages)."""


def fits_the_window(screen: str) -> bool:
    lines = screen.rstrip("\n").split("\n")
    return len(lines) <= 24 and max(len(line) for line in lines) <= 80


def test_the_locale_chooses_russian_and_the_lobby_survives_a_small_window(
        tmp_path: Path) -> None:
    """LANG=ru_RU.UTF-8 and no --lang: the lobby, the table and the end of the game in
    Russian (no English word on any screen a key was pressed on), the lobby too small and
    back, practice in one step (P), a whole game by keys, then L switches to English."""
    with _pane(tmp_path, "--seed", "5", "--no-discovery", lang=(),
               locale="ru_RU.UTF-8") as pane:
        deadline = time.monotonic() + GAME_DEADLINE
        lobby = pane.wait_for("Дурак — столы в сети", deadline)
        assert "Поиск столов в сети отключён: --no-discovery" in lobby
        pane.run("resize-window", "-t", "game", "-x", "70", "-y", "20")
        assert "70×20" in pane.wait_for("Окно слишком маленькое", deadline)
        pane.run("resize-window", "-t", "game", "-x", "80", "-y", "24")
        pane.wait_for("Дурак — столы в сети", deadline)
        pane.send("p")
        assert "Подкидной" in pane.wait_for("Ваши карты", deadline)

        screen, pressed = play_by_the_screen(pane, deadline)
        assert "Партия окончена" in screen
        assert "Счёт серии после партии 1" in screen
        assert "Tester (вы)" in screen
        assert len(pressed) > 5
        for shown in [*pressed, screen]:
            assert [w for w in ENGLISH_WORDS if w in shown] == [], shown
            assert fits_the_window(shown), shown
        assert any(rank + suit in shown for shown in pressed for rank in "ВДКТ"
                   for suit in "♠♣♦♥")  # Russian card names

        pane.send("l")
        assert "Series after game 1" in pane.wait_for("Game over", deadline)
        pane.send("C-c")
        assert "DURAK-EXITED 0" in pane.wait_for("DURAK-EXITED", deadline)


def test_a_c_locale_gets_letters_for_suits_and_english(tmp_path: Path) -> None:
    """LANG=C and no option: Python would write UTF-8, but the terminal gets only ASCII —
    cards as `QD`, every frame and marker as a letter or sign — for a whole game by keys;
    L says Russian cannot be shown here."""
    with _pane(tmp_path, "--bots", "2", "--seed", "6", lang=(), locale="C") as pane:
        deadline = time.monotonic() + GAME_DEADLINE
        pane.wait_for("Your hand", deadline)
        screen, pressed = play_by_the_screen(pane, deadline)
        assert "Game over" in screen
        assert len(pressed) > 5
        for shown in [*pressed, screen]:
            assert shown.isascii(), shown
            assert fits_the_window(shown), shown
        assert any(re.search(r"\[ ?[2-9TJQKA][SCDH]\]", shown) for shown in pressed)
        pane.send("l")
        screen = pane.wait_for("Russian needs a terminal with Cyrillic", deadline)
        assert screen.isascii()
        assert "Game over" in screen
        pane.send("C-c")
        assert "DURAK-EXITED 0" in pane.wait_for("DURAK-EXITED", deadline)
