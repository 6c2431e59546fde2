"""Compendium variants with their own mechanics, played whole by bots between nodes over the
network stack and the mental-poker deck (issue 8: "a networked game of it with bots")."""

from __future__ import annotations

from pathlib import Path

import pytest
import trio
import trio.testing
from node_support import agreed_tables, play_table

from p2p_durak.node.players import BotPlayer

VARIANTS = [("kozyrny", 2), ("dvukhkozyrny", 3), ("nevidimy", 3), ("magadansky", 3),
            ("otboyny", 3)]
VARIANTS += [("s_jokerom", 2), ("s_dvumya_jokerami", 3), ("pustyshka", 2), ("bolshoy", 2),
             ("zanudny", 2), ("treshka", 3), ("s_par", 3), ("s_par_pyaterka", 2)]
VARIANTS += [("amerikansky", 3), ("dorozhny", 3), ("ochkovy", 2), ("figurny", 3),
             ("pogonny", 2), ("app_korol_govno", 3), ("krugovoy", 3)]
VARIANTS += [("shchelkovsky", 3)]
VARIANTS += [("oborotny", 3)]  # hands seen by all but their owner, picks opened by the deck


@pytest.mark.parametrize(("preset", "n"), VARIANTS)
async def test_bots_play_the_variant_over_the_network(
        preset: str, n: int, tmp_path: Path, autojump_clock: trio.testing.MockClock) -> None:
    players = [BotPlayer(level="easy", seed=n * 100 + i) for i in range(n)]
    nodes = await play_table(tmp_path, players, preset, seed=n + 17)  # bounded in virtual time
    agreed_tables(nodes, n)
