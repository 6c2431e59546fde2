"""The table in a real terminal at its fullest: six seats in two teams with a turn timer, in an
80×24 tmux window. The captured screen (with its colour codes) shows every seat, the partners'
★, the timer, hearts and diamonds red and spades and clubs dark; the game is played to its
end by the screen's keys, the end names the player's team as winner or loser, the whole series
is on screen, and N deals the next game."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
from test_tmux import (
    GAME_DEADLINE,
    POLL,
    Pane,
    _pane,
    fits_the_window,
    play_by_the_screen,
)

pytestmark = [pytest.mark.tmux, pytest.mark.slow]

BOTS = ("Anna", "Boris", "Vera", "Gleb", "Dasha")  # the UI's English bot names, in seat order
SGR = re.compile(r"\x1b\[([0-9;]*)m")
RED, DARK = "124", "16"  # #af0000 and #000000 in the 256-colour palette tmux reports


def suit_colours(row: str) -> list[tuple[str, str | None]]:
    """(suit symbol, foreground colour number) for every suit symbol in a captured line."""
    fg: str | None = None
    out: list[tuple[str, str | None]] = []
    at = 0
    for match in [*SGR.finditer(row), None]:
        text = row[at:match.start()] if match is not None else row[at:]
        out += [(ch, fg) for ch in text if ch in "♠♣♦♥"]
        if match is None:
            break
        params = match.group(1).split(";") if match.group(1) else ["0"]
        i = 0
        while i < len(params):
            if params[i] in ("0", "39"):
                fg = None
            elif params[i] == "38" and i + 2 < len(params) and params[i + 1] == "5":
                fg = params[i + 2]
                i += 2
            i += 1
        at = match.end()
    return out


TIMER = re.compile(r"· (time \d+ s|timer 60 s)")


def wait_for_header(pane: Pane, pattern: re.Pattern[str], deadline: float) -> str:
    """The screen once its header line matches `pattern`."""
    while time.monotonic() < deadline:
        screen = pane.capture()
        if pattern.search(screen.split("\n")[0]):
            return screen
        time.sleep(POLL)
    raise AssertionError(f"{pattern.pattern!r} never in the header:\n{pane.capture()}")


def coloured_screen(pane: Pane) -> str:
    return pane.run("capture-pane", "-p", "-e", "-t", "game")


def test_suit_colours_are_read_from_escape_codes() -> None:
    row = "\x1b[38;5;16m\x1b[48;5;245m  K♠ \x1b[38;5;124m 8♥ \x1b[0m 9♦"
    assert suit_colours(row) == [("♠", "16"), ("♥", "124"), ("♦", None)]


def test_six_seats_in_two_teams_with_a_timer_in_a_real_terminal(tmp_path: Path) -> None:
    with _pane(tmp_path, "--preset", "app_komandy_3v3", "--bots", "5", "--seed", "8",
               "--timer", "60") as pane:
        deadline = time.monotonic() + GAME_DEADLINE
        pane.wait_for("Your hand", deadline)
        # a practice table shows the timer while it runs, that is on the player's turn: the
        # bots may be moving when the hand first shows
        screen = wait_for_header(pane, TIMER, deadline)
        lines = screen.split("\n")
        seats = lines[2:8]
        assert [any(name in line for line in seats) for name in (*BOTS, "Tester (you)")] \
            == [True] * 6, screen
        # partners sit in alternate seats: Boris and Gleb play with the player (seat 0)
        # (a seat line starts with the turn's ▶ or a blank, then the partner's ★)
        assert {line[4:].split()[0] for line in seats if line[2:4] == "★ "} == {"Boris", "Gleb"}
        assert "★ teammate" in screen
        assert TIMER.search(lines[0]), lines[0]
        assert fits_the_window(screen)

        # the colours the terminal really shows, on the hand and the table
        coloured = coloured_screen(pane).split("\n")
        hand = next(i for i, line in enumerate(screen.split("\n"))
                    if line.startswith(" Your hand:")) + 2
        suits = suit_colours(coloured[hand])
        assert suits, coloured[hand]
        for suit, colour in suits:
            assert colour == (RED if suit in "♥♦" else DARK), (suit, colour, coloured[hand])

        screen, pressed = play_by_the_screen(pane, deadline)
        assert len(pressed) > 3
        assert "Game over" in screen
        assert re.search(r"Your team (wins|lost): Tester \(you\), Boris, Gleb\.", screen), screen
        series = screen.split("Series after game 1")[1]
        for name in BOTS:
            assert name in series, screen
        assert fits_the_window(screen)
        assert screen.rstrip("\n").split("\n")[-1].startswith(" N play again")

        pane.send("n")
        assert "game 2" in pane.wait_for("game 2", deadline)
        pane.send("C-c")
        assert "DURAK-EXITED 0" in pane.wait_for("DURAK-EXITED", deadline)
