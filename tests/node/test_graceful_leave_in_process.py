"""A graceful leave at a networked table, in one trio process (memory streams, the autojump
clock): a party leaves between bouts with a signed leave in the ordered log — the deck's leave
step opens the cards only it could open (its hand, which goes to the discard) — and the others
play the game to its end without it: identical transcripts on every remaining node, a clean
audit, nobody blamed, and the table stops after the game."""

from __future__ import annotations

from pathlib import Path

import trio
import trio.testing
from node_support import play_table

from p2p_durak.engine import events as E
from p2p_durak.engine.presets import get_preset
from p2p_durak.node.players import BotPlayer
from p2p_durak.node.replay import audit_file
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
