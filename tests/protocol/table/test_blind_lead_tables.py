"""армянский over the mental-poker deck: a blind lead of the top stock card opens that slot to
everyone (a RevealOp with every party's proven tokens) before it is on the table."""

from __future__ import annotations

import random

import pytest

from p2p_durak import engine as eng
from p2p_durak.engine import actions as A
from p2p_durak.engine import events as E
from p2p_durak.protocol import codec
from p2p_durak.protocol.mental import group as g
from p2p_durak.protocol.mental.messages import Tokens
from p2p_durak.protocol.table import (
    AuditFinished,
    Moved,
    TableMachine,
    TableReject,
    _deck_bytes,
    deck_message,
)

from .test_table_machine import _deliver, _table


def _play(machines: list[TableMachine], seed: int, until_first: bool = False) -> int:
    """A whole game in which every lead that may come from the stock does (or, `until_first`,
    up to the first such lead); the number of blind leads."""
    rng = random.Random(seed)
    blind = 0
    while machines[0].audit is None:
        due = [(p, msg) for p, m in enumerate(machines) if (msg := m.owed()) is not None]
        if due:
            _deliver(machines, *rng.choice(due))
            continue
        party = rng.choice(machines[0].waiting_for())
        legal = machines[party].legal()
        stock_leads = [a for a in legal if a.kind == A.LEAD_STOCK]
        if stock_leads:
            if until_first:
                return blind
            blind += 1
        _deliver(machines, party, machines[party].play(stock_leads[0] if stock_leads
                                                       else rng.choice(legal)))
    return blind


@pytest.mark.parametrize(("n", "seed"), [(2, 51), (4, 52)])
def test_blind_leads_agree_and_audit_clean(n: int, seed: int) -> None:
    machines = _table(n, "armyansky_1", seed=seed)
    blind = _play(machines, seed)
    assert blind >= 2
    states = [m.state for m in machines]
    assert all(s is not None and s.result is not None for s in states)
    assert len({eng.state_hash(s) for s in states if s is not None}) == 1
    for m in machines:
        assert m.audit == AuditFinished(())
    led = [ev for m_ev in machines[0].history if isinstance(m_ev, Moved)
           for ev in m_ev.events if isinstance(ev, E.StockLed)]
    assert len(led) == blind


def test_the_led_card_is_the_one_in_the_top_slot_opened_by_every_party() -> None:
    machines = _table(3, "armyansky_1", seed=53)
    _play(machines, 53, until_first=True)
    m = machines[0]
    top = m.stock_slots[0]
    attacker = m.party_of_seat[m.state.attacker] if m.state is not None else -1
    assert m.deck.slots[top].card is None  # nobody's card yet
    _deliver(machines, attacker, machines[attacker].play(A.lead_stock(m.state.attacker)))
    assert m.state is not None
    assert m.state.phase == eng.Phase.REVEAL_STOCK
    # every party owes its tokens for the top slot, the attacker included
    assert set(m.deck_due()) == {0, 1, 2}
    while m.deck_due():
        party = m.deck_due()[0]
        payload = machines[party].owed()
        assert payload is not None
        _deliver(machines, party, payload)
    assert m.state.phase == eng.Phase.BOUT
    card = m.state.table[0]
    assert m.deck.slots[top].card == card
    assert m.table_slots == [top]
    for other in machines:
        assert other.state is not None
        assert other.state.table == (card,)


def test_a_false_token_for_the_top_slot_is_refused_and_names_the_party() -> None:
    machines = _table(2, "armyansky_1", seed=54)
    _play(machines, 54, until_first=True)
    m = machines[0]
    assert m.state is not None
    attacker = m.party_of_seat[m.state.attacker]
    _deliver(machines, attacker, machines[attacker].play(A.lead_stock(m.state.attacker)))
    for due in m.deck_due():  # a public reveal: every party commits to its tokens first
        commit = machines[due].owed()
        assert commit is not None
        _deliver(machines, due, commit)
    party = m.deck_due()[0]
    payload = machines[party].owed()
    assert payload is not None
    kind, raw = codec.decode(payload)
    msg = deck_message(raw)
    assert isinstance(msg, Tokens)
    # a well-formed point that is not the party's token: the card would open as another one
    forged = Tokens(msg.game_id, msg.step, msg.seat, msg.slots, msg.views,
                    (g.base_mul(12345),) + msg.tokens[1:], msg.proof)
    reader = 1 - party
    with pytest.raises(TableReject) as caught:
        machines[reader].apply(party, codec.encode((kind, _deck_bytes(forged))))
    assert caught.value.party == party
    assert caught.value.code == "bad-proof"
    assert machines[reader].state is not None
    assert machines[reader].state.phase == eng.Phase.REVEAL_STOCK  # nothing applied
