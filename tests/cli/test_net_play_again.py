"""Play again at a networked table: the UI's session (a person's seat, real TCP on 127.0.0.1, a
bot peer of this process, the mental-poker deck) finishes a game, chooses the next one, and
the same table deals it; the series score in the snapshots adds up. Then leaving after the
second game stops the table — and says so in the player's language."""

from __future__ import annotations

from pathlib import Path

import trio

from p2p_durak import engine as eng
from p2p_durak.cli.backend import TableOptions
from p2p_durak.cli.canvas import plain
from p2p_durak.cli.i18n import Look
from p2p_durak.cli.net_backend import NetworkLobbyBackend
from p2p_durak.cli.table_ui import TableUi
from p2p_durak.cli.table_view import render_table_screen
from p2p_durak.node.api import TableSnapshot


async def test_play_again_deals_the_next_game_of_the_series(tmp_path: Path) -> None:
    overs: list[TableSnapshot] = []
    notices: dict[str, TableSnapshot] = {}
    with trio.fail_after(240):
        async with trio.open_nursery() as nursery:
            backend = NetworkLobbyBackend(nursery, tmp_path, "Вера", bind="127.0.0.1")
            session = await backend.create_table(TableOptions(
                players=2, network_bots=1, bot_level="easy", table_name="кухня",
                deck_size=24))
            async for snap in session.snapshots:
                if snap.notice:
                    notices.setdefault(snap.notice, snap)
                if snap.activity == "over" and snap.game_number > len(overs):
                    overs.append(snap)
                    if len(overs) == 1:
                        await session.next_game()
                    else:
                        await session.leave()
                elif snap.activity == "over" and snap.notice and "stopped" in snap.notice:
                    break
                elif snap.legal:
                    await session.act(snap.legal[0])
            nursery.cancel_scope.cancel()
    first, second = overs
    assert first.game_number == 1
    assert second.game_number == 2
    for snap in overs:
        assert snap.state is not None
        assert snap.state.phase == eng.Phase.OVER
    assert sum(first.duraks) + (first.state is not None and first.state.result is not None
                                and first.state.result.draw) == 1
    assert sum(second.duraks) - sum(first.duraks) in (0, 1)
    result = second.state.result if second.state is not None else None
    assert result is not None
    assert sum(second.duraks) == sum(first.duraks) + len(result.durak)

    # the table's notices reach a Russian screen in Russian
    waiting = notices["waiting for the others to play on"]
    assert waiting.notice_ru == "ждём, решат ли остальные играть дальше"
    stopped = notices["the table stopped: Вера chose not to play on"]
    ui = TableUi()
    ui.update(stopped)
    screen = plain(render_table_screen(ui, Look("ru", False), 80, 24))
    assert "игра окончена: Вера не стали играть дальше" in screen
    assert "stopped" not in screen
