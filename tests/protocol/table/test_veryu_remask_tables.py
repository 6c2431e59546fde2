"""верю не верю over the deck: a hand that holds a card known to all is re-masked and permuted by
its owner (a shuffle proof every party checks) and shown to him again, so a face-down cover, which
names its slot, tells nobody which card it is — by the deck's proofs, not by trust.

Rule (seed 000_0a1bcdd496bc6662.txt, «Дурак верю не верю»): «Отбивающийся игрок кладёт карту
рубашкой вверх ... другие игроки могут сказать «сомневаюсь»» — the cover is face down until
doubted; docs/rules.md (veryu_ne_veryu) and docs/mental-poker.md say how the deck keeps it so.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from p2p_durak import engine as eng
from p2p_durak.engine import actions as A
from p2p_durak.engine import events as E
from p2p_durak.engine.state import FACE_DOWN
from p2p_durak.protocol import codec
from p2p_durak.protocol.mental.elgamal import Ciphertext
from p2p_durak.protocol.mental.messages import Shuffle
from p2p_durak.protocol.mental.ops import RevealOp, ShuffleOp
from p2p_durak.protocol.table import (
    DECK_STEP,
    AuditFinished,
    Moved,
    TableMachine,
    deck_message,
)

from .test_table_machine import (
    _deliver,
    _next_intent,
    _refused_by_the_others,
    _rng,
    _run,
    _table,
)
from .test_variant_tables import _drive_until

PRESET = "veryu_ne_veryu"


class Recorder:
    """A modified node's memory: every ciphertext it ever saw open to all, with its card (the
    deck's public knowledge, kept past any later step)."""

    def __init__(self) -> None:
        self.open_ciphertexts: dict[Ciphertext, int] = {}
        self.public_cards: set[int] = set()

    def record(self, m: TableMachine) -> None:
        for st in m.deck.slots:
            if st.card is not None:
                self.open_ciphertexts[st.base.ct] = st.card
                self.public_cards.add(st.card)


def _remask_pending(m: TableMachine) -> bool:
    p = m.deck.pending_op()
    return p is not None and isinstance(p.op, ShuffleOp) and p.op.step.startswith("remask")


def _play(machines: list[TableMachine], seed: int, enough: int) -> tuple[int, int]:
    """A game, every delivery checked to agree, until `enough` covers were checked and one was
    doubted (or the game's end). Moves are random, but a defender who may cover face down with
    a card that was once open to all does so (the case a recording node could read), and a
    doubt of such a cover is taken when offered. Returns how many such covers were laid and how
    many doubted covers were opened (each by its owner's tokens)."""
    rng = random.Random(seed)
    recorder = Recorder()
    watched: dict[int, tuple[int, int, int]] = {}  # attack index -> (owner party, slot, card)
    covers = opened = 0
    for _ in range(40000):
        m = machines[0]
        if m.audit is not None or (covers >= enough and opened):
            return covers, opened
        recorder.record(m)
        due = [(p, msg) for p, mm in enumerate(machines) if (msg := mm.owed()) is not None]
        if due:
            party, payload = rng.choice(due)
            pending = m.deck.pending_op()
            _deliver(machines, party, payload)
            if pending is not None and isinstance(pending.op, RevealOp) \
                    and pending.op.step.startswith("doubt"):
                # a doubted cover opens with its owner's tokens alone, with their proof
                assert pending.op.by is not None
                assert party == pending.op.by
                opened += 1
            continue
        party = rng.choice(m.waiting_for())
        legal = machines[party].legal()
        state = machines[party].state
        assert state is not None
        known_covers = [a for a in legal if a.kind == A.COVER and a.cards
                        and a.cards[0] in recorder.public_cards]
        doubts = [a for a in legal if a.kind == A.CHALLENGE and a.target in watched]
        action = (known_covers or doubts or [rng.choice(legal)])[0]
        payload = machines[party].play(action)
        if action.kind == A.COVER and action in known_covers:
            (slot,) = codec.decode(payload)[2]
            _deliver(machines, party, payload)
            covers += 1
            watched[action.target] = (party, slot, action.cards[0])
            for other, machine in enumerate(machines):
                if other == party:
                    continue
                st = machine.deck.slots[slot]
                # the machine's public knowledge: the slot is closed, its ciphertext was never
                # open to all, and nothing this party holds opens it
                assert st.card is None, f"slot {slot} shows the face-down cover {st.card}"
                assert st.base.ct not in recorder.open_ciphertexts
                assert machine.deck.try_open(slot) is None
                assert machine.state is not None
                assert machine.state.covers[action.target] == FACE_DOWN
            continue
        _deliver(machines, party, payload)
        if machines[0].state is not None and not machines[0].state.covers:
            watched = {}
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("n", [2, 3])
def test_a_recording_node_cannot_tell_a_face_down_cover_taken_face_up_before(n: int) -> None:
    """After a face-up take the taker's hand is re-masked and permuted: when he covers face down
    with a card every node saw him take, no other party's deck has that slot open, its
    ciphertext is none ever open, and no party but his can open it; a doubt opens it with his
    tokens (a RevealOp by him), so the card is proven, not known beforehand."""
    covers = opened = 0
    for seed in range(300, 312):
        machines = _table(n, PRESET, seed=seed)
        c, o = _play(machines, seed, enough=12)
        covers, opened = covers + c, opened + o
        if covers >= 12 and opened:
            return
    raise AssertionError(f"only {covers} covers with a once-public card, {opened} doubted")


