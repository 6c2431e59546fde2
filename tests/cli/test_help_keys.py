"""The help lists the keys the current rules use: R only with a transfer (or крестовый's
passing on), S only where a card is shown (the first-move check, a transfer by showing); the
lobby's help keeps every table key where the screen has room."""

from __future__ import annotations

import pytest

from p2p_durak.cli.canvas import line_width, plain
from p2p_durak.cli.help_view import render_help
from p2p_durak.cli.i18n import Look
from p2p_durak.engine.presets import get_preset

LOOKS = (Look("en", False), Look("ru", False), Look("ru", True))


def key_letters(preset_id: str, look: Look) -> set[str]:
    """The letters that start a key line of the preset's help (at 80×24: nothing cut)."""
    preset = get_preset(preset_id)
    lines = render_help(preset.id, preset.rules, 4, look, 80, 24)
    assert len(lines) == 24
    assert {line_width(line) for line in lines} == {80}
    text = plain(lines).splitlines()
    start = text.index(" " + look.messages("help.keys"))
    return {line[2] for line in text[start + 1:] if line[2:3].isalpha() and line[3:4] == " "}


@pytest.mark.parametrize("look", LOOKS)
def test_no_transfer_key_where_the_rules_have_no_transfer(look: Look) -> None:
    keys = key_letters("app_podkidnoy", look)
    assert "R" not in keys
    assert {"B", "T", "P", "S", "N", "L"} <= keys  # S: the first-move check shows a trump


@pytest.mark.parametrize("look", LOOKS)
def test_the_transfer_key_with_a_transfer(look: Look) -> None:
    keys = key_letters("app_perevodnoy", look)
    assert {"R", "S"} <= keys


def test_show_to_transfer_only_where_a_transfer_is_by_showing() -> None:
    en = Look("en", False)
    shown = "transfer by showing a trump"
    perevod = get_preset("app_perevodnoy")
    pokazom = get_preset("app_perevod_pokazom")
    assert shown not in plain(render_help(perevod.id, perevod.rules, 4, en, 80, 24))
    assert shown in plain(render_help(pokazom.id, pokazom.rules, 4, en, 80, 24))


def test_no_show_key_where_nobody_shows_a_card() -> None:
    # с пар: «Первый ход принадлежит игроку слева от сдатчика» — no trump is shown, and
    # there is no transfer by showing
    for look in LOOKS:
        assert "S" not in key_letters("s_par", look)
        assert "R" not in key_letters("s_par", look)


def test_lowest_card_first_move_and_krestovy_passing_on() -> None:
    en = Look("en", False)
    beskozyrny = get_preset("beskozyrny")  # no trump: the lowest card leads
    text = plain(render_help(beskozyrny.id, beskozyrny.rules, 4, en, 80, 24))
    assert "show your lowest card" in text
    assert "lowest trump" not in text
    krestovy = get_preset("krestovy")
    text = plain(render_help(krestovy.id, krestovy.rules, 4, en, 80, 24))
    assert "R             крестовый: take the first card, pass the chosen one on" in text
    assert "transfer with the chosen card" not in text


@pytest.mark.parametrize("look", LOOKS)
def test_the_lobby_help_keeps_every_table_key_where_there_is_room(look: Look) -> None:
    tall = plain(render_help("app_podkidnoy", None, None, look, 80, 50, lobby=True))
    assert look.messages("help.at_table") + ":" in tall
    for letter in "BTPRSKVXGE":
        assert any(line[2:4] == letter + " " for line in tall.splitlines()), letter
    lines = render_help("app_podkidnoy", None, None, look, 80, 24, lobby=True)
    assert len(lines) == 24
    assert {line_width(line) for line in lines} == {80}
    short = plain(lines)
    assert look.messages("help.at_table_short") in short
    assert look.messages("help.close") in short  # nothing pushed off
