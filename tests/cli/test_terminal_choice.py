"""The language and the symbols a terminal gets: the locale's variables in gettext's order,
the locale's codeset (a C locale means ASCII, whatever Python coerces it to), TERM=linux, and
the options over all of it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import trio
import trio.testing
from test_lobby import ad, base, start

from p2p_durak.cli.backend import LocalLobbyBackend
from p2p_durak.cli.canvas import plain
from p2p_durak.cli.controller import Controller
from p2p_durak.cli.i18n import Look
from p2p_durak.cli.terminal import (
    can_show_russian,
    can_show_suits,
    choose_terminal,
    detect_lang,
    terminal_encoding,
    with_windows_locale,
)
from p2p_durak.node.discovery import FakeDiscoveryNetwork

RU, EN = "ru_RU.UTF-8", "en_US.UTF-8"


@pytest.mark.parametrize(("env", "lang"), [
    ({"LANG": RU}, "ru"),
    ({"LANG": "en_GB.UTF-8"}, "en"),
    ({}, "en"),
    ({"LC_ALL": RU, "LANG": EN}, "ru"),  # LC_ALL first
    ({"LC_ALL": "C", "LANG": RU}, "en"),
    ({"LC_MESSAGES": RU, "LANG": EN}, "ru"),  # then LC_MESSAGES
    ({"LC_ALL": EN, "LC_MESSAGES": RU}, "en"),
    ({"LC_CTYPE": RU, "LANG": EN}, "en"),  # LC_CTYPE is the encoding, not the language
    ({"LANGUAGE": "ru:en", "LANG": EN}, "ru"),  # LANGUAGE over all of them...
    ({"LANGUAGE": "de:en:ru", "LC_ALL": RU}, "en"),  # ...its first language we have
    ({"LANGUAGE": "de", "LANG": RU}, "ru"),  # none of ours: the locale decides
    ({"LANGUAGE": "ru", "LANG": "C"}, "en"),  # ...but not under the C locale (glibc)
    ({"LANGUAGE": "ru"}, "en"),
    ({"LANGUAGE": "ru", "LANG": "C.UTF-8"}, "en"),
])
def test_the_language_comes_from_the_locale(env: dict[str, str], lang: str) -> None:
    assert detect_lang(env) == lang


@pytest.mark.parametrize(("env", "encoding"), [
    ({"LANG": "C"}, "ascii"),
    ({"LANG": "POSIX"}, "ascii"),
    ({}, "ascii"),
    ({"LANG": "C.UTF-8"}, "utf-8"),
    ({"LANG": EN}, "utf-8"),
    ({"LANG": "ru_RU.utf8"}, "utf-8"),
    ({"LANG": "ru_RU.KOI8-R"}, "koi8-r"),
    ({"LANG": "en_US"}, "iso8859-1"),  # the codeset a bare locale name stands for
    ({"LC_ALL": "C", "LANG": RU}, "ascii"),
    ({"LC_CTYPE": RU, "LANG": "C"}, "utf-8"),
    ({"LC_ALL": RU, "LC_CTYPE": "C"}, "utf-8"),
    ({"LANG": "ru_RU.NO-SUCH-CODESET"}, "ascii"),
])
def test_the_terminal_encoding_is_the_locales_codeset(env: dict[str, str],
                                                      encoding: str) -> None:
    assert terminal_encoding(env) == encoding


def test_suit_symbols_and_cyrillic_need_an_encoding_that_has_them() -> None:
    assert can_show_suits("utf-8")
    assert not can_show_suits("ascii")
    assert not can_show_suits("latin-1")
    assert not can_show_suits("koi8-r")
    assert not can_show_suits(None)
    assert not can_show_suits("no-such-codec")
    assert can_show_russian("koi8-r")
    assert not can_show_russian("latin-1")


@pytest.mark.parametrize(("env", "lang_option", "ascii_option", "expected"), [
    ({"LANG": RU}, None, None, ("ru", False, True)),
    ({"LANG": EN}, "ru", None, ("ru", False, True)),  # --lang ru
    ({"LANG": RU}, "en", None, ("en", False, True)),  # --lang en
    ({"LANG": "C"}, None, None, ("en", True, False)),  # plain ASCII: letters, English
    ({"LANG": "C"}, "ru", None, ("en", True, False)),  # Russian cannot be shown
    ({"LANG": "C"}, "ru", False, ("ru", False, True)),  # --no-ascii: the terminal can
    ({"LANG": "ru_RU.KOI8-R"}, None, None, ("ru", True, True)),  # Cyrillic, no suits
    ({"LANG": RU, "TERM": "linux"}, None, None, ("ru", True, True)),  # the Linux console
    ({"LANG": RU, "TERM": "linux"}, None, False, ("ru", False, True)),
    ({"LANG": EN, "TERM": "xterm-256color"}, None, True, ("en", True, True)),  # --ascii
])
def test_the_options_override_what_the_environment_says(
        env: dict[str, str], lang_option: str | None, ascii_option: bool | None,
        expected: tuple[str, bool, bool]) -> None:
    choice = choose_terminal(lang_option, ascii_option, env)
    assert (choice.lang, choice.ascii_only, choice.cyrillic) == expected


@pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="needs Linux's /proc")
def test_a_c_locale_is_ascii_although_python_coerces_it_to_utf8() -> None:
    """Python rewrites LC_CTYPE=C.UTF-8 into os.environ under LANG=C (PEP 538): reading that
    would make every C-locale terminal a UTF-8 one."""
    probe = ("import os, sys; from p2p_durak.cli.terminal import choose_terminal; "
             "c = choose_terminal(None, None); "
             "print(sys.stdout.encoding, os.environ.get('LC_CTYPE'), c.lang, c.ascii_only)")
    env = {"PATH": os.environ.get("PATH", ""), "PYTHONPATH": os.pathsep.join(sys.path),
           "LANG": "C"}
    out = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True,
                         text=True, check=True, timeout=60).stdout.split()
    assert out[0].lower() == "utf-8"  # what Python believes
    assert out[2:] == ["en", "True"]  # what the terminal gets


async def test_l_stays_in_english_on_a_terminal_without_cyrillic() -> None:
    async with trio.open_nursery() as nursery:
        look = Look("en", True, cyrillic=False)
        controller = Controller(LocalLobbyBackend(nursery), look, base())
        keys = await start(nursery, controller)
        screen = await keys("l")
        assert look.lang == "en"
        assert "Russian needs a terminal with Cyrillic" in screen
        assert screen.isascii()
        nursery.cancel_scope.cancel()


RUSSIAN = frozenset("абвгдеёжзийклмнопрстуфхцчшщъыьэюяАБВГДЕЁЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯ")


@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_ascii_mode_shows_no_symbol_on_any_screen(lang: str) -> None:
    """The lobby with a table, the new-table form for every preset (its description too), the
    help of the lobby and of every preset: ASCII only (Russian letters in the Russian UI).
    The table screens are checked in every preset's game (test_every_preset.py)."""
    allowed = RUSSIAN if lang == "ru" else frozenset()

    def leaked(screen: str) -> set[str]:
        return {ch for ch in screen if not ch.isascii() and ch not in allowed}

    net = FakeDiscoveryNetwork()
    async with (net.open_discovery(addresses=["10.0.0.2"]) as host,
                net.open_discovery() as mine, trio.open_nursery() as nursery):
        controller = Controller(LocalLobbyBackend(nursery, mine.events), Look(lang, True),
                                base())
        keys = await start(nursery, controller)
        await host.advertise(ad("Кухня «у окна» — №1"))
        screen = await keys()
        assert "Kukhnya" in screen or "Кухня" in screen
        assert leaked(screen) == set()
        assert leaked(await keys("?")) == set()
        await keys("escape", "c")
        for _ in controller.form.presets:
            for screen in (await keys(), await keys("?")):
                assert leaked(screen) == set(), (controller.form.preset.id, screen)
            await keys("escape", "right")
        nursery.cancel_scope.cancel()


