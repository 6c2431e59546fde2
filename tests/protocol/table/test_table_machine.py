"""The table machine: whole games over the mental-poker deck with every party's machine fed the
same intents in the same order (the ordered log's job, done trivially here)."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from p2p_durak import engine as eng
from p2p_durak.engine.presets import get_preset
from p2p_durak.engine.rules import RuleSet
from p2p_durak.protocol import codec
from p2p_durak.protocol.table import MOVE, AuditFinished, TableMachine, TableReject


def _rng(seed: int) -> Callable[[int], bytes]:
    r = random.Random(seed)
    return r.randbytes


def _table(n: int, preset: str, seed: int) -> list[TableMachine]:
    return _machines(n, get_preset(preset).rules, seed)


def _machines(n: int, rules: RuleSet, seed: int) -> list[TableMachine]:
    game_id = seed.to_bytes(16, "big")
    return [TableMachine(game_id, p, n, rules, _rng(seed * 100 + p)) for p in range(n)]


def _deliver(machines: list[TableMachine], party: int, payload: bytes) -> None:
    for m in machines:
        m.apply(party, payload)
    hashes = {m.state_hash() for m in machines}
    assert len(hashes) == 1, "machines diverged"


def _refused_by_the_others(machines: list[TableMachine], party: int, payload: bytes,
                           code: str) -> list[str]:
    """Every other party's machine refuses `party`'s intent, naming it, with `code`, and
    nothing is applied anywhere; returns the reasons."""
    hashes = {m.state_hash() for m in machines}
    reasons = []
    for m in machines:
        if m.party == party:
            continue
        with pytest.raises(TableReject) as caught:
            m.apply(party, payload)
        assert caught.value.party == party
        assert caught.value.code == code
        reasons.append(caught.value.reason)
    assert {m.state_hash() for m in machines} == hashes  # nothing applied
    return reasons


def _next_intent(machines: list[TableMachine], rng: random.Random) -> tuple[int, bytes]:
    """The next intent of a random game: a deck message someone owes, else a random legal
    move of a party the table waits for."""
    due = [(p, msg) for p, m in enumerate(machines) if (msg := m.owed()) is not None]
    if due:
        return rng.choice(due)
    waiting = machines[0].waiting_for()
    assert waiting, "nobody can act"
    party = rng.choice(waiting)
    legal = machines[party].legal()
    assert legal, f"party {party} is waited for but has no legal move"
    return party, machines[party].play(rng.choice(legal))


def _run(machines: list[TableMachine], seed: int, max_steps: int = 20000) -> int:
    rng = random.Random(seed)
    steps = 0
    while machines[0].audit is None:
        steps += 1
        assert steps < max_steps
        _deliver(machines, *_next_intent(machines, rng))
    return steps


def _play_agreed(machines: list[TableMachine], seed: int) -> None:
    """Play a whole random game; every machine ends in the same finished state, audited clean."""
    _run(machines, seed=seed)
    states = [m.state for m in machines]
    assert all(s is not None and s.result is not None for s in states)
    assert len({eng.state_hash(s) for s in states if s is not None}) == 1
    for m in machines:
        assert m.audit == AuditFinished(())


@pytest.mark.parametrize(("preset", "n"), [("app_podkidnoy", 2), ("app_perevodnoy", 3),
                                           ("app_potayny", 2), ("app_komandy", 4)])
def test_whole_game_agrees_and_audits_clean(preset: str, n: int) -> None:
    machines = _table(n, preset, seed=n)
    _play_agreed(machines, seed=n)


def test_each_party_sees_only_its_own_cards() -> None:
    machines = _table(3, "app_podkidnoy", seed=7)
    rng = random.Random(7)
    # run until the deal is done and play has started
    while machines[0].state is None or machines[0].state.phase < eng.Phase.LEAD:
        due = [(p, msg) for p, m in enumerate(machines) if (msg := m.owed()) is not None]
        if due:
            _deliver(machines, *rng.choice(due))
            continue
        party = machines[0].waiting_for()[0]
        _deliver(machines, party, machines[party].play(machines[party].legal()[0]))
    for m in machines:
        assert m.state is not None
        me = m.my_seat
        for other, slots in m.hand_slots.items():
            for slot in slots:
                opened = m.deck.try_open(slot)
                if other == me or m.deck.slots[slot].card is not None:
                    assert opened is not None
                else:
                    assert opened is None, "a party could open another seat's hidden card"
        assert m.state.hidden[me] == 0
        assert all(m.state.hidden[s] > 0 for s in range(3) if s != me)


def test_a_card_not_in_the_hand_is_refused_and_nothing_changes() -> None:
    machines = _table(2, "app_podkidnoy", seed=3)
    rng = random.Random(3)
    while machines[0].state is None or machines[0].state.phase != eng.Phase.LEAD:
        due = [(p, msg) for p, m in enumerate(machines) if (msg := m.owed()) is not None]
        if due:
            _deliver(machines, *rng.choice(due))
            continue
        party = machines[0].waiting_for()[0]
        _deliver(machines, party, machines[party].play(machines[party].legal()[0]))
    attacker_seat = machines[0].state.attacker  # type: ignore[union-attr]
    party = machines[0].party_of_seat[attacker_seat]
    cheat = machines[party]
    honest = machines[1 - party]
    other_seat = 1 - attacker_seat
    victim_slot = cheat.hand_slots[other_seat][0]
    before = honest.state_hash()
    # the attacker leads a slot of the defender's hand
    payload = codec.encode((MOVE, eng.encode_action(eng.Action(5, attacker_seat)),
                            (victim_slot,)))
    with pytest.raises(TableReject) as info:
        honest.apply(party, payload)
    assert (info.value.party, info.value.code) == (party, "forged")
    assert honest.state_hash() == before
    # or names the defender's card (whose face it may know) instead of a slot of its own
    real = honest.deck.seen[victim_slot]
    own_slot = cheat.hand_slots[attacker_seat][0]
    payload = codec.encode((MOVE, eng.encode_action(eng.Action(5, attacker_seat, (real,))),
                            (own_slot,)))
    with pytest.raises(TableReject) as info:
        honest.apply(party, payload)
    assert info.value.party == party
    assert honest.state_hash() == before
