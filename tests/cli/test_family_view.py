"""The family table screen (`cli/family_view.py`), drawn from the game-family interface only,
for Дурак чухонский positions: English and Russian, symbols and ASCII, within 80×24."""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

import pytest
from prompt_toolkit.utils import get_cwidth

from p2p_durak.cli.family_view import render_family_table
from p2p_durak.engine.cards import cards_of
from p2p_durak.engine.games import chukhonsky as C
from p2p_durak.engine.games.chukhonsky.family import SUIT_LADDER

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "engine"))
from chukhonsky_support import do, position

NAMES = ["Anna", "Boris (bot)", "Vera (bot)"]


def screen(state: C.State, lang: str, ascii_only: bool = False) -> list[str]:
    view = SUIT_LADDER.table_view(state, 0)
    own = SUIT_LADDER.private_view(state, 0)
    options = SUIT_LADDER.legal_actions(own, 0)
    playable = [m.card for m in options if m.kind is C.MoveKind.PLAY]
    title = "Дурак чухонский" if lang == "ru" else "Chukhonsky durak"
    return render_family_table(view, 0, cards_of(own.hands[0]), playable,
                               C.take(0) in options, NAMES, title, state.game.deck, lang,
                               ascii_only=ascii_only)


def fits(lines: list[str]) -> None:
    assert len(lines) <= 24
    assert all(get_cwidth(line) <= 80 for line in lines)


@pytest.mark.parametrize("ascii_only", [False, True])
def test_a_climb_in_english(ascii_only: bool) -> None:
    # Boris took 9♥ earlier (face up); Vera led 9♠: Anna must lay 10♠
    state = do(position(["10♠ 6♥ Q♦", "7♣ A♦", "9♠ 8♣"], turn=2), "2 play 9♠")
    state = replace(state, shown=state.shown | (1 << state.game.deck.parse("7♣")))
    lines = screen(state, "en", ascii_only)
    fits(lines)
    text = "\n".join(lines)
    assert "Chukhonsky durak · 3 players · discard" in text
    ten = "10S" if not ascii_only else "TS"
    assert ("Pile: 9S" if ascii_only else "Pile: 9♠") in text
    assert (f"[{ten}]" if ascii_only else "[10♠]") in text
    assert ("face up: 7C" if ascii_only else "face up: 7♣") in text
    assert "Lay the card that climbs the pile." in text
    assert ("> Anna (you)" if ascii_only else "▶ Anna (you)") in text


def test_a_lead_and_a_take_in_russian() -> None:
    lead = position(["10♠ 6♥ Q♦", "7♣ A♦", "9♠ 8♣"], turn=0)
    lines = screen(lead, "ru")
    fits(lines)
    text = "\n".join(lines)
    assert "Дурак чухонский · игроков: 3 · отбой" in text
    assert "Стопка пуста — ходит Anna, любой картой" in text
    assert "Ваш ход: положите любую карту." in text
    assert "1-9 положить · T взять · Q выход" in text
    stuck = do(position(["10♠ 6♥ Q♦", "7♣ A♦", "8♠ 8♣"], turn=2), "2 play 8♠")
    text = "\n".join(screen(stuck, "ru"))
    assert "Стопка: 8♠" in text
    assert "Класть нечего: возьмите верхнюю карту (T)." in text


def test_waiting_and_over() -> None:
    waiting = position(["10♠ 6♥ Q♦", "7♣ A♦", "9♠ 8♣"], turn=1)
    assert "Waiting for Boris (bot)." in "\n".join(screen(waiting, "en"))
    over = do(position(["8♠", "9♠ A♦", "J♦ 6♣"]), "0 play 8♠", "1 play 9♠", "2 take",
              "1 play A♦")
    lines = screen(over, "en")
    assert "The game is over." in "\n".join(lines)
    assert "out" in lines[1]
