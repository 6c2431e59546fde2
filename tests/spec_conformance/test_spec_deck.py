"""docs/protocol-deck.md from the text alone: every golden deck vector read into its fields, and
the recorded game's deck checked end to end with a reader that imports nothing of the deck
package — the key commitments and Schnorr proofs, the seating coin, all four shuffle proofs
(their Fiat–Shamir challenges re-derived and every equation of D.6.5 checked unfolded), every
batched token proof and public reveal's commitments, and every move's opening by its mover."""

from __future__ import annotations

import functools
from dataclasses import replace

import pytest

from .cleanroom_deck import (
    IDENTITY,
    ORDER,
    DeckFormatError,
    DeckMsg,
    DeckReplay,
    G,
    ShuffleClaim,
    ShuffleProofParts,
    add,
    card_point,
    coin_value,
    commitment,
    parse,
    random_below,
    random_permutation,
    shuffle_equations,
    shuffles_merged,
    sub,
    total,
    verify_key,
    verify_tokens,
)
from .cleanroom_log import ChainViolation, series_game_id, walk
from .cleanroom_msgpack import read, write
from .recorded_game import (
    GAME,
    RECORDED,
    clean_report,
    clean_walk,
    parts_of,
    save,
    table_intents,
)
from .spec_engine import ACTION_KINDS, faces_of_rules, knobs
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
        "token-commit": {"commitment"},
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


@pytest.mark.parametrize("mutation", ["trailing", "non-canonical scalar", "identity", "count",
                                      "bit 255", "identity with bit 255"])
def test_d4_refuses_what_it_says_it_refuses(mutation: str) -> None:
    value = read(DECK["key-reveal"])
    assert isinstance(value, tuple)
    kind, game, step, seat, pk, proof = value
    assert isinstance(proof, bytes)
    assert isinstance(pk, bytes)
    bad: tuple[object, ...] = {
        "trailing": (kind, game, step, seat, pk, proof, b""),
        "non-canonical scalar": (kind, game, step, seat, pk, proof[:32] + (
            (int.from_bytes(proof[32:], "little") + 2**252
             + 27742317777372353535851937790883648493).to_bytes(32, "little"))),
        "identity": (kind, game, step, seat, bytes(32), proof),
        "count": (kind, game, step, seat, pk, proof[:32]),
        "bit 255": (kind, game, step, seat, pk[:31] + bytes([pk[31] | 0x80]), proof),
        "identity with bit 255": (kind, game, step, seat, bytes(31) + b"\x80", proof),
    }[mutation]
    with pytest.raises(DeckFormatError):
        parse(bad)  # type: ignore[arg-type]


# ---- the recorded game ---------------------------------------------------------------------


Log = list[tuple[int, object]]  # (party, DeckMsg or the decoded table payload)


@functools.cache
def recorded_log() -> Log:
    """The table intents of the recorded game in log order, deck steps parsed (§10.12)."""
    return [(party, parse(read(payload[1])) if payload[0] == 0 and isinstance(payload[1], bytes)
             else payload) for party, payload in table_intents(clean_walk())]


