"""A played card's opening is proven: the move names the card's slot, and once it is committed
its author's tokens open the card, with a DLEQ proof every node checks (docs/protocol.md §10.12;
docs/mental-poker.md: tokens are published with a proof). A false proof is refused naming its
author, the honest tokens are accepted; a move whose opened card does not make it legal is void,
and its author named."""

from __future__ import annotations

import dataclasses
import random

import pytest

from p2p_durak import engine as eng
from p2p_durak.engine.presets import get_preset
from p2p_durak.protocol import codec
from p2p_durak.protocol.mental import group
from p2p_durak.protocol.mental.messages import Tokens
from p2p_durak.protocol.table import DECK_STEP, MOVE, TableMachine, TableReject, deck_message


def _at_first_lead() -> list[TableMachine]:
    rules = get_preset("app_podkidnoy").rules
    machines = [TableMachine(b"opening-proof-gm", p, 2, rules, random.Random(40 + p).randbytes)
                for p in range(2)]
    rng = random.Random(4)
    while machines[0].state is None or machines[0].state.phase != eng.Phase.LEAD:
        due = [(p, msg) for p, m in enumerate(machines) if (msg := m.owed()) is not None]
        if due:
            party, payload = rng.choice(due)
        else:
            party = machines[0].waiting_for()[0]
            payload = machines[party].play(machines[party].legal()[0])
        for m in machines:
            m.apply(party, payload)
    return machines


def _lead(machines: list[TableMachine]) -> tuple[int, eng.Action, int]:
    party = machines[0].waiting_for()[0]
    player = machines[party]
    lead = next(a for a in player.legal() if a.kind == eng.Kind.LEAD and len(a.cards) == 1)
    slot = next(s for s in player.hand_slots[player.my_seat]
                if player.deck.seen.get(s) == lead.cards[0])
    return party, lead, slot


def test_a_move_names_its_slot_and_its_card_opens_after_the_commit() -> None:
    machines = _at_first_lead()
    party, lead, slot = _lead(machines)
    payload = machines[party].play(lead)
    kind, action, slots = codec.decode(payload)  # type: ignore[misc]
    assert (kind, slots) == (MOVE, (slot,))
    assert eng.decode_action(action).cards == ()  # the card's face is not in the intent
    for m in machines:
        m.apply(party, payload)
        assert m.waiting_for() == (party,)  # the mover owes its opening: nothing else moves
        assert m.legal() == ()
        assert m.state is not None
        assert m.state.table == ()
    opening = machines[party].owed()
    assert opening is not None
    for m in machines:
        m.apply(party, opening)
        assert m.deck.slots[slot].card == lead.cards[0]
        assert m.state is not None
        assert m.state.table == lead.cards


def test_a_played_card_with_a_false_opening_proof_is_refused() -> None:
    machines = _at_first_lead()
    party, lead, slot = _lead(machines)
    payload = machines[party].play(lead)
    for m in machines:
        m.apply(party, payload)
    player, other = machines[party], machines[1 - party]
    honest = player.owed()
    assert honest is not None
    tokens = deck_message(codec.decode(honest)[1])  # type: ignore[index]
    assert isinstance(tokens, Tokens)
    assert (tokens.step, tokens.slots) == (f"open:{slot}", (slot,))
    foreign = dataclasses.replace(tokens, tokens=(group.base_mul(7),))  # a token not x·c1
    false = codec.encode((DECK_STEP, codec.encode(foreign.to_wire())))
    before = other.state_hash()
    with pytest.raises(TableReject) as caught:
        other.fork().apply(party, false)
    assert (caught.value.party, caught.value.code) == (party, "bad-proof")
    assert other.state_hash() == before
    other.apply(party, honest)  # the same opening with its own proof is accepted
    assert other.deck.slots[slot].card == lead.cards[0]


def test_a_move_whose_opened_card_does_not_make_it_legal_is_void_and_named() -> None:
    """A mover who names a slot whose card cannot make the move (here: a beat with a card that
    does not beat the attack) commits the move; its opening then shows the card to all (its
    author's loss), the move is void, its author named (`voided`), and its seat moves again."""
    machines = _at_first_lead()
    party, lead, _slot = _lead(machines)
    payload = machines[party].play(lead)
    for m in machines:
        m.apply(party, payload)
    opening = machines[party].owed()
    assert opening is not None
    for m in machines:
        m.apply(party, opening)
    defender = 1 - party
    table = machines[defender]
    assert table.state is not None
    beaters = {a.cards[0] for a in table.legal() if a.kind == eng.Kind.BEAT}
    slot = next((s for s in table.hand_slots[table.my_seat]
                 if table.deck.seen[s] not in beaters), None)
    assert slot is not None, "every card of the defender beats the lead"
    before = table.state
    forged = codec.encode((MOVE, eng.encode_action(eng.Action(int(eng.Kind.BEAT), table.my_seat,
                                                              (), 0)), (slot,)))
    for m in machines:
        m.apply(defender, forged)  # its public form is a beat like any other
    tokens = table.owed()
    assert tokens is not None
    for m in machines:
        m.apply(defender, tokens)
        (voided,) = m.voided
        assert voided[0] == defender
        assert "does not beat" in voided[1]
        assert m.deck.slots[slot].card == table.deck.seen[slot]  # open to all now
        assert m.state is not None
        assert eng.state_hash(m.state) == eng.state_hash(before)  # nothing was played
        assert defender in m.waiting_for()
    assert table.legal()  # the defender moves again
