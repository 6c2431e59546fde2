"""«Дурак пустой» (pustoy): a player draws only when his hand is empty, then a full hand.
Catalogue: shared/rules/variants-attack-defend.md, section `pustoy`."""

from __future__ import annotations

from engine_support import Table

from p2p_durak.engine import events as E


def test_only_an_empty_hand_draws() -> None:
    """000_0a1bcdd496bc6662.txt: «Игрокам разрешается добирать карты из колоды только в том
    случае, когда они у них закончатся.»"""
    t = Table("pustoy", ["6♣ 7♥ 8♥ 9♥ 10♥ J♥", "8♣ 7♠ 9♠ 10♠ J♠ Q♠"], trump="6♦",
              first_attacker=0)
    t.setup()
    t.do("0 lead 6♣", "1 beat 8♣ on 6♣", "0 pass")
    assert t.of(E.Discarded)
    assert t.of(E.Drew) == []
    assert (t.state.hand_size(0), t.state.hand_size(1)) == (5, 5)


def test_empty_hands_draw_a_full_hand_in_turn() -> None:
    """000_0a1bcdd496bc6662.txt: «Если карты заканчиваются сразу у нескольких игроков, то
    первым берет игрок, который делал первый ход, затем берут все остальные игроки по часовой
    стрелке.»"""
    t = Table("pustoy", ["6♣ 7♥", "8♣ 9♥"], trump="6♦", first_attacker=0, hand_size=2)
    t.setup()
    t.do("0 lead 6♣", "1 beat 8♣ on 6♣", "0 pass")
    assert t.of(E.Drew) == []  # one card each left
    t.do("1 lead 9♥", "0 take")
    # the taker holds three; the attacker's hand is empty and he draws a full hand
    assert [(e.seat, e.n) for e in t.of(E.Drew)] == [(1, 2)]
    both = Table("pustoy", ["6♣", "8♣"], trump="6♦", first_attacker=0, hand_size=1)
    both.setup()
    both.do("0 lead 6♣", "1 beat 8♣ on 6♣")
    assert [(e.seat, e.n) for e in both.of(E.Drew)] == [(0, 1), (1, 1)]
