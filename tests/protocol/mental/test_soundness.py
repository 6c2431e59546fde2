"""Bad input is rejected with an error naming the seat and step, and nothing is applied."""

from __future__ import annotations

import dataclasses

import pytest

from p2p_durak.protocol.mental import group as g
from p2p_durak.protocol.mental.deck import DeckParty
from p2p_durak.protocol.mental.elgamal import Ciphertext
from p2p_durak.protocol.mental.errors import (
    DeckError,
    InvalidProof,
    MalformedMessage,
    UnexpectedMessage,
)
from p2p_durak.protocol.mental.events import Send
from p2p_durak.protocol.mental.messages import (
    AuditKey,
    ClassProof,
    KeyCommit,
    KeyReveal,
    Message,
    Rerandomize,
    Shuffle,
    Tokens,
    message_from_wire,
)
from p2p_durak.protocol.mental.ops import (
    AuditOp,
    ClassOp,
    KeysOp,
    LeaveOp,
    Op,
    RevealOp,
    ShowOp,
    ShuffleOp,
)
from p2p_durak.protocol.mental.proofs import OneOfProof, Proof
from p2p_durak.protocol.mental.state import DeckState, commitment

from .table import Table
from .test_flow import setup_table


def fingerprint(state: DeckState) -> object:
    p = state.pending
    pending = None
    if p is not None:
        pending = (
            p.op,
            p.phase,
            tuple(p.due),
            tuple(sorted(p.got)),
            tuple(p.current),
            tuple(sorted(p.commits.items())),
            tuple(sorted(p.reveals.items())),
            tuple(sorted((k, tuple(v)) for k, v in p.owed.items())),
        )
    slots = tuple(
        (
            st.base.ct,
            tuple(sorted(st.base.tokens.items())),
            st.base_viewer,
            tuple(sorted((v, w.ct, tuple(sorted(w.tokens.items()))) for v, w in st.copies.items())),
            tuple(sorted(st.viewers)),
            st.card,
        )
        for st in state.slots
    )
    return (
        len(state.journal),
        state.joint_key,
        tuple(state.active),
        pending,
        slots,
        tuple(sorted(state.finished_steps)),
    )


def begin_all(table: Table, op: Op) -> dict[int, list[Message]]:
    out = {}
    for party in table.parties:
        out[party.seat] = [e.message for e in party.begin(op) if isinstance(e, Send)]
    return out


def rejects(
    party: DeckParty, msg: Message, error: type[DeckError], seat: int, step: str, words: str
) -> None:
    before = fingerprint(party)
    with pytest.raises(error) as info:
        party.receive(msg)
    assert info.value.seat == seat
    assert info.value.step == step
    assert words in info.value.reason
    assert fingerprint(party) == before, "nothing may be applied"


# -- shuffles ----------------------------------------------------------------------------------


def shuffle_start(
    seed: bytes = b"s", game_id: bytes = b"game-1", step: str = "shuffle"
) -> tuple[Table, Shuffle]:
    """Parties that verify each shuffle on receipt (the unfolded mode)."""
    table = Table(3, 36, seed, game_id, fold=False)
    table.run(KeysOp("keys"))
    sent = begin_all(table, ShuffleOp(step, tuple(range(36))))
    (msg,) = sent[0]
    assert isinstance(msg, Shuffle)
    return table, msg


def test_tampered_shuffles_are_rejected_and_the_true_one_still_accepted() -> None:
    table, msg = shuffle_start()
    victim = table.parties[1]
    deck = list(msg.deck)
    swapped = dataclasses.replace(msg, deck=(deck[1], deck[0], *deck[2:]))
    rejects(victim, swapped, InvalidProof, 0, "shuffle", "shuffle proof")
    codec = victim.codec
    shift = g.sub(codec.encode(5), codec.encode(3))  # turn whatever card is at 0 into another
    substituted = dataclasses.replace(
        msg, deck=(Ciphertext(deck[0].c1, g.add(deck[0].c2, shift)), *deck[1:])
    )
    rejects(victim, substituted, InvalidProof, 0, "shuffle", "shuffle proof")
    short = dataclasses.replace(msg, deck=tuple(deck[:-1]))
    rejects(victim, short, InvalidProof, 0, "shuffle", "35 cards")
    victim.receive(msg)


def test_a_shuffle_out_of_turn_or_twice_is_rejected() -> None:
    table, msg = shuffle_start()
    late = table.parties[2]
    late.receive(msg)
    replay = msg
    rejects(late, replay, UnexpectedMessage, 0, "shuffle", "duplicate")
    early = dataclasses.replace(msg, seat=2)
    rejects(table.parties[1], early, UnexpectedMessage, 2, "shuffle", "no 'shuffle' is due")


