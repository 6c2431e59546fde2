"""«Дурак переводной 2» (perevodnoy_2): the defender may also transfer thrown-in cards after
beating; the new defender beats only the unbeaten cards and takes the whole table if he fails.

Catalogue: shared/rules/variants-attack-defend.md, section `perevodnoy_2`."""

from __future__ import annotations

from engine_support import Table

from p2p_durak.engine import Reason
from p2p_durak.engine import events as E

# A (seat 0) and B (seat 1) of the compendium's example; trump spades.
_A = "6♣ 8♥ 9♦ 10♦ J♦ K♠"
_B = "8♣ 8♦ 7♠ 7♥ Q♥ A♠"


def _example(preset: str = "perevodnoy_2") -> Table:
    t = Table(preset, [_A, _B], trump="6♠", stock="7♦ 7♣ 9♣ 10♣ J♣ Q♣", first_attacker=0)
    t.setup()
    t.do("0 lead 6♣", "1 beat 8♣ on 6♣", "0 throw 8♥")
    return t


def test_the_worked_example_transfers_a_thrown_in_card_back_to_the_attacker() -> None:
    """000_0a1bcdd496bc6662.txt: «Игрок может не отбивать подкинутую карту, а в том случае,
    если у него есть карта такого же значения перевести все карты следующему игроку по часовой
    стрелке.» and «Допустим игрок А походил к игроку Б шестеркой треф, игрок Б отбил восьмеркой
    треф, затем игрок А подкидывает восьмерку червы, а игрок Б переводит игроку А восьмеркой
    бубны, в итоге игрок А должен отбить эти две восьмерки.» and «Если игрок А, который
    отбивается, отобьет эти карты, то все выложенные карты идут в отбой»"""
    t = _example()
    assert "1 transfer 8♦" in t.legal(1)
    t.do("1 transfer 8♦")
    assert (t.state.attacker, t.state.defender) == (0, 0)
    # the beaten pair stays beaten: A beats only the two eights
    assert t.table_text() == [("6♣", "8♣"), ("8♥", None), ("8♦", None)]
    t.do("0 beat 9♦ on 8♦", "0 beat K♠ on 8♥", "1 pass")
    assert t.of(E.Discarded)[0].cards == tuple(sorted(t.cs("6♣ 8♣ 8♥ 8♦ 9♦ K♠")))
    # «первым берет игрок, который делал первый ход, затем ... по часовой стрелке»
    assert [(e.seat, e.n) for e in t.of(E.Drew)] == [(0, 4), (1, 2)]
    assert (t.state.attacker, t.state.defender) == (0, 1)


def test_a_new_defender_who_fails_takes_every_card_on_the_table() -> None:
    """000_0a1bcdd496bc6662.txt: «Если игрок, который отбивается, не отобьет все эти карты, то
    он забирает все выложенные карты себе.»"""
    t = _example()
    t.do("1 transfer 8♦", "0 take")  # no throw-ins after «беру» in the compendium template
    assert t.of(E.Took)[0] == E.Took(0, tuple(sorted(t.cs("6♣ 8♣ 8♥ 8♦"))))
    assert t.state.hands[0] == sum(1 << c for c in t.cs("9♦ 10♦ J♦ K♠ 6♣ 8♣ 8♥ 8♦"))
    assert (t.state.attacker, t.state.defender) == (1, 0)


def test_transfer_on_the_lead_still_works() -> None:
    """000_0a1bcdd496bc6662.txt: «положить карту такого же значения и обе карты переходят к
    следующему игроку по часовой стрелке для отбивания.»"""
    t = Table("perevodnoy_2", ["8♥ 6♣ 9♦ 10♦ J♦ K♠", "8♣ 8♦ 7♠ 7♥ Q♥ A♠", "6♥ 7♦ 7♣ 9♣ 10♣ J♣"],
              trump="6♠", first_attacker=0)
    t.setup()
    t.do("0 lead 8♥", "1 transfer 8♦")
    assert t.state.defender == 2


def test_the_plain_transfer_variant_refuses_the_same_transfer() -> None:
    """000_0a1bcdd496bc6662.txt: «Игрок ходит картой к игроку слева от себя и этот игрок должен
    отбить эту карту или же сделать следующее: положить карту такого же значения» — in
    «Дурак переводной» only the lead is transferred."""
    t = _example("perevodnoy")
    assert "1 transfer 8♦" not in t.legal(1)
    assert t.refuse("1 transfer 8♦").reason is Reason.TRANSFER_NOT_ALLOWED


def test_unbeaten_cards_of_two_ranks_cannot_be_transferred() -> None:
    """Catalogue resolution: a transfer needs every unbeaten card to share one rank (the
    defender may not beat some and transfer the rest)."""
    # the template throws in only after a beat, so two unbeaten ranks need the app's timing
    t2 = Table("perevodnoy_2", ["6♣ 8♥ 9♦ 10♦ J♦ K♠", "8♣ 8♦ 7♠ 9♥ Q♥ A♠",
                                "6♥ 7♦ 7♣ 9♣ 10♣ J♣"], trump="6♠", first_attacker=0,
               throw_in_timing="until_bout_closed")
    t2.setup()
    t2.do("0 lead 6♣", "1 beat 8♣ on 6♣", "0 throw 8♥", "2 throw 6♥")
    assert not any("transfer" in a for a in t2.legal(1))
    assert t2.refuse("1 transfer 8♦").reason is Reason.TRANSFER_NOT_ALLOWED


def test_the_new_defender_must_hold_enough_cards() -> None:
    """Catalogue resolution (capacity, from the app): the new defender holds at least as many
    cards as the unbeaten cards after the transfer."""
    t = Table("perevodnoy_2", ["6♣ 7♦ 8♥ 9♦ 10♦ K♠", "7♣ 8♦ 8♣ 7♠ Q♥ A♠"], trump="6♠",
              first_attacker=0)
    t.setup()
    t.do("0 lead 6♣", "1 beat 7♣ on 6♣", "0 throw 7♦", "1 beat 8♦ on 7♦", "0 throw 8♥")
    # A holds 9♦ 10♦ K♠: three cards, four attack cards after the transfer but two unbeaten
    t.do("1 transfer 8♣")
    assert t.state.defender == 0
    assert [c for _, c in t.table_text()] == ["7♣", "8♦", None, None]
