"""The lobby: tables discovered live (FakeDiscovery), the new-table form, practice, refusals."""

from __future__ import annotations

import dataclasses
import math
from pathlib import Path

import trio
import trio.testing

from p2p_durak.cli.backend import LocalLobbyBackend, TableOptions
from p2p_durak.cli.canvas import plain
from p2p_durak.cli.controller import Controller
from p2p_durak.cli.i18n import Look
from p2p_durak.cli.net_backend import NetworkLobbyBackend
from p2p_durak.node.api import Session
from p2p_durak.node.discovery import FakeDiscoveryNetwork
from p2p_durak.node.identity_store import load_or_create
from p2p_durak.node.tableinfo import TableAd, TableSeen, new_table_id
from p2p_durak.protocol.identity import Identity

FINGERPRINT = Identity.from_seed(bytes(32)).fingerprint


def ad(name: str, variant: str = "app_podkidnoy", taken: int = 1, free: int = 2) -> TableAd:
    return TableAd(new_table_id(), name, variant, "ab" * 32, taken, free, FINGERPRINT, 4000, 1)


class Keys:
    """A controller running in trio, fed keys through its intents channel."""

    def __init__(self, controller: Controller, send: trio.MemorySendChannel[str]) -> None:
        self.controller = controller
        self.send = send

    async def __call__(self, *keys: str) -> str:
        for key in keys:
            self.send.send_nowait(key)
        await trio.testing.wait_all_tasks_blocked()
        return plain(self.controller.render(80, 24))


async def start(nursery: trio.Nursery, controller: Controller) -> Keys:
    send, receive = trio.open_memory_channel[str](math.inf)
    await nursery.start(controller.run, receive)
    return Keys(controller, send)


def base(**changes: object) -> TableOptions:
    fields: dict[str, object] = {"seed": 1, "bot_delay": 0.0, "player_name": "Tester",
                                 "bot_names": ("Anna", "Boris", "Vera", "Gleb", "Dasha")}
    fields.update(changes)
    return TableOptions(**fields)  # type: ignore[arg-type]


async def test_the_lobby_lists_tables_as_they_come_change_and_go() -> None:
    net = FakeDiscoveryNetwork()
    async with (net.open_discovery(addresses=["10.0.0.2"]) as host,
                net.open_discovery() as mine, trio.open_nursery() as nursery):
        controller = Controller(LocalLobbyBackend(nursery, mine.events), Look("en", False),
                                base())
        keys = await start(nursery, controller)
        screen = await keys()
        assert "No tables found yet" in screen

        kitchen, office = ad("Kitchen table"), ad("Office", "app_perevodnoy", 2, 0)
        await host.advertise(kitchen)
        await host.advertise(office)
        screen = await keys()
        assert "Kitchen table" in screen
        assert "Throw-in durak" in screen
        assert "1/3" in screen
        assert "Office" in screen
        assert "Transfer durak" in screen

        await host.update(dataclasses.replace(kitchen, seats_taken=2, seats_free=1))
        screen = await keys()
        assert "2/3" in screen

        screen = await keys("down", "enter")  # Office is full
        assert "that table has no free seat" in screen
        screen = await keys("up", "enter")  # a practice-only backend cannot join
        assert "practice games only" in screen
        assert controller.screen == "lobby"

        await host.withdraw(office.table_id)
        screen = await keys()
        assert "Office" not in screen
        assert "Kitchen table" in screen
        nursery.cancel_scope.cancel()


