"""A graceful leave at a networked table, in one trio process (memory streams, the autojump
clock): a party leaves between bouts with a signed leave in the ordered log — the deck's leave
step opens the cards only it could open (its hand, which goes to the discard) — and the others
play the game to its end without it: identical transcripts on every remaining node, a clean
audit, nobody blamed, and the table stops after the game."""

from __future__ import annotations

from pathlib import Path

import pytest
import trio
import trio.testing
from node_support import play_table
from test_every_preset_in_process import shortest_rules

from p2p_durak.engine import events as E
from p2p_durak.engine.presets import get_preset
from p2p_durak.node.players import BotPlayer
from p2p_durak.node.replay import audit_file
from p2p_durak.node.session import HumanPlayer
from p2p_durak.protocol.table import AuditFinished, Moved, PartyLeft, SeriesOver
from p2p_durak.protocol.transcript import Transcript

BOUND = 600.0  # virtual seconds


async def test_a_party_leaves_between_bouts_and_the_others_finish_the_game(
        tmp_path: Path, autojump_clock: trio.testing.MockClock) -> None:
    rules = get_preset("app_podkidnoy").rules
    bots = [BotPlayer(level="easy", seed=60 + i) for i in range(4)]
    bots[2] = BotPlayer(level="easy", seed=62, leave_at_bout=2)
    nodes = await play_table(tmp_path, bots, seed=6, rules=rules, name="leave", limit=BOUND)
    runners = [node.runner for node in nodes]
    assert all(r is not None for r in runners)
    leaver = runners[2]
    assert leaver is not None
    gone = leaver.party
    assert leaver.finished.is_set()
    assert leaver.diagnosis is None
    assert gone in leaver.log.state.left
    rest = [r for r in runners if r is not None and r is not leaver]
    saved = {(r.journal.folder / "transcript.durak").read_bytes() for r in rest}
    assert len(saved) == 1, "the remaining nodes saved different transcripts"
    data = saved.pop()
    assert len(Transcript.load(data).acks) == 3  # the last entries need no ack of the leaver
    verdict = audit_file(data, rules)
    assert verdict.ok, verdict.text
    for runner in rest:
        assert runner.diagnosis is None, runner.diagnosis
        assert runner.finished.is_set()
        assert not [p for p in runner.reports if p.fault], runner.problems
        assert not [p for p in runner.reports if p.party == gone and p.kind == "abandoned"]
        table = runner.log.state
        assert table.left == (gone,)
        assert table.audit == AuditFinished(())
        state = table.state
        assert state is not None
        assert state.result is not None
        seat = table.seat_of_party[gone]
        assert seat not in state.result.durak
        assert (state.out >> seat) & 1
        left = [e for e in table.history if isinstance(e, PartyLeft)]
        assert left == [PartyLeft(gone)]
        engine_left = [ev for e in table.history if isinstance(e, Moved) for ev in e.events
                       if isinstance(ev, E.Left)]
        assert len(engine_left) == 1
        assert engine_left[0].seat == seat
        assert all((state.discard >> c) & 1 for c in engine_left[0].cards)
        assert [e for e in table.history if isinstance(e, SeriesOver)] == [
            SeriesOver((gone,), table.score)]
    assert len({r.log.state_hash for r in rest}) == 1


async def _person_who_leaves(human: HumanPlayer, at_bout: int) -> None:
    """Plays the first legal move until bout `at_bout`, then leaves the table (the UI's Q)."""
    async for snap in human.snapshots:
        if snap.state is not None and snap.state.bout >= at_bout:
            await human.leave()
            return
        if snap.legal:
            await human.act(snap.legal[0])


async def test_a_person_leaves_through_the_session_and_the_bots_play_on(
        tmp_path: Path, autojump_clock: trio.testing.MockClock) -> None:
    human = HumanPlayer(table_name="kitchen", preset_id="app_podkidnoy",
                        names=["me", "bot a", "bot b"], bots={1: "easy", 2: "easy"})
    async with trio.open_nursery() as nursery:
        nursery.start_soon(_person_who_leaves, human, 1)
        nodes = await play_table(tmp_path, [human, BotPlayer(level="easy", seed=71),
                                        BotPlayer(level="easy", seed=72)], seed=7,
                                 limit=BOUND)
        nursery.cancel_scope.cancel()
    runners = [node.runner for node in nodes]
    me = runners[0]
    assert me is not None
    assert me.log.state.left == (me.party,)
    for runner in runners[1:]:
        assert runner is not None
        assert runner.diagnosis is None, runner.diagnosis
        table = runner.log.state
        assert table.left == (me.party,)
        assert table.state is not None
        assert table.state.result is not None
        assert table.seat_of_party[me.party] not in table.state.result.durak
        assert table.series_over
    assert len({r.log.state_hash for r in runners[1:] if r is not None}) == 1


async def test_with_two_at_the_table_the_leaver_concedes(
        tmp_path: Path, autojump_clock: trio.testing.MockClock) -> None:
    rules = get_preset("app_podkidnoy").rules.with_options(deck_size=24)
    bots = [BotPlayer(level="easy", seed=80), BotPlayer(level="easy", seed=81, leave_at_bout=1)]
    nodes = await play_table(tmp_path, bots, seed=8, rules=rules, name="duel", limit=BOUND)
    runners = [node.runner for node in nodes]
    results = set()
    for runner in runners:
        assert runner is not None
        assert runner.diagnosis is None, runner.diagnosis
        assert runner.finished.is_set()
        table = runner.log.state
        assert table.left == ()
        assert table.state is not None
        assert table.state.result is not None
        results.add(table.state.result.durak)
        conceded = [ev for e in table.history if isinstance(e, Moved) for ev in e.events
                    if isinstance(ev, E.Conceded)]
        assert conceded == [E.Conceded(table.seat_of_party[nodes[1].runner.party])]
    assert len(results) == 1


@pytest.mark.parametrize(("preset", "leaves"), [("krugovoy", True), ("oborotny", False),
                                              ("veryu_ne_veryu", True)])
async def test_a_leave_in_variants_that_move_or_hide_the_hands(
        preset: str, leaves: bool, tmp_path: Path,
        autojump_clock: trio.testing.MockClock) -> None:
    """круговой passes hands on (the leaver's current hand is what its going opens); in
    оборотный a player never sees his own cards, so his going could not open them: he
    concedes."""
    rules = shortest_rules(get_preset(preset), 3)
    bots = [BotPlayer(level="easy", seed=90 + i) for i in range(3)]
    bots[1] = BotPlayer(level="easy", seed=91, leave_at_bout=1)
    nodes = await play_table(tmp_path, bots, preset, seed=9, rules=rules, name="variant",
                             limit=BOUND)
    leaver = nodes[1].runner
    assert leaver is not None
    rest = [node.runner for node in nodes if node.runner is not leaver]
    for runner in rest:
        assert runner is not None
        assert runner.diagnosis is None, runner.diagnosis
        assert not [p for p in runner.reports if p.fault], runner.problems
        table = runner.log.state
        assert table.audit == AuditFinished(())
        assert table.series_over
        assert table.left == ((leaver.party,) if leaves else ())
        assert table.state is not None
        assert table.state.result is not None
        if not leaves:
            assert table.state.result.durak == (table.seat_of_party[leaver.party],)
    assert len({r.log.state_hash for r in rest if r is not None}) == 1
