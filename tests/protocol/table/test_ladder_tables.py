"""Длинный дурак over the mental-poker deck: the sixes are dealt by a joint coin before the
first shuffle, throw-ins go strictly in turn, and a later game of a match keeps the laid-out
ladders in slots below the stock that are never dealt; every machine agrees and audits clean."""

from __future__ import annotations

import pytest

from p2p_durak import engine as eng
from p2p_durak.engine import events as E
from p2p_durak.engine.presets import get_preset
from p2p_durak.protocol.mental.audit import card_paths, replay
from p2p_durak.protocol.table import AuditFinished, Moved, TableMachine

from .test_table_machine import _rng, _run, _table


def _agree(machines: list[TableMachine]) -> None:
    states = [m.state for m in machines]
    assert all(s is not None and s.result is not None for s in states)
    assert len({eng.state_hash(s) for s in states if s is not None}) == 1
    for m in machines:
        assert m.audit == AuditFinished(())


@pytest.mark.parametrize(("n", "seed"), [(2, 71), (4, 72)])
def test_a_first_game_deals_the_sixes_by_coin_and_agrees(n: int, seed: int) -> None:
    machines = _table(n, "app_dlinny", seed=seed)
    _run(machines, seed=seed)
    _agree(machines)
    sixes = [ev for m_ev in machines[0].history if isinstance(m_ev, Moved)
             for ev in m_ev.events if isinstance(ev, E.SixDealt)]
    assert len(sixes) == n
    assert len({ev.suit for ev in sixes}) == n
    state = machines[0].state
    assert state is not None
    assert state.seat_trumps == tuple(next(ev.suit for ev in sixes if ev.seat == s)
                                      for s in range(n))


def test_a_later_game_keeps_the_ladders_out_of_play() -> None:
    """Seat ladders 10 and 8: the 7-8-9-10 and 7-8 of their suits are laid out (public, in the
    discard from the start), the first seat is dealt 5 cards, and nobody ever draws them."""
    rules = get_preset("app_dlinny").rules
    personal, ladder = (2, 0), (10, 8)
    game_id = (73).to_bytes(16, "big")
    machines = [TableMachine(game_id, p, 2, rules, _rng(7300 + p), personal=personal,
                             ladder=ladder) for p in range(2)]
    _run(machines, seed=73)
    _agree(machines)
    m = machines[0]
    assert m.state is not None
    game = m.state.game
    laid = game.laid_out()
    assert laid.bit_count() == 6
    dealt = next(ev for m_ev in m.history if isinstance(m_ev, Moved)
                 for ev in m_ev.events if isinstance(ev, E.Dealt))
    assert dealt.per_seat == (5, 6)
    assert m.state.discard & laid == laid
    # the audit opens the shuffled deck: the laid-out cards are the last six slots, below
    # the stock, which no deal or draw reached
    paths = card_paths(replay(m.deck.game_id, 2, game.n_cards, m.deck.journal))
    shuffled = [p for p in paths if p.step == "shuffle"][-1].cards
    assert set(shuffled[-6:]) == {c for c in range(game.n_cards) if (laid >> c) & 1}
    assert not any(m.deck.slots[s].viewers for s in range(game.n_cards - 6, game.n_cards))