async def test_the_lobby_shows_the_hosts_fingerprint_and_the_players_own(tmp_path: Path) -> None:
    """Issue 4: the identity is shown to players as a short fingerprint. The lobby names the
    chosen table's host by the fingerprint its advertisement carries (the one a join pins,
    docs/protocol.md §9) and this installation's own, whole, in both languages at 80 columns."""
    net = FakeDiscoveryNetwork()
    other = Identity.from_seed(b"o" * 32).fingerprint
    async with (net.open_discovery(addresses=["10.0.0.2"]) as host,
                net.open_discovery() as mine, trio.open_nursery() as nursery):
        backend = NetworkLobbyBackend(nursery, tmp_path, "Tester", tables=mine.events)
        own = load_or_create(tmp_path).fingerprint
        controller = Controller(backend, Look("en", False), base())
        keys = await start(nursery, controller)
        screen = await keys()
        assert f"Your fingerprint: {own}" in screen
        assert "Host of" not in screen  # no table yet
        await host.advertise(ad("Kitchen table, the one by the window"))
        await host.advertise(dataclasses.replace(ad("Office"), fingerprint=other))
        screen = await keys()
        assert f"Host of Kitchen table, the one …: {FINGERPRINT} (joining checks it)" in screen
        screen = await keys("down")
        assert f"Host of Office: {other}" in screen
        assert FINGERPRINT not in screen
        screen = await keys("l")  # Russian: the longest lines still whole at 80 columns
        assert f"Хозяин Office: {other} (сверяется при входе)" in screen
        screen = await keys("up")
        assert f"Хозяин Kitchen table, the one …: {FINGERPRINT} (сверяется при входе)" in screen
        assert f"Ваш отпечаток ключа: {own}" in screen
        nursery.cancel_scope.cancel()


async def test_the_new_table_form_starts_a_practice_game_with_its_options() -> None:
    async with trio.open_nursery() as nursery:
        controller = Controller(LocalLobbyBackend(nursery), Look("en", False), base())
        keys = await start(nursery, controller)
        screen = await keys("c")
        assert "New table" in screen
        assert "The product default" in screen  # the preset's description
        screen = await keys("right")  # the next preset
        assert "The product default" not in screen
        screen = await keys("left", "down", "right")  # four players
        assert "Players                   4" in screen or "◀ 4 ▶" in screen
        screen = await keys("down", "right")  # a deck of 52
        assert "◀ 52 cards ▶" in screen
        screen = await keys("down", "right")  # transfer on
        assert "◀ on ▶" in screen
        await keys("down", "down", "down", "down", "down", "right")  # a 15 s timer
        screen = await keys("enter")
        assert controller.screen == "table"
        snap = controller.table.snapshot
        assert snap is not None
        assert len(snap.seats) == 4
        assert snap.rules.transfer
        assert snap.rules.deck_size == 52
        assert snap.state is not None
        assert snap.state.game.n_cards == 52
        assert "Tester" in screen
        nursery.cancel_scope.cancel()


async def test_the_form_refuses_rules_that_cannot_be_played() -> None:
    async with trio.open_nursery() as nursery:
        controller = Controller(LocalLobbyBackend(nursery), Look("en", False), base())
        keys = await start(nursery, controller)
        await keys("c", "down", "right", "right", "right")  # six players …
        screen = await keys("down", "down", "down", "down", "right")  # … in teams: 3v3
        assert "◀ on ▶" in screen
        await keys("up", "up", "up", "up", "left")  # five players in teams
        screen = await keys("enter")
        assert "teams need 4 or 6 players" in screen or "cannot be played" in screen
        assert controller.screen == "create"
        screen = await keys("escape")
        assert controller.screen == "lobby"
        nursery.cancel_scope.cancel()


async def test_a_practice_only_backend_says_it_cannot_open_a_networked_table() -> None:
    async with trio.open_nursery() as nursery:
        controller = Controller(LocalLobbyBackend(nursery), Look("ru", False), base())
        keys = await start(nursery, controller)
        await keys("c")
        await keys("up")  # from the first field up to the last: the network button
        screen = await keys("enter")
        assert "здесь только тренировка" in screen
        assert controller.screen == "create"
        nursery.cancel_scope.cancel()


async def test_practice_in_one_step_then_leave_back_to_the_lobby() -> None:
    async with trio.open_nursery() as nursery:
        controller = Controller(LocalLobbyBackend(nursery), Look("en", False),
                                base(players=2))
        keys = await start(nursery, controller)
        await keys("p")
        assert controller.screen == "table"
        screen = await keys("?")
        assert "Help — Throw-in durak" in screen
        screen = await keys("escape")
        assert "Your hand" in screen
        screen = await keys("l")
        assert "Ваши карты" in screen
        screen = await keys("q")
        assert "ещё раз" in screen  # press Q again to leave
        screen = await keys("q")
        assert controller.screen == "lobby"
        assert controller.session is None
        nursery.cancel_scope.cancel()


async def test_a_window_too_small_says_so() -> None:
    async with trio.open_nursery() as nursery:
        controller = Controller(LocalLobbyBackend(nursery), Look("en", False), base())
        text = plain(controller.render(60, 20))
        assert "too small" in text
        assert "80×24" in text
        assert "60×20" in text
        assert len(text.split("\n")) == 20
        nursery.cancel_scope.cancel()


