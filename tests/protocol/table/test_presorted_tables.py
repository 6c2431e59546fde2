"""албанский over the mental-poker deck: the pre-sorted deck is shuffled within each rank by
every party (one proof per block), so each seat is dealt the top ranks — public by design —
with suits nobody could choose; a party that moves a card to another rank block is named."""

from __future__ import annotations

import dataclasses

import pytest

from p2p_durak import engine as eng
from p2p_durak.engine.setup import presort_layout
from p2p_durak.protocol import codec
from p2p_durak.protocol.mental.messages import BlockShuffle
from p2p_durak.protocol.table import (
    AuditFinished,
    CardsLearned,
    TableReject,
    _deck_bytes,
    deck_message,
)

from .test_table_machine import _deliver, _run, _table


@pytest.mark.parametrize(("n", "seed"), [(2, 81), (4, 82)])
def test_a_presorted_game_agrees_and_audits_clean(n: int, seed: int) -> None:
    machines = _table(n, "albansky", seed=seed)
    _run(machines, seed=seed)
    states = [m.state for m in machines]
    assert all(s is not None and s.result is not None for s in states)
    assert len({eng.state_hash(s) for s in states if s is not None}) == 1
    for m in machines:
        assert m.audit == AuditFinished(())
    # each seat was dealt the ranks of its deal positions in the pre-sorted deck (public),
    # aces first: position k went to seat (dealer + 1 + k) mod n
    game = states[0].game if states[0] is not None else None
    assert game is not None
    layout, _ = presort_layout(game)
    for m in machines:
        mine = [k for k in range(n * 6) if (game.dealer + 1 + k) % n == m.my_seat]
        first = next(ev for ev in m.history if isinstance(ev, CardsLearned))
        assert sorted(game.rank[c] for c in first.cards) == \
            sorted(game.rank[layout[k]] for k in mine)


def test_a_card_moved_across_rank_blocks_is_refused_and_names_the_party() -> None:
    machines = _table(3, "albansky", seed=83)
    # keys and seating, up to the shuffle
    while machines[0].deck.pending_op() is None or \
            machines[0].deck.pending_op().op.step != "shuffle":  # type: ignore[union-attr]
        party, payload = next((p, msg) for p, m in enumerate(machines)
                              if (msg := m.owed()) is not None)
        _deliver(machines, party, payload)
    first = machines[0].deck_due()[0]
    payload = machines[first].owed()
    assert payload is not None
    kind, raw = codec.decode(payload)
    msg = deck_message(raw)
    assert isinstance(msg, BlockShuffle)
    deck = list(msg.deck)
    crossed = dataclasses.replace(msg, deck=(deck[4], *deck[1:4], deck[0], *deck[5:]))
    for m in machines:
        if m.party == first:
            continue
        before = m.state_hash()
        with pytest.raises(TableReject) as caught:
            m.apply(first, codec.encode((kind, _deck_bytes(crossed))))
        assert caught.value.party == first
        assert caught.value.code == "bad-proof"
        assert "block 0" in caught.value.reason
        assert m.state_hash() == before
