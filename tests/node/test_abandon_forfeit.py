"""A player who stops taking part mid-game forfeits it (issue #22, hole 3a).

A losing player could withhold his deck tokens: nobody can open a card without them, and the game
ended after the grace period as "abandoned … did not answer", with no result and no series score.
Now every other party's node, when its grace period for him runs out and the committed log says
the table waits for him, claims that he abandoned the game; once all have claimed, the table
commits it (without his ack): he is the durak, the others' results and the series score stand,
every node agrees, and the transcript says so to `durak audit`.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import trio
import trio.testing
from misbehaving_doubles import RunnerDoubleNode
from table_harness import assert_same_committed_log, faults, run_table

from p2p_durak.node.game import GameRunner, Timing, game_dir
from p2p_durak.node.node import Node
from p2p_durak.node.replay import audit_file
from p2p_durak.protocol.table import Forfeited, SeriesOver

WITHHOLDER = 2
GRACE = 10


class WithholdingRunner(GameRunner):
    """From position `at` on, once the cards are dealt, it sends no deck step (its reveal
    tokens for the others' draws, its shuffles): it keeps acknowledging, and its player keeps
    moving when asked, so the table knows it is there and sees what it owes."""

    at = 0

    def _submit(self, payload: bytes, kind: str) -> Sequence[object]:
        if kind == "deck" and self.log.seq >= self.at and self.log.state.state is not None:
            return []
        return super()._submit(payload, kind)


def withholding_from(position: int) -> type[Node]:
    runner = type("WithholdingRunnerAt", (WithholdingRunner,), {"at": position})
    return type("WithholdingNode", (RunnerDoubleNode,), {"runner_class": runner})


async def test_a_player_who_withholds_his_tokens_is_the_durak_on_every_node(
        tmp_path: Path, autojump_clock: trio.testing.MockClock) -> None:
    table = await run_table(tmp_path, seed=31, node_classes={WITHHOLDER: withholding_from(40)},
                            timing=Timing(grace_seconds=GRACE))
    party = table.party(WITHHOLDER)
    runners = [table.runner(i) for i in range(3)]
    assert_same_committed_log(runners)
    assert len({r.log.seq for r in runners}) == 1
    seat = runners[0].log.state.seat_of_party[party]
    for i, runner in enumerate(runners):
        state = runner.log.state
        # a result, not a verdict: the game ended on the log, the same way everywhere
        assert runner.diagnosis is None, runner.diagnosis
        assert runner.verdict is None
        assert runner.finished.is_set()
        assert state.abandoned == (party,)
        assert state.series_over
        assert state.state is not None
        assert state.state.result is not None
        assert state.state.result.durak == (seat,)
        forfeits = [e for e in state.history if isinstance(e, Forfeited)]
        assert [(f.seats, f.why, f.result) for f in forfeits] == \
            [((seat,), "abandoned", state.state.result)]
        over = [e for e in state.history if isinstance(e, SeriesOver)]
        assert [(o.stopped, o.abandoned) for o in over] == [((), (party,))]
        assert state.score.games == 1
        assert state.score.duraks == tuple(int(s == seat) for s in range(3))
        if i != WITHHOLDER:
            # an honest node names the withholder, as news (it may have crashed), and no fault
            assert not faults(runner), faults(runner)
            assert any(p.kind == "abandoned" and p.party == party for p in runner.reports)
    assert len({r.log.state.state_hash() for r in runners}) == 1
    # the saved transcript tells it to `durak audit`: every entry checks, the forfeit stands
    folder = game_dir(tmp_path / "p0", table.starts[0].game_id)
    verdict = audit_file((folder / "transcript.durak").read_bytes())
    name = table.starts[0].players[party].name
    assert f"FORFEIT: game 1, {name} (party {party}) abandoned the game" in verdict.text, \
        verdict.text
    assert verdict.table is not None
    assert verdict.table.abandoned == (party,)

