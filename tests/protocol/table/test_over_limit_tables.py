"""щелковский's table option (B), `over_limit_policy: defender_chooses`, over the mental-poker
deck: the cards the defender sends back return to their throwers' hands as the open slots they
were, every machine agrees and the end-of-game audit finds nothing. Catalogue: «(B): allow more
and let the defender pick 10 to beat and return the rest to their owners»; seed
000_0a1bcdd496bc6662.txt: «выбрать карты, которые отбивать, а остальные возвратить»."""

from __future__ import annotations

import random

import pytest

from p2p_durak import engine as eng
from p2p_durak.engine import actions as A
from p2p_durak.engine.presets import get_preset
from p2p_durak.protocol import codec
from p2p_durak.protocol.table import MOVE, AuditFinished, TableMachine, TableReject

from .test_table_machine import _rng


def _machines(n: int, seed: int, limit: int) -> list[TableMachine]:
    # a low limit, so that a game sends cards back many times (the preset's is ten)
    rules = get_preset("shchelkovsky").rules.with_options(
        over_limit_policy="defender_chooses", bout_attack_limit=limit,
        first_bout_attack_limit=limit)
    game_id = (seed + 7000).to_bytes(16, "big")
    return [TableMachine(game_id, p, n, rules, _rng(seed * 100 + p)) for p in range(n)]


def _next_turn(machines: list[TableMachine],
               rng: random.Random) -> tuple[int, list[eng.Action]] | None:
    """Deliver the deck messages owed (in a random order); then a party that may move and its
    legal actions, or None once the game's audit is done."""
    while True:
        due = [(p, msg) for p, m in enumerate(machines) if (msg := m.owed()) is not None]
        if not due:
            break
        party, payload = rng.choice(due)
        for m in machines:
            m.apply(party, payload)
    if machines[0].audit is not None:
        return None
    party = rng.choice(machines[0].waiting_for())
    return party, list(machines[party].legal())


def _viewers(m: TableMachine) -> list[tuple[frozenset[int], int | None]]:
    return [(frozenset(slot.viewers), slot.card) for slot in m.deck.slots]


@pytest.mark.parametrize(("n", "seed", "limit"), [(3, 11, 2), (4, 12, 2), (5, 14, 10)])
def test_cards_sent_back_over_the_deck_agree_leak_nothing_and_audit_clean(
        n: int, seed: int, limit: int) -> None:
    machines = _machines(n, seed, limit)
    rng = random.Random(seed)
    sent = 0
    for _ in range(60_000):
        turn = _next_turn(machines, rng)
        if turn is None:
            break
        party, legal = turn
        # the throwers throw in whenever they may, so that the limit is passed often
        throws = [a for a in legal if a.kind == A.THROW]
        action = rng.choice(throws or legal)
        payload = machines[party].play(action)
        if action.kind == A.SEND_BACK:
            before = [_viewers(m) for m in machines]
            (card,) = action.cards
            state = machines[0].state
            assert state is not None
            owner = state.table_by[state.table.index(card)]
        for m in machines:
            m.apply(party, payload)
        assert len({m.state_hash() for m in machines}) == 1
        if action.kind == A.SEND_BACK:
            sent += 1
            for m, seen in zip(machines, before, strict=True):
                assert m.state is not None
                slot = next(s for s in m.hand_slots[owner] if m.deck.slots[s].card == card)
                assert _viewers(m)[slot] == seen[slot] == (seen[slot][0], card)
                if m.state.bout == state.bout:
                    # the bout goes on: no deck step, no slot shown to anybody or opened
                    assert _viewers(m) == seen
                    assert m.deck.pending_op() is None
                assert slot not in m.table_slots
                assert m.state is not None
                assert (m.state.hands[owner] >> card) & 1  # every view knows where it went
    assert sent > 0
    for m in machines:
        assert m.state is not None
        assert m.state.result is not None
        assert m.audit == AuditFinished(())


def test_a_send_back_with_an_opening_is_refused() -> None:
    """The card sent back lies open on the table: a move that brings tokens for it is
    malformed, whoever sends it."""
    machines = _machines(3, 21, 2)
    rng = random.Random(21)
    for _ in range(60_000):
        turn = _next_turn(machines, rng)
        assert turn is not None
        party, legal = turn
        backs = [a for a in legal if a.kind == A.SEND_BACK]
        if backs:
            raw = codec.encode([MOVE, list(eng.encode_action(backs[0])), [[0, None]]])
            with pytest.raises(TableReject) as refused:
                machines[1 - party if party < 2 else 0].apply(party, raw)
            assert refused.value.code == "malformed"
            return
        throws = [a for a in legal if a.kind == A.THROW]
        payload = machines[party].play(rng.choice(throws or legal))
        for m in machines:
            m.apply(party, payload)
    raise AssertionError("no send-back came up")
