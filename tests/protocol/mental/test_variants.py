"""The hidden-card mechanics the variants need (SP22), each on a real multi-party deck."""

from __future__ import annotations

import pytest

from p2p_durak.protocol.mental.errors import DeckUsageError
from p2p_durak.protocol.mental.events import (
    AuditDone,
    CardRevealed,
    ClassShown,
    SeatLeft,
    Send,
    SlotShown,
)
from p2p_durak.protocol.mental.messages import Tokens
from p2p_durak.protocol.mental.ops import (
    AuditOp,
    ClassOp,
    KeysOp,
    LeaveOp,
    RevealOp,
    ShowOp,
    ShuffleOp,
)

from .table import Table
from .test_flow import setup_table


def openers(table: Table, slot: int) -> set[int]:
    return {
        p.seat for p in table.parties if p.seat not in table.gone and p.try_open(slot) is not None
    }


def token_senders(new: dict[int, list[object]]) -> set[int]:
    return {
        e.message.seat
        for evs in new.values()
        for e in evs
        if isinstance(e, Send) and isinstance(e.message, Tokens)
    }


def audit(table: Table, step: str = "audit") -> tuple[int, ...]:
    new = table.run(AuditOp(step))
    decks = {e.cards for evs in new.values() for e in evs if isinstance(e, AuditDone)}
    assert len(decks) == 1
    return decks.pop()


def test_owner_blind_card_is_seen_by_everyone_else() -> None:  # Дурак оборотный
    table = setup_table(4, 36)
    owner = 1
    new = table.run(ShowOp("oborotny", ((0, (0, 2, 3)),)))
    assert openers(table, 0) == {0, 2, 3}
    assert table.parties[owner].try_open(0) is None
    cards = {table.parties[s].seen[0] for s in (0, 2, 3)}
    assert len(cards) == 1
    shown = {e.viewers for evs in new.values() for e in evs if isinstance(e, SlotShown)}
    assert shown == {frozenset({0, 2, 3})}
    # Played face up later: everyone agrees with what the viewers saw.
    revealed = table.revealed(table.run(RevealOp("play", (0,))))
    assert {r[0] for r in revealed.values()} == cards


def test_dummy_hand_seen_by_its_controller_only() -> None:  # игра с болваном
    table = setup_table(3, 36)
    dummy_slots = list(range(6, 12))
    table.deal("dummy", {2: dummy_slots})
    for slot in dummy_slots:
        assert openers(table, slot) == {2}


def test_reveal_to_a_chosen_set_of_seats() -> None:
    table = setup_table(5, 36)
    table.run(ShowOp("pair", ((3, (1, 4)),)))
    assert openers(table, 3) == {1, 4}
    assert table.parties[1].seen[3] == table.parties[4].seen[3]


def test_suit_only_reveal_and_a_false_class_is_refused() -> None:  # Дурак невидимый
    table = setup_table(3, 36)
    table.deal("deal", {0: [0, 1, 2]})
    card = table.parties[0].seen[0]
    suit = tuple(c for c in range(36) if c % 4 == card % 4)  # the engine owns what a suit is
    new = table.run(ClassOp("suit", 0, 0, suit))
    shown = [e for evs in new.values() for e in evs if isinstance(e, ClassShown)]
    assert len(shown) == 3
    assert all(e.candidates == suit and e.seat == 0 for e in shown)
    assert openers(table, 0) == {0}, "showing the suit does not show the card"
    other_suit = tuple(c for c in range(36) if c % 4 == (card + 1) % 4)
    with pytest.raises(DeckUsageError):
        table.run(ClassOp("suit-2", 0, 0, other_suit))
    assert table.parties[0].pending is None