@pytest.mark.parametrize("n", [2, 3])
def test_whole_games_agree_audit_clean_and_leave_no_known_slot_in_a_hand(n: int) -> None:
    """Whole games of 2 and 3 parties and an auditor replaying the same log agree at every entry
    and audit clean; between bouts no hand of two cards or more holds a slot open to all; each
    take costs one shuffle (the taker's) in the log, its tokens riding with the draws' step."""
    seed = 320 + n
    machines = _table(n, PRESET, seed=seed)
    auditor = TableMachine(seed.to_bytes(16, "big"), -1, n, machines[0].rules, _rng(0))
    rng = random.Random(seed)
    remasks: list[str] = []  # the step of every re-mask entry
    while machines[0].audit is None:
        party, payload = _next_intent(machines, rng)
        pending = machines[0].deck.pending_op()
        if _remask_pending(machines[0]):
            assert pending is not None
            remasks.append(pending.op.step)
            shufflers = machines[0].deck_due()
            assert len(shufflers) == 1
            assert party == shufflers[0]
        _deliver(machines + [auditor], party, payload)
        m = machines[0]
        if m.state is not None and m.state.phase == eng.Phase.LEAD \
                and m.deck.pending_op() is None:
            for slots in m.hand_slots.values():
                assert len(slots) < 2 or all(m.deck.slots[s].card is None for s in slots)
    assert remasks
    assert len(set(remasks)) == len(remasks)  # one entry each: the owner's shuffle
    for m in [*machines, auditor]:
        assert m.audit == AuditFinished(())
        assert m.state is not None
        assert m.state.result is not None
    took = [ev for item in machines[0].history if isinstance(item, Moved)
            for ev in item.events if isinstance(ev, E.Took)]
    # once per take, and for the trump cards shown in the first lowest-trump claims and the
    # trump card drawn into a hand
    assert len(remasks) <= len(took) + len(machines[0].claims) + 1


def test_a_false_shuffle_proof_in_a_remask_is_named_and_refused() -> None:
    """The owner's re-mask carries a shuffle proof; one whose deck swaps a card for a copy of
    another (to make a cover open as a card he does not hold) fails it at every other party,
    naming him, and nothing is applied; his honest shuffle then goes on to a clean audit."""
    machines = _table(3, PRESET, seed=331)
    _drive_until(machines, 331, lambda ms: _remask_pending(ms[0]))
    m = machines[0]
    (owner,) = m.deck_due()
    honest_payload = machines[owner].owed()
    assert honest_payload is not None
    honest = deck_message(codec.decode(honest_payload)[1])
    assert isinstance(honest, Shuffle)
    deck = (honest.deck[1], *honest.deck[1:])
    forged = replace(honest, deck=deck)
    payload = codec.encode((DECK_STEP, codec.encode(forged.to_wire())))
    for reason in _refused_by_the_others(machines, owner, payload, "bad-proof"):
        assert "shuffle proof" in reason
    _deliver(machines, owner, honest_payload)
    _run(machines, seed=331)
    for machine in machines:
        assert machine.audit == AuditFinished(())


def test_after_a_leave_the_others_hands_are_still_remasked_and_the_game_audits_clean() -> None:
    """A party leaves between bouts (its leave opens its hand, which goes to the discard and is
    not re-masked); the two left re-mask their hands under the reduced key, every machine agrees
    and the audit is clean."""
    machines = _table(3, PRESET, seed=341)
    rng = random.Random(341)
    leaver = 2
    remasks_after = 0
    while machines[0].audit is None:
        m = machines[0]
        due = [(p, msg) for p, mm in enumerate(machines) if (msg := mm.owed()) is not None]
        if m.state is not None and m.state.bout == 1 and not m.leaving:
            party, payload = leaver, machines[leaver].announce_leave()
        elif due:
            party, payload = rng.choice(due)
            remasks_after += bool(m.left) and _remask_pending(m)
        elif m.leave_due() == leaver:
            party, payload = leaver, machines[leaver].leave()
        else:
            party = rng.choice(m.waiting_for())
            payload = machines[party].play(rng.choice(machines[party].legal()))
        _deliver(machines, party, payload)
    assert machines[0].left == (leaver,)
    assert remasks_after > 0
    for m in machines:
        assert m.audit == AuditFinished(())
    # the claim audit still opens the stayers' hands as they were when they claimed (their
    # re-masked slots' old ciphertexts carry the leaver's published token); the leaver's own
    # claim-time hand left with his key and is not checked
    m = machines[0]
    gone = m.seat_of_party[leaver]
    every = range(m.n_cards)
    for claim in m.claims:
        then = [m._card_then(slot, every) for slot in claim.slots]
        assert (None in then) == (claim.seat == gone)
