"""The pre-game phases over the mental-poker deck (наборный): every turned card is a deck
reveal of the next stock slot to all parties, with its proofs; a capture is a move naming a
face-up card; every machine ends the phase knowing every hand, and the game finishes and audits
clean."""

from __future__ import annotations

import pytest

from p2p_durak import engine as eng
from p2p_durak.engine import actions as A
from p2p_durak.engine import events as E
from p2p_durak.engine.presets import get_preset
from p2p_durak.protocol import codec
from p2p_durak.protocol.table import MOVE, Moved, TableMachine, TableReject

from .test_table_machine import _deliver, _machines, _play_agreed, _table

PRE = (eng.Phase.DEAL, eng.Phase.TURN_UP, eng.Phase.CAPTURE)


@pytest.mark.parametrize(("preset", "n"), [("naborny", 2), ("naborny", 3), ("krugly", 2),
                                           ("krugly", 4), ("krestovy", 2), ("krestovy", 4)])
def test_whole_game_agrees_and_audits_clean(preset: str, n: int) -> None:
    machines = _table(n, preset, seed=n + 80)
    _play_agreed(machines, seed=n + 80)
    turned = [ev for ev in machines[0].history if isinstance(ev, Moved)
              for e in ev.events if isinstance(e, E.TurnedUp)]
    if preset != "krugly":  # every card of the deck was turned for all
        assert len(turned) == machines[0].n_cards


def _to_first_lead(machines: list[TableMachine]) -> None:
    """Deliver deck steps until the pre-game phase is over, choosing the first capture."""
    while True:
        due = [(p, m.owed()) for p, m in enumerate(machines)]
        due = [(p, msg) for p, msg in due if msg is not None]
        if due:
            _deliver(machines, *due[0])
            continue
        state = machines[0].state
        assert state is not None
        if state.phase not in PRE:
            return
        (party,) = machines[0].waiting_for()
        _deliver(machines, party, machines[party].play(machines[party].legal()[0]))


def test_every_party_knows_every_hand_after_the_phase() -> None:
    machines = _table(3, "naborny", seed=91)
    _to_first_lead(machines)
    views = [m.state for m in machines]
    assert all(v is not None and not any(v.hidden) for v in views)
    assert len({v.hands for v in views if v is not None}) == 1
    assert sum(h.bit_count() for h in views[0].hands) == machines[0].n_cards  # type: ignore
    m = machines[0]
    assert not m.table_slots
    assert not m.stock_slots
    for seat, slots in m.hand_slots.items():  # each hand's slots are opened to its cards
        assert {m.deck.slots[s].card for s in slots} == set(eng.cards_of(views[0].hands[seat]))


def test_a_capture_is_refused_with_an_opening_or_out_of_turn() -> None:
    for seed in range(200, 260):
        machines = _table(2, "naborny", seed=seed)
        while True:
            due = [(p, m.owed()) for p, m in enumerate(machines)]
            due = [(p, msg) for p, msg in due if msg is not None]
            if due:
                _deliver(machines, *due[0])
                continue
            state = machines[0].state
            assert state is not None
            if state.phase != eng.Phase.CAPTURE:
                if state.phase not in PRE:
                    break
                (party,) = machines[0].waiting_for()
                _deliver(machines, party, machines[party].play(machines[party].legal()[0]))
                continue
            party = machines[0].party_of_seat[state.attacker]
            action = machines[party].legal()[0]
            slot = machines[0].table_slots[0]
            forged = codec.encode((MOVE, eng.encode_action(action), (slot,)))
            with pytest.raises(TableReject, match="no card from a hand"):
                machines[1].apply(party, forged)
            other = 1 - party
            wrong = A.capture(machines[0].seat_of_party[other], action.cards[0])
            with pytest.raises(TableReject, match=r"not this seat.s turn"):
                machines[1].apply(other, codec.encode((MOVE, eng.encode_action(wrong), ())))
            return
    pytest.fail("no game of 60 offered a choice of capture")


@pytest.mark.parametrize(("preset", "params", "n"), [
    ("naborny", (("after_capture", "seed_and_end"),), 3),
    ("krugly", (("on_stock_empty", "discard_leftovers"),), 3)])
def test_the_table_options_agree_and_audit_clean(preset: str, params: tuple[tuple[str, str]],
                                                 n: int) -> None:
    rules = get_preset(preset).rules.with_options(pre_phase_params=params)
    machines = _machines(n, rules, seed=n + 70)
    _play_agreed(machines, seed=n + 70)
