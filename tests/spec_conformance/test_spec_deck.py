"""docs/protocol-deck.md from the text alone: every golden deck vector read into its fields, and
the recorded game's deck checked end to end with a reader that imports nothing of the deck
package — the key commitments and Schnorr proofs, the seating coin, all four shuffle proofs
(their Fiat–Shamir challenges re-derived and every equation of D.6.5 checked unfolded), every
batched token proof, and every opened card against the card the move names."""

from __future__ import annotations

from dataclasses import replace

import pytest

from .cleanroom_deck import (
    DeckFormatError,
    DeckMsg,
    G,
    ShuffleProofParts,
    add,
    card_point,
    coin_value,
    commitment,
    parse,
    random_permutation,
    shuffle_equations,
    sub,
    total,
    verify_key,
    verify_tokens,
)
from .cleanroom_msgpack import read, write
from .recorded_game import GAME, clean_walk
from .spec_engine import ACTION_KINDS, faces_of_rules
from .test_spec_payload_vectors import DECK
from .test_spec_payload_vectors import GAME as GOLDEN_GAME

# ---- the golden vectors --------------------------------------------------------------------


@pytest.mark.parametrize("kind", sorted(DECK))
def test_every_golden_deck_vector_reads_into_the_fields_of_d4(kind: str) -> None:
    value = read(DECK[kind])
    message = parse(value)
    assert (message.kind, message.game_id) == (kind, GOLDEN_GAME)
    assert write(value) == DECK[kind]  # canonical: one spelling
    fields = message.fields
    expected = {
        "key-commit": {"commitment"}, "coin-commit": {"commitment"}, "coin-reveal": {"value"},
        "key-reveal": {"public_key", "proof"}, "shuffle": {"deck", "proof"},
        "block-shuffle": {"blocks", "deck", "proofs"},
        "rerandomize": {"slots", "delta1", "delta2", "proof"},
        "tokens": {"slots", "views", "tokens", "proof"},
        "class-proof": {"slot", "candidates", "proof"}, "audit-key": {"secret"},
    }[kind]
    assert set(fields) == expected
    if kind == "shuffle":
        proof = fields["proof"]
        assert isinstance(proof, ShuffleProofParts)
        assert len(fields["deck"]) == len(proof.commitments) == len(proof.s_hat)  # type: ignore[arg-type]
    if kind == "block-shuffle":
        assert [len(p.chain) for p in fields["proofs"]] == fields["blocks"]  # type: ignore[attr-defined]


def test_the_golden_key_reveal_carries_a_schnorr_proof_of_d6_1() -> None:
    message = parse(read(DECK["key-reveal"]))
    pk, proof = message.fields["public_key"], message.fields["proof"]
    assert isinstance(pk, bytes)
    assert isinstance(proof, list)
    assert verify_key(message.game_id, message.step, message.seat, pk, proof)
    # bound to the context: another seat or step, or another response, fails
    assert not verify_key(message.game_id, message.step, message.seat + 1, pk, proof)
    assert not verify_key(message.game_id, "other", message.seat, pk, proof)
    assert not verify_key(message.game_id, message.step, message.seat, pk,
                          [proof[0], (proof[1] + 1)])


@pytest.mark.parametrize("mutation", ["trailing", "non-canonical scalar", "identity", "count"])
def test_d4_refuses_what_it_says_it_refuses(mutation: str) -> None:
    value = read(DECK["key-reveal"])
    assert isinstance(value, tuple)
    kind, game, step, seat, pk, proof = value
    assert isinstance(proof, bytes)
    bad: tuple[object, ...] = {
        "trailing": (kind, game, step, seat, pk, proof, b""),
        "non-canonical scalar": (kind, game, step, seat, pk, proof[:32] + (
            (int.from_bytes(proof[32:], "little") + 2**252
             + 27742317777372353535851937790883648493).to_bytes(32, "little"))),
        "identity": (kind, game, step, seat, bytes(32), proof),
        "count": (kind, game, step, seat, pk, proof[:32]),
    }[mutation]
    with pytest.raises(DeckFormatError):
        parse(bad)  # type: ignore[arg-type]


# ---- the recorded game ---------------------------------------------------------------------


Log = list[tuple[int, int, object]]  # (seq, party, DeckMsg or the decoded move payload)


