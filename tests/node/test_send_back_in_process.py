"""щелковский with its table option (B), `over_limit_policy: defender_chooses`, played whole by
bots between nodes over the network stack and the mental-poker deck: the rules travel with the
table (their hash differs from the preset's), cards are sent back past the cap, every node
agrees and the audit is clean. Catalogue: «(B): allow more and let the defender pick 10 to beat
and return the rest to their owners»."""

from __future__ import annotations

from pathlib import Path

import pytest
import trio
import trio.testing
from node_support import agreed_tables, play_table

from p2p_durak.engine import actions as A
from p2p_durak.engine.presets import get_preset
from p2p_durak.node.players import BotPlayer
from p2p_durak.protocol.table import Moved


@pytest.mark.parametrize(("n", "limit"), [(4, 1), (3, 10)])
async def test_bots_send_cards_back_over_the_network(
        n: int, limit: int, tmp_path: Path, autojump_clock: trio.testing.MockClock) -> None:
    # a low limit as well, so that the game surely passes it (the preset's is ten)
    rules = get_preset("shchelkovsky").rules.with_options(
        over_limit_policy="defender_chooses", bout_attack_limit=limit,
        first_bout_attack_limit=limit)
    players = [BotPlayer(level="easy", seed=n * 100 + i) for i in range(n)]
    nodes = await play_table(tmp_path, players, "shchelkovsky", seed=n + 31, rules=rules)
    tables = agreed_tables(nodes, n)
    assert all(t.rules == rules for t in tables)
    if limit == 1:
        assert any(isinstance(e, Moved) and e.action.kind == A.SEND_BACK
                   for e in tables[0].history)
