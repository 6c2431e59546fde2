"""«Дурак двухкозырной» (dvukhkozyrny): after the deal one card per player is turned face up;
its suit is that player's own trump, and the defender's trump decides every beat.
Catalogue: shared/rules/variants-attack-defend.md, section `dvukhkozyrny`."""

from __future__ import annotations

import pytest
from engine_support import Table, deck_order

from p2p_durak.engine import Phase, RuleError, Suit, make_game, new_game
from p2p_durak.engine import events as E
from p2p_durak.engine.presets import get_preset, with_base_rules
from p2p_durak.engine.rules import validate

HANDS = ["6♣ 7♥ 8♥ 9♥ 10♥ 6♠", "8♣ 7♠ 9♠ 10♠ J♠ Q♠"]


def _table(hands: list[str], turned: str, **kw: object) -> Table:
    """`turned`: the cards turned for the seats from the dealer's left (seat 1 first with the
    dealer at 0), i.e. the top of the stock after the deal."""
    return Table("dvukhkozyrny", hands, stock=turned, **kw)  # type: ignore[arg-type]


def test_one_card_per_player_is_turned_for_his_own_trump() -> None:
    """000_0a1bcdd496bc6662.txt: «С верха колоды снимают то количество карт, сколько игроков
    принимает участие в игре. Эти карты открываются и кладутся короткими сторонами в стороны
    тех игроков, для которых они будут служить козырными мастями.»"""
    t = _table(HANDS, "K♦ A♣", first_attacker=0)
    t.setup()
    # dealer 0: the first card goes to his left neighbour (seat 1), the next to seat 0
    assert t.of(E.PersonalTrump) == [E.PersonalTrump(1, t.c("K♦"), int(Suit.DIAMONDS)),
                                     E.PersonalTrump(0, t.c("A♣"), int(Suit.CLUBS))]
    assert t.state.seat_trumps == (Suit.CLUBS, Suit.DIAMONDS)
    assert t.state.trump_card < 0  # no card under the stock
    # the turned cards stay face up out of play
    assert t.state.discard == (1 << t.c("K♦")) | (1 << t.c("A♣"))
    assert len(t.state.stock) == 36 - 12 - 2


def test_the_defenders_trump_beats_and_the_attackers_is_a_plain_suit() -> None:
    """000_0a1bcdd496bc6662.txt: «Если карта, которую необходимо отбить не является козырем,
    то можно отбить ее козырем.» — the defender's own trump: seat 1's diamonds beat, seat 0's
    clubs are a plain suit to seat 1."""
    t = _table(["6♣ 7♥ 8♥ 9♥ 10♥ 6♠", "8♣ 7♦ 9♠ 10♠ J♠ Q♠"], "K♦ A♣", first_attacker=0)
    t.setup()
    assert t.state.trump == Suit.DIAMONDS  # seat 1 defends: his suit decides
    t.do("0 lead 7♥")
    assert "1 beat 7♦ on 7♥" in t.legal(1)
    t.do("1 beat 7♦ on 7♥", "0 pass")
    # now seat 1 attacks seat 0, whose trump is clubs: 6♣ beats a spade
    assert (t.state.attacker, t.state.trump) == (1, Suit.CLUBS)
    t.do("1 lead 9♠")
    assert "0 beat 6♣ on 9♠" in t.legal(0)


def test_the_attackers_trump_is_beaten_by_the_defenders_trump() -> None:
    """000_0a1bcdd496bc6662.txt: «Для того, чтобы отбить необходимо, положить карту старшего
    значения той же масти. Если карта, которую необходимо отбить не является козырем, то можно
    отбить ее козырем.» — seat 0's club is no trump for seat 1, whose diamond beats it."""
    t = _table(["6♣ 7♥ 8♥ 9♥ 10♥ 6♠", "8♣ 7♦ 9♠ 10♠ J♠ Q♠"], "K♦ A♣", first_attacker=0)
    t.setup()
    t.do("0 lead 6♣")
    assert sorted(a for a in t.legal(1) if " beat " in a) == ["1 beat 7♦ on 6♣",
                                                              "1 beat 8♣ on 6♣"]


def test_the_lowest_own_trump_leads_first() -> None:
    """000_0a1bcdd496bc6662.txt: «В первой игре ходит первым игрок, у которого имеется младший
    козырь» — each player's lowest card of his own trump suit, compared by rank."""
    t = _table(["6♣ 7♥ 8♥ 9♥ 10♥ 6♠", "8♣ 7♦ 9♠ 10♠ J♠ Q♠"], "K♦ A♣")
    t.setup()
    claims = t.of(E.Claimed)
    # seat 1 shows 7♦ (his diamonds), seat 0 shows 6♣ (his clubs): the six is lower
    assert claims == [E.Claimed(1, t.c("7♦")), E.Claimed(0, t.c("6♣"))]
    assert t.state.phase == Phase.LEAD
    assert t.state.attacker == 0


def test_a_claim_of_another_suit_is_refused() -> None:
    """000_0a1bcdd496bc6662.txt: «ходит первым игрок, у которого имеется младший козырь» — his
    own trump, not another player's."""
    rules = get_preset("dvukhkozyrny").rules
    game = make_game(rules, 2, 0)
    order = deck_order(game, ["6♣ 7♥ 8♥ 9♥ 10♥ 6♠", "8♣ 7♦ 9♠ 10♠ J♠ Q♠"], stock="K♦ A♣")
    t = Table("dvukhkozyrny", ["6♣ 7♥ 8♥ 9♥ 10♥ 6♠", "8♣ 7♦ 9♠ 10♠ J♠ Q♠"], stock="K♦ A♣")
    t.state = new_game(game, order)
    t.do("deal", "reveal K♦", "reveal A♣")
    assert t.state.phase == Phase.CLAIM
    t.refuse("1 claim 8♣")  # clubs are seat 0's trump, not seat 1's
    t.do("1 claim 7♦")


def test_transfers_move_the_trump_to_the_new_defender() -> None:
    """000_0a1bcdd496bc6662.txt: «Данная игра может играться также по правилам простого и
    переводного дурака.» — after a transfer the new defender's own suit decides."""
    rules = with_base_rules("dvukhkozyrny", "perevodnoy")
    hands = ["6♣ 7♥ 8♥ 9♥ 10♥ 6♠", "6♥ 7♦ 9♠ 10♠ J♠ Q♠", "8♣ 9♣ 10♣ J♣ Q♣ K♣"]
    t = Table("dvukhkozyrny", hands, stock="K♦ A♥ A♣", first_attacker=0,
              transfer=rules.transfer, base_rules="perevodnoy")
    t.setup()
    assert t.state.seat_trumps == (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS)
    t.do("0 lead 6♠", "1 transfer 6♥")
    assert t.state.defender == 2
    assert t.state.trump == Suit.HEARTS


def test_capacity_counts_the_turned_cards() -> None:
    """000_0a1bcdd496bc6662.txt: «С верха колоды снимают то количество карт, сколько игроков
    принимает участие в игре.» — 6 players need 36 + 6 cards: refused with 36."""
    rules = get_preset("dvukhkozyrny").rules
    validate(rules, 5)
    with pytest.raises(RuleError):
        validate(rules, 6)
    validate(rules.with_options(deck_size=52), 6)
