"""Issue #22: a false shuffle that got past the verifier does not block the end-of-game audit.

The audit opens every shuffle with the published keys (`tracing.first_false_shuffle`): a slot
that opens to no card is `NO_CARD`, and the first shuffle whose output is not its input cards
re-ordered is named — its author, not the seat whose tokens or key came last. The verifier is
stood in for (1b24ba3's, which a forged proof passed; or one that accepts anything).
"""

from __future__ import annotations

import dataclasses

import pytest

from p2p_durak.protocol.mental import group as g
from p2p_durak.protocol.mental import state as deck_state
from p2p_durak.protocol.mental.audit import card_paths
from p2p_durak.protocol.mental.deck import random_permutation
from p2p_durak.protocol.mental.elgamal import Ciphertext
from p2p_durak.protocol.mental.errors import DeckError
from p2p_durak.protocol.mental.events import NO_CARD, AuditDone, SlotBroken
from p2p_durak.protocol.mental.messages import Message, Shuffle
from p2p_durak.protocol.mental.ops import AuditOp, KeysOp, RevealOp, ShuffleOp

from .shuffle_forgery import forge, old_verify_shuffle, old_verify_shuffles
from .table import Table, drbg

N_CARDS = 12
LAST = 2  # the last of three shufflers


def _poison_last_shuffle(table: Table, slot: int) -> None:
    rng = drbg(b"poisoner")

    def intercept(msg: Message) -> Message:
        if isinstance(msg, Shuffle) and msg.seat == LAST and msg.step == "shuffle":
            observer = table.observer
            pending = observer.pending
            assert pending is not None
            n = len(pending.current)
            forged = forge(observer.ctx(msg.step, msg.seat), observer._key(), pending.current,
                           random_permutation(rng, n), [g.random_scalar(rng) for _ in range(n)],
                           rng, poisoned=slot)
            return dataclasses.replace(msg, deck=tuple(forged.outputs), proof=forged.proof)
        return msg

    table.intercept = intercept


def _cheater_holds_what_he_sent(table: Table) -> None:
    """A party applies its own messages as it makes them: the cheater's deck is the one he
    sent, not the honest one `intercept` replaced (his tokens are then on the right c1)."""
    table.intercept = None
    table.parties[LAST].slots = [st.copy() for st in table.observer.slots]


def _audit(table: Table) -> AuditDone:
    new = table.run(AuditOp("audit"))
    done = [e for e in table.observed if isinstance(e, AuditDone)]
    assert len(done) == 1
    assert all(isinstance(new[s][-2], AuditDone) for s in (0, 1))
    return done[0]


def _poisoned_table(monkeypatch: pytest.MonkeyPatch, seed: bytes, slot: int,
                    fold: bool) -> Table:
    """Three parties with 1b24ba3's verifier; the last shuffler poisoned `slot`."""
    monkeypatch.setattr(deck_state, "verify_shuffle", old_verify_shuffle)
    monkeypatch.setattr(deck_state, "verify_shuffles", old_verify_shuffles)
    table = Table(3, N_CARDS, seed=seed, fold=fold)
    table.run(KeysOp("keys"))
    _poison_last_shuffle(table, slot)
    table.run(ShuffleOp("shuffle", tuple(range(N_CARDS))))
    _cheater_holds_what_he_sent(table)
    return table


def test_a_poisoned_slot_kept_closed_to_the_end_is_named_by_the_audit(
        monkeypatch: pytest.MonkeyPatch) -> None:
    table = _poisoned_table(monkeypatch, b"kept", 4, fold=False)
    done = _audit(table)
    assert done.cards[4] == NO_CARD  # the audit went on: every other slot opened
    others = [c for c in done.cards if c != NO_CARD]
    assert len(others) == len(set(others)) == N_CARDS - 1
    assert done.false_shuffle is not None
    assert (done.false_shuffle.seat, done.false_shuffle.step) == (LAST, "shuffle")
    assert "point that is no card into slot 4" in done.false_shuffle.reason
    with pytest.raises(DeckError) as caught:
        card_paths(table.observer)
    assert caught.value.seat == LAST


def test_a_poisoned_public_reveal_is_a_named_event_and_the_tokens_stand(
        monkeypatch: pytest.MonkeyPatch) -> None:
    table = _poisoned_table(monkeypatch, b"reveal", 0, fold=True)
    new = table.run(RevealOp("trump", (0,)))
    for seat in (0, 1):
        broken = [e for e in new[seat] if isinstance(e, SlotBroken)]
        assert [(e.slot, e.public, e.error.seat) for e in broken] == [(0, True, LAST)]
        assert "seat 2's shuffle output" in broken[0].error.reason
    assert table.observer.pending is None  # the step is done: nobody's tokens were refused
    assert _audit(table).false_shuffle is not None


def test_a_card_swapped_for_another_is_found_by_the_audit(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A shuffle that makes one card twice (its proof false) passes a verifier that accepts
    anything; every slot opens to a card, but not to the deck: the audit names its author."""
    monkeypatch.setattr(deck_state, "verify_shuffle", lambda *_: True)
    monkeypatch.setattr(deck_state, "verify_shuffles", lambda *_: True)
    table = Table(3, N_CARDS, seed=b"swap", fold=False)
    table.run(KeysOp("keys"))
    table.run(ShuffleOp("shuffle", tuple(range(N_CARDS))))

    def twice(msg: Message) -> Message:
        if isinstance(msg, Shuffle) and msg.seat == 1:
            first = msg.deck[0]
            copy = Ciphertext(g.add(first.c1, g.GENERATOR),
                              g.add(first.c2, table.observer._key()))
            return dataclasses.replace(msg, deck=(first, copy, *msg.deck[2:]))
        return msg

    table.intercept = twice
    table.run(ShuffleOp("reshuffle", tuple(range(6))))
    table.intercept = None
    done = _audit(table)
    assert NO_CARD not in done.cards
    assert len(set(done.cards)) == N_CARDS - 1
    assert done.false_shuffle is not None
    assert (done.false_shuffle.seat, done.false_shuffle.step) == (1, "reshuffle")
    assert "swapped a card for another" in done.false_shuffle.reason
