"""`L` switches the language of the whole screen, the default names at the table too: the
bots «Аня, Борис» are "Anna, Boris" in English, and this player's own default «Игрок» is
"Player"; a name a person gave never changes, and no two seats end up with one name.

The issue (#6, "Language and terminals"): «Russian and English, chosen from the locale,
switchable by option»; docs/ui.md, "Language and symbols".
"""

from __future__ import annotations

import dataclasses

import trio
from table_states import find_state, snapshot_of
from test_lobby import base, start

from p2p_durak.cli.backend import LocalLobbyBackend
from p2p_durak.cli.controller import Controller
from p2p_durak.cli.i18n import Look, default_names_in
from p2p_durak.engine.state import LEAD
from p2p_durak.node.api import SeatInfo


async def test_l_at_the_table_turns_the_bots_default_names_and_keeps_the_players() -> None:
    async with trio.open_nursery() as nursery:
        controller = Controller(LocalLobbyBackend(nursery), Look("en", False), base(players=3))
        keys = await start(nursery, controller)
        screen = await keys("p")
        assert controller.screen == "table"
        assert all(name in screen for name in ("Anna", "Boris", "Tester (you)"))
        screen = await keys("l")
        assert all(name in screen for name in ("Аня", "Борис", "Tester (вы)"))
        assert not any(name in screen for name in ("Anna", "Boris"))
        screen = await keys("l")
        assert all(name in screen for name in ("Anna", "Boris"))
        assert "Аня" not in screen
        nursery.cancel_scope.cancel()


def _seats(*seats: tuple[str, bool]) -> tuple[SeatInfo, ...]:
    return tuple(SeatInfo(n, name, is_bot=bot) for n, (name, bot) in enumerate(seats))


def test_only_default_names_follow_the_language_and_never_onto_another_seats() -> None:
    snap = snapshot_of(find_state(lambda s: s.phase == LEAD, players=6))
    snap = dataclasses.replace(snap, seats=_seats(
        ("Player", False),  # mine: the default name
        ("Boris", True),
        ("Anna", True), ("Аня", True),  # "Anna" would become another bot's «Аня»
        ("Anna", False),  # a person called Anna
        ("Gleb", False)))  # a person with a bot's name: his name
    shown = [seat.name for seat in default_names_in(snap, "ru").seats]
    assert shown == ["Игрок", "Борис", "Anna", "Аня", "Anna", "Gleb"]
    back = default_names_in(default_names_in(snap, "ru"), "en")
    assert [seat.name for seat in back.seats] == [seat.name for seat in snap.seats]
    assert default_names_in(snap, "en") is snap  # nothing to change: the same snapshot
    others = dataclasses.replace(snap, my_seat=1)  # "Player" is then someone else's name
    assert default_names_in(others, "ru").seats[0].name == "Player"