async def test_help_names_the_cards_and_l_switches_on_it_and_the_form_has_its_own() -> None:
    """The help of the form: the chosen preset's rules and the form's keys; L switches the
    language while help is shown; the card names in words, in either notation."""
    async with trio.open_nursery() as nursery:
        look = Look("ru", False)
        controller = Controller(LocalLobbyBackend(nursery), look, base())
        keys = await start(nursery, controller)
        screen = await keys("c", "right", "?")
        assert controller.form.preset.name("ru") in screen  # the rules now chosen
        assert "изменить его" in screen
        assert "В Д К Т: валет, дама, король, туз · ♠ пики ♣ трефы ♦ бубны ♥ черви" in screen
        screen = await keys("l")
        assert controller.help
        assert "choose a field" in screen
        assert "J Q K A: jack, queen, king, ace · ♠ spades ♣ clubs ♦ diamonds ♥ hearts" in screen
        look.ascii_only = True
        screen = await keys()
        assert "J Q K A: jack, queen, king, ace; T: ten . S spades C clubs D diamonds" in screen
        screen = await keys("escape")
        assert not controller.help
        assert controller.screen == "create"
        nursery.cancel_scope.cancel()


async def test_a_longer_transliterated_key_line_loses_blanks_not_words() -> None:
    """«L язык» becomes "L yazyk" in ASCII: the key line grows by a cell, which must come out
    of its padding (it ended in a stray "." — the ASCII ellipsis — before)."""
    async with trio.open_nursery() as nursery:
        controller = Controller(LocalLobbyBackend(nursery), Look("en", True), base())
        keys = await start(nursery, controller)
        last = (await keys()).split("\n")[-1]
        assert last.rstrip().endswith("Q quit")
        nursery.cancel_scope.cancel()


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize("ascii_only", [False, True])
def test_the_card_legend_fits_a_help_line(lang: str, ascii_only: bool) -> None:
    from p2p_durak.cli.canvas import text_width
    from p2p_durak.cli.help_view import card_legend

    legend = card_legend(Look(lang, ascii_only))
    assert text_width(legend) <= 78  # help lines are indented by two
    suits = {("en", False): "♠ spades", ("ru", False): "♠ пики", ("en", True): "S spades",
             ("ru", True): "п пики"}
    assert suits[lang, ascii_only] in legend


