"""Golden byte vectors for every table intent payload (docs/protocol.md §10.12): the
`Intent.action` bytes a `TableMachine` makes — `[0, deck message]`, `[1, action, slots]`,
`[2, suit]`, `[3, play on]` / `[3, false, "timeout"]`, `[4, nil]` / `[4, tokens]`, `[5, tokens]`.

Two tiny deterministic games of невидимый (it has the dealer's suit announcement) make one
payload of every shape: three parties, the third announcing its leave after the first move and
leaving at the next bout's start; then two parties playing to the end and choosing the next
game. Every move is the first legal one; the machines' randomness is seeded. Each stored vector
must equal what the machine makes, and every machine must accept it where it was made (the
plain "stop" vote, which is not delivered, is checked by `check_vote`; the claim that a card
opens to no card, `[5, tokens]`, made for the first card of a hand after the first move with
randomness of its own, is not delivered either — in an honest game it would be refused, the
card opening to a card — and is checked by `check_broken`).

A deliberate change regenerates them with::

    P2P_DURAK_REGENERATE_GOLDEN=1 pytest tests/protocol/table/test_table_payload_golden.py
"""

from __future__ import annotations

import functools
import os
import random

import pytest
from wire_support import GOLDEN_DIR, read_golden, write_golden

from p2p_durak.protocol import codec
from p2p_durak.protocol.table import (
    ABANDON,
    ANNOUNCE,
    BROKEN,
    DECK_STEP,
    LEAVE,
    MOVE,
    NEXT_GAME,
    TableMachine,
    TableReject,
    _deck_bytes,
)

from .test_forfeit_tables import _until_one_awaited
from .test_table_machine import _deliver, _table

TABLE_DIR = GOLDEN_DIR / "table"
REGENERATE = os.environ.get("P2P_DURAK_REGENERATE_GOLDEN") == "1"
KINDS = {DECK_STEP: "deck step", MOVE: "move", ANNOUNCE: "announcement", NEXT_GAME: "next game",
         LEAVE: "leave", BROKEN: "broken card",
         ABANDON: "abandonment claim"}
SHAPES = {
    "deck_step": DECK_STEP,
    "move": MOVE,
    "move_with_slots": MOVE,
    "announce": ANNOUNCE,
    "vote_play_on": NEXT_GAME,
    "vote_stop": NEXT_GAME,
    "vote_timed_out": NEXT_GAME,
    "leave_announced": LEAVE,
    "leave_tokens": LEAVE,
    "broken_claim": BROKEN,
    "abandon": ABANDON,
}


def shape_of(payload: bytes) -> str:
    raw = codec.decode(payload)
    assert isinstance(raw, tuple)
    if raw[0] == MOVE:
        return "move_with_slots" if raw[2] else "move"
    if raw[0] == LEAVE:
        return "leave_announced" if raw[1] is None else "leave_tokens"
    if raw[0] == NEXT_GAME:
        return "vote_timed_out" if len(raw) == 3 else "vote_play_on" if raw[1] else "vote_stop"
    return {DECK_STEP: "deck_step", ANNOUNCE: "announce", BROKEN: "broken_claim",
            ABANDON: "abandon"}[raw[0]]


def broken_claim(machine: TableMachine) -> bytes:
    """`[5, tokens]` for the first card of the machine's hand, made with randomness of its own
    (the party's stays as it was, so every later vector is what it always was), and checked
    well formed where it was made."""
    slot = machine.hand_slots[machine.my_seat][0]
    party_rng = machine.deck.rng
    machine.deck.rng = random.Random(5).randbytes
    try:
        tokens = machine.deck.opening_tokens(f"broken:{slot}", slot)
    finally:
        machine.deck.rng = party_rng
    payload = codec.encode((BROKEN, _deck_bytes(tokens)))
    raw = codec.decode(payload)
    assert isinstance(raw, tuple)
    assert machine.check_broken(machine.party, raw) == tokens
    return payload


def _play(machines: list[TableMachine], made: dict[str, bytes], leaver: int | None) -> None:
    """Deliver every intent until the audit: owed deck steps first, then `leaver`'s announced
    leave when due, else the first legal move of the first party waited for."""

    def send(party: int, payload: bytes) -> None:
        made.setdefault(shape_of(payload), payload)
        _deliver(machines, party, payload)

    for _ in range(5000):
        if machines[0].audit is not None:
            return
        owed = [(party, m.owed()) for party, m in enumerate(machines)]
        due = [(party, payload) for party, payload in owed if payload is not None]
        if due:
            send(*due[0])
        elif "move" in made and "broken_claim" not in made:
            made["broken_claim"] = broken_claim(machines[0])
        elif leaver is not None and machines[0].leave_due() == leaver:
            send(leaver, machines[leaver].leave())
        elif leaver is not None and "move" in made and "leave_announced" not in made:
            send(leaver, machines[leaver].announce_leave())
        else:
            party = machines[0].waiting_for()[0]
            send(party, machines[party].play(machines[party].legal()[0]))
    raise AssertionError("the game did not end")


@functools.cache
def payloads() -> dict[str, bytes]:
    made: dict[str, bytes] = {}
    _play(_table(3, "nevidimy", 1), made, leaver=2)
    machines = _table(2, "nevidimy", 2)
    _play(machines, made, leaver=None)
    first, second = machines[0].vote_due()
    made["vote_stop"] = machines[second].vote(False)  # made, not sent: checked below
    for party, payload in [(first, machines[first].vote(True)),
                           (second, machines[second].vote(False, timed_out=True))]:
        made.setdefault(shape_of(payload), payload)
        if party == second:
            raw = codec.decode(made["vote_stop"])
            assert isinstance(raw, tuple)
            assert machines[first].check_vote(second, raw) is False
        _deliver(machines, party, payload)
    # a claim that a party abandoned the game, where the table waits for it alone
    machines = _table(3, "app_podkidnoy", 21)
    target = _until_one_awaited(machines, random.Random(21))
    by = next(p for p in range(3) if p != target)
    made["abandon"] = machines[by].abandon(target)
    _deliver(machines, by, made["abandon"])
    return made


def test_every_payload_kind_has_shapes_and_no_other_kind_is_accepted() -> None:
    """A new payload kind must come with vectors: the machine refuses any kind not listed."""
    assert set(SHAPES.values()) == set(KINDS) == set(range(len(KINDS)))
    machine = _table(2, "nevidimy", 3)[0]
    for kind in (len(KINDS), 64, -1):
        with pytest.raises(TableReject, match="unknown intent kind"):
            machine.apply(1, codec.encode((kind, None)))
    assert set(payloads()) == set(SHAPES)


@pytest.mark.parametrize("name", sorted(SHAPES))
def test_table_payload_vector(name: str) -> None:
    data = payloads()[name]
    if REGENERATE:
        write_golden(f"table/{name}", f"table intent payload {name} ({KINDS[SHAPES[name]]}), "
                     "no frame header", data)
    assert read_golden(f"table/{name}") == data, f"{name} differs from golden/table/{name}.hex"
    assert codec.encode(codec.decode(data)) == data  # canonical, as every intent must be


def test_no_stale_table_vectors() -> None:
    assert {path.stem for path in TABLE_DIR.glob("*.hex")} == set(SHAPES)
