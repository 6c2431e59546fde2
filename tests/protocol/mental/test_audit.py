from __future__ import annotations

import dataclasses

import pytest

from p2p_durak.protocol.mental.audit import card_paths, replay
from p2p_durak.protocol.mental.errors import InvalidProof
from p2p_durak.protocol.mental.messages import Tokens
from p2p_durak.protocol.mental.ops import AuditOp, RevealOp, ShuffleOp

from .test_flow import setup_table


def test_replay_of_the_journal_reproduces_the_public_state_and_traces_every_card() -> None:
    table = setup_table(3, 24)
    seen = table.deal("deal", {0: [0, 1], 1: [2, 3], 2: [4, 5]})
    table.run(RevealOp("trump", (6,)))
    table.run(RevealOp("bout", (0, 2)))
    table.run(ShuffleOp("reshuffle", (0, 2, 7, 8)))
    table.run(AuditOp("audit"))
    # Each party logs its own messages when it makes them, so orders differ within a phase;
    # every one of these journals is a valid causal order and replays to the same state.
    journal = table.observer.journal
    for party in table.parties:
        assert set(party.journal) == set(journal)
        again = replay(b"game-1", 3, 24, party.journal)
        assert [st.card for st in again.slots] == [st.card for st in party.slots]
    state = replay(b"game-1", 3, 24, journal)
    assert [st.card for st in state.slots] == [st.card for st in table.parties[2].slots]
    paths = card_paths(state)
    assert [(p.step, p.seat) for p in paths] == [
        ("shuffle", 0),
        ("shuffle", 1),
        ("shuffle", 2),
        ("reshuffle", 0),
        ("reshuffle", 1),
        ("reshuffle", 2),
    ]
    first = paths[2].cards  # the deck after the initial shuffle
    assert sorted(first) == list(range(24))
    for seat in range(3):
        for slot, card in seen[seat].items():
            if slot not in (0, 2):
                assert first[slot] == card
    for path in paths[3:]:
        assert sorted(path.cards) == sorted(first[s] for s in (0, 2, 7, 8))


def test_replay_names_the_cheater_in_a_doctored_journal() -> None:
    table = setup_table(3, 24)
    table.deal("deal", {0: [0, 1]})
    journal = list(table.observer.journal)
    index = next(i for i, e in enumerate(journal) if isinstance(e, Tokens) and e.seat == 2)
    entry = journal[index]
    assert isinstance(entry, Tokens)
    journal[index] = dataclasses.replace(entry, tokens=entry.tokens[::-1])
    with pytest.raises(InvalidProof) as info:
        replay(b"game-1", 3, 24, journal)
    assert info.value.seat == 2
    assert info.value.step == "deal"
