"""A person's seat at a networked table: snapshots after every commit, moves refused with the
engine's reason and nothing changed, a whole game played through the Session interface."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest
import trio
import trio.testing
from node_support import play_table

from p2p_durak import engine as eng
from p2p_durak.cli.canvas import plain
from p2p_durak.cli.i18n import Look
from p2p_durak.cli.table_ui import TableUi
from p2p_durak.cli.table_view import render_table_screen
from p2p_durak.engine.errors import Why
from p2p_durak.engine.presets import get_preset
from p2p_durak.node.api import TableSnapshot
from p2p_durak.node.players import BotPlayer
from p2p_durak.node.session import HumanPlayer


async def _person(human: HumanPlayer, seen: list[TableSnapshot],
                  out_of_turn: list[TableSnapshot] | None = None) -> None:
    """Plays by the snapshots alone: first tries a move that is never legal, then the first
    legal move whenever it has some; once, while another seat defends and he has no move,
    «беру» (refused: only the defender takes)."""
    tried_illegal = False
    out_of_turn = [] if out_of_turn is None else out_of_turn
    async for snap in human.snapshots:
        seen.append(snap)
        if snap.state is not None and snap.state.phase == eng.Phase.OVER:
            if snap.activity == "over":
                await human.leave()  # no next game: the table stops
                return
            continue
        state = snap.state
        if not snap.legal and state is not None and state.phase == eng.Phase.BOUT \
                and state.defender != snap.my_seat and not out_of_turn:
            # not his turn (the session holds no turn): the rules' own reason all the same
            with pytest.raises(eng.IllegalAction) as info:
                await human.act(eng.Action(int(eng.Kind.TAKE), snap.my_seat))
            assert info.value.why is Why.TAKE_NOT_DEFENDER, info.value
            assert info.value.message("ru") == Why.TAKE_NOT_DEFENDER.ru
            out_of_turn.append(snap)
        if not snap.legal:
            continue
        if not tried_illegal:
            tried_illegal = True
            with pytest.raises(eng.IllegalAction) as info:
                await human.act(eng.Action(eng.Kind.LEAD, snap.my_seat, (999,)))
            assert info.value.message("ru")
        await human.act(snap.legal[0])


def _shuffle_and_deal_counted_on_screen(seen: list[TableSnapshot]) -> None:
    """Every party's part of a deck step is a snapshot, so the table screen counts the shuffle
    and the deal (k/n) as they go, and never says it waits for the person who has no move."""
    shuffled = [s.progress for s in seen if s.activity == "shuffling"]
    assert {(0, 3), (1, 3), (2, 3)} <= set(shuffled), shuffled
    dealt = [s.progress for s in seen if s.activity == "dealing"]
    assert dealt, "no snapshot while dealing"
    assert all(p is not None and p[1] > 0 for p in dealt), dealt
    screens = []
    for snap in seen:
        if snap.activity in ("shuffling", "dealing"):
            ui = TableUi()
            ui.update(snap)
            screens.append(plain(render_table_screen(ui, Look("en", False), 80, 24)))
    for done in range(3):
        assert any(f"Shuffling the deck: {done}/3" in text for text in screens)
    assert any("Dealing the cards: " in text for text in screens)
    assert not any("Waiting for you" in text for text in screens)
    # whose part the step still waits for: never this person's (his node makes it at once),
    # the others' by name, on the screen with the count
    deck = [s for s in seen if s.activity in ("shuffling", "dealing")]
    assert all("me" not in s.deck_waits_for for s in deck)
    named = [(s, text) for s, text in zip(deck, screens, strict=True) if s.deck_waits_for]
    assert {name for s, _ in named for name in s.deck_waits_for} == {"bot a", "bot b"}
    for snap, text in named:
        assert snap.progress is not None
        done, total = snap.progress
        assert f"{done}/{total} · waiting for {snap.deck_waits_for[0]}" in text


async def test_a_person_plays_a_whole_game_through_the_session(
        tmp_path: Path, autojump_clock: trio.testing.MockClock) -> None:
    human = HumanPlayer(table_name="kitchen", preset_id="app_podkidnoy",
                        names=["me", "bot a", "bot b"], bots={1: "easy", 2: "easy"})
    seen: list[TableSnapshot] = []
    out_of_turn: list[TableSnapshot] = []
    async with trio.open_nursery() as nursery:
        nursery.start_soon(_person, human, seen, out_of_turn)
        nodes = await play_table(tmp_path, [human, BotPlayer(level="easy", seed=1),
                                        BotPlayer(level="easy", seed=2)])
        nursery.cancel_scope.cancel()
    assert out_of_turn, "the person never waited while another seat defended"
    assert seen[-1].activity == "over"
    final = seen[-1].state
    assert final is not None
    assert final.result is not None
    assert {s.name for s in seen[-1].seats} == {"me", "bot a", "bot b"}
    assert any(snap.activity == "shuffling" for snap in seen)
    _shuffle_and_deal_counted_on_screen(seen)
    # before the first bout the person knows of the others' hands only the trumps they showed
    me = seen[-1].my_seat
    first_lead = next(s.state for s in seen if s.state is not None
                      and s.state.phase == eng.Phase.LEAD)
    shown = {c for c in first_lead.claims if c >= 0}
    for seat in range(3):
        if seat != me:
            assert set(eng.cards_of(first_lead.hands[seat])) <= shown
            assert first_lead.hidden[seat] > 0
    runner = nodes[0].runner
    assert runner is not None
    assert runner.diagnosis is None


async def test_a_person_plays_oborotny_by_position_through_the_session(
        tmp_path: Path, autojump_clock: trio.testing.MockClock) -> None:
    """Дурак оборотный at a networked table: the person's snapshots hold every other hand and
    none of his own unseen cards; his moves are picks by position, which the table opens."""
    human = HumanPlayer(table_name="kitchen", preset_id="oborotny", names=["me", "bot"],
                        bots={1: "easy"})
    seen: list[TableSnapshot] = []
    picks: list[eng.Action] = []

    async def person() -> None:
        async for snap in human.snapshots:
            seen.append(snap)
            if snap.activity == "over":
                await human.leave()  # no next game: the table stops
                return
            if not snap.legal or (snap.state is not None and snap.state.phase == eng.Phase.OVER):
                continue
            move = snap.legal[-1] if snap.legal[-1].cards else snap.legal[0]
            if eng.actions.pick_position(move) >= 0:
                picks.append(move)
            await human.act(move)

    async with trio.open_nursery() as nursery:
        nursery.start_soon(person)
        await play_table(tmp_path, [human, BotPlayer(level="easy", seed=3)], "oborotny",
                         limit=900)
        nursery.cancel_scope.cancel()
    assert seen[-1].activity == "over"
    assert picks
    turns = [snap for snap in seen if snap.legal and snap.state is not None
             and snap.state.phase in (eng.Phase.LEAD, eng.Phase.BOUT)]
    assert turns
    for snap in turns:
        state = snap.state
        assert state is not None
        assert state.hidden[1 - snap.my_seat] == 0  # he sees the other hand whole
    # and he does not know his own cards: at his first turn he has taken nothing yet, so he
    # knows at most the one trump a claim showed for him (docs/rules.md, oborotny)
    first = turns[0].state
    assert first is not None
    me = turns[0].my_seat
    assert first.hidden[me] >= first.hand_size(me) - 1 > 0


async def test_a_move_between_turns_is_refused_with_the_rules_own_reason() -> None:
    """Between two turns (the table moved on, the next turn not given yet) the session holds
    no turn; a move the rules refuse anyway says why (here: only the defender takes), one they
    would allow is told to wait."""
    human = HumanPlayer(table_name="kitchen", preset_id="app_podkidnoy",
                        names=["me", "bot a", "bot b"])
    game = eng.make_game(get_preset("app_podkidnoy").rules, 3, 2, first_attacker=0)
    state = eng.new_game(game, list(range(game.n_cards)))
    while state.phase != eng.Phase.LEAD:
        (seat,) = eng.to_act(state)
        state = eng.step(state, eng.legal_actions(state, seat)[0])
    lead = eng.legal_actions(state, 0)[0]
    state = eng.step(state, lead)
    human._table = SimpleNamespace(state=state)  # type: ignore[assignment]
    with pytest.raises(eng.IllegalAction) as info:
        await human.act(eng.Action(int(eng.Kind.TAKE), 0))
    assert info.value.why is Why.TAKE_NOT_DEFENDER
    with pytest.raises(eng.IllegalAction) as info:
        await human.act(eng.Action(int(eng.Kind.TAKE), 1))  # the defender's: but not now
    assert info.value.reason is eng.Reason.NOT_YOUR_TURN
    assert info.value.why is None
