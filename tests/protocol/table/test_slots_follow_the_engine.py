"""The table's slots follow the engine's card movements (`engine/durak_moves.py`), and agree with
the engine's own state, over a random networked game of every preset.

Before the table followed the movements, this test held them equal to the table's own model
(`TableMachine._track`, deleted since) over the same games: every zone's slots after each
transition and every private show. Now the table has one model, the engine's, and this test
checks that it stays true to the engine after every transition of every party's machine:
each hand holds as many slots as the engine's view has cards there, the stock as many as the
engine's stock, and the cards a party knows in its own hand are exactly the cards it can read
in that hand's slots (except оборотный, where nobody sees his own hand).
"""

from __future__ import annotations

from typing import Any

import pytest

from p2p_durak import engine as eng
from p2p_durak.engine.moves import STOCK, hand
from p2p_durak.engine.presets import PRESETS
from p2p_durak.engine.rules import RuleError, validate
from p2p_durak.protocol.table import TableMachine

from .test_table_machine import _machines, _run

_SEATS = {"app_komandy": 4, "app_komandy_3v3": 6}


def _seats(preset: str) -> int:
    if preset in _SEATS:
        return _SEATS[preset]
    for n in (2, 3, 4):
        try:
            validate(PRESETS[preset].rules, n)
        except RuleError:
            continue
        return n
    raise AssertionError(f"{preset}: no seat count of 2..4 is valid")


def _watch(m: TableMachine) -> list[int]:
    """Check `m`'s layout against its engine state after every transition; the count of
    transitions checked."""
    checked = [0]
    engine = m._engine

    def checking(action: eng.Action, *args: Any, **kwargs: Any) -> Any:
        out = engine(action, *args, **kwargs)
        state = m.state
        assert state is not None
        where = f"after {action} in phase {state.phase}"
        assert len(m.layout.slots(STOCK)) == len(state.stock), f"stock {where}"
        on_table = set(state.table)
        for seat in range(state.game.n_players):
            size = state.hands[seat].bit_count() + state.hidden[seat]
            # (крестовый's ladder deal: a seat's face-up pile card, which the engine keeps
            # on the table, lies in his hand's slots, as the table always kept it)
            slots = [s for s in m.layout.slots(hand(seat)) if m._open_card(s) not in on_table]
            assert len(slots) == size, f"hand {seat} {where}"
        if m.party >= 0 and not state.game.tables.blind:
            mine = m.layout.slots(hand(m.my_seat))
            readable = {c for c in map(m._card_in, mine) if c is not None and c not in on_table}
            assert readable == set(eng.cards_of(state.hands[m.my_seat])), f"own hand {where}"
        checked[0] += 1
        return out

    m._engine = checking  # type: ignore[method-assign]
    return checked


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_the_tables_slots_follow_the_engine(preset: str) -> None:
    n = _seats(preset)
    seed = 7 + sum(map(ord, preset)) % 50
    machines = _machines(n, PRESETS[preset].rules, seed)
    counts = [_watch(m) for m in machines]
    _run(machines, seed=seed)
    assert all(c[0] > 0 for c in counts)
