"""«Дурак покерный» (pokerny): the defender swaps two cards with the stock before defending.
Catalogue: shared/rules/variants-attack-defend.md, section `pokerny`."""

from __future__ import annotations

import pytest
from engine_support import Table

from p2p_durak.engine import (
    CHANCE,
    UNKNOWN,
    Phase,
    Reason,
    RuleError,
    apply,
    legal_actions,
    make_game,
    private_view,
    state_hash,
)
from p2p_durak.engine import actions as A
from p2p_durak.engine import events as E
from p2p_durak.engine.bout import DECK_ORDER
from p2p_durak.engine.presets import get_preset, with_base_rules

TWO = ["6♠ 6♣ 7♥ 8♣ 10♠ J♥", "7♠ 6♥ 8♠ 9♣ Q♣ K♥"]
STOCK = "A♠ A♥ K♠ K♣"


def _table(hands: list[str] = TWO, **knobs: object) -> Table:
    t = Table("pokerny", hands, trump="6♦", stock=STOCK, first_attacker=0, **knobs)
    t.setup()
    return t


def test_the_defender_swaps_two_cards_for_the_top_two_before_defending() -> None:
    """000_0a1bcdd496bc6662.txt: «Игрок, который отбивается, имеет перед тем как отбиться,
    поменять две свои любые карты на две карты в колоде при условии, если у игрока не более
    шести карт.» — any two of his cards, for the stock's top two; then the given two are
    shuffled into the stock's face-down part (the catalogue's reading), by chance."""
    t = _table()
    t.do("0 lead 6♠")
    exchanges = [a for a in legal_actions(t.state, 1) if a.kind == A.EXCHANGE]
    assert len(exchanges) == 15  # every pair of six cards
    assert legal_actions(t.state, 0) == ()  # only the defender, only before defending
    stock = len(t.state.stock)
    t.state, events = apply(t.state, A.exchange(1, t.c("6♥"), t.c("8♠")))
    assert events == (E.Exchanged(1, 2, t.cs("6♥ 8♠"), t.cs("A♠ A♥")),)
    assert set(t.hand(1).split()) == {"7♠", "9♣", "Q♣", "K♥", "A♠", "A♥"}
    assert t.state.phase == Phase.EXCHANGE
    assert legal_actions(t.state, CHANCE) == tuple(A.shuffle(k) for k in range(64))
    t.state, events = apply(t.state, A.shuffle(7))
    assert events == (E.StockShuffled(stock),)
    assert t.state.stock[-1] == t.c("6♦")  # the trump card stays at the bottom
    assert {t.c("6♥"), t.c("8♠")} <= set(t.state.stock)
    assert t.state.phase == Phase.BOUT
    # once a bout: now he defends
    assert not any(a.kind == A.EXCHANGE for a in legal_actions(t.state, 1))
    t.do("1 beat A♠ on 6♠")


def test_only_before_the_first_defence_and_with_six_cards_or_fewer() -> None:
    """000_0a1bcdd496bc6662.txt: «Игрок, который отбивается, имеет перед тем как отбиться,
    поменять две свои любые карты на две карты в колоде при условии, если у игрока не более
    шести карт.» — not after a beat, not after «беру», not with seven cards."""
    t = _table()
    t.do("0 lead 6♠", "1 beat 7♠ on 6♠")
    assert t.refuse(A.exchange(1, t.c("6♥"), t.c("8♠"))).reason is Reason.NO_EXCHANGE
    t = _table()
    t.do("0 lead 6♠", "1 take")
    assert t.state.phase == Phase.LEAD  # (the compendium throws nothing after «беру»)
    # seat 1 now holds seven cards; seat 0 leads again
    assert t.state.hand_size(1) == 7
    t.do("0 lead 6♣")
    assert t.refuse(A.exchange(1, t.c("6♥"), t.c("8♠"))).reason is Reason.NO_EXCHANGE
    assert t.refuse(A.exchange(0, t.c("7♥"), t.c("8♣"))).reason is Reason.NO_EXCHANGE