def deck_messages(log: Log, kind: str, step: str | None = None) -> list[DeckMsg]:
    return [m for _, m in log if isinstance(m, DeckMsg) and m.kind == kind
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
    moves = [(party, payload) for party, payload in log
             if isinstance(payload, tuple) and payload[0] == 1]
    assert moves
    for party, (_, action, _openings) in moves:
        assert isinstance(action, tuple)
        assert order[action[1]] == party  # the engine seat an intent acts for is its party's


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


def move_slots(payload: tuple[object, ...]) -> list[int]:
    """§10.12: the slots a move names, `[1, action, [slot, …]]`."""
    _, _action, slots = payload
    assert isinstance(slots, tuple)
    assert all(isinstance(slot, int) for slot in slots)
    return [slot for slot in slots if isinstance(slot, int)]


def moves_and_openings(log: Log) -> list[tuple[int, tuple[object, ...], DeckMsg]]:
    """§10.12: each opening of a move's slots — a `tokens` message of a step `open:…`, which
    comes after its move is committed, before any other deck step — with its move: the last
    move intent of its author before it (party, payload). (An entry's racing moves are in the
    transcript also when they were skipped, R6: the one applied is the last its author made
    before the opening, since an author has one intent per entry.)"""
    out: list[tuple[int, tuple[object, ...], DeckMsg]] = []
    last: dict[int, tuple[object, ...]] = {}
    for party, item in log:
        if isinstance(item, DeckMsg):
            if item.step.startswith("open:"):
                assert item.kind == "tokens"
                assert item.seat in last, f"an opening by party {item.seat} follows no move of it"
                out.append((item.seat, last[item.seat], item))
            last.clear()  # a deck step in between: the move before it was opened or public
            continue
        if isinstance(item, tuple) and item[0] == 1 and move_slots(item):
            last[party] = item
    return out


def test_every_opening_is_by_the_mover_right_after_its_move() -> None:
    """§10.12 and D.6.2: a move names its cards' slots, never a card of a hand; once it is
    committed, the next deck step is its mover's tokens (checked in the replay) on the move's
    slots not yet open to all, completing each slot's tokens; c2 − Σ tokens of all four seats
    is the card there (B.2), the same card the audit finds; a claim shows a trump (the trump:
    the card the `trump` step opened to all)."""
    deck, audited, _ = replay("podkidnoy_4p")
    faces = faces_of_rules()

    def card_in(slot: int) -> int:
        tokens = deck.tokens[(slot, -1)]
        assert sorted(tokens) == [0, 1, 2, 3]
        return deck.card_points.index(sub(deck.slots[slot][1], total(list(tokens.values()))))

    [trump_slot] = {slot for m in deck.token_messages if m.step == "trump"
                    for slot in m.fields["slots"]}  # type: ignore[attr-defined]
    trump_suit = faces[card_in(trump_slot)][0]
    opened = 0
    for party, payload, opening in moves_and_openings(recorded_log()):
        action = payload[1]
        assert isinstance(action, tuple)
        assert action[2] == ()  # the slots name the cards
        slots = move_slots(payload)
        assert (opening.kind, opening.seat) == ("tokens", party)
        closed = opening.fields["slots"]
        assert isinstance(closed, list)
        assert opening.step == f"open:{min(closed)}"
        assert set(closed) <= set(slots)
        for slot in closed:
            assert card_in(slot) == audited[slot]
            opened += 1
        if action[0] == ACTION_KINDS["CLAIM"]:
            assert faces[audited[slots[0]]][0] == trump_suit  # B.1: a claim shows a trump
    assert opened >= 30


def test_a_token_proof_is_bound_to_its_key_step_and_bases() -> None:
    deck, _, _ = replay("podkidnoy_4p")
    m = deck.token_messages[0]  # the deal's: 18 tokens under one batched proof
    slots, views, points_, proof = (m.fields[k] for k in ("slots", "views", "tokens", "proof"))
    assert isinstance(slots, list)
    assert isinstance(views, list)
    assert isinstance(points_, list)
    assert isinstance(proof, list)
    bases = [deck.ciphertext(s, v)[0] for s, v in zip(slots, views, strict=True)]
    ctx = (m.game_id, m.step, m.seat)
    assert verify_tokens(ctx, deck.keys[m.seat], bases, points_, proof)
    assert not verify_tokens(ctx, deck.keys[(m.seat + 1) % 4], bases, points_, proof)
    assert not verify_tokens((m.game_id, m.step + "x", m.seat), deck.keys[m.seat], bases,
                             points_, proof)
    other = [deck.slots[(s + 1) % len(deck.slots)][0] for s in slots]
    assert not verify_tokens(ctx, deck.keys[m.seat], other, points_, proof)


# ---- every recorded game's whole deck, replayed --------------------------------------------

RECORDINGS = ("podkidnoy_4p", "nevidimy_2p", "oborotny_3p", "albansky_2p", "leave_3p")


@functools.cache
def replay_series(name: str) -> tuple[list[DeckReplay], list[tuple[int, object]]]:
    """The deck of every game of a recorded table replayed from its transcript
    (recorded/README.md), and the table's other intents (party, payload). A deck message bound
    to the next game's id (§10.12) begins that game's deck: new keys, a new shuffle."""
    data = (RECORDED / f"{name}.transcript").read_bytes()
    rules = (RECORDED / f"{name}.rules").read_bytes()
    faces = faces_of_rules(rules)
    initial = None
    if knobs(rules)["deck_presort"] == "rank_desc":  # B.5: албанский lays the deck out by rank
        initial = sorted(range(len(faces)), key=lambda card: -faces[card][1])
    result = walk(data)
    decks: list[DeckReplay] = []

    def apply(message: DeckMsg) -> None:
        if not decks or message.game_id != decks[-1].game_id:
            assert message.game_id == series_game_id(result.game, len(decks) + 1)
            decks.append(DeckReplay(message.game_id, len(faces), initial))
            if len(decks) > 1:  # the same seats: no seating coin in a later game
                decks[-1].left = list(decks[-2].left)
        decks[-1].apply(message)

    others: list[tuple[int, object]] = []
    for party, payload in table_intents(result):
        if payload[0] == 0:
            assert isinstance(payload[1], bytes)
            apply(parse(read(payload[1])))
            continue
        if payload[0] == 4 and isinstance(payload[1], bytes):  # a leave step (§10.12)
            apply(parse(read(payload[1])))
        others.append((party, payload))
    return decks, others


def replay(name: str) -> tuple[DeckReplay, list[int], list[tuple[int, object]]]:
    """A one-game table's deck replayed, the audit's card in every slot, the other intents."""
    decks, others = replay_series(name)
    [deck] = decks
    return deck, deck.audit(), others


@pytest.mark.parametrize("name", RECORDINGS)
def test_every_deck_step_of_a_recorded_game_verifies_and_the_audit_opens_every_card(
        name: str) -> None:
    deck, cards, _ = replay(name)
    assert sorted(cards) == list(range(len(cards)))  # every slot opens to a card, once each
    assert deck.checked["audit-key"] == len(deck.active)
    assert deck.checked["tokens"] > len(deck.keys)


def test_the_recorded_games_carry_every_deck_message_kind() -> None:
    kinds = set()
    for name in RECORDINGS:
        kinds |= set(replay(name)[0].checked)
    assert kinds == set(DECK)  # the ten kinds of D.4, each checked in a real game


def test_nevidimy_class_proof_shows_the_announced_suit() -> None:
    """невидимый: the dealer proves the bottom card's suit (D.6.4) and announces it `[2, suit]`
    (§10.12); the audit shows the card really is of that suit."""
    deck, cards, others = replay("nevidimy_2p")
    faces = faces_of_rules((RECORDED / "nevidimy_2p.rules").read_bytes())
    [(slot, candidates)] = deck.classes
    [announced] = [payload[1] for _, payload in others
                   if isinstance(payload, tuple) and payload[0] == 2]
    assert {faces[c][0] for c in candidates} == {announced}
    assert cards[slot] in candidates
    assert deck.copies  # a further viewer's copy (rerandomize) was checked too


def test_albansky_blocks_keep_every_rank_in_its_place() -> None:
    deck, cards, _ = replay("albansky_2p")
    faces = faces_of_rules((RECORDED / "albansky_2p.rules").read_bytes())
    assert [faces[c][1] for c in cards] == sorted((f[1] for f in faces), reverse=True)
    assert deck.checked["block-shuffle"] == 2


def test_the_plain_games_deck_steps_of_b5() -> None:
    """docs/protocol.md B.3 and B.5 on the recorded подкидной: the dealer from the seating coin,
    the deal's slots clockwise from the dealer's left (each party's tokens on exactly the other
    parties' slots), the trump as the top stock slot, the draws off the top of the stock, and
    every opening completing the tokens of a slot the mover's seat was dealt or drew."""
    log = recorded_log()
    order = seating(log)
    reveals = {m.seat: m.fields["value"] for m in deck_messages(log, "coin-reveal", "seating")}
    seed = coin_value(GAME, "seating", {s: v for s, v in reveals.items() if isinstance(v, bytes)})
    dealer = random_below(seed, 4, "dealer")
    state = clean_report().state.state
    assert state is not None
    assert dealer == state.game.dealer
    hand_size = knobs()["hand_size"]
    assert isinstance(hand_size, int)
    dealt = 4 * hand_size
    seat_of_slot = {k: (dealer + 1 + k) % 4 for k in range(dealt)}
    for m in deck_messages(log, "tokens", "deal"):
        assert m.fields["slots"] == [k for k in range(dealt) if order[seat_of_slot[k]] != m.seat]
    assert {tuple(m.fields["slots"]) for m in deck_messages(log, "tokens", "trump")} \
        == {(dealt,)}  # type: ignore[arg-type]
    draws: dict[str, set[int]] = {}
    shown_by: dict[int, set[int]] = {}  # a drawn slot → the parties that published tokens
    for m in deck_messages(log, "tokens"):
        if m.step.startswith("draw:"):
            draws.setdefault(m.step, set()).update(m.fields["slots"])  # type: ignore[arg-type]
            for slot in m.fields["slots"]:  # type: ignore[attr-defined]
                shown_by.setdefault(slot, set()).add(m.seat)
    drawn = [slot for step in draws.values() for slot in sorted(step)]
    assert drawn == list(range(dealt + 1, dealt + 1 + len(drawn)))  # off the top, in order
    assert [int(step.split(":")[1]) for step in draws] == sorted(
        int(step.split(":")[1]) for step in draws)
    for party, payload, tokens in moves_and_openings(log):
        action = payload[1]
        assert isinstance(action, tuple)
        slots = tokens.fields["slots"]
        assert isinstance(slots, list)
        for slot in slots:
            if slot < dealt:  # dealt to the mover's seat
                assert seat_of_slot[slot] == action[1]
            else:  # drawn by it: shown by the three other parties
                assert shown_by[slot] == {0, 1, 2, 3} - {party}
        assert tokens.fields["views"] == [-1] * len(slots)
    # B.5 step 4: the trump card is committed to by every party before any token is sent
    trump = [m for _, m in log if isinstance(m, DeckMsg) and m.step == "trump"]
    assert [m.kind for m in trump] == ["token-commit"] * 4 + ["tokens"] * 4


def test_the_generator_of_d1_is_ristretto255s_base_point() -> None:
    """D.1 spells G out; libsodium's fixed-base multiplication by 1 must give those bytes."""
    import rbcl

    one = (1).to_bytes(32, "little")
    assert bytes(rbcl.crypto_scalarmult_ristretto255_base(one)) == G


def test_a_graceful_leave_opens_the_leavers_hand_and_shrinks_the_key() -> None:
    """§10.12 and D.8 on a recorded подкидной for three where party 0 left at bout 2: it
    announced `[4, nil]`, then its leave step `[4, tokens]` (step `leave:0`) carried its tokens
    on every closed ciphertext; that opened exactly its hand to all, the others played on under
    the reduced key (every later token proof, the audit with the two remaining secrets)."""
    deck, cards, others = replay("leave_3p")
    assert deck.left == [0]
    assert deck.active == [1, 2]
    leaves = [payload for party, payload in others if isinstance(payload, tuple)
              and payload[0] == 4]
    assert leaves[0] == (4, None)
    [step] = [m for m in deck.token_messages if m.step == "leave:0"]
    hand = deck.hands_left[0]
    assert 1 <= len(hand) <= 6
    assert set(hand) <= set(step.fields["slots"])  # type: ignore[arg-type]
    assert [cards[slot] for slot in hand] == [deck.open[slot] for slot in hand]
    assert max(i for i, m in enumerate(deck.token_messages) if m.step == "leave:0") < \
        len(deck.token_messages) - 1  # the game went on after it


def test_the_walk_asks_the_final_certificate_of_the_members_only() -> None:
    """§10.4: after a leave the certificate holds the acks of the players left, one each; the
    clean-room walk of the recorded leave takes it, and refuses it with an ack missing."""
    data = (RECORDED / "leave_3p.transcript").read_bytes()
    result = walk(data)
    assert result.left == {0}
    start, entries, acks = parts_of(data)
    assert len(acks) == 2
    with pytest.raises(ChainViolation, match="no ack from seats"):
        walk(save(start, entries, acks[:1]))


def test_every_game_of_a_recorded_series_has_a_deck_of_its_own() -> None:
    """§10.12: game 2 of a series binds every deck message to
    SHA-256("p2p-durak/series\\0" ‖ game ‖ u32be(2))[0:16], with new keys and a new shuffle;
    both decks replay and audit, and game 2's proofs verify under no other game id."""
    decks, others = replay_series("series_2p")
    assert len(decks) == 2
    assert decks[1].game_id == series_game_id(decks[0].game_id, 2)
    assert set(decks[0].keys.values()).isdisjoint(decks[1].keys.values())
    for deck in decks:
        assert sorted(deck.audit()) == list(range(len(deck.slots)))
        assert deck.checked["shuffle"] == 2
    assert [p for _, p in others if isinstance(p, tuple) and p[0] == 3] == [(3, True)] * 2 + \
        [(3, False)] * 2  # §10.12: both chose to play on after game 1, and to stop after game 2
    reveal = next(m for m in decks[1].token_messages)
    slots, views, points_, proof = (reveal.fields[k] for k in ("slots", "views", "tokens",
                                                                "proof"))
    assert isinstance(slots, list)
    assert isinstance(views, list)
    assert isinstance(points_, list)
    assert isinstance(proof, list)
    bases = [decks[1].ciphertext(s, v)[0] for s, v in zip(slots, views, strict=True)]
    key = decks[1].keys[reveal.seat]
    assert verify_tokens((decks[1].game_id, reveal.step, reveal.seat), key, bases, points_, proof)
    assert not verify_tokens((decks[0].game_id, reveal.step, reveal.seat), key, bases, points_,
                             proof)


def test_the_folded_shuffle_check_of_d65_step_5_is_the_reference_one() -> None:
    """The spec's fold and merge weights (drawn after the responses) are the reference's: for
    false proofs — one response nudged in each of two shuffles — the spec's folded point and
    the reference's `folded_equation` are the same point, and it is not the identity."""
    from p2p_durak.protocol.mental.elgamal import Ciphertext
    from p2p_durak.protocol.mental.shuffle import ShuffleProof, folded_equation
    from p2p_durak.protocol.mental.transcript import ProofContext

    log = recorded_log()
    joint = total(list(keys(log).values()))
    first, second = deck_messages(log, "shuffle")[:2]
    outputs1, proof1 = first.fields["deck"], first.fields["proof"]
    outputs2, proof2 = second.fields["deck"], second.fields["proof"]
    assert isinstance(outputs1, list)
    assert isinstance(outputs2, list)
    assert isinstance(proof1, ShuffleProofParts)
    assert isinstance(proof2, ShuffleProofParts)
    inputs = [(G, add(card_point(i), joint)) for i in range(len(outputs1))]
    nudged1 = replace(proof1, s_hat=[(proof1.s_hat[0] + 1) % ORDER, *proof1.s_hat[1:]])
    nudged2 = replace(proof2, s_prime=[*proof2.s_prime[:-1], (proof2.s_prime[-1] + 5) % ORDER])
    claims = [((GAME, "shuffle", first.seat), inputs, outputs1, nudged1),
              ((GAME, "shuffle", second.seat), outputs1, outputs2, nudged2)]

    def reference(claim: ShuffleClaim) -> tuple[ProofContext, list[Ciphertext],
                                                 list[Ciphertext], ShuffleProof]:
        (game, step, seat), ins, outs, p = claim
        proof = ShuffleProof(tuple(p.commitments), tuple(p.chain), tuple(p.t), tuple(p.t_hat),
                             tuple(p.s), tuple(p.s_hat), tuple(p.s_prime))
        return (ProofContext(game, step, seat), [Ciphertext(*e) for e in ins],
                [Ciphertext(*e) for e in outs], proof)

    for chosen in ([claims[0]], [claims[1]], claims):
        spec = shuffles_merged(joint, chosen)
        assert spec != IDENTITY
        assert spec == folded_equation(joint, [reference(c) for c in chosen])
    honest = [((GAME, "shuffle", first.seat), inputs, outputs1, proof1)]
    assert shuffles_merged(joint, honest) == IDENTITY
