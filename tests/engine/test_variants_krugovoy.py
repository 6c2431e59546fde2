"""«Дурак круговой» (krugovoy): after every bout and its refill the hands pass one seat to the
left; two players swap hands. Catalogue: shared/rules/variants-attack-defend.md, `krugovoy`."""

from __future__ import annotations

from engine_support import Table, mask_text

from p2p_durak.engine import events as E


def t_text(t: Table, cards: str) -> str:
    return mask_text(t.game, sum(1 << c for c in t.cs(cards)))


def test_two_players_swap_hands_after_the_refill() -> None:
    """000_0a1bcdd496bc6662.txt: «Затем карты у игроков меняются местами. Если играют 2 игрока,
    то один игрок отдает другому все свои карты, а другой отдает взамен свои карты.»"""
    t = Table("krugovoy", ["6♦ 7♠ 10♦ Q♣ 9♥ K♥", "7♦ 8♠ J♦ A♣ 8♥ 10♥"], trump="6♥",
              stock="6♣ 7♣ 9♣", first_attacker=0)
    t.setup()
    t.do("0 lead 6♦", "1 beat 7♦ on 6♦", "0 pass")
    # the refill first (attacker, then defender), then the swap
    kinds = [type(e) for e in t.events]
    assert kinds.index(E.Drew) < kinds.index(E.HandsRotated)
    assert t.of(E.HandsRotated) == [E.HandsRotated((0, 1))]
    assert t.hand(0) == t_text(t, "8♠ A♣ J♦ 8♥ 10♥ 7♣")
    assert t.hand(1) == t_text(t, "7♠ Q♣ 10♦ 9♥ K♥ 6♣")
    # the seats keep their roles: the defender attacks next, now with the other hand
    assert (t.state.attacker, t.state.defender) == (1, 0)


def test_more_players_pass_to_the_left() -> None:
    """000_0a1bcdd496bc6662.txt: «Если игроков более двух, то карты меняются у игроков по
    часовой стрелке. Например, каждый игрок отдает свои карты игроку слева от себя.»"""
    hands = ["6♦ 7♠ 10♦ Q♣ 9♥ K♥", "7♦ 8♠ J♦ A♣ 8♥ 10♥", "6♣ 7♣ 8♣ 9♣ 10♣ J♣"]
    t = Table("krugovoy", hands, trump="6♥", first_attacker=0)
    t.setup()
    before = t.state.hands
    t.do("0 lead 6♦", "1 take")
    after = t.state.hands
    # seat s now holds what seat s-1 held (after the take and the refill)
    assert after[1] & before[0] == before[0] & ~(1 << t.c("6♦"))
    assert after[2] == before[1] | (1 << t.c("6♦"))
    assert after[0] & before[2] == before[2]
    assert t.of(E.HandsRotated) == [E.HandsRotated((0, 1, 2))]


def test_players_who_are_out_get_no_hand() -> None:
    """Catalogue resolution: once the stock is empty a player with no cards is out before the
    hands move, and only the players still holding cards pass them on."""
    t = Table("krugovoy", ["6♦ 7♠ 10♦ Q♣ 9♥ K♥", "7♦ 8♠ J♦ A♣ 8♥ 10♥", "6♣ 7♣ 8♣ 9♣ 10♣ J♣"],
              trump="6♥", first_attacker=0)
    t.setup()
    masks = tuple(sum(1 << c for c in t.cs(h)) for h in ("7♠", "8♠ A♣", "6♣ 7♣"))
    t.state = t.state._replace(hands=masks, stock=())
    t.do("0 lead 7♠", "1 beat 8♠ on 7♠", "2 pass")
    assert t.of(E.PlayerOut) == [E.PlayerOut(0)]
    assert t.of(E.HandsRotated) == [E.HandsRotated((1, 2))]
    assert t.state.hands[0] == 0
    assert t.hand(1) == t_text(t, "6♣ 7♣")
    assert t.hand(2) == t_text(t, "A♣")
