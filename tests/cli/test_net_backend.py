"""The lobby's networked backend: create a real table (TCP on 127.0.0.1, bot peers of this
process, the mental-poker deck) and play this seat through the Session it returns."""

from __future__ import annotations

from pathlib import Path

import trio

from p2p_durak import engine as eng
from p2p_durak.cli.backend import TableOptions
from p2p_durak.cli.net_backend import NetworkLobbyBackend
from p2p_durak.node.api import TableSnapshot


async def test_create_a_table_with_a_bot_and_play_it_to_the_end(tmp_path: Path) -> None:
    seen: list[TableSnapshot] = []
    with trio.fail_after(120):
        async with trio.open_nursery() as nursery:
            backend = NetworkLobbyBackend(nursery, tmp_path, "Вера", bind="127.0.0.1")
            session = await backend.create_table(TableOptions(
                players=2, network_bots=1, bot_level="easy", table_name="кухня"))
            async for snap in session.snapshots:
                seen.append(snap)
                if snap.activity == "over":
                    break
                if snap.legal:
                    await session.act(snap.legal[0])
            nursery.cancel_scope.cancel()
    assert seen[0].activity == "lobby"
    final = seen[-1]
    assert final.state is not None
    assert final.state.phase == eng.Phase.OVER
    assert {s.name for s in final.seats} == {"Вера", "bot1-easy"}
    assert [s.is_bot for s in sorted(final.seats, key=lambda s: s.name == "Вера")] == [True,
                                                                                      False]
    assert (tmp_path / "games").exists()