def recorded_log() -> Log:
    """The table intents of the recorded game in log order, deck steps parsed (§10.12)."""
    from .cleanroom_schema import DIRECT, identify, open_envelope

    out: Log = []
    for seq, entry in enumerate(clean_walk().entries, start=1):
        for item in entry.items("intents"):
            assert isinstance(item, bytes)
            _, intent = open_envelope(identify(item, DIRECT))
            payload = read(intent.blob("action"))
            assert isinstance(payload, tuple)
            party = intent.number("seat")
            if payload[0] == 0:
                deck = payload[1]
                assert isinstance(deck, bytes)
                out.append((seq, party, parse(read(deck))))
            else:
                out.append((seq, party, payload))
    return out


def deck_messages(log: Log, kind: str, step: str | None = None) -> list[DeckMsg]:
    return [m for _, _, m in log if isinstance(m, DeckMsg) and m.kind == kind
            and (step is None or m.step == step)]


def keys(log: Log) -> dict[int, bytes]:
    pks = {}
    for reveal in deck_messages(log, "key-reveal", "keys"):
        pk = reveal.fields["public_key"]
        assert isinstance(pk, bytes)
        pks[reveal.seat] = pk
    return pks


def test_the_recorded_keys_match_their_commitments_and_proofs() -> None:
    log = recorded_log()
    commits = {m.seat: m.fields["commitment"] for m in deck_messages(log, "key-commit")}
    reveals = deck_messages(log, "key-reveal")
    assert sorted(commits) == sorted(m.seat for m in reveals) == [0, 1, 2, 3]
    for m in reveals:
        pk, proof = m.fields["public_key"], m.fields["proof"]
        assert isinstance(pk, bytes)
        assert isinstance(proof, list)
        assert m.game_id == GAME
        assert commitment("key", GAME, m.step, m.seat, pk) == commits[m.seat]
        assert verify_key(GAME, m.step, m.seat, pk, proof)
    assert len(set(keys(log).values())) == 4


def seating(log: Log) -> list[int]:
    """D.9: the seating coin; seat i is party order[i]."""
    reveals = {m.seat: m.fields["value"] for m in deck_messages(log, "coin-reveal", "seating")}
    commits = {m.seat: m.fields["commitment"]
               for m in deck_messages(log, "coin-commit", "seating")}
    for seat, value in reveals.items():
        assert isinstance(value, bytes)
        assert commitment("coin", GAME, "seating", seat, value) == commits[seat]
    seed = coin_value(GAME, "seating", {s: v for s, v in reveals.items()
                                        if isinstance(v, bytes)})
    return random_permutation(seed, len(reveals), "seating")


def test_the_seating_coin_seats_every_party_where_its_moves_say() -> None:
    log = recorded_log()
    order = seating(log)
    assert sorted(order) == [0, 1, 2, 3]
    moves = [(party, payload) for _, party, payload in log
             if isinstance(payload, tuple) and payload[0] == 1]
    assert moves
    for party, (_, action, _openings) in moves:
        assert isinstance(action, tuple)
        assert order[action[1]] == party  # the engine seat an intent acts for is its party's


def shuffled_deck(log: Log, check: bool = True) -> list[tuple[bytes, bytes]]:
    """D.6.5/D.8: the public initial deck through every seat's shuffle, each proof checked."""
    joint = total(list(keys(log).values()))
    shuffles = deck_messages(log, "shuffle", "shuffle")
    n = len(shuffles[0].fields["deck"])  # type: ignore[arg-type]
    current = [(G, add(card_point(i), joint)) for i in range(n)]
    assert [m.seat for m in shuffles] == [0, 1, 2, 3]  # ascending seat order
    for m in shuffles:
        outputs, proof = m.fields["deck"], m.fields["proof"]
        assert isinstance(outputs, list)
        assert isinstance(proof, ShuffleProofParts)
        if check:
            assert all(shuffle_equations((GAME, m.step, m.seat), joint, current, outputs,
                                         proof)), f"seat {m.seat}'s shuffle"
        current = outputs
    return current


def test_every_recorded_shuffle_proof_holds_equation_by_equation() -> None:
    shuffled_deck(recorded_log())


