"""Every working preset, played to the end by easy bots at a networked table in one trio process
(memory streams, the autojump clock): keys, shuffle, deal, play, audit. Every node must end with
the same transcript, byte for byte, the same result, a clean audit, and no fault named.

Kept fast: the fewest players each preset allows and its shortest deck that the rules accept.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import trio
import trio.testing
from node_support import play_table

from p2p_durak.engine import RuleError, RuleSet
from p2p_durak.engine.presets import Preset, table_presets
from p2p_durak.engine.rules import validate
from p2p_durak.node.node import Node
from p2p_durak.node.players import BotPlayer
from p2p_durak.protocol.table import AuditFinished

GAME_BOUND = 900.0  # virtual seconds: an honest game here takes a few; a stuck one fails


def shortest_rules(preset: Preset, players: int) -> RuleSet:
    """The preset's rules with the smallest deck they accept for `players`."""
    for size in sorted({24, 32, preset.rules.deck_size}):
        rules = preset.rules if size == preset.rules.deck_size else None
        try:
            rules = rules or preset.rules.with_options(deck_size=size)
            validate(rules, players)
        except RuleError:
            continue
        return rules
    raise AssertionError(f"{preset.id} accepts none of its decks for {players} players")


def _cases() -> list[object]:
    cases: list[object] = []
    for preset in table_presets():
        players = min(preset.players)
        marks = [pytest.mark.slow] if players > 4 else []
        cases.append(pytest.param(preset, players, id=preset.id, marks=marks))
    return cases


async def _play(home: Path, preset: Preset, players: int) -> list[Node]:
    bots = [BotPlayer(level="easy", seed=70 + i) for i in range(players)]
    return await play_table(home, bots, preset.id, seed=7, rules=shortest_rules(preset, players),
                            name="every preset", limit=GAME_BOUND)


@pytest.mark.parametrize(("preset", "players"), _cases())
async def test_every_working_preset_plays_to_the_end_with_one_transcript(
        preset: Preset, players: int, tmp_path: Path,
        autojump_clock: trio.testing.MockClock) -> None:
    nodes = await _play(tmp_path, preset, players)
    runners = [node.runner for node in nodes]
    results = set()
    for runner in runners:
        assert runner is not None
        assert runner.diagnosis is None, runner.diagnosis
        assert runner.finished.is_set()
        table = runner.log.state
        assert table.state is not None
        assert table.state.result is not None
        assert table.audit == AuditFinished(())
        assert not [p for p in runner.reports if p.fault], runner.problems
        results.add(table.state.result)
    assert len(results) == 1
    assert len({runner.log.state_hash for runner in runners if runner is not None}) == 1
    saved = {next((tmp_path / f"p{i}" / "games").glob("*/transcript.durak")).read_bytes()
             for i in range(players)}
    assert len(saved) == 1
