"""с болваном with the agreed variant at a node's table (seed 000_0a1bcdd496bc6662.txt,
«Дурак с болваном»: «Болван не имеет права ходить и отбиваться, но возможен вариант игры, когда
по согласованию между игроками болван имеет право это делать»): bot peers play whole games over
the network; the dummy's controller's node is asked for the dummy's leads, beats and takes and
plays them by its bot's own policy on the dummy's cards it was shown (node/bot_feed.py
`bot_move`, bots/base.py `choose_dummy`)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
import trio
import trio.testing
from node_support import agreed_tables, play_table

from p2p_durak import engine as eng
from p2p_durak.engine import actions as A
from p2p_durak.engine.presets import get_preset
from p2p_durak.engine.rules import DUMMY_PLAYS_BOUT_ATTACKER, DUMMY_PLAYS_GAME_FIRST_ATTACKER
from p2p_durak.node.headless import HeadlessPlayer
from p2p_durak.protocol.table import HandSeen, Moved

RULES = {"first": get_preset("s_bolvanom").rules.with_options(
             dummy_hand=DUMMY_PLAYS_GAME_FIRST_ATTACKER),
         "bout": get_preset("s_bolvanom").rules.with_options(
             dummy_hand=DUMMY_PLAYS_BOUT_ATTACKER)}


@pytest.mark.parametrize(("n", "control", "level"), [
    (2, "first", "medium"), (3, "bout", "easy"), (3, "first", "medium")])
async def test_bots_play_a_dummy_that_attacks_and_defends_over_the_network(
        n: int, control: str, level: str, tmp_path: Path,
        autojump_clock: trio.testing.MockClock) -> None:
    out = io.StringIO()
    names = [f"p{i}" for i in range(n)]
    players = [HeadlessPlayer(label=f"p{i}", names=names, level=level, seed=n * 10 + i,
                              out=out, events_path=tmp_path / f"events-{i}.jsonl")
               for i in range(n)]
    nodes = await play_table(tmp_path, players, "s_bolvanom", seed=n + 60, rules=RULES[control])
    tables = agreed_tables(nodes, n)
    for node in nodes:
        assert node.runner is not None
        assert not [p for p in node.runner.reports if p.fault], node.runner.problems
    final = tables[0].state
    assert final is not None
    assert final.result is not None
    dummy = final.game.dummy
    assert dummy >= 0
    assert dummy not in final.result.durak  # «Болван не может быть "дураком"»
    assert tables[0].party_of_seat[dummy] == -1
    kinds = {e.action.kind for e in tables[0].history
             if isinstance(e, Moved) and e.seat == dummy}
    assert kinds & {A.LEAD, A.BEAT, A.TAKE}  # it attacked or defended, not only threw in
    assert any(isinstance(e, HandSeen) and e.seat == dummy for t in tables for e in t.history)
    assert all(t.state is not None and t.state.phase == eng.Phase.OVER for t in tables)
