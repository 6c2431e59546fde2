"""The partitioned first shuffle (албанский: suits shuffled within each rank of a pre-sorted
deck): every party permutes each block of slots within itself and proves each block with its
own shuffle proof; a party that moves a card to another block is caught and named."""

from __future__ import annotations

import dataclasses

import pytest

from p2p_durak.protocol.mental.audit import card_paths, replay
from p2p_durak.protocol.mental.elgamal import remask
from p2p_durak.protocol.mental.errors import DeckUsageError, InvalidProof, MalformedMessage
from p2p_durak.protocol.mental.events import ShuffleDone
from p2p_durak.protocol.mental.messages import BlockShuffle, message_from_wire
from p2p_durak.protocol.mental.ops import AuditOp, KeysOp, ShuffleOp
from p2p_durak.protocol.mental.shuffle import prove_shuffle
from p2p_durak.protocol.mental.state import block_context

from .table import Table, drbg
from .test_soundness import begin_all, rejects

N_CARDS = 12
BLOCKS = (4, 4, 4)
# the pre-sorted deck: the highest "rank" (cards 8..11) on top, as албанский lays it out
INITIAL = (8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3)
OP = ShuffleOp("shuffle", tuple(range(N_CARDS)), BLOCKS, INITIAL)


def _start(seed: bytes = b"blocks") -> tuple[Table, BlockShuffle]:
    table = Table(3, N_CARDS, seed, fold=False)
    table.run(KeysOp("keys"))
    sent = begin_all(table, OP)
    (msg,) = sent[0]
    assert isinstance(msg, BlockShuffle)
    return table, msg


def test_every_party_shuffles_within_the_blocks_and_the_audit_sees_it() -> None:
    table = Table(3, N_CARDS, b"honest")
    table.run(KeysOp("keys"))
    done = table.run(OP)
    assert all(any(isinstance(e, ShuffleDone) for e in evs) for evs in done.values())
    # nobody can open any slot: a shuffle alone shows nothing
    for party in table.parties:
        assert all(party.try_open(slot) is None for slot in range(N_CARDS))
    table.run(AuditOp("audit"))
    state = replay(table.game_id, 3, N_CARDS, table.parties[0].journal)
    paths = card_paths(state)
    assert [(p.step, p.seat) for p in paths] == [("shuffle", 0), ("shuffle", 1), ("shuffle", 2)]
    moved = False
    for path in paths:
        for start in range(0, N_CARDS, 4):
            assert sorted(path.cards[start:start + 4]) == sorted(INITIAL[start:start + 4])
        moved |= path.cards != INITIAL
    assert moved, "the blocks were shuffled"


def test_a_card_moved_to_another_block_is_caught_and_the_mover_named() -> None:
    """The first shuffler swaps a card of the top block with one of the next and proves each
    block as if it were a shuffle of that block: no witness exists, so a proof fails."""
    table, honest = _start()
    party = table.parties[0]
    key = party._key()
    deck = party.codec.initial_deck(key)  # the shuffle's inputs: the deck the op lays out
    inputs = [deck[c] for c in INITIAL]
    order = [4, 1, 2, 3, 0, 5, 6, 7, 8, 9, 10, 11]  # card 0 and card 4 change blocks
    rs = [7 + i for i in range(N_CARDS)]
    outputs = remask([inputs[j] for j in order], key, rs)
    proofs = []
    for index in range(3):
        part = slice(4 * index, 4 * index + 4)
        proofs.append(prove_shuffle(block_context(table.game_id, "shuffle", 0, index), key,
                                    inputs[part], outputs[part], [0, 1, 2, 3], rs[part],
                                    drbg(b"cheat")))
    cheat = dataclasses.replace(honest, deck=tuple(outputs), proofs=tuple(proofs))
    victim = table.parties[1]
    rejects(victim, cheat, InvalidProof, 0, "shuffle", "block 0")
    # the honest message is still accepted afterwards
    victim.receive(honest)


def test_tampering_with_a_block_or_reusing_a_proof_for_another_block_is_caught() -> None:
    table, msg = _start(b"tamper")
    victim = table.parties[1]
    deck = list(msg.deck)
    crossed = dataclasses.replace(msg, deck=(deck[4], *deck[1:4], deck[0], *deck[5:]))
    rejects(victim, crossed, InvalidProof, 0, "shuffle", "block 0")
    swapped_proofs = dataclasses.replace(msg, proofs=(msg.proofs[1], msg.proofs[0],
                                                      msg.proofs[2]))
    rejects(victim, swapped_proofs, InvalidProof, 0, "shuffle", "block 0")
    other_blocks = dataclasses.replace(msg, blocks=(8, 4))
    rejects(victim, other_blocks, InvalidProof, 0, "shuffle", "blocks")
    victim.receive(msg)


def test_the_wire_form_is_strict() -> None:
    _, msg = _start(b"wire")
    wire = msg.to_wire()
    assert message_from_wire(wire) == msg
    short = [*wire[:-1], wire[-1][:-32]]  # type: ignore[index]
    with pytest.raises(MalformedMessage):
        message_from_wire(short)
    zero = [*wire[:4], [4, 0, 8], *wire[5:]]
    with pytest.raises(MalformedMessage):
        message_from_wire(zero)


def test_a_partition_must_cover_the_slots_and_only_the_first_shuffle_lays_out_cards() -> None:
    table = Table(2, N_CARDS, b"usage")
    table.run(KeysOp("keys"))
    party = table.parties[0]
    with pytest.raises(DeckUsageError):
        party.begin(ShuffleOp("shuffle", tuple(range(N_CARDS)), (4, 4)))
    with pytest.raises(DeckUsageError):
        party.begin(ShuffleOp("shuffle", tuple(range(N_CARDS)), (), (0,) * N_CARDS))
    table.run(OP)
    with pytest.raises(DeckUsageError):
        party.begin(ShuffleOp("again", (0, 1, 2, 3), (4,), (0, 1, 2, 3)))
