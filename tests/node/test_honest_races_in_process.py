"""An honest game reports no problems, racing throw-ins included.

Several attackers may throw in at once (seed `000_0a1bcdd496bc6662.txt`, Дурак подкидной: «Если
игрок отбивает эту карту, то другие игроки могут подкидывать карты того же значения, что лежат
на столе»). Over the network their intents race: the sequencer orders all of them in one entry,
and those the table no longer allows once the earlier ones are applied (the throw-in limit
reached, the bout over) are skipped. That is the honest outcome of a race, not a fault: every
node counts it as news ("raced"), and `GameRunner.problems` and the headless summary's
"problems" stay empty. What only a cheat does is still named (test_misbehaving_peers.py).
"""

from __future__ import annotations

from pathlib import Path

import trio
import trio.testing
from table_harness import assert_finished_cleanly, faults, run_table

from p2p_durak.engine import actions as A
from p2p_durak.node.game import GameRunner, Turn
from p2p_durak.node.headless import Seat, summary
from p2p_durak.node.players import BotPlayer
from p2p_durak.protocol.log_effects import Rejected
from p2p_durak.protocol.messages import IntentId, RejectCode

N = 4
MAX_GAMES = 6


class EagerThrower(BotPlayer):
    """Throws in at once whenever the table lets it (no thinking time), so that every attacker
    who may throw in does so on the same committed state: the throw-ins race."""

    async def turn(self, turn: Turn, runner: GameRunner) -> None:
        throw = next((a for a in turn.legal if a.kind == A.THROW), None)
        if throw is None:
            await super().turn(turn, runner)
        else:
            await runner.move(turn.seq, throw)


async def test_racing_throw_ins_are_no_problem(
        tmp_path: Path, autojump_clock: trio.testing.MockClock) -> None:
    # Whether a throw-in loses a race depends on trio's scheduling (about 1 game in 4 has
    # none), so games are played until one has a race; every one of them must be clean.
    for game in range(MAX_GAMES):
        players = {i: EagerThrower(level="easy", seed=700 + 10 * game + i) for i in range(N)}
        table = await run_table(tmp_path / str(game), n=N, seed=7 + game, players=dict(players))
        runners = [table.runner(i) for i in range(N)]
        assert_finished_cleanly(runners)
        for runner in runners:
            assert runner.problems == [], "\n".join(runner.problems)
            assert faults(runner) == []
        raced = [p for r in runners for p in r.reports if p.kind == "raced"]
        if raced:
            break
    assert raced, f"no throw-in lost a race in {MAX_GAMES} games: the test did not test it"
    # a skipped throw-in is named as what it is, on every node (its author's says "our")
    assert all("lost the race to an earlier move" in p.detail and not p.fault for p in raced)
    seats = [Seat(node, "easy", result=r.log.state, reports=r.reports, diagnosis=r.diagnosis)
             for node, r in zip(table.nodes, runners, strict=True)]
    outcome = summary(seats)
    assert outcome["finished"]
    assert outcome["audit_clean"]
    assert outcome["problems"] == 0
    news = outcome["news"]
    assert isinstance(news, dict)
    assert news["raced"] == len(raced)

    # Our own move that missed its position (the table moved on without it: rule L8) and is no
    # longer legal there lost a race too; one refused on the very position it was made for
    # is not a race (the news stays "own").
    runner = runners[0]
    lost = Rejected(runner.party, IntentId(runner.party, 999), RejectCode.NOT_YOUR_TURN,
                    "it is not this seat's turn to do that", None)
    runner._made_for = runner.log.seq - 1
    await runner._carry_out([lost])
    assert (runner.reports[-1].kind, runner.reports[-1].party) == ("raced", None)
    runner._made_for = runner.log.seq
    await runner._carry_out([lost])
    assert runner.reports[-1].kind == "own"
    assert runner.problems == []
