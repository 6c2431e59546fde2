"""Issue #22, hole 1 at the table: the last shuffler poisons a slot dealt to an honest player.

The poisoned shuffle's output opens to a point that is no card, with a proof forged against the
fold weights of 1b24ba3 (tests/protocol/mental/shuffle_forgery.py). With today's verifier every
node refuses it and names the shuffler. To check the table's second line of defence as well,
the other tests stand in 1b24ba3's verifier (which accepted the forgery): the victim's node must
not crash (it crashed with "AssertionError: seat … cannot open its own slot"), nobody may blame
the victim or a token sender, and the end-of-game audit — not blocked by the bad card — names
the cheating shuffler on every node, the cheater's own included, and the game is his forfeit.
"""

from __future__ import annotations

import random

import pytest
from mental.shuffle_forgery import forge, old_verify_shuffle, old_verify_shuffles
from mental.table import drbg

from p2p_durak.engine.presets import get_preset
from p2p_durak.node.replay import audit_file
from p2p_durak.protocol import codec
from p2p_durak.protocol.mental import group as g
from p2p_durak.protocol.mental import state as deck_state
from p2p_durak.protocol.mental.deck import random_permutation
from p2p_durak.protocol.mental.messages import Shuffle
from p2p_durak.protocol.table import (
    DECK_STEP,
    AuditFinished,
    DeckBroken,
    Forfeited,
    Seated,
    TableMachine,
    TableReject,
    _deck_bytes,
    deck_message,
)

from .test_table_log import _play as _log_play
from .test_table_log import _table as _log_table
from .test_table_machine import _deliver, _next_intent, _table

N, SEED = 3, 11


def _layout() -> tuple[int, int, int, int]:
    """(cheater, victim, slot, trump slot): on an honest run of the same table the last
    shuffler of the deal, another party, the first slot dealt to it, and the trump's slot."""
    machines = _table(N, "app_podkidnoy", seed=SEED)
    rng = random.Random(SEED)
    order: list[int] = []
    while machines[0].state is None or not any(machines[0].hand_slots.values()):
        pending = machines[0].deck.pending_op()
        if pending is not None and pending.op.step == "shuffle":
            order = list(pending.order)
        _deliver(machines, *_next_intent(machines, rng))
    cheater = order[-1]
    victim = next(p for p in range(N) if p != cheater)
    table = machines[0]
    return (cheater, victim, table.hand_slots[table.seat_of_party[victim]][0],
            table.stock_slots[0])


def _victim_slot() -> tuple[int, int, int]:
    cheater, victim, slot, _ = _layout()
    return cheater, victim, slot


def _poisoned(table: TableMachine, payload: bytes, slot: int) -> bytes:
    """The cheater's shuffle remade: output `slot` opens to its card + G, with a proof that
    1b24ba3's fold accepted."""
    raw = codec.decode(payload)
    assert isinstance(raw, tuple)
    msg = deck_message(raw[1])
    assert isinstance(msg, Shuffle)
    pending = table.deck.pending_op()
    assert pending is not None
    rng = drbg(b"poison")
    n = len(pending.current)
    forged = forge(table.deck.ctx(msg.step, msg.seat), table.deck._key(), pending.current,
                   random_permutation(rng, n), [g.random_scalar(rng) for _ in range(n)], rng,
                   poisoned=slot)
    bad = Shuffle(msg.game_id, msg.step, msg.seat, tuple(forged.outputs), forged.proof)
    return codec.encode((DECK_STEP, _deck_bytes(bad)))


def _play(cheater: int, slot: int, max_steps: int = 20000) -> list[TableMachine]:
    """A whole game in which the last shuffler of the deal sends the poisoned shuffle."""
    machines = _table(N, "app_podkidnoy", seed=SEED)
    rng = random.Random(SEED)
    sent = False
    for _ in range(max_steps):
        if machines[0].audit is not None:
            return machines
        party, payload = _next_intent(machines, rng)
        raw = codec.decode(payload)
        if (not sent and party == cheater and isinstance(raw, tuple) and raw[0] == DECK_STEP
                and isinstance(deck_message(raw[1]), Shuffle)
                and machines[0].deck.pending_op() is not None
                and machines[0].deck.pending_op().order[-1] == cheater):  # type: ignore[union-attr]
            payload, sent = _poisoned(machines[party], payload, slot), True
        _deliver(machines, party, payload)
    raise AssertionError("the game did not end")


def test_todays_verifier_refuses_the_poisoned_shuffle_and_names_its_author() -> None:
    cheater, _, slot = _victim_slot()
    machines = _table(N, "app_podkidnoy", seed=SEED)
    rng = random.Random(SEED)
    while True:
        party, payload = _next_intent(machines, rng)
        pending = machines[0].deck.pending_op()
        if (party == cheater and pending is not None and pending.op.step == "shuffle"
                and pending.order[-1] == cheater):
            break
        _deliver(machines, party, payload)
    bad = _poisoned(machines[cheater], payload, slot)
    for m in machines:
        if m.party == cheater:
            continue
        with pytest.raises(TableReject) as caught:
            m.apply(cheater, bad)
        assert caught.value.party == cheater
        assert caught.value.code == "bad-proof"
        assert "shuffle proof does not verify" in caught.value.reason


