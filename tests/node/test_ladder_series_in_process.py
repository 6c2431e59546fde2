"""Длинный дурак at a networked table, in one trio process (memory streams, the autojump
clock): a series of games in which the sixes are dealt once (a joint coin in the first game),
each later game keeps them, the durak's ladder card is out of play (never-dealt slots below the
stock) and his hand shrinks; every node keeps one transcript that an auditor replays."""

from __future__ import annotations

from pathlib import Path

import trio
import trio.testing
from node_support import play_table

from p2p_durak.engine import events as E
from p2p_durak.engine.presets import get_preset
from p2p_durak.node.players import BotPlayer
from p2p_durak.node.replay import audit_file
from p2p_durak.protocol.table import AuditFinished, Moved, NextGame, TableMachine

BOUND = 900.0  # virtual seconds


async def test_a_long_durak_series_keeps_the_sixes_and_lays_out_the_ladder(
        tmp_path: Path, autojump_clock: trio.testing.MockClock) -> None:
    rules = get_preset("app_dlinny").rules
    bots = [BotPlayer(level="easy", seed=60 + i, games=3) for i in range(2)]
    nodes = await play_table(tmp_path, bots, seed=6, rules=rules, name="ladder", limit=BOUND)
    runners = [node.runner for node in nodes]
    assert all(r is not None for r in runners)
    tables: list[TableMachine] = []
    for runner in runners:
        assert runner is not None
        assert runner.diagnosis is None, runner.diagnosis
        assert not [p for p in runner.reports if p.fault], runner.problems
        tables.append(runner.log.state)
    saved = {r.log.transcript().save() for r in runners if r is not None}
    assert len(saved) == 1
    verdict = audit_file(saved.pop(), rules)
    assert verdict.ok, verdict.text
    for table in tables:
        assert table.game_number == 3
        assert table.audit == AuditFinished(())
        assert [e.number for e in table.history if isinstance(e, NextGame)] == [2, 3]
        sixes = [ev for m in table.history if isinstance(m, Moved) for ev in m.events
                 if isinstance(ev, E.SixDealt)]
        assert len(sixes) == 2  # dealt once, in the first game
        state = table.state
        assert state is not None
        game = state.game
        assert game.personal == tuple(next(ev.suit for ev in sixes if ev.seat == s)
                                      for s in range(2))
        # the third game's ladders hold one card for each durak of the first two games
        overs = [ev for m in table.history if isinstance(m, Moved) for ev in m.events
                 if isinstance(ev, E.GameOver)]
        assert len(overs) == 3
        duraks = [ev.durak[0] for ev in overs[:2] if ev.durak]
        assert tuple(duraks.count(s) and 6 + duraks.count(s) for s in range(2)) == game.ladder \
            or (not duraks and not game.ladder)
        assert state.discard & game.laid_out() == game.laid_out()
    assert len({t.state_hash() for t in tables}) == 1
