"""Screens as text: the table, the end of a game, help, too small a window, both languages."""

from __future__ import annotations

import re

import pytest
from table_states import find_state, snapshot_of

from p2p_durak.cli.canvas import line_width, plain
from p2p_durak.cli.cardtext import CardText, hand_order
from p2p_durak.cli.help_view import render_help
from p2p_durak.cli.i18n import CATALOGUE, Look
from p2p_durak.cli.table_ui import TableUi
from p2p_durak.cli.table_view import render_table_screen
from p2p_durak.engine import UNKNOWN, State, cards_of
from p2p_durak.engine.presets import get_preset
from p2p_durak.engine.state import BOUT, OVER
from p2p_durak.node.api import LogLine

SUITS = "♠♣♦♥"


def bout_with_covers(state: State) -> bool:
    return (state.phase == BOUT and state.defender == 0 and UNKNOWN in state.covers
            and any(c >= 0 for c in state.covers))


def table_screen(state: State, look: Look, width: int = 80, height: int = 24,
                 **snapshot: object) -> tuple[str, list]:  # type: ignore[type-arg]
    ui = TableUi()
    ui.update(snapshot_of(state, **snapshot))  # type: ignore[arg-type]
    lines = render_table_screen(ui, look, width, height)
    return plain(lines), lines


@pytest.mark.parametrize(("width", "height"), [(80, 24), (100, 30), (132, 43)])
def test_the_table_fills_the_window_exactly(width: int, height: int) -> None:
    state = find_state(bout_with_covers)
    text, lines = table_screen(state, Look("en", False), width, height)
    assert len(lines) == height
    assert {line_width(line) for line in lines} == {width}
    assert "Throw-in durak" in text
    assert "Your hand: 6 cards" in text or "Your hand:" in text
    for name in ("Anna", "Boris"):
        assert name in text
    assert "defending" in text  # my role
    assert f"stock {len(state.stock)}" in text


def test_the_table_shows_my_hand_sorted_with_trumps_last_and_playable_cards_marked() -> None:
    state = find_state(bout_with_covers)
    look = Look("en", False)
    text, _ = table_screen(state, look)
    cards = CardText(state.game, "en", False)
    hand = hand_order(state.game, cards_of(state.hands[0]), state.trump)
    trumps = [c for c in hand if state.game.suit[c] == state.trump]
    assert hand[len(hand) - len(trumps):] == trumps
    row = next(line for line in text.split("\n") if cards(hand[0]) in line
               and line.startswith(" "))
    shown = [cards(c) for c in hand]
    positions = [row.index(t) for t in shown]
    assert positions == sorted(positions)
    snap = snapshot_of(state)
    playable = {c for a in snap.legal for c in a.cards}
    for card in hand:
        marked = f"[{cards(card):>3}]" in row
        assert marked == (card in playable)
    # the table: each attack card over its cover
    lines = text.split("\n")
    attack_row = next(i for i, line in enumerate(lines) if line.startswith("Table"))
    for index, attack in enumerate(state.table):
        assert cards(attack) in lines[attack_row + 1]
        if state.covers[index] >= 0:
            assert cards(state.covers[index]) in lines[attack_row + 2]


def test_russian_notation_and_the_ascii_fallback() -> None:
    state = find_state(bout_with_covers)
    russian, _ = table_screen(state, Look("ru", False))
    assert "Подкидной" in russian
    assert "отбивается" in russian
    assert "Ваши карты" in russian
    assert any(s in russian for s in SUITS)
    plain_ascii, _ = table_screen(state, Look("ru", True))
    assert not any(s in plain_ascii for s in SUITS)
    # Russian ranks with suit letters (пики, трефы, бубны, черви): "TD" would read as туз
    assert re.search(r"\[ ?(10|[6-9ВДКТ])[птбч]\]", plain_ascii)
    assert not re.search(r"\b(T|10)[SCDH]\b", plain_ascii)
    english_ascii, _ = table_screen(state, Look("en", True))
    assert not any(s in english_ascii for s in SUITS)
    assert any(f"{r}{s}" in english_ascii for r in "6789TJQKA" for s in "SCDH")


