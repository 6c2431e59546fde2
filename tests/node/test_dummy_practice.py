"""с болваном (s_bolvanom) at the practice table: the human is never seated at the dummy's
seat; whoever controls the dummy plays its cards — the human (his legal moves list the dummy's
throw-ins and passes, and his view holds its hand) or that player's bot — and the games end
(docs/rules.md, s_bolvanom; seed 000_0a1bcdd496bc6662.txt, «Дурак с болваном»: «а также болвану
при его очереди»; «Первоначально при определении козыря ... сдатчик»)."""

from __future__ import annotations

import pytest
import trio

from p2p_durak.engine import Action
from p2p_durak.engine import events as E
from p2p_durak.engine.presets import get_preset
from p2p_durak.node.api import TableSnapshot
from p2p_durak.node.local_session import (
    NOTICE_TIMEOUT_BOT,
    LocalSession,
    PracticeSetup,
    open_local_session,
)

RULES = get_preset("s_bolvanom").rules


def _setup(seats: int, seed: int, **changes: object) -> PracticeSetup:
    fields: dict[str, object] = {"rules": RULES, "n_players": seats, "seed": seed,
                                 "bot_level": "easy", "bot_delay": 0.5,
                                 "preset_id": "s_bolvanom"}
    fields.update(changes)
    return PracticeSetup(**fields)  # type: ignore[arg-type]


async def _drive(session: LocalSession, dummy_moves: list[Action],
                 act: bool = True) -> list[TableSnapshot]:
    seen: list[TableSnapshot] = []
    async for snap in session.snapshots:
        seen.append(snap)
        assert len(seen) < 5000
        if snap.activity == "over":
            return seen
        if not act or session.snapshots.statistics().current_buffer_used:
            continue
        if snap.waiting_for[:1] == (snap.my_seat,) and snap.legal:
            # (the table waits for him for the dummy's move too, while he controls it)
            dummy = snap.state.game.dummy if snap.state is not None else -1
            for_dummy = [a for a in snap.legal if a.seat == dummy]
            action = for_dummy[0] if for_dummy else snap.legal[0]
            if for_dummy:
                dummy_moves.append(action)
            await session.act(action)
    raise AssertionError("the snapshots ended before the game did")


@pytest.mark.parametrize(("seats", "seed"), [(3, 1), (3, 2), (4, 3), (4, 4), (5, 5), (5, 6)])
async def test_the_practice_table_plays_the_dummy_game(
        seats: int, seed: int, autojump_clock: trio.abc.Clock) -> None:
    human_dummy: list[Action] = []
    async with open_local_session(_setup(seats, seed)) as session:
        snaps = await _drive(session, human_dummy)
        full = session.state
    dummy = full.game.dummy
    assert dummy >= 0
    assert dummy != 0
    assert full.result is not None
    assert dummy not in full.result.durak
    last = snaps[-1]
    assert [s.is_dummy for s in last.seats].count(True) == 1
    assert last.seats[dummy].is_dummy
    assert not last.seats[dummy].is_bot
    for snap in snaps:
        view = snap.state
        assert dummy not in snap.waiting_for  # the table waits for people, never the dummy
        if view is None or snap.activity == "over":
            continue
        mine = view.controller == 0
        # the dummy's moves are his only while he controls it; its hand is in his view then
        assert all(a.seat == 0 or (mine and a.seat == dummy) for a in snap.legal)
        if not mine:
            assert view.hands[dummy] == 0
    moved = [line.event for s in snaps for line in s.log
             if isinstance(line.event, (E.ThrewIn, E.Passed)) and line.event.seat == dummy]
    assert moved or human_dummy  # the dummy took part, played by a bot or by the human


async def test_the_human_plays_the_dummy_when_he_controls_it(
        autojump_clock: trio.abc.Clock) -> None:
    """Over a few seeds the human controls the dummy at some point and is asked for its
    moves; the table never waits for him on a move he cannot make."""
    played = 0
    for seed in range(10, 16):
        human_dummy: list[Action] = []
        async with open_local_session(_setup(3, seed)) as session:
            await _drive(session, human_dummy)
        played += len(human_dummy)
    assert played > 0


async def test_the_stand_in_plays_the_dummy_when_the_human_runs_out_of_time(
        autojump_clock: trio.abc.Clock) -> None:
    async with open_local_session(_setup(3, 11, timer=5.0)) as session:
        snaps = await _drive(session, [], act=False)  # the human never moves
    assert snaps[-1].activity == "over"
    assert any(s.notice == NOTICE_TIMEOUT_BOT for s in snaps)


async def test_a_series_keeps_the_dummy_at_its_seat(autojump_clock: trio.abc.Clock) -> None:
    async with open_local_session(_setup(4, 21)) as session:
        await _drive(session, [])
        first = session.state.game
        await session.next_game()
        await _drive(session, [])
        second = session.state.game
    assert second.dummy == first.dummy
    assert second.game_index == first.game_index + 1


def test_names_are_given_per_player_not_for_the_dummy() -> None:
    session = LocalSession(_setup(4, 8, names=("Ann", "Bob", "Cid")))
    names = [s.name for s in session.seats]
    assert names.count("Dummy") == 1
    assert [n for n in names if n != "Dummy"] == ["Ann", "Bob", "Cid"]
    with pytest.raises(ValueError, match="3 players need 3 names"):
        _setup(4, 8, names=("Ann", "Bob", "Cid", "Dan")).check()