async def test_the_form_offers_the_presets_rule_choices() -> None:
    """щелковский's table option (B), `over_limit_policy: defender_chooses` (the catalogue:
    «(B): allow more and let the defender pick 10 to beat and return the rest»), and SP5's
    `first_attacker_fallback: lowest_card`: the form's rule option lists every combination of
    the preset's choices, its own first, and the table plays the one chosen; a preset without
    choices shows a dash."""
    from p2p_durak.cli.lobby_ui import FIELDS
    from p2p_durak.engine.presets import get_preset

    async with trio.open_nursery() as nursery:
        controller = Controller(LocalLobbyBackend(nursery), Look("en", False),
                                base(preset_id="shchelkovsky"))
        keys = await start(nursery, controller)
        screen = await keys("c")
        assert "Rule option" in screen
        assert "at most 10 thrown in · no trump: lot" in screen
        for _ in range(FIELDS.index("choice")):
            await keys("down")
        screen = await keys("right")
        assert "at most 10 thrown in · no trump: lowest card" in screen
        rules = controller.form.options(controller.base).rules()
        assert rules.first_attacker_fallback == "lowest_card"
        screen = await keys("right")
        assert "over 10: sent back · no trump: lot" in screen
        rules = controller.form.options(controller.base).rules()
        assert rules.over_limit_policy == "defender_chooses"
        assert rules.first_attacker_fallback == "lot"
        screen = await keys("right", "right")
        assert "next game: durak's left leads" in screen  # SP17's, alone
        assert controller.form.options(controller.base).rules() == \
            get_preset("shchelkovsky").rules.with_options(first_attacker_next_game="iz_pod_durak")
        await keys("right")  # round to the preset's own
        assert controller.form.options(controller.base).rules() == \
            get_preset("shchelkovsky").rules
        controller.form.focus = FIELDS.index("preset")
        screen = await keys("right")  # another preset: its own rules and choices
        assert controller.form.choice_index == 0
        assert "Rule option" in screen
        # с пар: no trump claim, its own next-game rule, no full deal of five cards: no choice
        controller.form.select_preset("s_par")
        screen = await keys("left", "right")
        assert "—" in screen
        nursery.cancel_scope.cancel()


def test_every_rule_option_fits_the_form_at_80_columns() -> None:
    from p2p_durak.cli.lobby_ui import FIELDS, CreateForm
    from p2p_durak.cli.lobby_view import render_create
    from p2p_durak.engine.presets import table_presets

    for preset in table_presets():
        form = CreateForm()
        form.select_preset(preset.id)
        form.focus = FIELDS.index("choice")
        for index in range(len(form.choices)):
            form.choice_index = index
            for lang, label in (("en", "Rule option"), ("ru", "Вариант правил")):
                screen = plain(render_create(form, base(), Look(lang, False), 80, 30))
                (line,) = [row for row in screen.splitlines() if label in row]
                assert "…" not in line, (preset.id, lang, line)


def test_the_key_lines_fit_80_columns_in_both_languages() -> None:
    """«Works in an 80×24 terminal»: the lobby's and the form's key lines are whole at 80
    columns (the Russian lobby line once lost «? помощь · Q выход» to the edge)."""
    from p2p_durak.cli.lobby_ui import CreateForm, LobbyUi
    from p2p_durak.cli.lobby_view import render_create, render_lobby

    for lang, quit_key, back_key in (("en", "Q quit", "Esc back"), ("ru", "Q выход",
                                                                      "Esc назад")):
        for ascii_only in (False, True):
            look = Look(lang, ascii_only)
            lobby = plain(render_lobby(LobbyUi(), look, 80, 24)).splitlines()
            assert len(lobby) == 24
            assert lobby[-1].rstrip().endswith(quit_key), lobby[-1]
            assert "…" not in lobby[-1]
            form = plain(render_create(CreateForm(), base(), look, 80, 24)).splitlines()
            assert len(form) == 24
            assert form[-1].rstrip().endswith(back_key), form[-1]


