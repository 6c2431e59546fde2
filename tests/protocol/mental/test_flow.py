from __future__ import annotations

import pytest

from p2p_durak.protocol.mental.events import AuditDone, KeysReady, RandomValue, ShuffleDone
from p2p_durak.protocol.mental.ops import AuditOp, CoinOp, KeysOp, RevealOp, ShuffleOp

from .table import Table


def setup_table(n_seats: int, n_cards: int, seed: bytes = b"seed") -> Table:
    table = Table(n_seats, n_cards, seed)
    keys = table.run(KeysOp("keys"))
    joint = {e.joint_key for evs in keys.values() for e in evs if isinstance(e, KeysReady)}
    assert len(joint) == 1
    done = table.run(ShuffleOp("shuffle", tuple(range(n_cards))))
    assert all(any(isinstance(e, ShuffleDone) for e in evs) for evs in done.values())
    return table


@pytest.mark.parametrize(
    ("n_seats", "n_cards"),
    [
        (2, 24),
        (3, 36),
        (4, 52),
        (5, 54),
        (6, 36),
        (6, 104),
        (10, 36),
        (2, 144),
        pytest.param(6, 144, marks=pytest.mark.slow),
        pytest.param(10, 144, marks=pytest.mark.slow),
    ],
)
def test_deal_trump_and_audit(n_seats: int, n_cards: int) -> None:
    table = setup_table(n_seats, n_cards)
    coin = table.run(CoinOp("first-dealer"))
    values = {e.value for evs in coin.values() for e in evs if isinstance(e, RandomValue)}
    assert len(values) == 1

    hand_size = min(6, n_cards // n_seats - 1)
    hands = {s: list(range(s * hand_size, (s + 1) * hand_size)) for s in range(n_seats)}
    seen = table.deal("deal", hands)
    for seat, slots in hands.items():
        assert sorted(seen[seat]) == slots, "each seat sees exactly its own hand"
        for slot, card in seen[seat].items():
            assert table.parties[seat].try_open(slot) == card

    trump_slot = n_seats * hand_size
    revealed = table.revealed(table.run(RevealOp("trump", (trump_slot,))))
    trumps = {seat: r[trump_slot] for seat, r in revealed.items()}
    assert len(set(trumps.values())) == 1, "everyone opens the same trump"

    # Privacy: nobody can open a slot that is not theirs with everything it holds.
    for party in table.parties:
        for slot in range(n_cards):
            mine = slot in hands[party.seat] or slot == trump_slot
            assert (party.try_open(slot) is not None) == mine

    audit = table.run(AuditOp("audit"))
    decks = {e.cards for evs in audit.values() for e in evs if isinstance(e, AuditDone)}
    assert len(decks) == 1
    (deck,) = decks
    assert sorted(deck) == list(range(n_cards)), "hands and stock form exactly the deck"
    for seat in range(n_seats):
        for slot, card in seen[seat].items():
            assert deck[slot] == card
    assert deck[trump_slot] == next(iter(trumps.values()))
    assert deck != tuple(range(n_cards)), "the deck was shuffled"
    # A bystander that saw only the messages agrees on every public fact.
    assert [st.card for st in table.observer.slots] == [st.card for st in table.parties[0].slots]
