"""с болваном with the agreed variant over the mental-poker deck (000_0a1bcdd496bc6662.txt:
«возможен вариант игры, когда по согласованию между игроками болван имеет право это делать» —
ходить и отбиваться): the dummy's leads, beats and takes are its controller's party's intents,
opened from the dummy's slots like its throw-ins; every machine agrees and the audit is clean."""

from __future__ import annotations

import random

import pytest

from p2p_durak import engine as eng
from p2p_durak.engine import actions as A
from p2p_durak.engine.presets import get_preset
from p2p_durak.engine.rules import DUMMY_PLAYS_BOUT_ATTACKER, DUMMY_PLAYS_GAME_FIRST_ATTACKER
from p2p_durak.protocol.table import AuditFinished, TableMachine, TableReject

from .test_table_machine import _deliver, _rng


def _machines(n: int, overlay: tuple[tuple[str, str], ...], seed: int) -> list[TableMachine]:
    rules = get_preset("s_bolvanom").rules.with_options(dummy_hand=overlay)
    game_id = seed.to_bytes(16, "big")
    return [TableMachine(game_id, p, n, rules, _rng(seed * 100 + p)) for p in range(n)]


def _check_dummy_views(machines: list[TableMachine], controllers: set[int],
                       public: set[int]) -> None:
    """Nobody but a controller (now or before) knows a dummy card it did not see on the table
    (a take by the dummy is public); the controller now knows them all."""
    state = machines[0].state
    if state is None or state.phase < eng.Phase.REVEAL_TRUMP:
        return
    public.update(c for c in state.table + state.covers if c >= 0)
    dummy = state.game.dummy
    controller = machines[0]._party(dummy)
    controllers.add(controller)
    busy = machines[0].deck.pending_op() is not None
    for party, m in enumerate(machines):
        view = m.state
        assert view is not None
        if party not in controllers:
            private = [c for c in range(view.game.n_cards)
                       if (view.hands[dummy] >> c) & 1 and c not in public]
            assert not private, f"party {party} sees the dummy's cards {private}"
        elif party == controller and not busy:
            assert view.hidden[dummy] == 0, f"the controller {party} misses a dummy card"


@pytest.mark.parametrize(("n", "overlay", "seed"), [
    (2, DUMMY_PLAYS_GAME_FIRST_ATTACKER, 71), (3, DUMMY_PLAYS_GAME_FIRST_ATTACKER, 72),
    (3, DUMMY_PLAYS_BOUT_ATTACKER, 73)])
def test_a_game_where_the_dummy_attacks_and_defends_agrees_and_audits_clean(
        n: int, overlay: tuple[tuple[str, str], ...], seed: int) -> None:
    machines = _machines(n, overlay, seed)
    rng = random.Random(seed)
    controllers: set[int] = set()
    dummy_kinds: set[str] = set()
    public: set[int] = set()
    for _ in range(20000):
        if machines[0].audit is not None:
            break
        due = [(p, msg) for p, m in enumerate(machines) if (msg := m.owed()) is not None]
        if due:
            _deliver(machines, *rng.choice(due))
        else:
            party = rng.choice(machines[0].waiting_for())
            legal = machines[party].legal()
            assert legal, f"party {party} is waited for but has no legal move"
            action = rng.choice(legal)
            state = machines[0].state
            assert state is not None
            if action.seat == state.game.dummy:
                dummy_kinds.add(action.kind)
                assert machines[0]._party(state.game.dummy) == party
            _deliver(machines, party, machines[party].play(action))
        _check_dummy_views(machines, controllers, public)
    states = [m.state for m in machines]
    assert all(s is not None and s.result is not None for s in states)
    assert len({eng.state_hash(s) for s in states if s is not None}) == 1
    for m in machines:
        assert m.audit == AuditFinished(())
    final = states[0]
    assert final is not None
    assert final.result is not None
    assert final.game.dummy not in final.result.durak
    assert A.LEAD in dummy_kinds
    assert dummy_kinds & {A.BEAT, A.TAKE}


def test_only_the_controller_may_lead_or_defend_for_the_dummy() -> None:
    machines = _machines(3, DUMMY_PLAYS_GAME_FIRST_ATTACKER, 74)
    rng = random.Random(74)
    for _ in range(5000):
        due = [(p, msg) for p, m in enumerate(machines) if (msg := m.owed()) is not None]
        if due:
            _deliver(machines, *rng.choice(due))
            continue
        state = machines[0].state
        assert state is not None
        dummy = state.game.dummy
        if dummy in eng.to_act(state) and state.phase == eng.Phase.LEAD:
            controller = machines[0]._party(dummy)
            lead = next(a for a in machines[controller].legal() if a.seat == dummy)
            other = next(p for p in range(3) if p != controller)
            assert all(a.seat != dummy for a in machines[other].legal())
            with pytest.raises(TableReject):
                machines[other].play(lead)
            payload = machines[controller].play(lead)
            with pytest.raises(TableReject) as caught:
                machines[0].fork().apply(other, payload)
            assert caught.value.code == "forged"
            return
        party = rng.choice(machines[0].waiting_for())
        _deliver(machines, party, machines[party].play(rng.choice(machines[party].legal())))
    raise AssertionError("the dummy never led")
