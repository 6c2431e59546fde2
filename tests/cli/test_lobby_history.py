"""The history of the evening in the lobby: practice games recorded as they end (through the
lobby's backend), and tonight's scoreboard on the 80×24 lobby screen in both languages."""

from __future__ import annotations

import math
import time
from pathlib import Path

import trio
import trio.testing

from p2p_durak.cli.backend import LocalLobbyBackend, TableOptions
from p2p_durak.cli.canvas import plain
from p2p_durak.cli.controller import Controller
from p2p_durak.cli.i18n import Look
from p2p_durak.node.api import Session, TableSnapshot
from p2p_durak.node.history import NETWORK, PRACTICE, GameRecord, PlayerRecord
from p2p_durak.node.history_store import HistoryStore, record_practice
from p2p_durak.node.local_session import LocalSession


def base(**changes: object) -> TableOptions:
    fields: dict[str, object] = {"seed": 3, "bot_delay": 0.0, "player_name": "Olga",
                                 "bot_names": ("Anna", "Boris"), "players": 2,
                                 "bot_level": "easy"}
    fields.update(changes)
    return TableOptions(**fields)  # type: ignore[arg-type]


async def play_out(session: Session, *, act: bool = True) -> TableSnapshot:
    """The game to its end, the human seat playing its first legal move (or none)."""
    async for snap in session.snapshots:
        if snap.activity == "over":
            return snap
        if session.snapshots.statistics().current_buffer_used:
            continue
        if act and snap.waiting_for[:1] == (snap.my_seat,) and snap.legal:
            await session.act(snap.legal[0])
    raise AssertionError("the snapshots ended before the game did")


async def test_practice_games_are_recorded_as_they_end(
        tmp_path: Path, autojump_clock: trio.abc.Clock) -> None:
    async with trio.open_nursery() as nursery:
        backend = LocalLobbyBackend(nursery, home=tmp_path)
        session = await backend.practice(base())
        assert isinstance(session, LocalSession)
        first = await play_out(session)
        await session.next_game()
        second = await play_out(session)
        results = [first, second]
        await session.leave()
        timed = await backend.practice(base(timer=5.0, timer_policy="lose", seed=4))
        lost = await play_out(timed, act=False)  # the player never moves: lost on time
        await timed.leave()
    with HistoryStore.open(tmp_path) as store:
        games = store.games()
    assert [g.kind for g in games] == [PRACTICE] * 3
    series = sorted((g for g in games if g.table_id == session.table_id),
                    key=lambda g: g.number)
    assert [g.number for g in series] == [1, 2]
    for game, snap in zip(series, results, strict=True):
        assert game.table == "Throw-in durak (app rules)"
        assert game.variant == "app_podkidnoy"
        assert not game.variant_changed
        assert [p.name for p in game.players] == ["Olga", "Anna"]
        assert [p.bot for p in game.players] == ["", "easy"]
        assert game.me == 0
        assert game.series_duraks == snap.duraks
    assert series[0].durak == tuple(i for i, n in enumerate(first.duraks) if n)
    timeout = next(g for g in games if g.table_id == timed.table_id)
    assert timeout.durak == (0,)
    assert lost.duraks == (1, 0)
    # each game's own file lies in the data folder: the database is rebuilt from them
    assert len(list((tmp_path / "practice").glob("*.json"))) == 3


def _game(table: str, durak: int, when: float, kind: str = PRACTICE) -> GameRecord:
    players = (PlayerRecord("Olga", me=True), PlayerRecord("Anna", bot="easy"),
               PlayerRecord("Boris", "ABCD-EFGH-IJKL-MNOP" if kind == NETWORK else ""))
    return GameRecord(table, 1, kind, when, "Kitchen", "app_podkidnoy", False, players,
                      (durak,), False, tuple(int(i == durak) for i in range(3)))


def _evening(home: Path) -> None:
    now = time.time()
    record_practice(home, _game("a", 1, now - 3600))
    record_practice(home, _game("b", 1, now - 1800))
    record_practice(home, _game("c", 0, now - 60))
    record_practice(home, _game("old", 2, now - 30 * 3600))  # yesterday: not tonight's


async def _lobby_screen(home: Path, lang: str) -> list[str]:
    async with trio.open_nursery() as nursery:
        controller = Controller(LocalLobbyBackend(nursery, home=home), Look(lang, False),
                                base())
        _send, receive = trio.open_memory_channel[str](math.inf)
        await nursery.start(controller.run, receive)
        await trio.testing.wait_all_tasks_blocked()
        screen = plain(controller.render(80, 24))
        nursery.cancel_scope.cancel()
    return screen.splitlines()


async def test_the_lobby_shows_tonights_scoreboard_in_english(
        tmp_path: Path, autojump_clock: trio.abc.Clock) -> None:
    _evening(tmp_path)
    lines = await _lobby_screen(tmp_path, "en")
    assert len(lines) == 24
    assert all(len(line) <= 80 for line in lines)
    assert "   Tonight: 3 games · the durak: Anna 2, Olga 1" in lines
    assert "   You (Olga): the durak in 1 of 3 games" in lines
    assert "help" in lines[-1]  # the keys line is still at the bottom


async def test_the_lobby_shows_tonights_scoreboard_in_russian(
        tmp_path: Path, autojump_clock: trio.abc.Clock) -> None:
    _evening(tmp_path)
    lines = await _lobby_screen(tmp_path, "ru")
    assert len(lines) == 24
    assert "   Сегодня: 3 партии · дурак: Anna 2, Olga 1" in lines
    assert "   Вы (Olga): дурак в 1 из 3 партий" in lines


async def test_a_lobby_before_the_evenings_first_game_shows_no_scoreboard(
        tmp_path: Path, autojump_clock: trio.abc.Clock) -> None:
    lines = await _lobby_screen(tmp_path, "en")
    assert not any("Tonight" in line for line in lines)


async def test_back_in_the_lobby_the_game_just_played_is_counted(
        tmp_path: Path, autojump_clock: trio.abc.Clock) -> None:
    async with trio.open_nursery() as nursery:
        controller = Controller(LocalLobbyBackend(nursery, home=tmp_path), Look("en", False),
                                base())
        _send, receive = trio.open_memory_channel[str](math.inf)
        await nursery.start(controller.run, receive)
        # the player never moves: on each turn's timeout a stand-in bot plays for him
        await controller._practice(base(timer=1.0, timer_policy="bot"))
        # (the controller reads the session's snapshots: its view is watched, in virtual time)
        while not controller.table.snapshot or controller.table.snapshot.activity != "over":  # noqa: ASYNC110
            await trio.sleep(1.0)
        over = controller.table.snapshot
        await controller._leave_table(wait=True)
        await trio.testing.wait_all_tasks_blocked()
        screen = plain(controller.render(80, 24))
        nursery.cancel_scope.cancel()
    names = ", ".join(f"{name} 1" for name, n in zip(("Olga", "Anna"), over.duraks,
                                                      strict=True) if n) or "—"
    assert f"Tonight: 1 game · the durak: {names}" in screen
    assert f"You (Olga): the durak in {over.duraks[0]} of 1 game" in screen
