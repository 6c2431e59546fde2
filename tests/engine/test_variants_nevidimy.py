"""«Дурак невидимый» (nevidimy): the bottom card of the stock sets the trump, but only its suit is
announced; the card stays face down and is drawn last. Catalogue:
shared/rules/variants-attack-defend.md, section `nevidimy`."""

from __future__ import annotations

from engine_support import Table

from p2p_durak.engine import (
    CHANCE,
    UNKNOWN,
    Phase,
    Suit,
    apply,
    legal_actions,
    make_game,
    new_game,
    next_game,
    public_view,
    random_playout,
)
from p2p_durak.engine import actions as A
from p2p_durak.engine import events as E
from p2p_durak.engine.presets import get_preset
from p2p_durak.engine.state import NO_CARD

HANDS = ["6♣ 7♥ 8♥ 9♥ 10♥ J♥", "8♣ 7♠ 9♠ 10♠ J♠ Q♠"]


def _bottom_last(hands: list[str], bottom: str) -> Table:
    """A table whose stock ends with `bottom` (named cards are dealt, the rest follow in id
    order; the card given as `trump` would be put first, so the bottom is placed by hand)."""
    t = Table("nevidimy", hands, first_attacker=0)
    order = list(t.state.stock)
    card = t.c(bottom)
    order.remove(card)
    order.append(card)
    t.state = new_game(t.game, order)
    return t


def test_only_the_suit_of_the_bottom_card_is_announced() -> None:
    """000_0a1bcdd496bc6662.txt: «После этого сдатчик смотрит нижнюю карту колоды и объявляет
    всем игрокам масть этой карты. Эта масть козырная. Далее эту колоду кладет по центру стола
    в закрытом виде.»"""
    t = _bottom_last(HANDS, "K♦")
    t.setup()
    assert t.of(E.TrumpRevealed) == [E.TrumpRevealed(NO_CARD, int(Suit.DIAMONDS))]
    assert t.state.trump == Suit.DIAMONDS
    assert t.state.trump_card == NO_CARD  # no card is turned
    assert t.state.stock[-1] == t.c("K♦")  # still the bottom of the closed stock
    assert len(t.state.stock) == 36 - 12
    # the public view shows no turned card
    assert public_view(t.state)[8] == NO_CARD


def test_the_announcement_must_be_the_bottom_cards_suit() -> None:
    """000_0a1bcdd496bc6662.txt: «объявляет всем игрокам масть этой карты»"""
    t = _bottom_last(HANDS, "K♦")
    t.do("deal")
    assert t.state.phase == Phase.REVEAL_TRUMP
    assert legal_actions(t.state, CHANCE) == (A.announce_suit(int(Suit.DIAMONDS)),)
    t.refuse(A.announce_suit(int(Suit.CLUBS)))
    t.refuse(A.reveal(t.c("K♦")))  # the card itself is never shown


def test_a_partial_view_takes_any_suit_of_an_unseen_card() -> None:
    """000_0a1bcdd496bc6662.txt: «Далее эту колоду кладет по центру стола в закрытом виде.» — a
    player's view does not know the bottom card; over the deck the announcer proves the suit."""
    game = make_game(get_preset("nevidimy").rules, 2, 0)
    view = new_game(game, None)
    view, _ = apply(view, A.deal())
    outcomes = legal_actions(view, CHANCE)
    assert outcomes == tuple(A.announce_suit(s) for s in range(4))
    view, _ = apply(view, A.announce_suit(int(Suit.HEARTS)))
    assert view.trump == Suit.HEARTS
    assert view.stock[-1] == UNKNOWN


def test_the_bottom_card_is_drawn_last() -> None:
    """000_0a1bcdd496bc6662.txt: «Далее эту колоду кладет по центру стола в закрытом виде.» —
    the bottom card stays in the stock and is drawn last (the catalogue's resolution)."""
    t = _bottom_last(HANDS, "K♦")
    t.setup()
    while t.state.stock:
        attacker = t.state.attacker
        lowest = t.state.hands[attacker] & -t.state.hands[attacker]
        t.state = apply(t.state, A.lead(attacker, lowest.bit_length() - 1))[0]
        drew_before = len(t.state.stock)
        t.state, events = apply(t.state, A.Action(A.TAKE, t.state.defender))
        if not t.state.stock:
            draws = [e for e in events if isinstance(e, E.Drew)]
            assert draws[-1].cards[-1] == t.c("K♦")
            assert drew_before >= 1


def test_the_outsider_keeps_dealing_in_later_games() -> None:
    """000_0a1bcdd496bc6662.txt: «Для игры необходимо привлечь постороннего человека, который бы
    был сдатчиком.» — no loser deals: the same deal place every game."""
    game = make_game(get_preset("nevidimy").rules, 3, 1)
    final = random_playout(new_game(game, list(range(game.n_cards))), 5)
    assert final.result is not None
    assert next_game(final).dealer == 1