def test_hand_passed_to_the_left_changes_who_can_open() -> None:  # Дурак круговой
    table = setup_table(4, 36)
    table.deal("deal", {0: [0, 1], 1: [2, 3]})
    before = {s: table.parties[0].seen[s] for s in (0, 1)}
    table.run(ShowOp("pass-left", ((0, (1,)), (1, (1,)))))
    assert openers(table, 0) == {0, 1}  # the giver still remembers; the new owner now sees
    assert openers(table, 1) == {0, 1}
    assert {s: table.parties[1].seen[s] for s in (0, 1)} == before
    for s in (0, 1):
        assert table.parties[2].try_open(s) is None
        assert table.parties[3].try_open(s) is None
    # The new owner plays it face up: only the new owner's token is missing.
    new = table.run(RevealOp("play", (0,), by=1))
    assert token_senders(new) == {1}
    assert {r[0] for r in table.revealed(new).values()} == {before[0]}


def test_face_down_card_opened_later_by_its_owner_alone() -> None:  # Дурак верю не верю
    table = setup_table(3, 36)
    seen = table.deal("deal", {2: [4, 5, 6]})
    # Played face down: nothing cryptographic happens, the slot stays the owner's secret.
    assert openers(table, 5) == {2}
    new = table.run(RevealOp("check", (5,)))
    assert token_senders(new) == {2}
    assert {r[5] for r in table.revealed(new).values()} == {seen[2][5]}


def test_show_a_trump_without_playing_it() -> None:  # перевод показом козыря
    table = setup_table(4, 36)
    seen = table.deal("deal", {3: [10, 11]})
    revealed = table.revealed(table.run(RevealOp("show-trump", (11,))))
    assert {r[11] for r in revealed.values()} == {seen[3][11]}
    assert openers(table, 10) == {3}


def test_hidden_trump_stays_closed_until_its_event() -> None:  # Дурак потайной
    table = setup_table(4, 36)
    table.deal("deal", {s: list(range(s * 6, s * 6 + 6)) for s in range(4)})
    hidden = 35
    assert openers(table, hidden) == set()
    new = table.run(RevealOp("event", (hidden,)))
    assert token_senders(new) == {0, 1, 2, 3}
    assert len({r[hidden] for r in table.revealed(new).values()}) == 1


def test_discard_unopened_and_pick_from_a_face_down_spread() -> None:  # бито рубашкой; польский
    table = setup_table(3, 36)
    spread = list(range(20, 30))
    assert all(openers(table, s) == set() for s in spread)
    table.deal("pick", {1: [27]})
    assert openers(table, 27) == {1}
    assert all(openers(table, s) == set() for s in spread if s != 27)
    # A slot moved to the discard unopened simply never gets a token.
    assert openers(table, 29) == set()
    deck = audit(table)
    assert deck[27] == table.parties[1].seen[27]


def test_reshuffle_a_subset_back_into_the_stock() -> None:  # Дурак отбойный / покерный
    table = setup_table(3, 36)
    table.deal("deal", {0: [0, 1], 1: [2, 3]})
    revealed = table.revealed(table.run(RevealOp("bout", (0, 2))))
    discard = {revealed[0][0], revealed[0][2]}
    subset = (0, 2, 30, 31, 32, 33)
    before = sorted(audit_snapshot(table, subset))
    table.run(ShuffleOp("reshuffle", subset))
    for slot in subset:
        assert openers(table, slot) == set(), "reshuffled slots are hidden from everyone again"
        assert table.parties[0].slots[slot].card is None
    assert openers(table, 1) == {0}, "hands are untouched"
    assert openers(table, 3) == {1}
    deck = audit(table)
    assert sorted(deck[s] for s in subset) == before
    assert discard <= {deck[s] for s in subset}


def audit_snapshot(table: Table, slots: tuple[int, ...]) -> list[int]:
    """The plaintext of some slots, computed from every secret (test-only oracle)."""
    from p2p_durak.protocol.mental import group as g

    x = sum(p._secret for p in table.parties) % g.ORDER
    party = table.parties[0]
    out = []
    for s in slots:
        ct = party.slots[s].base.ct
        card = party.codec.decode(g.sub(ct.c2, g.mul(x, ct.c1)))
        assert card is not None
        out.append(card)
    return out


