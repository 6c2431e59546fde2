"""«Дурак козырной» (kozyrny): after a successful defence the bout's last card swaps places with
the trump card under the stock. Catalogue: shared/rules/variants-attack-defend.md, section
`kozyrny`."""

from __future__ import annotations

import pytest
from engine_support import Table

from p2p_durak.engine import RuleError, Suit
from p2p_durak.engine import events as E
from p2p_durak.engine.presets import get_preset, with_base_rules
from p2p_durak.engine.rules import validate

HANDS = ["6♣ 7♥ 8♥ 9♥ 10♥ J♥", "8♣ 7♠ 9♠ 10♠ J♠ Q♠"]


def test_a_defended_bout_swaps_its_last_card_with_the_trump_card() -> None:
    """000_0a1bcdd496bc6662.txt: «Если игрок, который отбивается, отобьет все выложенные карты,
    то последняя карта с отбоя меняется с козырной картой, которая лежит под колодой, отбой
    откладывается в закрытую стопку и участия в игре не принимает, а игра продолжается с новым
    козырем.»"""
    t = Table("kozyrny", HANDS, trump="6♦", first_attacker=0)
    t.setup()
    assert t.state.trump == Suit.DIAMONDS
    t.do("0 lead 6♣", "1 beat 8♣ on 6♣", "0 pass")
    assert t.of(E.TrumpSwapped) == [E.TrumpSwapped(t.c("8♣"), t.c("6♦"), int(Suit.CLUBS))]
    assert t.state.trump == Suit.CLUBS
    assert t.state.trump_card == t.c("8♣")
    assert t.state.stock[-1] == t.c("8♣")  # the new trump card lies under the stock
    discarded = t.of(E.Discarded)[0].cards
    assert sorted(discarded) == sorted(t.cs("6♣ 6♦"))
    assert t.state.discard == (1 << t.c("6♣")) | (1 << t.c("6♦"))
    # the refill follows the swap: both hands are full again and the stock kept its length
    assert (t.state.hand_size(0), t.state.hand_size(1)) == (6, 6)
    assert len(t.state.stock) == 36 - 12 - 2


def test_the_new_trump_decides_the_next_bouts() -> None:
    """000_0a1bcdd496bc6662.txt: «а игра продолжается с новым козырем.» — clubs now beat hearts,
    diamonds do not."""
    t = Table("kozyrny", HANDS, trump="6♦", first_attacker=0, stock="9♣ 7♦")
    t.setup()
    t.do("0 lead 6♣", "1 beat 8♣ on 6♣", "0 pass")
    # seat 0 drew 9♣ (the attacker draws first): it now trumps a heart lead of seat 1
    assert "9♣" in t.hand(0)
    t.do("1 lead 7♠")
    assert "0 beat 9♣ on 7♠" in t.legal(0)


def test_a_take_changes_nothing() -> None:
    """000_0a1bcdd496bc6662.txt: «Если игрок, который отбивается, не отобьет все выложенные
    карты, то он забирает все эти карты себе.» — and the trump stays."""
    t = Table("kozyrny", HANDS, trump="6♦", first_attacker=0)
    t.setup()
    t.do("0 lead 6♣", "1 take")
    assert t.of(E.TrumpSwapped) == []
    assert t.state.trump == Suit.DIAMONDS
    assert t.state.trump_card == t.c("6♦")


def test_the_last_card_is_the_last_beat_not_the_last_table_place() -> None:
    """000_0a1bcdd496bc6662.txt: «последняя карта с отбоя меняется с козырной картой» — the card
    played last, whichever attack card it covers (here a lead of two with the app's lead rule,
    the second attack card beaten first)."""
    t = Table("kozyrny", ["6♣ 6♥ 8♥ 9♥ 10♥ J♥", "8♣ 7♥ 9♠ 10♠ J♠ Q♠"], trump="6♦",
              first_attacker=0, lead_rule="same_rank_multi")
    t.setup()
    t.do("0 lead 6♣ 6♥", "1 beat 7♥ on 6♥", "1 beat 8♣ on 6♣", "0 pass")
    assert t.of(E.TrumpSwapped)[0].card == t.c("8♣")
    t2 = Table("kozyrny", ["6♣ 6♥ 8♥ 9♥ 10♥ J♥", "8♣ 7♥ 9♠ 10♠ J♠ Q♠"], trump="6♦",
               first_attacker=0, lead_rule="same_rank_multi")
    t2.setup()
    t2.do("0 lead 6♣ 6♥", "1 beat 8♣ on 6♣", "1 beat 7♥ on 6♥", "0 pass")
    assert t2.of(E.TrumpSwapped)[0].card == t2.c("7♥")
    assert t2.state.trump == Suit.HEARTS


def test_no_swap_once_the_trump_card_is_drawn() -> None:
    """000_0a1bcdd496bc6662.txt: «меняется с козырной картой, которая лежит под колодой» — with
    no card under the stock (here 24 cards dealt to four, the last dealt card shows the trump,
    SP2) a defence swaps nothing."""
    hands = ["9♣ 10♥ J♥ Q♥ K♥ A♥", "10♣ 9♠ 10♠ J♠ Q♠ K♠", "J♣ Q♣ K♣ A♣ 9♦ 10♦",
             "A♠ J♦ Q♦ K♦ A♦ 9♥"]
    t = Table("kozyrny", hands, trump="A♥", first_attacker=0, deck_size=24)
    t.setup()
    assert t.state.stock == ()
    t.do("0 lead 9♣", "1 beat 10♣ on 9♣", "0 pass", "2 pass", "3 pass")
    assert t.of(E.TrumpSwapped) == []
    assert t.state.trump == Suit.HEARTS


def test_the_swap_needs_a_turned_trump_card() -> None:
    rules = get_preset("kozyrny").rules
    with pytest.raises(RuleError) as caught:
        validate(rules.with_options(trump_rule="fixed_suit:diamonds"))
    assert caught.value.knob == "trump_change"
    for base in ("prostoy", "perevodnoy"):
        validate(with_base_rules("kozyrny", base))
