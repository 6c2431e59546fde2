"""`TableMachine.fork` shares the deck's slots copy-on-write: a fork and the machine it was
forked from never see each other's changes, however many slots either of them changes later
(the ordered log keeps the committed table while it applies the next entry to a fork)."""

from __future__ import annotations

import random

from p2p_durak.engine.presets import get_preset
from p2p_durak.protocol.mental.state import SlotState
from p2p_durak.protocol.table import TableMachine

Snapshot = tuple[object, ...]


def _slots(machine: TableMachine) -> Snapshot:
    def one(st: SlotState) -> object:
        views = [(-1, st.base), *sorted(st.copies.items())]
        return (tuple((i, v.ct, tuple(sorted(v.tokens.items()))) for i, v in views),
                st.base_viewer, tuple(sorted(st.viewers)), st.card)
    return tuple(one(st) for st in machine.deck.slots)


def test_a_fork_and_its_origin_never_share_a_change() -> None:
    rules = get_preset("app_podkidnoy").rules
    n = 3
    rngs = [random.Random(500 + p) for p in range(n)]
    machines = [TableMachine(b"fork-test-game!!", p, n, rules, rngs[p].randbytes)
                for p in range(n)]
    rng = random.Random(5)
    steps = 0
    while machines[0].audit is None:
        steps += 1
        assert steps < 5000
        due = [(p, msg) for p, m in enumerate(machines) if (msg := m.owed()) is not None]
        if due:
            party, payload = rng.choice(due)
        else:
            party = rng.choice(machines[0].waiting_for())
            payload = machines[party].play(rng.choice(machines[party].legal()))
        origin = machines[0]
        before = _slots(origin)
        twin, bystander = origin.fork(), origin.fork()
        twin.apply(party, payload)
        assert _slots(origin) == before, f"step {steps}: a fork's change reached its origin"
        for m in machines:
            m.apply(party, payload)
        assert _slots(bystander) == before, f"step {steps}: the origin's change reached a fork"
        assert _slots(twin) == _slots(origin)
        assert twin.state_hash() == origin.state_hash()
    assert steps > 100  # a whole game: shuffles, deals, reveals and the audit
