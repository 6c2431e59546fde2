"""A played card's opening is proven: the tokens that open it carry a DLEQ proof, checked once
by the table before the card is revealed (docs/protocol.md § 10: every move is checked by every
node; docs/mental-poker.md: tokens are published with a proof). A false proof refuses the move
and names its author; the honest tokens of the same move are accepted."""

from __future__ import annotations

import dataclasses
import random

import pytest

from p2p_durak import engine as eng
from p2p_durak.engine.presets import get_preset
from p2p_durak.protocol import codec
from p2p_durak.protocol.mental.messages import Tokens
from p2p_durak.protocol.table import MOVE, TableMachine, TableReject


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


def test_a_played_card_with_a_false_opening_proof_is_refused() -> None:
    machines = _at_first_lead()
    party = machines[0].waiting_for()[0]
    player, other = machines[party], machines[1 - party]
    lead = next(a for a in player.legal() if a.kind == eng.Kind.LEAD and len(a.cards) == 1)
    honest = player.play(lead)
    kind, action, ((slot, opening),) = codec.decode(honest)  # type: ignore[misc]
    assert kind == MOVE
    assert opening is not None  # nobody has seen the card: it travels with its tokens
    tokens = player.deck.opening_tokens(f"open:{slot}", slot)
    another = next(s for s in player.hand_slots[player.my_seat] if s != slot)
    foreign = player.deck.opening_tokens(f"open:{another}", another)
    false = dataclasses.replace(tokens, proof=foreign.proof)  # right tokens, wrong proof
    assert isinstance(false, Tokens)
    payload = codec.encode((kind, action, [(slot, codec.encode(false.to_wire()))]))
    before = other.state_hash()
    with pytest.raises(TableReject) as caught:
        other.fork().apply(party, payload)
    assert (caught.value.party, caught.value.code) == (party, "bad-proof")
    assert other.state_hash() == before
    other.apply(party, honest)  # the same move with its own proof is accepted
    assert other.deck.slots[slot].card == lead.cards[0]
