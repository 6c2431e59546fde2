"""с болваном with the agreed variant over the mental-poker deck (000_0a1bcdd496bc6662.txt:
«возможен вариант игры, когда по согласованию между игроками болван имеет право это делать» —
ходить и отбиваться): the dummy's leads, beats and takes are its controller's party's intents,
opened from the dummy's slots like its throw-ins; every machine agrees and the audit is clean."""

from __future__ import annotations

import pytest

from p2p_durak import engine as eng
from p2p_durak.engine import actions as A
from p2p_durak.engine.presets import get_preset
from p2p_durak.engine.rules import DUMMY_PLAYS_BOUT_ATTACKER, DUMMY_PLAYS_GAME_FIRST_ATTACKER
from p2p_durak.protocol.table import TableMachine

from .test_dummy_table import agreed_and_clean, check_dummy_views, only_the_controller_may, play_out
from .test_table_machine import _rng


def _machines(n: int, overlay: tuple[tuple[str, str], ...], seed: int) -> list[TableMachine]:
    rules = get_preset("s_bolvanom").rules.with_options(dummy_hand=overlay)
    game_id = seed.to_bytes(16, "big")
    return [TableMachine(game_id, p, n, rules, _rng(seed * 100 + p)) for p in range(n)]


@pytest.mark.parametrize(("n", "overlay", "seed"), [
    (2, DUMMY_PLAYS_GAME_FIRST_ATTACKER, 71), (3, DUMMY_PLAYS_GAME_FIRST_ATTACKER, 72),
    (3, DUMMY_PLAYS_BOUT_ATTACKER, 73)])
def test_a_game_where_the_dummy_attacks_and_defends_agrees_and_audits_clean(
        n: int, overlay: tuple[tuple[str, str], ...], seed: int) -> None:
    machines = _machines(n, overlay, seed)
    controllers: set[int] = set()
    public: set[int] = set()
    moves = play_out(machines, seed, lambda: check_dummy_views(machines, controllers, public))
    dummy_kinds = {a.kind for a in moves}
    agreed_and_clean(machines)
    assert A.LEAD in dummy_kinds
    assert dummy_kinds & {A.BEAT, A.TAKE}


def test_only_the_controller_may_lead_for_the_dummy() -> None:
    def lead(state: eng.State, legal: list[eng.Action]) -> eng.Action | None:
        if state.phase != eng.Phase.LEAD or state.attacker != state.game.dummy:
            return None
        return next((a for a in legal if a.seat == state.game.dummy), None)

    move = only_the_controller_may(_machines(3, DUMMY_PLAYS_GAME_FIRST_ATTACKER, 74), 74, lead)
    assert move.kind == A.LEAD