def test_a_shuffle_proof_replayed_from_another_step_or_game_is_rejected() -> None:
    # Same seeds: the same keys and ciphertexts, only the game id or step differs.
    _, msg_a = shuffle_start(game_id=b"game-A")
    table_b, _ = shuffle_start(game_id=b"game-B")
    victim = table_b.parties[1]
    rejects(victim, msg_a, UnexpectedMessage, 0, "shuffle", "another game")
    rejects(
        victim,
        dataclasses.replace(msg_a, game_id=b"game-B"),
        InvalidProof,
        0,
        "shuffle",
        "shuffle proof",
    )
    _, msg_other_step = shuffle_start(step="reshuffle")
    table_c, good = shuffle_start()
    assert msg_other_step.deck == good.deck
    rejects(
        table_c.parties[1],
        dataclasses.replace(msg_other_step, step="shuffle"),
        InvalidProof,
        0,
        "shuffle",
        "shuffle proof",
    )


def test_folded_check_names_the_bad_shuffler_and_undoes_from_it_on() -> None:
    table = Table(4, 24, b"fold")
    table.run(KeysOp("keys"))

    def tamper(msg: Message) -> Message:
        if isinstance(msg, Shuffle) and msg.seat == 1:
            d = msg.deck
            return dataclasses.replace(msg, deck=(d[1], d[0], *d[2:]))
        return msg

    table.intercept = tamper
    with pytest.raises(InvalidProof) as info:
        table.run(ShuffleOp("shuffle", tuple(range(24))))
    assert info.value.seat == 1
    assert info.value.step == "shuffle"
    # The party that completed the operation undid seat 1's shuffle and everything after it.
    last = next(p for p in table.parties if p.pending is not None and p.pending.due == [1])
    assert last.pending is not None
    assert last.pending.got == {0}
    final = last.journal[-1]
    assert isinstance(final, Shuffle)
    assert final.seat == 0
    assert not last.shuffled


def test_folded_and_unfolded_checks_agree_on_an_honest_deck() -> None:
    folded = Table(3, 24, b"same", fold=True)
    unfolded = Table(3, 24, b"same", fold=False)
    for table in (folded, unfolded):
        table.run(KeysOp("keys"))
        table.run(ShuffleOp("shuffle", tuple(range(24))))
    assert [st.base.ct for st in folded.parties[1].slots] == [
        st.base.ct for st in unfolded.parties[1].slots
    ]


# -- keys --------------------------------------------------------------------------------------


def test_rogue_key_is_rejected() -> None:
    table = Table(3, 24)
    sent = begin_all(table, KeysOp("keys"))
    honest = [table.parties[0], table.parties[1]]
    pk0, pk1 = table.parties[0].public_key, table.parties[1].public_key
    # Seat 2 picks H = x·G − pk0 − pk1 so that it alone would know the joint key.
    x = 12345
    rogue = g.sub(g.sub(g.base_mul(x), pk0), pk1)
    commit = KeyCommit(b"game-1", "keys", 2, commitment("key", b"game-1", "keys", 2, rogue))
    for party in honest:
        for m in sent[0] + sent[1]:
            if m.seat != party.seat:
                party.receive(m)
        party.receive(commit)
    forged = KeyReveal(b"game-1", "keys", 2, rogue, Proof(1, 2))
    rejects(table.parties[0], forged, InvalidProof, 2, "keys", "rogue key")
    mismatch = KeyReveal(b"game-1", "keys", 2, g.base_mul(7), Proof(1, 2))
    rejects(table.parties[0], mismatch, InvalidProof, 2, "keys", "commitment")


def test_a_copied_key_and_proof_are_rejected() -> None:
    table = Table(2, 24)
    sent = begin_all(table, KeysOp("keys"))
    p0, p1 = table.parties
    p1.receive(sent[0][0])  # seat 0's commit: seat 1 now owes its reveal
    reveal_events = p0.receive(sent[1][0])
    (reveal0,) = [e.message for e in reveal_events if isinstance(e, Send)]
    assert isinstance(reveal0, KeyReveal)
    copied = dataclasses.replace(reveal0, seat=1)
    fresh = DeckParty(b"game-1", 0, 2, 24)
    # Seat 1 committed to its own key, so a copy of seat 0's fails the commitment; and even a
    # matching commitment cannot help: the proof is bound to seat 0.
    fresh_sent = [e.message for e in fresh.begin(KeysOp("keys")) if isinstance(e, Send)]
    assert fresh_sent
    forged_commit = KeyCommit(
        b"game-1", "keys", 1, commitment("key", b"game-1", "keys", 1, reveal0.public_key)
    )
    fresh.receive(forged_commit)
    rejects(fresh, copied, InvalidProof, 1, "keys", "rogue key")


# -- tokens ------------------------------------------------------------------------------------


def deal_start(game_id: bytes = b"game-1", step: str = "deal") -> tuple[Table, Tokens]:
    table = setup_table(3, 36, seed=b"deal")
    table.game_id = game_id
    sent = begin_all(table, ShowOp(step, ((0, (0,)), (1, (0,)), (2, (1,)))))
    (msg,) = sent[2]
    assert isinstance(msg, Tokens)
    return table, msg


