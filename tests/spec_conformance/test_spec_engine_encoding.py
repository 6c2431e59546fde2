"""docs/protocol.md Appendix B: the engine encodings the wire carries, checked on the recorded
game — the rules bytes (`Start.rules_hash`) and the engine's state hash inside the table's
(§10.12), both re-derived with a codec written from the appendix."""

from __future__ import annotations

import pytest

from p2p_durak import engine
from p2p_durak.engine.actions import Kind, decode_action
from p2p_durak.engine.cards import DeckSpec
from p2p_durak.engine.cards import Kind as CardKind
from p2p_durak.engine.rules import RuleSet

from .cleanroom_canonical import decode, encode
from .cleanroom_crypto import sha256
from .cleanroom_schema import DIRECT, SIGNED, identify
from .recorded_game import RULES, clean_report, clean_walk, parts, table_intents
from .spec_engine import ACTION_KINDS, face_text, faces, faces_of_rules


def test_the_rules_bytes_are_the_sorted_knobs_under_the_rules_label() -> None:
    value = decode(RULES)
    assert isinstance(value, tuple)
    label, knobs = value
    assert label == "p2p-durak/rules/v1"
    assert isinstance(knobs, tuple)
    names = [knob[0] for knob in knobs if isinstance(knob, tuple) and isinstance(knob[0], str)]
    assert names == sorted(names)
    assert len(names) == len(knobs)
    start = identify(identify(parts()[0], DIRECT).blob("payload"), SIGNED)
    assert start.blob("rules_hash") == sha256(RULES)
    assert RuleSet.from_canonical(encode(value)) == RuleSet.from_canonical(RULES)


def test_the_engine_state_hash_is_the_labelled_public_view() -> None:
    state = clean_report().state.state
    assert state is not None
    view = engine.public_view(state)
    assert sha256(encode(("p2p-durak/state/v1", view))) == engine.state_hash(state)


# ---- B.1 actions, B.2 cards, B.4 the public view --------------------------------------------


def recorded_actions() -> list[tuple[int, tuple[object, ...]]]:
    """(party, action) of every move intent of the recorded game (§10.12 `[1, action, slots]`)."""
    return [(party, action) for party, action, _slots in recorded_moves()]


def recorded_moves() -> list[tuple[int, tuple[object, ...], tuple[object, ...]]]:
    """(party, action, slots) of every move intent of the recorded game (§10.12)."""
    out = []
    for party, payload in table_intents(clean_walk()):
        if payload[0] == 1:
            action, slots = payload[1], payload[2]
            assert isinstance(action, tuple)
            assert isinstance(slots, tuple)
            out.append((party, action, slots))
    return out


def test_every_recorded_action_reads_by_the_kind_table_of_b1() -> None:
    faces = faces_of_rules()
    name = {number: kind for kind, number in ACTION_KINDS.items()}
    seen = set()
    for _party, action, slots in recorded_moves():
        kind, seat, cards, target = action  # B.1: exactly four fields
        assert isinstance(kind, int)
        assert isinstance(seat, int)
        assert isinstance(cards, tuple)
        assert isinstance(target, int)
        assert 0 <= seat < 4  # an engine seat; chance (−1) never travels in an intent
        # §10.12: a move of a hand's cards names their slots (distinct), never the cards
        assert cards == ()
        assert all(isinstance(s, int) and 0 <= s < len(faces) for s in slots)
        assert len(set(slots)) == len(slots)
        kind_name = name[kind]
        seen.add(kind_name)
        if kind_name in ("CLAIM", "THROW", "BEAT", "TRANSFER", "SHOW"):
            assert len(slots) == 1
        elif kind_name == "LEAD":
            assert slots
        else:
            assert kind_name in ("NO_TRUMP", "TAKE", "PASS")
            assert slots == ()
        # target: an attack card's index for a beat, −1 for everything else here
        assert target >= 0 if kind_name == "BEAT" else target == -1
    # подкидной's moves: every one of them occurs in the recorded game
    assert seen == {"CLAIM", "NO_TRUMP", "LEAD", "THROW", "BEAT", "TAKE", "PASS"}


def test_the_kind_table_of_b1_is_the_engines() -> None:
    assert {k.name: int(k) for k in Kind} == ACTION_KINDS
    for party, action in recorded_actions():
        decoded = decode_action(action)
        assert (decoded.kind, decoded.seat, decoded.cards, decoded.target) == action, party


@pytest.mark.parametrize("deck", [
    DeckSpec(36), DeckSpec(24), DeckSpec(32), DeckSpec(52), DeckSpec(36, 2),
    DeckSpec(52, 2, 2), DeckSpec(36, 1, 1, blank=True), DeckSpec(52, 4, 2, True, True),
    DeckSpec(36, 2, 1, removed=((0, 6), (1, 6), (2, 6), (3, 6))), DeckSpec(52, removed=((3, 14),)),
])
def test_the_card_ids_of_b2_are_the_engines(deck: DeckSpec) -> None:
    removed = tuple(face_text(suit, rank) for suit, rank in deck.removed)
    spec = faces(deck.size, deck.count, deck.jokers_per_deck, deck.remove_one_joker,
                 deck.blank, removed)
    kinds = {CardKind.NORMAL: "normal", CardKind.JOKER_RED: "red joker",
             CardKind.JOKER_BLACK: "black joker", CardKind.BLANK: "blank"}
    assert spec == [(f.suit, f.rank, kinds[f.kind], f.copy) for f in deck.faces]


def test_the_36_card_formula_of_b2() -> None:
    spec = faces(36, 1, 0, False, False)
    assert all(spec[4 * (rank - 6) + suit][:2] == (suit, rank)
               for rank in range(6, 15) for suit in range(4))


def test_the_public_view_has_the_fields_of_b4() -> None:
    state = clean_report().state.state
    assert state is not None
    view = engine.public_view(state)
    assert len(view) == 27  # подкидной: no variant fields
    rules_hash, players, dealer, first, index, phase, hands, stock, turned = view[:9]
    assert rules_hash == sha256(RULES).hex()  # text, not bytes
    assert (players, first, index, phase) == (4, None, 0, 7)  # the game is OVER
    assert isinstance(dealer, int)
    assert 0 <= dealer < 4
    assert isinstance(hands, tuple)
    assert len(hands) == 4
    assert stock == 0
    assert turned == -2
    trump, trump_card, hidden = view[9:12]
    assert trump == faces_of_rules()[trump_card][0]  # type: ignore[index]
    assert hidden == -2  # no потайной card in подкидной
    table, covers, table_by = view[12:15]
    assert isinstance(table, tuple)
    assert isinstance(covers, tuple)
    assert isinstance(table_by, tuple)
    assert len(table) == len(covers) == len(table_by)
    out, finish, discard = view[20], view[21], view[22]
    assert isinstance(finish, tuple)
    assert isinstance(out, int)
    assert isinstance(discard, int)
    assert out == sum(1 << seat for seat in finish if isinstance(seat, int))  # B.4: seat mask
    result = view[26]
    assert isinstance(result, tuple)
    assert len(result) == 4
    durak, draw, _pogony, result_finish = result
    assert isinstance(durak, tuple)
    assert draw in (True, False)
    assert result_finish == finish
    assert set(durak).isdisjoint(finish)
    assert out | sum(1 << seat for seat in durak) == 0b1111
    claims = view[24]
    assert isinstance(claims, tuple)
    assert claims  # B.4: the claims in claim order, −1 for «no trump», else a trump card
    assert all(c == -1 or faces_of_rules()[c][0] == trump for c in claims)  # type: ignore[index]
