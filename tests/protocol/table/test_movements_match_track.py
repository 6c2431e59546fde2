"""The engine's card movements (`engine/durak_moves.py`) agree with the table's own model of
where the cards are (`TableMachine._track`), over a random networked game of every preset.

This is the safety net for letting the table follow the engine's movements: after every
engine transition a `Layout` that followed only the movements must hold every slot where the
table's lists hold it — the stock, each hand, each seat's locked cards, the table, the
discard, the set-aside card, the labelled face-down covers — and the private shows the
movements ask for (each arrival's `Seen`, resolved to parties and to the cards nobody has
shown them yet) must be exactly the grants `_track` made.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from p2p_durak import engine as eng
from p2p_durak.engine import events as E
from p2p_durak.engine.durak_moves import initial_layout, movements
from p2p_durak.engine.layout import Layout
from p2p_durak.engine.moves import (
    DISCARD,
    SET_ASIDE,
    STOCK,
    TABLE,
    Seen,
    ZoneKind,
    hand,
    locked,
)
from p2p_durak.engine.presets import PRESETS
from p2p_durak.engine.rules import RuleError, validate
from p2p_durak.protocol import table as table_module
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


class Mirror:
    """One machine's slots as the engine's movements place them, checked after each
    transition against the machine's own lists."""

    def __init__(self, machine: TableMachine, applied: dict[int, tuple[Any, ...]]) -> None:
        self.m = machine
        self.applied = applied  # id(before) -> (before, action, events) of eng.apply
        self.layout = Layout()
        self.dealt = False
        self.checked = 0
        self.grants: list[tuple[int, tuple[int, ...]]] = []
        self.named: list[int] = []
        self.kinds: set[str] = set()
        self._wrap()

    def _wrap(self) -> None:
        m = self.m
        deal, track, handed_on = m._deal, m._track, m._dummy_handed_on

        def on_deal(game: eng.Game) -> Any:
            stock = eng.new_game(game, None).stock
            self.layout = Layout.of(initial_layout(game, len(stock)))
            self.dealt = False
            return deal(game)

        def on_track(before: eng.State, action: eng.Action, ev: E.Event) -> Any:
            if isinstance(ev, E.Covered):
                self.named.append(m.cover_slots[ev.target])
            if isinstance(ev, E.Exchanged):
                self.named += m._given_slots
            if isinstance(ev, E.Dealt):
                self.dealt = True
            grants = track(before, action, ev)
            self.grants += grants
            return grants

        def on_handed_on(before: eng.State) -> Any:
            grants = handed_on(before)
            self.grants += grants
            self._check(before)
            return grants

        m._deal = on_deal  # type: ignore[method-assign]
        m._track = on_track  # type: ignore[method-assign]
        m._dummy_handed_on = on_handed_on  # type: ignore[method-assign]

    def _card_of(self, slot: int) -> int | None:
        return self.m.deck.slots[slot].card

    def _parties(self, seen: Seen, seat: int) -> tuple[int, ...]:
        m = self.m
        party = m._party(seat)
        if seen == Seen.OWNER:
            return (party,)
        if seen == Seen.OTHERS:
            return tuple(p for p in m.deck.active if p != party)
        return ()

    def _check(self, before: eng.State) -> None:
        m = self.m
        after = m.state
        assert after is not None
        recorded = self.applied.get(id(before))
        assert recorded is not None
        assert recorded[0] is before
        _, action, events = recorded
        wanted: dict[int, set[int]] = {}
        for movement in movements(before, action, events, after):
            for move in movement:
                self.kinds.add(f"{move.source.kind.name}->{move.target.kind.name}")
            for arrival in self.layout.follow(movement, self._card_of, self.named):
                if arrival.seen not in (Seen.OWNER, Seen.OTHERS):
                    continue
                assert arrival.zone.kind in (ZoneKind.HAND, ZoneKind.LOCKED)
                for party in self._parties(arrival.seen, arrival.zone.seat):
                    for slot in arrival.slots:
                        st = m.deck.slots[slot]
                        if st.card is None and party not in st.viewers:
                            wanted.setdefault(slot, set()).add(party)
        made: dict[int, set[int]] = {}
        for slot, parties in self.grants:
            made.setdefault(slot, set()).update(parties)
        self.grants = []
        where = f"after {action} ({[type(e).__name__ for e in events]})"
        assert wanted == made, f"shows {wanted} != the table's {made} {where}"
        assert not self.named, f"named slots {self.named} left over {where}"
        if not self.dealt:
            return
        lay = self.layout
        assert list(lay.slots(STOCK)) == m.stock_slots, f"stock {where}"
        for seat in range(after.game.n_players):
            assert list(lay.slots(hand(seat))) == m.hand_slots.get(seat, []), \
                f"hand {seat} {where}"
            assert list(lay.slots(locked(seat))) == m.locked_slots.get(seat, []), \
                f"locked {seat} {where}"
        assert list(lay.slots(TABLE)) == m.table_slots, f"table {where}"
        assert list(lay.slots(DISCARD)) == m.discard_slots, f"discard {where}"
        if m.hidden_slot >= 0:
            assert lay.slots(SET_ASIDE) in ((), (m.hidden_slot,)), f"set aside {where}"
        covers = {label: s for (zone, label), s in lay.labels.items() if zone == TABLE}
        assert covers == m.cover_slots, f"covers {where}"
        self.checked += 1


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_engine_movements_agree_with_the_tables_track(preset: str,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    applied: dict[int, tuple[Any, ...]] = {}

    def recording_apply(state: eng.State, action: eng.Action) -> Any:
        new, events = eng.apply(state, action)
        applied[id(state)] = (state, action, events)
        return new, events

    proxy = SimpleNamespace(**{name: getattr(eng, name) for name in dir(eng)
                               if not name.startswith("__")})
    proxy.apply = recording_apply
    monkeypatch.setattr(table_module, "eng", proxy)
    n = _seats(preset)
    seed = 7 + sum(map(ord, preset)) % 50
    machines = _machines(n, PRESETS[preset].rules, seed)
    mirrors = [Mirror(m, applied) for m in machines]
    _run(machines, seed=seed)
    assert all(mirror.checked > 0 for mirror in mirrors)