def test_the_log_names_who_did_what() -> None:
    from p2p_durak.engine import events as E

    state = find_state(bout_with_covers)
    attack = state.table[0]
    log = (LogLine(1, E.Led(1, (attack,))), LogLine(2, E.TakeDeclared(0)),
           LogLine(3, E.Drew(2, 2, ())))
    text, _ = table_screen(state, Look("en", False), log=log)
    cards = CardText(state.game, "en", False)
    assert f"Anna: {cards(attack)}" in text
    assert "Tester: I take" in text
    assert "Boris draws 2" in text
    russian, _ = table_screen(state, Look("ru", False), log=log)
    assert "Tester: беру" in russian


def test_the_end_of_a_game_names_the_durak_and_the_series() -> None:
    state = find_state(lambda s: s.phase == OVER and bool(s.result and s.result.durak))
    durak = state.result.durak[0]  # type: ignore[union-attr]
    text, _ = table_screen(state, Look("en", False), duraks=(2, 1, 0),
                           game_number=3)
    assert "Game over" in text
    assert "Series after game 3" in text
    assert "N — play again" in text
    assert text.split("\n")[-1] == " N play again · ? help · Q leave"  # the key line too
    if durak == 0:
        assert "You are the durak." in text
    else:
        assert f"The durak: {['Tester', 'Anna', 'Boris'][durak]}" in text
    score = [line for line in text.split("\n") if "Tester (you)" in line]
    assert score
    assert "2" in score[-1]


def test_help_shows_the_rules_of_the_preset_and_the_keys() -> None:
    preset = get_preset("app_perevodnoy")
    lines = render_help(preset.id, preset.rules, 4, Look("en", False), 80, 24)
    text = plain(lines)
    assert len(lines) == 24
    assert {line_width(line) for line in lines} == {80}
    assert "Transfer durak" in text
    assert "Transfer (перевод): on" in text
    assert "take the cards" in text
    assert "Deck: 36 cards, 6 in a hand, 4 players." in text
    russian = plain(render_help(preset.id, preset.rules, 4, Look("ru", False), 80, 24))
    assert "Переводной" in russian
    assert "беру" in russian


def test_every_message_exists_in_both_languages() -> None:
    for key, (en, ru) in CATALOGUE.items():
        assert isinstance(en, str), key
        assert isinstance(ru, str), key
        fields_en = {p.split("}")[0].split(":")[0] for p in en.split("{")[1:]}
        fields_ru = {p.split("}")[0].split(":")[0] for p in ru.split("{")[1:]}
        assert fields_en == fields_ru, key


def test_ascii_terminals_get_one_cell_stand_ins_and_latin_for_russian_words() -> None:
    from p2p_durak.cli.canvas import asciify

    lines = [[("", "Done (бито) · ♠♥ ▶ — «x»")]]
    assert plain(asciify(lines)) == "Done (бито) . SH > - \"x\""
    assert plain(asciify(lines, transliterate=True)) == "Done (bito) . SH > - \"x\""
    assert plain(asciify([[("", "Щука Ёж")]], transliterate=True)) == "Shchuka Ezh"


def test_russian_counts_agree_in_the_end_panels_sentences() -> None:
    # Длинный дурак: «с валета — по 4» cards: «по 4 карты», «по 5 карт»
    from p2p_durak.cli.i18n import Messages

    ru = Messages("ru")
    assert ru("over.ladder_hand", who="Вера", n=4) == "Теперь Вера получает по 4 карты."
    assert ru("over.ladder_hand", who="Вера", n=5) == "Теперь Вера получает по 5 карт."


def test_a_log_line_too_long_for_the_column_goes_on_below_not_cut() -> None:
    # «Tester transfers 10♥ → Boris» is wider than the 23-cell log column at 80×24
    from p2p_durak.engine import events as E

    state = find_state(bout_with_covers)
    card = state.table[0]
    cards = CardText(state.game, "en", False)
    log = tuple(LogLine(i, E.Passed(1)) for i in range(30)) + (
        LogLine(30, E.Transferred(0, card, 2, False)), LogLine(31, E.Passed(2)))
    text, _ = table_screen(state, Look("en", False), log=log)
    column = [line.split("│", 1)[1] for line in text.split("\n")[2:17]]
    said = f"Tester transfers {cards(card)} → Boris"
    at = next(i for i, row in enumerate(column) if row.startswith(" Tester transfers"))
    assert " ".join(column[at].split() + column[at + 1].split()) == said
    assert column[at + 1].startswith("   ")  # the rest, indented under it
    assert column[-1].rstrip() == " Boris: pass"  # the latest move still shows last
    assert "…" not in "".join(column)
