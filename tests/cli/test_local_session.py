"""LocalSession: a practice table of bots around one human seat (trio's autojump clock)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
import trio

from p2p_durak.engine import (
    UNKNOWN,
    Action,
    IllegalAction,
    Reason,
    legal_actions,
    private_view,
    state_hash,
)
from p2p_durak.engine import actions as A
from p2p_durak.engine import events as E
from p2p_durak.engine.presets import get_preset
from p2p_durak.engine.state import BOUT
from p2p_durak.node.api import TableSnapshot
from p2p_durak.node.local_session import (
    EXTRA_TIMEOUT_LOSER,
    NOTICE_TIMEOUT_BOT,
    NOTICE_TIMEOUT_LOSE,
    LocalSession,
    PracticeSetup,
    make_level_bot,
    open_local_session,
)

Policy = Callable[[TableSnapshot], Action | None]


def setup(**changes: object) -> PracticeSetup:
    fields: dict[str, object] = {"rules": get_preset("app_podkidnoy").rules, "n_players": 3,
                                 "seed": 7, "bot_level": "easy", "bot_delay": 0.8}
    fields.update(changes)
    return PracticeSetup(**fields)  # type: ignore[arg-type]


def first_legal(snap: TableSnapshot) -> Action | None:
    if snap.waiting_for[:1] == (snap.my_seat,) and snap.legal:
        return snap.legal[0]
    return None


async def drive(session: LocalSession, policy: Policy = first_legal,
                limit: int = 2000) -> list[TableSnapshot]:
    """Every snapshot of one game; the policy acts on the newest one when it wants to."""
    seen: list[TableSnapshot] = []
    async for snap in session.snapshots:
        seen.append(snap)
        assert len(seen) < limit
        if snap.activity == "over":
            return seen
        if session.snapshots.statistics().current_buffer_used:
            continue
        action = policy(snap)
        if action is not None:
            await session.act(action)
    raise AssertionError("the snapshots ended before the game did")


async def test_the_human_sees_only_his_own_seat(autojump_clock: trio.abc.Clock) -> None:
    async with open_local_session(setup()) as session:
        snaps = await drive(session)
        full = session.state
    me = 0
    for snap in snaps:
        view = snap.state
        assert view is not None
        for seat in range(1, 3):
            assert view.hands[seat] == 0
        assert view.reveal_card == UNKNOWN
        turned = view.trump_card
        assert all(card == UNKNOWN or (card == turned and i == len(view.stock) - 1)
                   for i, card in enumerate(view.stock))
        if snap.activity != "over":
            assert snap.legal == legal_actions(view, me)
        for line in snap.log:
            if isinstance(line.event, E.Drew) and line.event.seat != me:
                assert line.event.cards == ()
    assert snaps[-1].state == private_view(full, me)
    assert full.result is not None
    assert snaps[-1].state.result == full.result
    assert sum(snaps[-1].duraks) == len(full.result.durak)


async def test_the_same_seed_plays_the_same_game(autojump_clock: trio.abc.Clock) -> None:
    hashes = []
    for _ in range(2):
        async with open_local_session(setup(seed=123)) as session:
            snaps = await drive(session)
        hashes.append([state_hash(s.state) for s in snaps if s.state is not None])
    assert hashes[0] == hashes[1]
    async with open_local_session(setup(seed=124)) as session:
        other = [state_hash(s.state) for s in await drive(session) if s.state is not None]
    assert other != hashes[0]


async def test_a_refused_action_changes_nothing(autojump_clock: trio.abc.Clock) -> None:
    async with open_local_session(setup()) as session:
        async for snap in session.snapshots:
            if first_legal(snap) is not None:
                break
        before = session.latest
        assert before is not None
        assert before.state is not None
        view = before.state
        mine = [c for c in range(view.game.n_cards) if (view.hands[0] >> c) & 1]
        not_mine = next(c for c in range(view.game.n_cards) if c not in mine)
        with pytest.raises(IllegalAction) as refused:
            await session.act(Action(A.THROW, 0, (not_mine,)))
        assert refused.value.reason in (Reason.NOT_IN_HAND, Reason.WRONG_PHASE,
                                        Reason.NOT_YOUR_TURN, Reason.THROW_IN_NOT_ALLOWED)
        with pytest.raises(IllegalAction) as other_seat:
            await session.act(Action(A.PASS, 1))
        assert other_seat.value.reason is Reason.NOT_YOUR_TURN
        assert session.latest is before
        assert session.snapshots.statistics().current_buffer_used == 0
        assert state_hash(private_view(session.state, 0)) == state_hash(view)


async def test_the_human_may_throw_in_while_a_bot_defends(
        autojump_clock: trio.abc.Clock) -> None:
    thrown: list[Action] = []

    def eager(snap: TableSnapshot) -> Action | None:
        throws = [a for a in snap.legal if a.kind == A.THROW]
        state = snap.state
        if throws and state is not None and state.phase == BOUT \
                and snap.waiting_for[:1] != (snap.my_seat,):
            thrown.append(throws[0])
            return throws[0]
        return first_legal(snap)

    async with open_local_session(setup(seed=3, n_players=2)) as session:
        await drive(session, eager)
    assert thrown, "no chance to throw in during the bot's turn in this game"


async def test_time_out_lets_a_bot_play_for_the_human(autojump_clock: trio.abc.Clock) -> None:
    async with open_local_session(setup(timer=10.0, timer_policy="bot")) as session:
        snaps = await drive(session, lambda snap: None)  # the human never moves
    assert snaps[-1].activity == "over"
    assert any(s.notice == NOTICE_TIMEOUT_BOT for s in snaps)
    left = [s.deadline for s in snaps if s.deadline is not None]
    assert left
    assert max(left) == pytest.approx(10.0)
    assert min(left) <= 1.0


async def test_time_out_loses_the_game_by_table_policy(autojump_clock: trio.abc.Clock) -> None:
    async with open_local_session(setup(timer=5.0, timer_policy="lose")) as session:
        snaps = await drive(session, lambda snap: None)
        over = snaps[-1]
        assert over.activity == "over"
        assert over.notice == NOTICE_TIMEOUT_LOSE
        assert over.extra[EXTRA_TIMEOUT_LOSER] == "0"
        assert over.duraks == (1, 0, 0)
        assert over.legal == ()
        with pytest.raises(IllegalAction):
            await session.act(Action(A.PASS, 0))
        await session.next_game()
        snap = await session.snapshots.receive()
        assert snap.game_number == 2
        assert snap.activity == "dealing"
        assert session.state.game.dealer == 0  # the loser deals
        assert snap.duraks == (1, 0, 0)


async def test_a_series_goes_on_with_next_game(autojump_clock: trio.abc.Clock) -> None:
    async with open_local_session(setup(n_players=2)) as session:
        with pytest.raises(IllegalAction):
            await session.next_game()
        first = await drive(session)
        result = session.state.result
        assert result is not None
        await session.next_game()
        second = await drive(session)
    assert first[-1].game_number == 1
    assert second[-1].game_number == 2
    assert sum(second[-1].duraks) == len(result.durak) + len(session.state.result.durak)
    assert all(line.seq > first[-1].log[-1].seq for line in second[-1].log)


async def test_leave_ends_the_snapshots(autojump_clock: trio.abc.Clock) -> None:
    async with open_local_session(setup()) as session:
        await session.snapshots.receive()
        await session.leave()
        rest = [snap async for snap in session.snapshots]
        assert len(rest) < 10


def test_bot_levels_fall_back_when_a_level_is_not_built() -> None:
    import random

    bot, level = make_level_bot("hard", 1, random.Random(1))
    assert level in ("hard", "medium")
    assert bot.seat == 1
    session = LocalSession(setup(bot_level="medium"))
    assert [s.bot_level for s in session.seats] == ["", "medium", "medium"]
    assert [s.is_bot for s in session.seats] == [False, True, True]


@pytest.mark.parametrize(("changes", "message"), [
    ({"n_players": 7}, "players"),
    ({"human_seat": 3}, "seat 3"),
    ({"names": ("a", "b")}, "names"),
    ({"bot_level": "genius"}, "bot level"),
    ({"timer": 0.0}, "timer"),
    ({"timer_policy": "pause"}, "policy"),
])
def test_a_setup_that_cannot_be_played_is_refused(changes: dict[str, object],
                                                  message: str) -> None:
    with pytest.raises(ValueError, match=message):
        LocalSession(setup(**changes))