async def test_keys_do_nothing_while_the_window_is_too_small() -> None:
    """The player cannot see what a key would do (the window shows only "too small"): it is
    ignored, but L still switches the message's language; at 80×24 the keys work again."""
    async with trio.open_nursery() as nursery:
        controller = Controller(LocalLobbyBackend(nursery), Look("en", False), base())
        send, receive = trio.open_memory_channel[str](10)
        await nursery.start(controller.run, receive)
        assert "too small" in plain(controller.render(60, 20))
        for key in ("c", "l"):
            send.send_nowait(key)
        await trio.testing.wait_all_tasks_blocked()
        assert controller.screen == "lobby"
        assert "Окно слишком маленькое" in plain(controller.render(60, 20))
        controller.render(80, 24)
        send.send_nowait("c")
        await trio.testing.wait_all_tasks_blocked()
        assert controller.screen == "create"
        nursery.cancel_scope.cancel()


async def test_a_new_tables_default_names_follow_the_language_shown() -> None:
    """Started in English, switched with L: the practice table's bots are Russian; a name the
    player gave is his."""
    from p2p_durak.cli.i18n import BOT_NAMES, PLAYER_NAME

    async with trio.open_nursery() as nursery:
        controller = Controller(LocalLobbyBackend(nursery), Look("en", False),
                                base(bot_names=BOT_NAMES["en"], player_name=PLAYER_NAME["en"]))
        keys = await start(nursery, controller)
        screen = await keys("l", "p")
        snap = controller.table.snapshot
        assert snap is not None
        assert [seat.name for seat in snap.seats] == ["Игрок", "Аня", "Борис"]
        assert "Anna" not in screen
        nursery.cancel_scope.cancel()

    async with trio.open_nursery() as nursery:
        controller = Controller(LocalLobbyBackend(nursery), Look("ru", False),
                                base(bot_names=BOT_NAMES["en"], player_name="Sasha"))
        await (await start(nursery, controller))("p")
        snap = controller.table.snapshot
        assert snap is not None
        assert [seat.name for seat in snap.seats] == ["Sasha", "Аня", "Борис"]
        nursery.cancel_scope.cancel()


def test_a_failed_join_reads_in_the_waiting_rooms_language() -> None:
    from p2p_durak.cli.waiting_view import render_waiting
    from p2p_durak.engine.presets import get_preset
    from p2p_durak.node.api import SeatInfo, TableSnapshot
    from p2p_durak.node.lobby import REFUSED_RU
    from p2p_durak.protocol.messages import RefuseCode

    snap = TableSnapshot(
        table_name="Кухня", preset_id="app_podkidnoy", rules=get_preset("app_podkidnoy").rules,
        seats=(SeatInfo(0, "Тестер"),), my_seat=0, state=None, activity="lobby",
        progress=(1, 3), notice="table is full",
        notice_ru=REFUSED_RU[RefuseCode.TABLE_FULL])
    russian = plain(render_waiting(snap, Look("ru", False), 80, 24))
    assert "за столом нет свободных мест" in russian
    assert "table is full" not in russian
    assert "table is full" in plain(render_waiting(snap, Look("en", False), 80, 24))


@pytest.mark.parametrize(("user_locale", "lang"), [
    ("Russian_Russia", "ru"), ("ru_RU", "ru"), ("English_United States", "en"), ("", "en"),
])
def test_windows_without_locale_variables_takes_the_users_locale(user_locale: str,
                                                                 lang: str) -> None:
    """Windows sets no LANG: the UI was English and ASCII there for everyone (issue #15)."""
    env = with_windows_locale({"PATH": "C:\\Windows"}, "win32", user_locale)
    choice = choose_terminal(None, None, env)
    assert (choice.lang, choice.ascii_only, choice.cyrillic) == (lang, False, True)


def test_locale_variables_win_on_windows_and_elsewhere_nothing_changes() -> None:
    chosen = {"LANG": "C"}
    assert with_windows_locale(chosen, "win32", "Russian_Russia") is chosen
    assert with_windows_locale({}, "linux", "Russian_Russia") == {}
    assert with_windows_locale({}, "darwin", "ru_RU") == {}
