"""с болваном (s_bolvanom) at a node's table: bot peers of two to four players and the dummy
play whole games over the mental-poker deck; the dummy's controller's node is asked for the
dummy's throw-ins and passes and plays them from the dummy's cards it was shown (docs/rules.md,
s_bolvanom; seed 000_0a1bcdd496bc6662.txt, «Дурак с болваном»: «а также болвану при его
очереди» — the dummy throws in at its turn, played by «игрок, зашедший первым»)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
import trio
import trio.testing
from node_support import agreed_tables, play_table
from table_harness import assert_finished_cleanly, run_table
from test_turn_timer_and_grace import InstantPlayer, SilentPlayer

from p2p_durak import engine as eng
from p2p_durak.engine.presets import get_preset
from p2p_durak.engine.rules import DUMMY_BOUT_ATTACKER
from p2p_durak.node.api import TableSnapshot
from p2p_durak.node.game import Player, Timing
from p2p_durak.node.headless import HeadlessPlayer, Seat, summary
from p2p_durak.node.players import BotPlayer
from p2p_durak.node.session import HumanPlayer
from p2p_durak.protocol.table import HandSeen, Moved, PartyLeft, Seated, TableMachine

BY_BOUT = get_preset("s_bolvanom").rules.with_options(dummy_hand=DUMMY_BOUT_ATTACKER)


def _players(n: int, out: io.StringIO, home: Path) -> list[HeadlessPlayer]:
    names = [f"p{i}" for i in range(n)]
    return [HeadlessPlayer(label=f"p{i}", names=names, level="easy", seed=n * 10 + i, out=out,
                           events_path=home / f"events-{i}.jsonl") for i in range(n)]


@pytest.mark.parametrize("n", [2, 3, 4])
async def test_bots_play_the_dummy_game_over_the_network(
        n: int, tmp_path: Path, autojump_clock: trio.testing.MockClock) -> None:
    out = io.StringIO()
    players = _players(n, out, tmp_path)
    nodes = await play_table(tmp_path, players, "s_bolvanom", seed=n + 40)
    tables = agreed_tables(nodes, n)
    for node in nodes:
        assert node.runner is not None
        assert not [p for p in node.runner.reports if p.fault], node.runner.problems
    states = [t.state for t in tables]
    saved = {next((tmp_path / f"p{i}" / "games").glob("*/transcript.durak")).read_bytes()
             for i in range(n)}
    assert len(saved) == 1  # one transcript, byte for byte
    final = states[0]
    assert final is not None
    assert final.result is not None
    dummy = final.game.dummy
    assert final.game.n_players == n + 1
    assert dummy >= 0
    assert dummy not in final.result.durak
    assert tables[0].party_of_seat[dummy] == -1
    # the dummy played: its throw-ins and passes came from its controllers' nodes, each of
    # which was shown the dummy's cards (and no other node was)
    history = tables[0].history
    assert any(isinstance(e, Moved) and e.seat == dummy for e in history)
    shown = [i for i, t in enumerate(tables)
             if any(isinstance(e, HandSeen) and e.seat == dummy for e in t.history)]
    assert shown
    # the narration and the event log name the dummy as no player, and count players only
    text = out.getvalue()
    assert "seats drawn: " in text
    assert "Dummy" in text
    seated = [line for line in text.splitlines() if "seats drawn: " in line]
    assert all(line.count("Dummy") == 1 for line in seated)
    series = [line for line in text.splitlines() if "series after 1 game(s)" in line]
    assert series  # the table stops after the game: the score is told
    assert all("Dummy" not in line and line.count(";") == n - 1 for line in series)
    outcome = summary([Seat(node, "easy", node.runner.log.state) for node in nodes
                       if node.runner is not None])
    assert outcome["dummy"] == dummy
    assert outcome["finished"]
    assert outcome["audit_clean"]
    records = [json.loads(line) for line in (tmp_path / "events-0.jsonl").read_text(
        encoding="utf-8").splitlines()]
    assert next(r for r in records if r["type"] == "seated")["dummy"] == dummy


@pytest.mark.parametrize("seed", [52, 55])
async def test_a_person_controls_the_dummy_through_the_session(
        seed: int, tmp_path: Path, autojump_clock: trio.testing.MockClock) -> None:
    """A person at a networked dummy table: the seats list names the dummy (no party's), his
    legal moves list the dummy's throw-ins and passes exactly while he controls it (and then
    his view holds its hand), and he is waited for when the dummy is to move. Control passes
    to each bout's attacker (the catalogue's `controller: bout_attacker` option), so at two
    players the person plays the dummy in every bout he leads, and the bot in the others."""
    human = HumanPlayer(table_name="kitchen", preset_id="s_bolvanom", names=["me", "bot"],
                        bots={1: "easy"})
    seen: list[TableSnapshot] = []
    played: list[eng.Action] = []

    async def person() -> None:
        async for snap in human.snapshots:
            seen.append(snap)
            state = snap.state
            if state is not None and state.phase == eng.Phase.OVER:
                if snap.activity == "over":
                    await human.leave()
                    return
                continue
            if not snap.legal or state is None:
                continue
            for_dummy = [a for a in snap.legal if a.seat == state.game.dummy]
            action = for_dummy[0] if for_dummy else snap.legal[0]
            if for_dummy:
                played.append(action)
            await human.act(action)

    async with trio.open_nursery() as nursery:
        nursery.start_soon(person)
        nodes = await play_table(tmp_path, [human, BotPlayer(level="easy", seed=seed)],
                                 "s_bolvanom", seed=seed, rules=BY_BOUT)
        nursery.cancel_scope.cancel()
    for node in nodes:
        assert node.runner is not None
        assert node.runner.diagnosis is None, node.runner.diagnosis
    last = seen[-1]
    assert last.activity == "over"
    final = last.state
    assert final is not None
    assert final.result is not None
    dummy = final.game.dummy
    assert [s.is_dummy for s in last.seats] == [s == dummy for s in range(3)]
    assert {s.name for s in last.seats if not s.is_dummy} == {"me", "bot"}
    me = last.my_seat
    for snap in seen:
        view = snap.state
        if view is None or view.phase == eng.Phase.OVER or not snap.legal:
            continue
        controls = view.controller == me
        assert all(a.seat == me or (controls and a.seat == dummy) for a in snap.legal)
        if any(a.seat == dummy for a in snap.legal):
            assert view.hidden[dummy] == 0  # he was shown all its cards
            assert snap.waiting_for[:1] == (me,) or me in snap.waiting_for
    assert played  # he played the dummy's throw-ins and passes himself
    controllers = {s.state.controller for s in seen if s.state is not None
                   and s.state.phase == eng.Phase.BOUT}
    assert controllers == {0, 1, 2} - {dummy}  # and so did the bot, in its own bouts


async def test_the_turn_timer_plays_the_dummy_for_a_silent_controller(
        tmp_path: Path, autojump_clock: trio.testing.MockClock) -> None:
    """A party that never answers, at a dummy table with a turn timer: its stand-in bot (fed
    the dummy's cards like any bot of the party) moves for it when its time runs out — its
    own seat's moves and, in the bouts it leads (`bout_attacker` control), the dummy's — and
    the game ends cleanly on every node."""
    silent = SilentPlayer()
    players: dict[int, Player] = {0: InstantPlayer(level="easy", seed=3), 1: silent}
    table = await run_table(tmp_path, n=2, preset="s_bolvanom", seed=12, players=players,
                            timing=Timing(turn_seconds=5), rules=BY_BOUT)
    runners = [table.runner(i) for i in range(2)]
    assert_finished_cleanly(runners)
    final = runners[0].log.state.state
    assert final is not None
    dummy = final.game.dummy
    party = table.party(1)
    moved = [e for e in runners[0].log.state.history
             if isinstance(e, Moved) and e.seat == dummy]
    silent_seat = runners[0].log.state.seat_of_party[party]
    timeouts = [p.detail for p in runners[party].reports if p.kind == "timeout"]
    assert timeouts
    assert any(f"seat={dummy}" in t for t in timeouts)  # the stand-in played the dummy
    assert any(f"seat={silent_seat}" in t for t in timeouts)  # and its own seat
    assert moved


class LeavesWhileControlling(BotPlayer):
    """Leaves the table (gracefully) in the first bout after the first one in which it plays
    the dummy; only one player of a table does (`claimed` is shared)."""

    def __init__(self, seed: int, claimed: list[int]) -> None:
        super().__init__(level="easy", seed=seed)
        self.claimed = claimed

    def leaving(self, table: TableMachine) -> bool:
        state = table.state
        if self.claimed and self.claimed != [table.party]:
            return False
        if state is not None and state.bout >= 1 and state.controller == table.my_seat \
                and state.result is None:
            self.claimed[:] = [table.party]
        return self.claimed == [table.party]


@pytest.mark.parametrize("seed", [5, 6, 7])
async def test_a_controller_who_leaves_hands_the_dummy_on(
        seed: int, tmp_path: Path, autojump_clock: trio.testing.MockClock) -> None:
    """«когда тот выходит, болваном распоряжается следующий игрок»: the dummy's controller
    leaves the table between bouts; the leave opens to all the dummy's cards only his token
    kept closed, the next player is shown the rest, and his bot plays the dummy on — the game
    ends cleanly on every node."""
    claimed: list[int] = []
    players = [LeavesWhileControlling(seed * 3 + i, claimed) for i in range(3)]
    nodes = await play_table(tmp_path, players, "s_bolvanom", seed=seed)
    remaining = [node for node in nodes if node.runner is not None
                 and node.runner.party not in claimed]
    assert claimed
    assert len(remaining) == 2
    tables = agreed_tables(remaining, 2)
    leaver_seat = tables[0].seat_of_party[claimed[0]]
    left = [i for i, e in enumerate(tables[0].history) if isinstance(e, PartyLeft)]
    assert len(left) == 1
    after = [e for e in tables[0].history[left[0]:] if isinstance(e, Moved)]
    final = tables[0].state
    assert final is not None
    dummy = final.game.dummy
    assert final.controller != leaver_seat
    assert any(e.seat == dummy for e in after)  # the dummy played on under its new controller


async def test_a_series_keeps_the_dummy_at_its_seat_over_the_network(
        tmp_path: Path, autojump_clock: trio.testing.MockClock) -> None:
    """A series of two games (docs/rules.md, s_bolvanom: «a series keeps the first game's
    seat»): the second game deals the dummy at the same seat, its deal is shown to the new
    dealer, and the series score never counts the dummy."""
    players = [BotPlayer(level="easy", seed=30 + i, games=2) for i in range(3)]
    nodes = await play_table(tmp_path, players, "s_bolvanom", seed=9)
    tables = agreed_tables(nodes, 3)
    table = tables[0]
    assert table.game_number == 2
    dummies = [e.game.dummy for e in table.history if isinstance(e, Seated) and e.game]
    assert len(dummies) == 2
    assert dummies[0] == dummies[1] >= 0
    assert table.score.games == 2
    assert table.score.duraks[dummies[0]] == 0
    second = [e for e in table.history if isinstance(e, Seated) and e.game][1]
    assert second.game is not None
    dealer = next(t for t in tables if t.my_seat == second.game.dealer)
    at = [i for i, e in enumerate(dealer.history) if isinstance(e, Seated)][1]
    assert any(isinstance(e, HandSeen) and e.seat == dummies[0] for e in dealer.history[at:])