def test_the_others_see_two_cards_go_and_two_come_unseen() -> None:
    """The public form names no card: the others' views count two cards out and two in, and
    no view knows the shuffled order (over the network: the deck's own shuffle)."""
    t = _table()
    t.do("0 lead 6♠")
    other = private_view(t.state, 0)
    full, _ = apply(t.state, A.exchange(1, t.c("6♥"), t.c("8♠")))
    view, events = apply(other, A.exchange(1))
    assert events == (E.Exchanged(1, 2, (), ()),)
    assert view.hidden[1] == 6
    assert state_hash(view) == state_hash(full)
    full, _ = apply(full, A.shuffle(DECK_ORDER))
    view, _ = apply(view, A.shuffle(3))
    assert all(c == UNKNOWN for c in full.stock[:-1])
    assert state_hash(view) == state_hash(full)


def test_where_the_given_cards_go_is_a_table_choice() -> None:
    """Not in the source: shuffled in (the catalogue's recommendation), or on the top, or at
    the bottom above the trump card (`swap_two: return_to`)."""
    t = _table(swap_two=(("return_to", "top"),))
    t.do("0 lead 6♠", "1 take")
    t = _table(swap_two=(("return_to", "top"),))
    t.do("0 lead 6♠")
    t.state, _ = apply(t.state, A.exchange(1, t.c("6♥"), t.c("8♠")))
    assert t.state.phase == Phase.BOUT
    assert t.state.stock[:2] == t.cs("6♥ 8♠")
    t = _table(swap_two=(("return_to", "bottom"),))
    t.do("0 lead 6♠")
    t.state, _ = apply(t.state, A.exchange(1, t.c("6♥"), t.c("8♠")))
    assert t.state.stock[-3:] == t.cs("6♥ 8♠ 6♦")


def test_each_new_defender_may_exchange_once() -> None:
    """000_0a1bcdd496bc6662.txt: «Данная игра может играться также по правилам простого и
    переводного дурака.» — with transfers, each new defender has his own exchange (the
    catalogue's reading)."""
    rules = with_base_rules("pokerny", "perevodnoy")
    hands = ["6♠ 7♥ 10♠ J♥ Q♥ A♣", "6♣ 8♣ 6♥ 9♣ Q♣ K♥", "7♣ 9♠ 10♥ J♣ Q♠ 8♥"]
    t = Table("pokerny", hands, trump="6♦", stock=STOCK, first_attacker=0,
              transfer=rules.transfer, base_rules="perevodnoy")
    t.setup()
    t.do("0 lead 6♠")
    t.state, _ = apply(t.state, A.exchange(1, t.c("8♣"), t.c("9♣")))
    t.state, _ = apply(t.state, A.shuffle(0))
    t.do("1 transfer 6♣")
    assert t.state.defender == 2
    assert any(a.kind == A.EXCHANGE for a in legal_actions(t.state, 2))


def test_the_stock_must_hold_two_face_down_cards() -> None:
    """Not in the source, recommended: the turned trump card is not taken; fewer than two
    face-down cards in the stock, no exchange."""
    t = Table("pokerny", TWO, trump="6♦", stock=STOCK, first_attacker=0)
    game = t.game
    t.setup()
    t.state = t.state._replace(stock=t.state.stock[-2:])  # one face-down card above the trump
    t.do("0 lead 6♠")
    assert not any(a.kind == A.EXCHANGE for a in legal_actions(t.state, 1))
    assert game.rules.swap_two


def test_the_rules_go_together() -> None:
    rules = get_preset("pokerny").rules
    with pytest.raises(RuleError):
        make_game(rules.with_options(swap_two=()), 2)
    with pytest.raises(RuleError):
        make_game(rules.with_options(discard_rule="every_second_to_stock"), 2)
    for base in ("prostoy", "perevodnoy"):
        make_game(with_base_rules("pokerny", base), 4)