@pytest.fixture
def verifier_of_1b24ba3(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(deck_state, "verify_shuffle", old_verify_shuffle)
    monkeypatch.setattr(deck_state, "verify_shuffles", old_verify_shuffles)


def _named_everywhere(machines: list[TableMachine], cheater: int, slot: int) -> None:
    """Every node — the cheater's too — audited the game, named the cheater alone, and
    scored the game as his forfeit (he is the durak, as a liar the audit catches)."""
    seat = machines[0].seat_of_party[cheater]
    for m in machines:
        assert m.audit is not None
        named = list(m.audit.cheaters)
        assert [s for s, _ in named] == [seat], named
        assert f"point that is no card into slot {slot}" in named[0][1]
        assert m.deck_broken is not None
        assert (m.deck_broken.slot, m.deck_broken.shuffler) == (slot, cheater)
        assert m.state is not None
        assert m.state.result is not None
        assert m.state.result.durak == (seat,)
        assert [e.seats for e in m.history if isinstance(e, Forfeited)] == [(seat,)]
        assert m.score.games == 1
        assert m.legal() == ()
    assert len({m.audit for m in machines}) == 1


@pytest.mark.usefixtures("verifier_of_1b24ba3")
def test_a_poisoned_card_of_an_honest_hand_is_shown_and_its_shuffler_named_everywhere() -> None:
    """The victim's node does not crash: it finds that its card opens to no card and shows
    it (its proven token on that slot, intent [5, tokens]); the card opens to no card for
    everyone, so the game ends with the audit, which names the shuffler on every node."""
    cheater, victim, slot = _victim_slot()
    machines = _play(cheater, slot)
    faults = [(f.slot, f.shuffler, f.public) for f in machines[victim].deck_faults]
    assert faults == [(slot, cheater, False), (slot, cheater, True)]
    for p in range(N):
        if p != victim:
            assert [(f.slot, f.shuffler, f.public) for f in machines[p].deck_faults] == [
                (slot, cheater, True)]
            assert any(isinstance(e, DeckBroken) for e in machines[p].history)
    _named_everywhere(machines, cheater, slot)
    assert isinstance(machines[victim].history[-2], AuditFinished)


@pytest.mark.usefixtures("verifier_of_1b24ba3")
def test_a_poisoned_trump_names_its_shuffler_not_the_last_token_sender() -> None:
    """The trump's reveal opens it to no card for everyone at once: the token senders' proven
    tokens stand (nobody's intent is refused), the game ends with the audit, and every node
    names the shuffler (on 1b24ba3 the last token sender was refused as `bad-proof`)."""
    cheater, _, _, trump = _layout()
    machines = _play(cheater, trump)
    for m in machines:
        assert [(f.slot, f.shuffler, f.public) for f in m.deck_faults] == [(trump, cheater, True)]
    _named_everywhere(machines, cheater, trump)


@pytest.mark.usefixtures("verifier_of_1b24ba3")
def test_durak_audit_of_a_poisoned_game_is_not_ok_and_names_the_shuffler() -> None:
    """Over the real stack below the node (signed intents, the ordered log): the deal's last
    shuffler poisons the first card of the next party's hand; the saved transcript's audit."""
    logs = _log_table(N, "app_podkidnoy", seed=SEED)
    cheater, victim = N - 1, 0  # the deal's shufflers go in party order
    poisoned: list[int] = []

    def poison(party: int, table: TableMachine, payload: bytes) -> bytes:
        pending = table.deck.pending_op()
        if poisoned or party != cheater or pending is None or pending.op.step != "shuffle":
            return payload
        # docs/protocol.md B.5: the deal gives slot k to seat (dealer + 1 + k) mod n
        seated = next(e for e in table.history if isinstance(e, Seated))
        poisoned.append((table.seat_of_party[victim] - seated.dealer - 1) % N)
        return _poisoned(table, payload, poisoned[0])

    _log_play(logs, seed=SEED, alter=poison)
    slot = poisoned[0]
    tables = [log.state for log in logs]
    _named_everywhere(tables, cheater, slot)
    assert [(f.slot, f.public) for f in tables[victim].deck_faults] == [(slot, False),
                                                                        (slot, True)]
    transcripts = {log.transcript().save() for log in logs}
    assert len(transcripts) == 1
    verdict = audit_file(transcripts.pop(), get_preset("app_podkidnoy").rules)
    assert not verdict.ok, verdict.text
    seat = tables[0].seat_of_party[cheater]
    assert f"CHEAT: game 1, seat {seat}: " in verdict.text, verdict.text
    assert f"point that is no card into slot {slot}" in verdict.text