def test_wrong_tokens_are_rejected() -> None:
    table, msg = deal_start()
    victim = table.parties[0]
    bad = dataclasses.replace(msg, tokens=(g.base_mul(99), *msg.tokens[1:]))
    rejects(victim, bad, InvalidProof, 2, "deal", "reveal-token proof")
    other_cards = dataclasses.replace(msg, slots=(3, *msg.slots[1:]))
    rejects(victim, other_cards, InvalidProof, 2, "deal", "other cards")
    victim.receive(msg)
    rejects(victim, msg, UnexpectedMessage, 2, "deal", "duplicate")


def test_tokens_replayed_into_another_game_or_step_are_rejected() -> None:
    # Decks are the same across these tables (same seeds, same game), so only binding differs.
    table, msg = deal_start()
    for seat in (0, 1):
        table.parties[seat].receive(msg)
    rejects(table.parties[0], msg, UnexpectedMessage, 2, "deal", "duplicate")
    table_b, _ = deal_start(step="deal-again")
    rejects(
        table_b.parties[0],
        dataclasses.replace(msg, step="deal-again"),
        InvalidProof,
        2,
        "deal-again",
        "reveal-token proof",
    )
    rejects(
        table_b.parties[0],
        dataclasses.replace(msg, game_id=b"game-2"),
        UnexpectedMessage,
        2,
        "deal",
        "another game",
    )


def test_tokens_for_a_finished_step_are_a_replay() -> None:
    table = setup_table(2, 24)
    table.deal("deal", {0: [0]})
    token_msgs = [message_from_wire(w) for w in table.wire if w[0] == Tokens.KIND]
    rejects(table.parties[0], token_msgs[-1], UnexpectedMessage, 1, "deal", "already finished")


def test_forged_rerandomization_cannot_substitute_a_card() -> None:
    table = setup_table(3, 36)
    table.deal("deal", {0: [0]})
    sent = begin_all(table, ShowOp("pass", ((0, (1,)),)))
    (msg,) = sent[1]
    assert isinstance(msg, Rerandomize)
    codec = table.parties[0].codec
    shift = g.sub(codec.encode(1), codec.encode(2))
    forged = dataclasses.replace(msg, delta2=(g.add(msg.delta2[0], shift),))
    rejects(table.parties[2], forged, InvalidProof, 1, "pass", "re-randomisation proof")
    table.parties[2].receive(msg)


def test_forged_class_proof_is_rejected() -> None:
    table = setup_table(3, 36)
    table.deal("deal", {0: [0]})
    card = table.parties[0].seen[0]
    suit = tuple(c for c in range(36) if c % 4 == card % 4)
    sent = begin_all(table, ClassOp("suit", 0, 0, suit))
    (msg,) = sent[0]
    assert isinstance(msg, ClassProof)
    cs, ss = list(msg.proof.challenges), list(msg.proof.responses)
    ss[0] = (ss[0] + 1) % g.ORDER
    forged = dataclasses.replace(msg, proof=OneOfProof(tuple(cs), tuple(ss)))
    rejects(table.parties[1], forged, InvalidProof, 0, "suit", "not of the claimed class")
    table.parties[1].receive(msg)


def test_false_audit_key_and_false_leave_tokens_are_rejected() -> None:
    table = setup_table(3, 24)
    sent = begin_all(table, AuditOp("audit"))
    (msg,) = sent[1]
    assert isinstance(msg, AuditKey)
    bad = dataclasses.replace(msg, secret=(msg.secret + 1) % g.ORDER)
    rejects(table.parties[0], bad, InvalidProof, 1, "audit", "does not match")

    table = setup_table(3, 24, seed=b"leave")
    sent = begin_all(table, LeaveOp("leave", 2))
    (leave,) = sent[2]
    assert isinstance(leave, Tokens)
    bad_leave = dataclasses.replace(leave, tokens=(*leave.tokens[:-1], g.base_mul(5)))
    rejects(table.parties[0], bad_leave, InvalidProof, 2, "leave", "reveal-token proof")


# -- malformed wire input ----------------------------------------------------------------------


def test_malformed_wire_input_names_the_seat_and_step() -> None:
    _, msg = deal_start()
    wire = msg.to_wire()
    cases: list[tuple[list[object], str]] = [
        ([*wire[:6], b"\xff" * 32 * len(msg.slots), wire[7]], "ristretto255"),
        ([*wire[:7], b"\xff" * 64], "scalar"),
        ([*wire[:7]], "fields"),
        ([*wire[:4], [True], *wire[5:]], "slots"),
        ([*wire[:6], wire[6][:-1], wire[7]], "points"),  # type: ignore[index]
        ([*wire[:6], bytes(32) * len(msg.slots), wire[7]], "ristretto255"),  # the identity
    ]
    for bad, words in cases:
        with pytest.raises(MalformedMessage) as info:
            message_from_wire(bad)
        assert info.value.seat == 2
        assert info.value.step == "deal"
        assert words in info.value.reason
    with pytest.raises(MalformedMessage) as info:
        message_from_wire(["no-such-kind", b"g", "deal", 1])
    assert info.value.seat == 1
    with pytest.raises(MalformedMessage):
        message_from_wire("not a list")
    with pytest.raises(MalformedMessage):
        Shuffle.from_wire(wire)
    assert Tokens.from_wire(wire) == msg
    assert RevealOp("x", (1,)).by is None