def test_graceful_leave_strips_a_layer_and_the_game_goes_on() -> None:
    table = setup_table(4, 36)
    hands = {s: list(range(s * 6, s * 6 + 6)) for s in range(4)}
    seen = table.deal("deal", hands)
    new = table.run(LeaveOp("leave", 2))
    table.gone.add(2)
    assert all(any(isinstance(e, SeatLeft) and e.seat == 2 for e in evs) for evs in new.values())
    # The leaver's hand is open to all (its layer was the only thing keeping it private).
    opened = {e.slot: e.card_id for e in new[0] if isinstance(e, CardRevealed)}
    assert opened == seen[2]
    for s in (0, 1, 3):
        for slot in hands[s]:
            assert openers(table, slot) == {s}
    for slot in range(24, 36):
        assert openers(table, slot) == set()
    # The three go on: deal, reveal, reshuffle and audit under the reduced key.
    seen2 = table.deal("deal-2", {0: [24], 3: [25]})
    assert openers(table, 24) == {0}
    assert openers(table, 25) == {3}
    table.run(RevealOp("trump", (35,)))
    table.run(ShuffleOp("reshuffle", tuple(range(26, 35))))
    deck = audit(table)
    assert sorted(deck) == list(range(36))
    assert deck[24] == seen2[0][24]
    assert deck[25] == seen2[3][25]


def test_a_hand_is_remasked_by_its_owner_alone_and_its_slots_unlinked() -> None:  # верю не верю
    """A card taken face up sits in a slot open to all; the owner alone re-masks and permutes his
    hand (`ShuffleOp(by=owner)`, one shuffle proof that every party checks), then is shown it
    again: no slot is open any more, no ciphertext is one seen before, nobody else opens any,
    and the card once public opens later with his token alone."""
    table = setup_table(3, 36)
    seen = table.deal("deal", {0: [0, 1, 2]})[0]
    public = table.revealed(table.run(RevealOp("took", (1,), by=0)))[1][1]
    before = {p.slots[s].base.ct for p in table.parties for s in (0, 1, 2)}
    new = table.run(ShuffleOp("remask", (0, 1, 2), by=0))
    assert {e.message.seat for evs in new.values() for e in evs if isinstance(e, Send)} == {0}
    for party in table.parties:
        for s in (0, 1, 2):
            assert party.slots[s].card is None
            assert party.slots[s].base.ct not in before
    shown = table.deal("remask-show", {0: [0, 1, 2]})[0]
    assert sorted(shown.values()) == sorted(seen.values())
    for s in (0, 1, 2):
        assert openers(table, s) == {0}
    slot = next(s for s, card in shown.items() if card == public)
    new = table.run(RevealOp("doubt", (slot,), by=0))
    assert token_senders(new) == {0}
    assert {r[slot] for r in table.revealed(new).values()} == {public}


def test_only_a_later_shuffle_may_be_one_seats() -> None:
    table = Table(3, 36)
    table.run(KeysOp("keys"))
    with pytest.raises(DeckUsageError, match="every seat"):
        table.parties[0].begin(ShuffleOp("shuffle", tuple(range(36)), by=0))


def test_a_card_opened_before_a_leave_is_remasked_under_the_reduced_key() -> None:
    """After a leave an open slot's ciphertext still carries the leaver's layer; a re-mask that
    takes it in must still hold its card under the keys left (the public masking is used)."""
    table = setup_table(3, 36)
    seen = table.deal("deal", {0: [0, 1, 2], 1: [3, 4], 2: [5, 6]})[0]
    table.run(RevealOp("took", (1,), by=0))
    table.run(LeaveOp("leave", 2))
    table.gone.add(2)
    table.run(ShuffleOp("remask", (0, 1, 2), by=0))
    shown = table.deal("remask-show", {0: [0, 1, 2]})[0]
    assert sorted(shown.values()) == sorted(seen.values())
    deck = audit(table)
    assert sorted(deck[s] for s in (0, 1, 2)) == sorted(seen.values())
