"""Issue #6: once the grace period (or a proven fault) has stopped a networked game, there is
nothing left to play or to lose: one Q (or Esc) takes the player back to the lobby, as after a
game — it asked "Press Q again to leave; … the others play on without you", which was untrue."""

from __future__ import annotations

import dataclasses
from typing import Any, cast

import pytest
from table_states import find_state, snapshot_of

from p2p_durak.cli.backend import TableOptions
from p2p_durak.cli.controller import Controller
from p2p_durak.cli.i18n import Look
from p2p_durak.engine.state import BOUT


class StoppedSession:
    """A networked table whose game has stopped: it only records the leave."""

    def __init__(self) -> None:
        self.left = False

    async def leave(self) -> None:
        self.left = True


class NoBackend:
    fingerprint = "ABCD-EFGH"


@pytest.mark.parametrize("key", ["q", "escape"])
async def test_one_key_leaves_a_stopped_game(key: str) -> None:
    controller = Controller(cast(Any, NoBackend()), Look("en", False),
                            TableOptions(seed=1, bot_delay=0.0))
    session = StoppedSession()
    controller.session = cast(Any, session)
    controller.screen = "table"
    state = find_state(lambda s: s.phase == BOUT and s.defender == 1)
    halted = dataclasses.replace(snapshot_of(state, activity="halted"), legal=(),
                                 waiting_for=())
    controller.table.update(halted)
    await controller._table_key(key)
    assert controller.screen == "lobby"
    assert session.left