async def test_every_option_of_the_form_reaches_the_practice_table() -> None:
    """The form's teams, players, deck, epaulettes, timer, its expiry and the bots' level are
    the practice game's: 2v2 of 52 cards with epaulettes, opponents throw in (the app's team
    rule), easy bots, a 30 s turn timer whose expiry loses."""
    from p2p_durak.cli.lobby_ui import FIELDS

    async def to(field: str) -> str:
        steps = (FIELDS.index(field) - controller.form.focus) % len(FIELDS)
        return await keys(*["down"] * steps)

    async with trio.open_nursery() as nursery:
        controller = Controller(LocalLobbyBackend(nursery), Look("en", False), base())
        keys = await start(nursery, controller)
        await keys("c")
        await to("teams")
        assert "◀ on ▶" in await keys("right")
        assert "◀ 4 ▶" in await to("players")  # teams of two
        await to("deck")
        await keys("right")  # 52
        await to("pogony")
        await keys("right")
        await to("timer")
        await keys("right", "right")  # 30 s
        await to("timer_policy")
        await keys("right")  # you lose the game
        await to("bots")
        assert "◀ easy ▶" in await keys("left")
        await to("practice")
        await keys("enter")
        snap = controller.table.snapshot
        assert snap is not None
        assert snap.state is not None
        rules = snap.rules
        assert (rules.teams, rules.deck_size, rules.pogony_sixes, rules.throw_in_by) == (
            "2v2", 52, True, "opponents_of_defender")
        assert [seat.bot_level for seat in snap.seats] == ["", "easy", "easy", "easy"]
        assert len({snap.state.game.team[seat] for seat in range(4)}) == 2
        session = controller.session
        assert session is not None
        setup = session.setup  # type: ignore[attr-defined]
        assert (setup.timer, setup.timer_policy) == (30.0, "lose")
        nursery.cancel_scope.cancel()


def test_a_long_list_scrolls_with_the_cursor() -> None:
    """Thirty tables at 80×24: the chosen one is always on the screen, and the status line
    says which part of the list is shown."""
    from p2p_durak.cli.lobby_ui import LobbyUi
    from p2p_durak.cli.lobby_view import render_lobby
    from p2p_durak.node.tableinfo import TableSeen

    lobby = LobbyUi()
    for number in range(30):
        lobby.apply(TableSeen(ad(f"Table {number:02}"), ("10.0.0.2",)))
    for cursor in (0, 7, 15, 29):
        lobby.cursor = cursor
        screen = plain(render_lobby(lobby, Look("en", False), 80, 24)).splitlines()
        assert len(screen) == 24
        (chosen,) = [line for line in screen if line.startswith(" ▶ ")]
        assert f"Table {cursor:02}" in chosen
        assert any(line.startswith(" Tables ") and line.rstrip().endswith("of 30 (↑↓ scroll)")
                   for line in screen)
    lobby.move(1)  # from the last round to the first
    screen = plain(render_lobby(lobby, Look("en", False), 80, 24))
    assert " ▶ Table 00" in screen
    assert "Tables 1–" in screen


class DialRecordingBackend(LocalLobbyBackend):
    """A lobby backend that records every table it is asked to join (dial)."""

    dialled: list[str]

    async def join(self, table: TableSeen) -> Session:
        self.dialled.append(table.table.name)
        return await super().join(table)


async def test_a_table_of_another_protocol_version_is_shown_so_and_never_dialled() -> None:
    """Issue #20: a `proto=2` table was listed as any other and Enter dialled it."""
    net = FakeDiscoveryNetwork()
    async with (net.open_discovery(addresses=["10.0.0.2"]) as host,
                net.open_discovery() as mine, trio.open_nursery() as nursery):
        backend = DialRecordingBackend(nursery, mine.events)
        backend.dialled = []
        controller = Controller(backend, Look("en", False), base())
        keys = await start(nursery, controller)
        await host.advertise(dataclasses.replace(ad("Future"), protocol_version=2))
        screen = await keys()
        row = next(line for line in screen.splitlines() if "Future" in line)
        assert "other version: v2" in row
        screen = await keys("enter")
        assert "that table speaks protocol version 2, this durak 1: update the older one" \
            in screen  # (whole at 80 columns)
        screen = await keys("l")
        assert "другая версия: v2" in screen
        screen = await keys("enter")
        assert "этот стол на версии протокола 2, этот durak — на 1: обновите более старый" \
            in screen
        assert backend.dialled == []
        assert controller.screen == "lobby"
        nursery.cancel_scope.cancel()
