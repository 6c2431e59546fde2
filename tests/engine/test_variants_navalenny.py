"""«Дурак наваленный» (navalenny): the whole deck is dealt, the last dealt card shows the
trump, no stock, no refill. Catalogue: shared/rules/variants-attack-defend.md, `navalenny`."""

from __future__ import annotations

import pytest

from p2p_durak.engine import (
    CHANCE,
    Phase,
    State,
    apply,
    chance_outcome,
    legal_actions,
    make_game,
    new_game,
    to_act,
)
from p2p_durak.engine import events as E
from p2p_durak.engine.presets import get_preset
from p2p_durak.engine.setup import last_dealt_seat

RULES = get_preset("navalenny").rules


def _to_lead(state: State) -> tuple[State, list[E.Event]]:
    events: list[E.Event] = []
    while state.phase not in (Phase.LEAD, Phase.OVER):
        if CHANCE in to_act(state):
            action = chance_outcome(state) or legal_actions(state, CHANCE)[0]
        else:
            (seat,) = to_act(state)
            (action,) = legal_actions(state, seat)
        state, new = apply(state, action)
        events.extend(new)
    return state, events


@pytest.mark.parametrize("n", [2, 3, 4, 6])
def test_the_whole_deck_is_dealt_and_the_last_card_is_trump(n: int) -> None:
    """000_0a1bcdd496bc6662.txt: «сдается поровну между всеми игроками. Последняя сдаваемая
    карта открывается, показывается всем, масть этой карты становится козырной мастью.»"""
    game = make_game(RULES, n, dealer=1)
    order = list(range(game.n_cards))
    state, events = _to_lead(new_game(game, order))
    assert state.stock == ()
    assert [state.hand_size(s) for s in range(n)] == [36 // n] * n
    revealed = [e for e in events if isinstance(e, E.TrumpRevealed)]
    assert revealed == [E.TrumpRevealed(order[-1], game.suit[order[-1]])]
    assert (state.hands[1] >> order[-1]) & 1  # the dealer got it and keeps it


def test_a_remainder_goes_round_from_the_dealers_left() -> None:
    """000_0a1bcdd496bc6662.txt: «сдается поровну между всеми игроками. Последняя сдаваемая
    карта открывается, показывается всем» — 36 cards among five: seats 1..(dealer+1) get one
    more card, and the last card, the trump, falls to the dealer's left neighbour."""
    game = make_game(RULES, 5, dealer=0)
    order = list(range(game.n_cards))
    state, events = _to_lead(new_game(game, order))
    assert [state.hand_size(s) for s in range(5)] == [7, 8, 7, 7, 7]
    assert last_dealt_seat(game) == 1
    assert (state.hands[1] >> order[-1]) & 1
    assert [e for e in events if isinstance(e, E.TrumpRevealed)] == [
        E.TrumpRevealed(order[-1], game.suit[order[-1]])]
