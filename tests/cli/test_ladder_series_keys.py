"""Длинный дурак in the UI: a practice series played by keys; the end panel says which card
the durak lays out, and the next game shows his ladder by his name and deals the same sixes."""

from __future__ import annotations

import pytest
import trio
from ui_support import options, running_ui

from p2p_durak.cli.guest import run_guest

guest = pytest.mark.trio(run=run_guest)


@guest
async def test_a_long_durak_series_by_keys_lays_out_the_ladder() -> None:
    with trio.fail_after(240):
        async with running_ui(base=options(preset_id="app_dlinny", players=2, seed=8),
                              autostart=True) as ui:
            for game in (1, 2):
                await ui.play_to_the_end()
                snap = ui.controller.table.snapshot
                assert snap is not None
                assert snap.state is not None
                result = snap.state.result
                assert result is not None
                screen = ui.screen(100, 34)
                if game == 1:
                    assert result.durak, "this seed's first game has a durak"
                    assert "lays out 7" in screen, screen
                if game == 2:
                    assert snap.state.game.personal  # the sixes of game 1, kept
                    break
                sixes = snap.state.seat_trumps
                await ui.press("n")
                await ui.until(lambda: "Game over" not in ui.screen())
                snap = ui.controller.table.snapshot
                assert snap is not None
                assert snap.state is not None
                assert snap.state.seat_trumps == sixes
                assert "ladder 7–7" in ui.screen(100, 34)
