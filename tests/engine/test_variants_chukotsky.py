"""«Дурак чукотский» (chukotsky): the top card shows the trump, the stock is set aside and
nobody ever draws. Catalogue: shared/rules/variants-attack-defend.md, section `chukotsky`."""

from __future__ import annotations

from engine_support import Table

from p2p_durak.engine import Phase
from p2p_durak.engine import events as E


def test_the_shown_card_sets_the_trump_and_nobody_draws() -> None:
    """000_0a1bcdd496bc6662.txt: «Верхняя карта колоды открывается, показывается всем и
    кладется назад в колоду, масть этой карты является козырной. Сама же колода
    откладывается в сторону и участия в игре не принимает.»"""
    t = Table("chukotsky", ["6♣ 7♥ 8♥ 9♥ 10♥ J♥", "8♣ 7♠ 9♠ 10♠ J♠ Q♠"], trump="6♦",
              first_attacker=0)
    t.setup()
    assert t.state.trump == t.game.suit[t.c("6♦")]
    stock = len(t.state.stock)
    t.do("0 lead 6♣", "1 beat 8♣ on 6♣", "0 pass")
    assert t.of(E.Drew) == []
    assert len(t.state.stock) == stock
    assert (t.state.hand_size(0), t.state.hand_size(1)) == (5, 5)


def test_an_empty_hand_leaves_at_once_and_a_double_exit_is_a_draw() -> None:
    """000_0a1bcdd496bc6662.txt: «Сама же колода откладывается в сторону и участия в игре не
    принимает.» — with no stock in play an empty hand is out (SP15); both out is a draw
    (SP16)."""
    t = Table("chukotsky", ["6♣", "8♣"], trump="6♦", first_attacker=0, hand_size=1)
    t.setup()
    t.do("0 lead 6♣", "1 beat 8♣ on 6♣")
    assert t.state.phase == Phase.OVER
    assert t.state.result is not None
    assert t.state.result.draw
    assert len(t.state.stock) == 34
