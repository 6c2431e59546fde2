"""Whole games between nodes in one trio process over memory streams: lobby, keys, shuffle,
deal, play, audit — every node with its own identity, deck secret, log and journal."""

from __future__ import annotations

from pathlib import Path

import pytest
import trio
import trio.testing
from node_support import play_table

from p2p_durak import engine as eng
from p2p_durak.node.node import Node
from p2p_durak.node.players import BotPlayer
from p2p_durak.protocol.table import AuditFinished
from p2p_durak.protocol.transcript import Transcript


async def play_bots(preset: str, n: int, home: Path, seed: int) -> list[Node]:
    players = [BotPlayer(level="easy", seed=seed * 100 + i) for i in range(n)]
    return await play_table(home, players, preset, seed)


@pytest.mark.parametrize(("preset", "n"), [("app_podkidnoy", 2), ("app_perevodnoy", 3),
                                           ("app_komandy", 4)])
async def test_bots_play_a_whole_game_over_the_network_stack(
        preset: str, n: int, tmp_path: Path, autojump_clock: trio.testing.MockClock) -> None:
    nodes = await play_bots(preset, n, tmp_path, seed=n)
    tables = [node.runner.log.state for node in nodes if node.runner is not None]
    assert len(tables) == n
    for node in nodes:
        assert node.runner is not None
        assert node.runner.diagnosis is None, node.runner.diagnosis
    results = {t.state.result for t in tables if t.state is not None}
    assert len(results) == 1
    assert None not in results
    assert {eng.state_hash(t.state) for t in tables if t.state is not None} == \
        {eng.state_hash(tables[0].state)} if tables[0].state is not None else set()
    assert all(t.audit == AuditFinished(()) for t in tables)
    # every node saved the same transcript of the game
    saved = {(tmp_path / f"p{i}" / "games").glob("*/transcript.durak").__next__().read_bytes()
             for i in range(n)}
    assert len(saved) == 1
    transcript = Transcript.load(saved.pop())
    assert len(transcript.entries) > 20
