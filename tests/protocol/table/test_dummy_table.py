"""с болваном (s_bolvanom) over the mental-poker deck: the dummy is an engine seat no party
holds; its slots are shown (`ShowOp`, the deck's proven key shares) to its controller alone —
the dealer, then the first attacker, then whoever takes it over — and its throw-ins and passes
are the controller's party's intents. Every party's machine agrees and the audit is clean."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from p2p_durak import engine as eng
from p2p_durak.engine import actions as A
from p2p_durak.protocol.table import AuditFinished, TableMachine, TableReject

from .test_table_machine import _deliver, _table


def check_dummy_views(machines: list[TableMachine], controllers: set[int],
                      public: set[int] | None = None) -> None:
    """Nobody but a controller (now or before) knows a dummy card — but those in `public`,
    if given (a dummy that takes, can_attack_defend: every card seen on the table is
    collected there); the one now knows all."""
    state = machines[0].state
    if state is None or state.phase < eng.Phase.REVEAL_TRUMP:
        return
    if public is not None:
        public.update(c for c in state.table + state.covers if c >= 0)
    dummy = state.game.dummy
    controller = machines[0]._party(dummy)
    controllers.add(controller)
    busy = machines[0].deck.pending_op() is not None
    for party, m in enumerate(machines):
        view = m.state
        assert view is not None
        if party not in controllers:
            # (a card open to all, such as the trump card drawn last, is known to everybody)
            opened = {st.card for st in m.deck.slots if st.card is not None}
            private = [c for c in range(view.game.n_cards) if (view.hands[dummy] >> c) & 1
                       and c not in (public or ()) and c not in opened]
            assert not private, f"party {party} sees the dummy's cards {private}"
        elif party == controller and not busy:
            assert view.hidden[dummy] == 0, f"the controller {party} misses a dummy card"


def play_out(machines: list[TableMachine], seed: int,
             check: Callable[[], None]) -> list[eng.Action]:
    """Random legal moves and deliveries until the audit; `check` after every step. Returns
    the dummy's moves (each checked to come from its controller's party)."""
    rng = random.Random(seed)
    dummy_moves: list[eng.Action] = []
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
                dummy_moves.append(action)
                assert machines[0]._party(state.game.dummy) == party
            _deliver(machines, party, machines[party].play(action))
        check()
    return dummy_moves


def _play(n: int, seed: int) -> tuple[list[TableMachine], set[int], int]:
    machines = _table(n, "s_bolvanom", seed=seed)
    controllers: set[int] = set()
    moves = play_out(machines, seed, lambda: check_dummy_views(machines, controllers))
    return machines, controllers, len(moves)


def agreed_and_clean(machines: list[TableMachine]) -> eng.State:
    """Every machine ended the game in one state with a clean audit, the dummy not the durak;
    that state."""
    states = [m.state for m in machines]
    assert all(s is not None and s.result is not None for s in states)
    assert len({eng.state_hash(s) for s in states if s is not None}) == 1
    for m in machines:
        assert m.audit == AuditFinished(())
    final = states[0]
    assert final is not None
    assert final.result is not None
    assert final.game.dummy not in final.result.durak
    return final


@pytest.mark.parametrize(("n", "seed", "seen"), [(2, 61, 1), (3, 65, 3)])
def test_a_dummy_game_over_the_deck_agrees_and_audits_clean(n: int, seed: int,
                                                             seen: int) -> None:
    machines, controllers, dummy_moves = _play(n, seed)
    final = agreed_and_clean(machines)
    assert final.game.n_players == n + 1
    assert final.game.dummy not in final.result.durak
    assert dummy_moves > 0
    # the dealer, the first attacker (at seed 61 the same party), then whoever takes over
    assert len(controllers) == seen


def only_the_controller_may(machines: list[TableMachine], seed: int,
                            pick: Callable[[eng.State, list[eng.Action]], eng.Action | None]
                            ) -> eng.Action:
    """Random play until `pick` (given the table's state and the controller's legal moves)
    names a move of the dummy's; then another party may not make it, and the controller's
    intent submitted as that party's is refused as forged. Returns the move."""
    rng = random.Random(seed)
    for _ in range(5000):
        due = [(p, msg) for p, m in enumerate(machines) if (msg := m.owed()) is not None]
        if due:
            _deliver(machines, *rng.choice(due))
            continue
        state = machines[0].state
        assert state is not None
        dummy = state.game.dummy
        controller = machines[0]._party(dummy)
        move = pick(state, machines[controller].legal()) if controller >= 0 else None
        if move is not None:
            other = next(p for p in range(len(machines)) if p != controller)
            with pytest.raises(TableReject):
                machines[other].play(move)
            payload = machines[controller].play(move)
            with pytest.raises(TableReject) as caught:
                machines[0].fork().apply(other, payload)
            assert caught.value.code == "forged"
            return move
        party = rng.choice(machines[0].waiting_for())
        _deliver(machines, party, machines[party].play(rng.choice(machines[party].legal())))
    raise AssertionError("the dummy never had such a turn")


def test_only_the_controller_may_move_the_dummy() -> None:
    def pass_when_due(state: eng.State, _legal: list[eng.Action]) -> eng.Action | None:
        dummy = state.game.dummy
        return A.pass_(dummy) if dummy in eng.to_act(state) else None

    only_the_controller_may(_table(3, "s_bolvanom", seed=63), 63, pass_when_due)
