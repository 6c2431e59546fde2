"""Public reveals are commit-then-reveal (issue 22, hole 3; docs/mental-poker.md §3): every seat
that owes tokens for a card opened to all — the trump card, потайной's hidden trump,
двухкозырной's turned cards, армянский's stock lead — first commits to its `tokens` message, and
sends it only once every such seat has committed. Before, the last seat to send its tokens held
everyone else's and its own key: it could open the card while nobody was bound to show it, and
walk away."""

from __future__ import annotations

import dataclasses
import random

import pytest

from p2p_durak.engine.presets import get_preset
from p2p_durak.protocol.mental.errors import InvalidProof
from p2p_durak.protocol.mental.messages import Message, TokenCommit, Tokens
from p2p_durak.protocol.mental.ops import RevealOp
from p2p_durak.protocol.mental.proofs import make_tokens
from p2p_durak.protocol.table import TableMachine

from .table import drbg
from .test_flow import setup_table


def _at_trump_reveal(n: int, seed: int) -> list[TableMachine]:
    """The parties' table machines of a подкидной, driven (the ordered log's job, done in
    process) until the trump card's reveal is the open deck step."""
    rules = get_preset("app_podkidnoy").rules
    machines = [TableMachine(seed.to_bytes(16, "big"), p, n, rules,
                             random.Random(seed * 10 + p).randbytes) for p in range(n)]
    rng = random.Random(seed)
    while (pending := machines[0].deck.pending_op()) is None or pending.op.step != "trump":
        due = [(p, msg) for p, m in enumerate(machines) if (msg := m.owed()) is not None]
        party, payload = rng.choice(due)
        for m in machines:
            m.apply(party, payload)
    return machines


@pytest.mark.parametrize(("n", "seed"), [(2, 1), (3, 2), (4, 3)])
def test_nobody_can_open_the_trump_card_before_every_party_is_bound(n: int, seed: int) -> None:
    machines = _at_trump_reveal(n, seed)
    pending = machines[0].deck.pending_op()
    assert pending is not None
    assert isinstance(pending.op, RevealOp)
    (slot,) = pending.op.slots
    rng = random.Random(seed)
    early = []  # parties that could open the card before it was open to all
    while machines[0].deck.slots[slot].card is None:
        due = [(p, msg) for p, m in enumerate(machines) if (msg := m.owed()) is not None]
        party, payload = rng.choice(due)
        for m in machines:
            m.apply(party, payload)
        for m in machines:
            if m.deck.slots[slot].card is None and m.deck.try_open(slot) is not None:
                step = m.deck.pending_op()
                assert step is not None
                bound = sorted(step.commits)
                assert bound == list(range(n)), (
                    f"party {m.party} can open the trump card while only parties {bound} "
                    "are bound to show it")
                early.append(m.party)
    # the last party to send its tokens could (it holds the others' and its own key): bound
    assert early


def test_a_party_that_committed_and_withholds_its_tokens_is_waited_for() -> None:
    # it is named like any party owing a deck step once the grace period ends (node/game.py)
    machines = _at_trump_reveal(3, 4)
    withholding = 1
    for party in range(3):
        payload = machines[party].owed()
        assert payload is not None
        for m in machines:
            m.apply(party, payload)  # the three commitments
    for party in (0, 2):
        payload = machines[party].owed()
        assert payload is not None
        for m in machines:
            m.apply(party, payload)
    for m in machines:
        assert m.waiting_for() == (withholding,)


def test_tokens_that_do_not_match_their_commitment_are_refused_naming_the_seat() -> None:
    table = setup_table(3, 24)
    liar = 2
    party = table.parties[liar]

    def swap(msg: Message) -> Message:
        if isinstance(msg, Tokens) and msg.seat == liar and msg.step == "trump":
            # the same true tokens with another valid proof: not the message committed to
            items = list(zip(msg.slots, msg.views, strict=True))
            bases = [party.slots[s].view(v).ct.c1 for s, v in items]
            tokens, proof = make_tokens(party.ctx("trump", liar), party._secret,
                                        party.public_key, bases, drbg(b"other"))
            assert tokens == msg.tokens
            return dataclasses.replace(msg, proof=proof)
        return msg

    table.intercept = swap
    with pytest.raises(InvalidProof) as caught:
        table.run(RevealOp("trump", (5,)))
    assert (caught.value.seat, caught.value.step) == (liar, "trump")
    assert "commitment" in caught.value.reason


def test_a_reveal_by_its_owner_alone_needs_no_commitment() -> None:
    # a hand card played face up opens with its owner's token alone: it knows the card anyway
    table = setup_table(3, 24)
    table.deal("deal", {0: [0, 1], 1: [2], 2: [3]})
    kinds: list[str] = []

    def note(msg: Message) -> Message:
        kinds.append(msg.KIND)
        return msg

    table.intercept = note
    table.run(RevealOp("open:0", (0,), by=0))
    assert TokenCommit.KIND not in kinds
    assert kinds == [Tokens.KIND]
