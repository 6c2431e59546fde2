"""The card-movement form (`engine/moves.py`) as `Layout` follows it, and the attack/defend
family's adapter on the game-family interface (`engine/family.py`)."""

from __future__ import annotations

import pytest

from p2p_durak import engine as eng
from p2p_durak.engine import actions as A
from p2p_durak.engine.durak_family import ATTACK_DEFEND, capabilities, chance
from p2p_durak.engine.durak_moves import movements
from p2p_durak.engine.family import Command, DrawLot, GameFamily, OpenCard, ShuffleDeck
from p2p_durak.engine.layout import Arrival, Layout, LayoutError
from p2p_durak.engine.moves import (
    DISCARD,
    END,
    STOCK,
    TABLE,
    Seen,
    at,
    cards,
    every,
    first,
    hand,
    last,
    named,
    reshuffle,
)
from p2p_durak.engine.presets import PRESETS, get_preset

FAMILY: GameFamily[eng.RuleSet, eng.State, eng.Action] = ATTACK_DEFEND  # mypy checks the fit


def _closed(slot: int) -> int | None:
    """No slot is open (the picks below need none)."""
    return None


def test_a_movement_picks_everything_first_then_places() -> None:
    # козырной's swap: the stock's bottom card to the table, the table's card 7 under the stock
    lay = Layout.of([(STOCK, (1, 2, 3)), (TABLE, (10, 11))])
    face: dict[int, int] = {3: 30, 10: 7, 11: 8}
    lay.follow((last(STOCK, TABLE), cards(TABLE, STOCK, (7,))), face.get)
    assert lay.slots(STOCK) == (1, 2, 10)
    assert lay.slots(TABLE) == (11, 3)


def test_a_rotation_passes_every_hand_at_once() -> None:
    lay = Layout.of([(hand(0), (1, 2)), (hand(1), (3,)), (hand(2), (4, 5))])
    seats = (0, 1, 2)
    arrivals = lay.follow(tuple(every(hand(seats[i - 1]), hand(s), seen=Seen.OWNER)
                                for i, s in enumerate(seats)), _closed)
    assert [lay.slots(hand(s)) for s in seats] == [(4, 5), (1, 2), (3,)]
    assert Arrival((4, 5), hand(0), Seen.OWNER, source=hand(2)) in arrivals


def test_places_and_picks() -> None:
    lay = Layout.of([(STOCK, (0, 1, 2, 3, 4)), (hand(0), (7, 8))])
    lay.follow((first(STOCK, STOCK, into=2),), _closed)  # a joker back into the stock
    assert lay.slots(STOCK) == (1, 2, 0, 3, 4)
    lay.follow((at(STOCK, hand(0), 1, 2, into=0),), _closed)
    assert lay.slots(hand(0)) == (2, 0, 7, 8)
    # a named face-down card lies at a labelled place, found again by its label
    lay.follow((named(hand(0), TABLE, 1, label=3),), _closed, named=[7])
    assert lay.labelled(TABLE, 3) == 7
    lay.follow((every(TABLE, DISCARD, into=END),), _closed)
    assert lay.slots(DISCARD) == (7,)
    with pytest.raises(LayoutError):
        lay.labelled(TABLE, 3)  # the place went with its card


def test_a_reshuffle_lays_its_slots_in_order() -> None:
    lay = Layout.of([(STOCK, (9, 4, 6, 1))])
    (arrival,) = lay.follow((reshuffle(STOCK, 3),), _closed)
    assert lay.slots(STOCK) == (4, 6, 9, 1)
    assert arrival.seen == Seen.NOBODY


def test_a_card_that_is_not_there_is_a_layout_error() -> None:
    lay = Layout.of([(hand(0), (1,))])
    with pytest.raises(LayoutError):
        lay.follow((cards(hand(0), TABLE, (5,)),), {1: 4}.get)
    with pytest.raises(LayoutError):
        lay.follow((first(hand(0), TABLE, 2),), _closed)
    with pytest.raises(LayoutError):
        lay.follow((named(hand(0), TABLE, 1),), _closed, named=[2])


def test_the_deal_and_the_first_lead_as_movements() -> None:
    game = eng.make_game(get_preset("app_podkidnoy").rules, 2, 0)
    state = eng.new_game(game, list(range(36)))
    assert chance(state) == ShuffleDeck()
    after, events = eng.apply(state, A.deal())
    (deal,) = movements(state, A.deal(), events, after)
    lay = Layout.of([(STOCK, tuple(range(36)))])
    lay.follow(deal, _closed)
    # one card at a time from the dealer's left (SP3): seat 1 gets 0, 2, 4 …
    assert lay.slots(hand(1)) == (0, 2, 4, 6, 8, 10)
    assert lay.slots(hand(0)) == (1, 3, 5, 7, 9, 11)
    assert chance(after) == OpenCard(STOCK, 0, step="trump")


def test_a_lot_is_asked_for_with_its_seats() -> None:
    state = eng.new_game(eng.make_game(get_preset("app_podkidnoy").rules, 3, 0), None)
    assert chance(state._replace(phase=eng.Phase.LOT, lot_among=(0, 2))) == DrawLot((0, 2))


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_capabilities_name_the_commands_the_help_showed(preset: str) -> None:
    """The commands the engine names for a rule set are the ones the help screen listed from
    the knobs (cli/help_view.py before it asked the engine)."""
    rules = PRESETS[preset].rules
    caps = capabilities(rules)
    assert (Command.TRANSFER in caps.commands) == rules.transfer
    assert (Command.DOUBT in caps.commands) == \
        (rules.defence_visibility == "face_down_challengeable")
    assert (Command.DUMMY in caps.commands) == bool(rules.dummy_hand)
    assert caps.blind_hands == (rules.hand_visibility == "others_only")
    assert caps.family == "attack_defend"