def test_a_shuffle_proof_fails_for_a_deck_it_did_not_shuffle() -> None:
    """The equations are not vacuous: two outputs swapped, or the proof of another seat."""
    log = recorded_log()
    joint = total(list(keys(log).values()))
    first = deck_messages(log, "shuffle")[0]
    outputs, proof = first.fields["deck"], first.fields["proof"]
    assert isinstance(outputs, list)
    assert isinstance(proof, ShuffleProofParts)
    inputs = [(G, add(card_point(i), joint)) for i in range(len(outputs))]
    swapped = [outputs[1], outputs[0], *outputs[2:]]
    assert not all(shuffle_equations((GAME, "shuffle", 0), joint, inputs, swapped, proof))
    assert not all(shuffle_equations((GAME, "shuffle", 1), joint, inputs, outputs, proof))
    nudged = replace(proof, s=[proof.s[0], proof.s[1], proof.s[2], (proof.s[3] + 1)])
    assert not all(shuffle_equations((GAME, "shuffle", 0), joint, inputs, outputs, nudged))


def move_openings(payload: tuple[object, ...]) -> list[tuple[int, DeckMsg | None]]:
    """§10.12: a move's openings, `[slot, tokens or nil]`, the tokens parsed (D.4)."""
    _, _action, opened = payload
    assert isinstance(opened, tuple)
    out: list[tuple[int, DeckMsg | None]] = []
    for opening in opened:
        assert isinstance(opening, tuple)
        slot, tokens = opening
        assert isinstance(slot, int)
        assert tokens is None or isinstance(tokens, bytes)
        out.append((slot, None if tokens is None else parse(read(tokens))))
    return out


def test_every_token_proof_verifies_and_every_opening_is_the_card_played() -> None:
    """D.6.2 for every tokens message (the deal, the trump, the draws and every opening), then
    D.6.2's opening: c2 − Σ tokens of all four seats is the card the move names (B.2)."""
    log = recorded_log()
    deck = shuffled_deck(log, check=False)
    pks = keys(log)
    faces = faces_of_rules()
    assert len(deck) == len(faces)
    card_points = [card_point(i) for i in range(len(faces))]
    tokens: dict[int, dict[int, bytes]] = {}  # slot → seat → token (all views are −1 here)

    def take(m: DeckMsg) -> None:
        slots, views, points, proof = (m.fields[k] for k in ("slots", "views", "tokens", "proof"))
        assert isinstance(slots, list)
        assert isinstance(points, list)
        assert isinstance(proof, list)
        assert views == [-1] * len(slots)
        bases = [deck[slot][0] for slot in slots]
        ctx = (GAME, m.step, m.seat)
        assert verify_tokens(ctx, pks[m.seat], bases, points, proof)
        other = (m.seat + 1) % 4  # another seat's key, or another step, does not verify
        assert not verify_tokens(ctx, pks[other], bases, points, proof)
        assert not verify_tokens((GAME, m.step + "x", m.seat), pks[m.seat], bases, points, proof)
        for slot, token in zip(slots, points, strict=True):
            tokens.setdefault(slot, {})[m.seat] = token

    def card_in(slot: int) -> int:
        assert sorted(tokens[slot]) == [0, 1, 2, 3]
        return card_points.index(sub(deck[slot][1], total(list(tokens[slot].values()))))

    trump_suit = None
    opened = 0
    for _seq, _party, payload in log:
        if isinstance(payload, DeckMsg):
            if payload.kind != "tokens":
                continue
            take(payload)
            slots = payload.fields["slots"]
            assert isinstance(slots, list)
            if payload.step == "trump" and len(tokens[slots[0]]) == 4:
                trump_suit = faces[card_in(slots[0])][0]
            continue
        assert isinstance(payload, tuple)
        if payload[0] != 1:
            continue
        action = payload[1]
        assert isinstance(action, tuple)
        cards = action[2]
        assert isinstance(cards, tuple)
        opens = move_openings(payload)
        assert len(opens) == len(cards)  # one opening per card taken from the hand
        for (slot, step), card in zip(opens, cards, strict=True):
            if step is None:
                continue  # the card lies open already (§10.12)
            assert (step.kind, step.step) == ("tokens", f"open:{slot}")
            take(step)
            assert card_in(slot) == card
            opened += 1
        if action[0] == ACTION_KINDS["CLAIM"]:
            assert faces[cards[0]][0] == trump_suit  # B.1: a claim shows a trump
    assert trump_suit is not None
    assert opened >= 30
