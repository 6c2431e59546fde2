"""Дурак чухонский on the game-family interface: a `Layout` that follows only the reported
card movements holds every card where the engine has it after every move of random games,
and each arrival is shown to whom the rules say (the deal to its owner, a laid card to all)."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from p2p_durak.engine import IllegalAction, Reason
from p2p_durak.engine.cards import cards_of
from p2p_durak.engine.family import Audit, GameFamily, ShuffleDeck
from p2p_durak.engine.games import chukhonsky as C
from p2p_durak.engine.games.chukhonsky.family import SUIT_LADDER
from p2p_durak.engine.layout import Layout
from p2p_durak.engine.moves import DISCARD, OUT_OF_PLAY, STOCK, TABLE, Seen, hand

FAMILY: GameFamily[C.ChukhonskyRules, C.State, C.Move] = SUIT_LADDER  # mypy checks the fit


@settings(derandomize=True, database=None, deadline=None, max_examples=25,
          suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 2**32), n=st.integers(2, 6),
       remainder=st.sampled_from(["round_robin", "out_of_play"]),
       deck_size=st.sampled_from([36, 52]))
def test_a_layout_following_the_movements_holds_every_card_where_the_engine_has_it(
        seed: int, n: int, remainder: str, deck_size: int) -> None:
    rng = random.Random(seed)
    rules = C.ChukhonskyRules(deck_size=deck_size, deal_remainder=remainder)  # type: ignore[arg-type]
    deck = list(range(deck_size))
    rng.shuffle(deck)
    state = FAMILY.new_game(rules, n, rng.randrange(n), deck)
    layout = Layout.of(FAMILY.initial_layout(state))
    request = FAMILY.chance(state)
    assert request == ShuffleDeck()
    opened: set[int] = set()

    def card_of(slot: int) -> int | None:
        return deck[slot] if slot in opened else None

    (move,) = FAMILY.chance_actions(state, request, 0)
    while True:
        after, events = FAMILY.apply(state, move)
        for movement in FAMILY.movements(state, move, events, after):
            if move.kind is C.MoveKind.PLAY:
                opened.add(deck.index(move.card))  # the deck opens the laid card's slot
            for arrival in layout.follow(movement, card_of):
                if arrival.zone.kind == hand(0).kind and move.kind is C.MoveKind.DEAL:
                    assert arrival.seen == Seen.OWNER
                if arrival.zone == TABLE:
                    assert arrival.seen == Seen.ALL
        state = after
        for seat in range(n):
            assert sorted(deck[s] for s in layout.slots(hand(seat))) == \
                list(cards_of(state.hands[seat]))
        assert [deck[s] for s in layout.slots(TABLE)] == list(state.pile)
        assert sorted(deck[s] for s in layout.slots(DISCARD)) == list(cards_of(state.discard))
        assert sorted(deck[s] for s in layout.slots(OUT_OF_PLAY)) == \
            list(cards_of(state.set_aside_cards))
        assert layout.slots(STOCK) == ()
        view = FAMILY.table_view(state, 0)
        assert [z.size for z in view.zones[:2]] == [len(state.pile),
                                                    state.discard.bit_count()]
        assert sum(s.cards for s in view.seats) == sum(state.hand_size(s) for s in range(n))
        if FAMILY.result(state) is not None:
            break
        (seat,) = FAMILY.to_act(state)
        options = FAMILY.legal_actions(state, seat)
        move = options[rng.randrange(len(options))]
        assert FAMILY.decode_action(FAMILY.encode_action(move)) == move
    assert FAMILY.chance(state) == Audit()
    outcome = FAMILY.result(state)
    assert outcome is not None
    assert set(outcome.losers) | set(outcome.winners) <= set(range(n))
    assert outcome.draw or set(outcome.losers) | set(outcome.winners) == set(range(n))


@pytest.mark.parametrize("raw", [None, [1, 0], [9, 0, 3], [1, 0, "3"], "1 0 3", [True, 0, 3]])
def test_a_malformed_wire_move_is_refused_by_name(raw: object) -> None:
    with pytest.raises(IllegalAction) as refused:
        FAMILY.decode_action(raw)
    assert refused.value.reason is Reason.BAD_ACTION


def test_the_capabilities_say_no_trump_no_stock_no_commands() -> None:
    caps = FAMILY.capabilities(C.ChukhonskyRules())
    assert caps.family == "suit_ladder"
    assert not caps.commands
    assert not caps.has_trump
    assert not caps.has_stock
