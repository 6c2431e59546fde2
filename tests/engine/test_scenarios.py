"""Whole-bout and whole-game scenarios from fixed deck orders, written as readable hands.

Each scenario names the sentences of shared/seeds/001_c746c7bb87124419.txt it plays out. The
deck orders are built by `engine_support.deck_order` from each seat's hand, the turned trump
card and the top of the stock, so a scenario reads like a description of the deal.
"""

from __future__ import annotations

import random

import pytest
from engine_support import Table, random_playout

from p2p_durak.engine import (
    UNKNOWN,
    Phase,
    Reason,
    RuleError,
    Suit,
    apply,
    make_game,
    new_game,
    next_game,
    public_view,
    to_act,
    validate,
)
from p2p_durak.engine import actions as A
from p2p_durak.engine import events as E
from p2p_durak.engine.presets import get_preset


def test_several_throw_ins_from_several_seats() -> None:
    """001_c746c7bb87124419.txt:
    «пока кон не закончен, можно подкидывать карты того же достоинства, что уже лежат
    на столе. Первым подкидывает ходивший, потом остальные по кругу.» and «Когда всё покрыто
    и никто ничего не подкинул, карты уходят в бито, и ход переходит к отбившемуся.»"""
    t = Table("app_podkidnoy", ["8♠ 8♣ 6♠ 7♠ 10♠ J♠", "9♠ 10♥ A♥ 9♣ K♠ A♠",
                                "8♥ 6♣ 7♣ Q♣ K♣ A♣", "9♥ 6♥ 7♥ J♥ Q♥ K♥"], trump="6♦",
              stock="7♦ 8♦ 9♦ 10♦ J♦ Q♦", first_attacker=0)
    t.setup()
    t.do("0 lead 8♠", "1 beat 9♠ on 8♠")
    t.do("2 throw 8♥")
    t.do("3 throw 9♥")  # 9 is on the table as a covering card
    t.do("1 beat 10♥ on 8♥", "1 beat A♥ on 9♥")
    t.do("0 throw 8♣", "1 beat 9♣ on 8♣")
    assert t.table_text() == [("8♠", "9♠"), ("8♥", "10♥"), ("9♥", "A♥"), ("8♣", "9♣")]
    assert to_act(t.state) == {0, 2, 3}
    t.do("2 pass", "3 pass", "0 pass")
    assert t.of(E.Discarded)[0].cards == tuple(sorted(t.cs("8♠ 9♠ 8♥ 10♥ 9♥ A♥ 8♣ 9♣")))
    # refill: seat 0 (led), then 2 and 3, then the defender seat 1
    assert [(e.seat, e.n) for e in t.of(E.Drew)] == [(0, 2), (2, 1), (3, 1), (1, 4)]
    assert (t.state.attacker, t.state.defender) == (1, 2)
    assert t.of(E.BoutStarted) == [E.BoutStarted(1, 2, 6)]


def test_a_pass_is_not_final_when_the_table_changes() -> None:
    """SP9 (catalogue): a pass holds only until the table changes — a new rank lets a seat
    that passed throw in again."""
    t = Table("app_podkidnoy", ["8♠ 6♠ 7♠ 10♠ J♠ Q♠", "9♠ 10♥ A♥ 9♣ K♠ A♠",
                                "9♥ 6♣ 7♣ Q♣ K♣ A♣"], trump="6♦", first_attacker=0)
    t.setup()
    t.do("0 lead 8♠", "2 pass")
    assert 2 not in to_act(t.state)
    assert t.refuse("2 pass").reason in (Reason.ALREADY_PASSED, Reason.NOT_YOUR_TURN)
    t.do("1 beat 9♠ on 8♠")
    assert 2 in to_act(t.state)
    assert "2 throw 9♥" in t.legal(2)
    t.do("2 throw 9♥")


def test_take_with_throw_ins_vdogonku() -> None:
    """001_c746c7bb87124419.txt:
    «Если отбиться нечем ..., отбивающийся говорит «беру». Остальные ещё могут
    подкинуть ему «вдогонку» — сколько позволяет лимит, — и он забирает со стола всё.
    Взявший пропускает ход: ходит следующий за ним.»"""
    t = Table("app_podkidnoy", ["10♠ 10♣ 6♠ 7♠ 8♠ 9♠", "J♠ 6♥ 7♥ 8♥ 9♥ 6♣",
                                "10♥ J♣ 7♣ 8♣ 9♣ Q♣", "10♦ J♥ Q♥ K♥ A♥ A♣"], trump="6♦",
              stock="7♦ 8♦ 9♦ J♦ Q♦ K♦ A♦", first_attacker=0)
    t.setup()
    t.do("0 lead 10♠ 10♣", "1 beat J♠ on 10♠", "1 take")
    assert to_act(t.state) == {0, 2, 3}
    t.do("2 throw 10♥", "3 throw J♥")  # J is on the table as a covering card
    t.do("2 throw J♣")  # five attack cards: the first bout's limit is reached
    took = t.of(E.Took)
    assert took == [E.Took(1, tuple(sorted(t.cs("10♠ J♠ 10♣ 10♥ J♥ J♣"))))]
    assert t.state.hand_size(1) == 5 + 6
    assert [(e.seat, e.n) for e in t.of(E.Drew)] == [(0, 2), (2, 2), (3, 1)]
    assert (t.state.attacker, t.state.defender) == (2, 3)


def test_transfer_chain_round_the_table() -> None:
    """001_c746c7bb87124419.txt:
    «пока отбивающийся не покрыл ни одной карты, он может перевести ... Перевести
    можно, только если у следующего хватает карт на все переведённые.» Each new defender
    transfers again; the lead attacker keeps his role, draws first and throws in."""
    t = Table("app_perevodnoy", ["7♠ 7♦ 8♠ 9♠ 10♠ J♠", "7♣ 8♣ 9♣ 10♣ J♣ Q♣",
                                 "7♥ 8♥ 9♥ 10♥ J♥ Q♥"], trump="A♦",
              stock="6♠ 6♣ 6♥ 6♦", first_attacker=0)
    t.setup()
    t.do("0 lead 7♠", "1 transfer 7♣", "2 transfer 7♥", "0 transfer 7♦")
    assert t.state.attacker == 0
    # 2, then back to the lead attacker (five cards for three), then 1 again
    assert [e.new_defender for e in t.of(E.Transferred)] == [2, 0, 1]
    assert t.state.defender == 1
    assert [a for a, _ in t.table_text()] == ["7♠", "7♣", "7♥", "7♦"]
    assert to_act(t.state) == {0, 1, 2}
    t.do("1 take", "0 pass", "2 pass")
    assert t.of(E.Took)[0].cards == tuple(sorted(t.cs("7♠ 7♣ 7♥ 7♦")))
    assert [(e.seat, e.n) for e in t.of(E.Drew)] == [(0, 2), (2, 1)]
    assert (t.state.attacker, t.state.defender) == (2, 0)


def test_transfer_by_showing_each_trump_once_a_bout() -> None:
    """001_c746c7bb87124419.txt:
    «Если включён перевод показом, достаточно показать козырь того же достоинства —
    карта остаётся на руке. Каждым козырем — один раз за кон.»"""
    t = Table("app_perevod_pokazom", ["7♠ 7♣ 8♠ 9♠ 10♠ J♠", "7♦ 8♦ 9♦ 10♦ J♦ Q♦",
                                      "7♥ 8♥ 9♥ 10♥ J♥ Q♥"], trump="A♦", first_attacker=0)
    t.setup()
    t.do("0 lead 7♠", "1 show 7♦")
    assert t.state.defender == 2
    assert t.state.table == t.cs("7♠")
    assert t.state.hand_size(1) == 6
    assert t.state.shown == 1 << t.c("7♦")
    t.do("2 transfer 7♥", "0 transfer 7♣")
    assert t.state.defender == 1
    assert "1 show 7♦" not in t.legal(1)
    assert t.refuse("1 show 7♦").reason is Reason.SHOW_NOT_ALLOWED
    t.do("1 beat 8♦ on 7♠", "1 beat 9♦ on 7♥", "1 beat 10♦ on 7♣", "0 pass", "2 pass")
    assert t.state.shown == 0  # a new bout: every trump may be shown again
    assert (t.state.attacker, t.state.defender) == (1, 2)
    assert "7♦" in t.hand(1).split()  # the shown seven never left the hand


def test_team_game_2v2() -> None:
    """001_c746c7bb87124419.txt, «2 на 2: командами»:
    «Подкидывают только соперники отбивающегося — на напарника не
    подкидывают.» «Переводят тоже только на соперника — следующего игрока другой команды.»
    «Вышли все игроки команды — она выиграла; оставшиеся — дураки, сколько бы карт у них ни
    было.» 24 cards for four: no stock, the dealer's last card is trump."""
    t = Table("app_komandy", ["9♠ 10♣ 10♦ K♣ A♣ A♥", "10♠ 10♥ J♠ J♣ K♥ J♦",
                              "9♥ Q♠ Q♣ Q♥ K♦ A♠", "J♥ Q♦ K♠ 9♣ 9♦ A♦"], trump="A♦",
              dealer=3, first_attacker=0, deck_size=24, transfer=True)
    t.setup()
    assert t.state.trump == Suit.DIAMONDS
    # bout 1: 0 attacks 1; only 0 and 2 (the defender's opponents) may throw in
    t.do("0 lead 9♠")
    assert to_act(t.state) == {0, 1, 2}
    t.refuse("3 throw 9♣")
    t.do("2 throw 9♥", "1 beat 10♠ on 9♠", "1 beat 10♥ on 9♥", "0 pass", "2 pass")
    # bout 2: 1 attacks 2; seat 2 beats five cards and goes out
    assert (t.state.attacker, t.state.defender) == (1, 2)
    t.do("1 lead J♠ J♣", "3 throw J♥", "2 beat Q♠ on J♠", "2 beat Q♣ on J♣",
         "2 beat Q♥ on J♥", "3 throw Q♦", "2 beat K♦ on Q♦", "3 throw K♠", "2 beat A♠ on K♠")
    assert t.of(E.PlayerOut) == [E.PlayerOut(2)]
    # the defender went out, so the next seat (3) attacks his next opponent (0)
    assert (t.state.attacker, t.state.defender) == (3, 0)
    t.do("3 lead 9♣ 9♦", "0 beat 10♣ on 9♣", "0 beat 10♦ on 9♦", "3 pass", "1 pass")
    # bout 4: 0 attacks 1; 1 transfers, and the next opponent of 1 is 0 again: 2 is out
    # and 3 is his partner
    assert (t.state.attacker, t.state.defender) == (0, 1)
    t.do("0 lead K♣", "1 transfer K♥")
    assert t.state.defender == 0
    t.do("0 beat A♣ on K♣", "0 beat A♥ on K♥")
    result = t.state.result
    assert result is not None
    assert result.durak == (1, 3)
    assert not result.draw
    assert t.state.hand_size(1) == 1
    assert t.state.hand_size(3) == 1


def test_draw_when_the_last_two_run_out_together() -> None:
    """001_c746c7bb87124419.txt:
    «Если в последнем коне карты кончились у всех разом — ничья.» Two seats, 24 cards:
    two bouts empty the stock (the trump card J♦ is drawn last), the third ends the game."""
    t = Table("app_podkidnoy", ["9♠ 9♣ 9♥ 9♦ A♣ A♦", "10♠ 10♣ 10♥ 10♦ K♣ K♦"], trump="J♦",
              stock="J♠ J♣ J♥ Q♠ K♠ Q♣ A♥ Q♦ A♠ K♥ Q♥", dealer=1, deck_size=24)
    t.setup()
    assert t.of(E.FirstAttacker) == [E.FirstAttacker(0, False)]  # 9♦ is the lowest trump
    t.do("0 lead 9♠ 9♣ 9♥ 9♦", "1 beat 10♠ on 9♠", "1 beat 10♣ on 9♣", "1 beat 10♥ on 9♥",
         "1 beat 10♦ on 9♦", "0 pass")
    t.do("1 lead K♣ K♦", "0 beat A♣ on K♣", "0 beat A♦ on K♦", "1 pass")
    assert t.state.stock == ()
    assert t.hand(0) == "J♠ Q♠ J♣ J♦ J♥ Q♥"
    assert t.of(E.Drew)[-1] == E.Drew(0, 2, t.cs("Q♥ J♦"))  # the trump card comes last
    t.do("0 lead J♠ J♣ J♥ J♦", "1 beat K♠ on J♠", "1 beat Q♣ on J♣", "1 beat A♥ on J♥",
         "1 beat Q♦ on J♦", "0 throw Q♠", "1 beat A♠ on Q♠", "0 throw Q♥", "1 beat K♥ on Q♥")
    result = t.state.result
    assert t.state.phase == Phase.OVER
    assert result is not None
    assert result.draw
    assert result.durak == ()
    assert t.of(E.GameOver) == [E.GameOver((), True, 0)]
    assert to_act(t.state) == frozenset()
    assert t.refuse("0 pass").reason is Reason.GAME_OVER


def test_an_empty_hand_is_refilled_while_the_stock_lasts() -> None:
    """001_c746c7bb87124419.txt:
    «Когда колода кончилась, игрок без карт выходит.» — only then: in bout 2 both
    seats play all their cards while the stock still has some, so both draw six and stay."""
    t = Table("app_podkidnoy", ["9♠ 9♣ 9♥ 9♦ Q♠ Q♣", "10♠ 10♣ 10♥ 10♦ J♠ J♣"], trump="6♦",
              stock="K♥ K♦ A♥ A♦ J♥ J♦ Q♥ Q♦", dealer=1)
    t.setup()
    t.do("0 lead 9♠ 9♣ 9♥ 9♦", "1 beat 10♠ on 9♠", "1 beat 10♣ on 9♣", "1 beat 10♥ on 9♥",
         "1 beat 10♦ on 9♦", "0 pass")
    t.do("1 lead J♠ J♣ J♥ J♦", "0 beat Q♠ on J♠", "0 beat Q♣ on J♣", "1 throw Q♥",
         "1 throw Q♦", "0 beat K♥ on J♥", "0 beat K♦ on J♦", "0 beat A♥ on Q♥",
         "0 beat A♦ on Q♦")
    assert [(e.seat, e.n) for e in t.of(E.Drew)] == [(1, 6), (0, 6)]
    assert t.state.out == 0
    assert t.of(E.PlayerOut) == []
    assert len(t.state.stock) == 36 - 12 - 8 - 12
    assert (t.state.attacker, t.state.defender) == (0, 1)


def test_players_leave_when_the_deck_is_empty() -> None:
    """001_c746c7bb87124419.txt:
    «Когда колода кончилась, игрок без карт выходит.» Four seats and 24 cards leave no
    stock; seat 1 runs out in the second bout and every rotation skips him after that."""
    t = Table("app_podkidnoy", ["9♠ 9♣ 9♥ A♠ A♣ A♥", "10♠ 10♣ 10♥ Q♦ K♠ J♣",
                                "10♦ Q♣ K♣ K♥ J♠ J♥", "Q♠ 9♦ J♦ Q♥ K♦ A♦"], trump="A♦",
              dealer=3, first_attacker=0, deck_size=24)
    t.setup()
    t.do("0 lead 9♠ 9♣ 9♥", "1 beat 10♠ on 9♠", "2 throw 10♦", "1 beat Q♦ on 10♦",
         "3 throw Q♠", "1 beat K♠ on Q♠", "1 beat 10♣ on 9♣", "1 beat 10♥ on 9♥")
    # five attack cards in the first bout: nobody may add one, the bout is over
    assert t.state.bout == 1
    assert t.state.hand_size(1) == 1
    t.do("1 lead J♣", "2 beat Q♣ on J♣", "3 pass", "0 pass")
    assert t.of(E.PlayerOut) == [E.PlayerOut(1)]
    assert t.state.finish == (1,)
    assert (t.state.attacker, t.state.defender) == (2, 3)
    t.do("2 lead K♣", "3 take", "0 pass", "2 pass")
    assert 1 not in to_act(t.state)
    # the taker's left neighbour attacks, and his own left neighbour (1) is out: 2 defends
    assert (t.state.attacker, t.state.defender) == (0, 2)
    assert t.refuse("1 lead J♣").reason in (Reason.NOT_YOUR_TURN, Reason.NOT_IN_HAND)


def _pogony_table(durak_final: str, winner_final: str, preset: str = "app_pogony") -> Table:
    """Two seats, 36 cards: three bouts of fours (7s by 8s, 9s by 10s, Js by Qs) empty the
    stock, leaving seat 0 with `durak_final` and seat 1 with `winner_final` (K♦ last)."""
    a_final, b_final = durak_final.split(), winner_final.split()
    assert b_final[-1] == "K♦"
    stock = " ".join(["10♠ 10♣ 10♥ 10♦ 9♥ 9♦", *b_final[:2], "Q♠ Q♣ Q♥ Q♦ J♠ J♣ J♥ J♦",
                      *a_final[2:], *b_final[2:5]])
    return Table(preset, [" ".join(["7♠ 7♣ 7♥ 7♦", *a_final[:2]]),
                                "8♠ 8♣ 8♥ 8♦ 9♠ 9♣"], trump="K♦", stock=stock, dealer=1)


def _empty_the_stock(t: Table) -> None:
    t.setup()
    assert t.state.attacker == 0  # seat 0 holds 6♦, the lowest trump
    t.do("0 lead 7♠ 7♣ 7♥ 7♦", "1 beat 8♠ on 7♠", "1 beat 8♣ on 7♣", "1 beat 8♥ on 7♥",
         "1 beat 8♦ on 7♦", "0 pass")
    t.do("1 lead 9♠ 9♣ 9♥ 9♦", "0 beat 10♠ on 9♠", "0 beat 10♣ on 9♣", "0 beat 10♥ on 9♥",
         "0 beat 10♦ on 9♦", "1 pass")
    t.do("0 lead J♠ J♣ J♥ J♦", "1 beat Q♠ on J♠", "1 beat Q♣ on J♣", "1 beat Q♥ on J♥",
         "1 beat Q♦ on J♦", "0 pass")
    assert t.state.stock == ()


@pytest.mark.parametrize(("winner_final", "final_bout", "pogony"), [
    ("6♠ K♥ A♠ A♣ A♦ K♦",
     ["1 lead 6♠", "0 beat K♠ on 6♠", "1 throw K♥", "0 beat A♥ on K♥", "1 throw K♦",
      "1 throw A♠", "1 throw A♣", "1 throw A♦", "0 take"], 1),
    ("6♠ 6♣ K♥ A♠ A♣ K♦",
     ["1 lead 6♠ 6♣", "0 beat K♠ on 6♠", "1 throw K♥", "1 throw K♦", "0 beat A♥ on K♥",
      "1 throw A♠", "1 throw A♣", "0 take"], 2),
    ("6♠ 6♣ 6♥ K♥ A♠ K♦",
     ["1 lead 6♠ 6♣ 6♥", "0 beat K♠ on 6♠", "1 throw K♥", "1 throw K♦", "0 beat A♥ on K♥",
      "1 throw A♠", "0 take"], 2),
])
def test_pogony_for_a_durak_finished_off_with_sixes(winner_final: str, final_bout: list[str],
                                                    pogony: int) -> None:
    """001_c746c7bb87124419.txt:
    «Погоны (включаются в настройках): если дурака добили шестёркой — на плечо ему
    вешают погон, двумя шестёрками — погоны на оба плеча.» Three sixes still make two: there
    are only two shoulders (the catalogue's pogony_max)."""
    all_cards = {"6♠", "6♣", "6♥", "6♦", "K♠", "K♣", "K♥", "K♦", "A♠", "A♣", "A♥", "A♦"}
    durak_final = " ".join(["6♦", *sorted(all_cards - set(winner_final.split()) - {"6♦"})])
    t = _pogony_table(durak_final, winner_final)
    _empty_the_stock(t)
    assert t.hand(1) == " ".join(sorted(winner_final.split(), key=lambda c: (
        "♠♣♦♥".index(c[-1]), ["6", "7", "8", "9", "10", "J", "Q", "K", "A"].index(c[:-1]))))
    t.do(*final_bout)
    result = t.state.result
    assert result is not None
    assert result.durak == (0,)
    assert result.pogony == pogony
    assert t.of(E.GameOver) == [E.GameOver((0,), False, pogony)]


def test_no_pogony_without_the_option() -> None:
    """001_c746c7bb87124419.txt:
    «Погоны (включаются в настройках)» — off in the default rules."""
    t = _pogony_table("6♦ 6♥ K♠ K♣ A♥ A♦", "6♠ 6♣ K♥ A♠ A♣ K♦", preset="app_podkidnoy")
    _empty_the_stock(t)
    t.do("1 lead 6♠ 6♣", "0 beat K♠ on 6♠", "1 throw K♥", "1 throw K♦", "0 beat A♥ on K♥",
         "1 throw A♠", "1 throw A♣", "0 take")
    assert t.state.result is not None
    assert t.state.result.pogony == 0


def test_series_durak_deals_and_his_right_neighbour_attacks_him() -> None:
    """001_c746c7bb87124419.txt:
    «Можно играть серию партий: следующую сдаёт дурак, и первым ходят под него — ходит
    сосед справа от дурака.» The first-bout limit of five holds in every game."""
    rules = get_preset("app_seriya").rules
    rng = random.Random(5)
    game = make_game(rules, 4, 0)
    for _ in range(4):
        order = list(range(36))
        rng.shuffle(order)
        final, _ = random_playout(game, order, rng)
        assert final.result is not None
        following = next_game(final)
        if final.result.draw:  # SP16: the same dealer, the lowest trump leads
            assert following.dealer == game.dealer
            assert following.first_attacker is None
        else:
            (durak,) = final.result.durak
            assert following.dealer == durak
            assert following.first_attacker == (durak - 1) % 4
            state, events = apply(new_game(following, order), A.deal())
            state, more = apply(state, A.reveal(state.stock[0]))
            assert state.phase == Phase.LEAD  # no claims in a later game
            assert (state.attacker, state.defender) == ((durak - 1) % 4, durak)
            assert E.BoutStarted((durak - 1) % 4, durak, 5) in more
            assert sum(isinstance(e, E.Claimed) for e in events + more) == 0
        assert following.game_index == game.game_index + 1
        game = following


def test_series_options_iz_pod_durak() -> None:
    """The compendium's «из-под дурака» (a lobby choice, SP17): the durak's left neighbour
    leads, and the durak is attacked last."""
    rules = get_preset("app_seriya").rules.with_options(first_attacker_next_game="iz_pod_durak")
    rng = random.Random(2)
    game = make_game(rules, 3, 0)
    order = list(range(36))
    rng.shuffle(order)
    final, _ = random_playout(game, order, rng)
    assert final.result is not None
    if not final.result.draw:
        (durak,) = final.result.durak
        following = next_game(final)
        assert following.dealer == durak
        assert following.first_attacker == (durak + 1) % 3


def test_japanese_diamonds_trump_and_spades_only_by_higher_spades() -> None:
    """001_c746c7bb87124419.txt, «Японский»:
    «козырь всегда бубны, а пики — особая масть: пику можно побить только
    старшей пикой, даже козырь её не берёт. Сами пики другие масти не бьют.»"""
    t = Table("app_yaponsky", ["7♠ 7♦ A♠ 8♦ 9♥ 10♥", "6♠ 7♣ 6♦ 9♠ 10♠ J♠"], dealer=0)
    t.do("deal")
    assert t.state.trump == Suit.DIAMONDS
    assert t.state.trump_card < 0
    (revealed,) = t.of(E.TrumpRevealed)
    assert revealed.suit == Suit.DIAMONDS
    assert revealed.card < 0  # a fixed suit: no card shows it
    assert len(t.state.stock) == 24  # no card is turned
    t.setup()
    assert t.state.attacker == 1  # 6♦ is the lowest diamond
    t.do("1 lead 6♠")
    assert t.refuse("0 beat 7♦ on 6♠").reason is Reason.DOES_NOT_BEAT  # not even a trump
    assert set(t.legal(0)) == {"0 beat 7♠ on 6♠", "0 beat A♠ on 6♠", "0 take"}
    t.do("0 beat 7♠ on 6♠", "1 throw 7♣")
    assert t.refuse("0 beat A♠ on 7♣").reason is Reason.DOES_NOT_BEAT  # spades beat nothing else
    t.do("0 beat 7♦ on 7♣")  # a diamond still trumps clubs
    t.do("1 throw 6♦")
    assert t.refuse("0 beat A♠ on 6♦").reason is Reason.DOES_NOT_BEAT
    t.do("0 beat 8♦ on 6♦", "1 pass")
    assert t.state.bout == 1


def test_hidden_trump_turns_when_the_stock_and_the_trump_card_are_gone() -> None:
    """001_c746c7bb87124419.txt, «Потайной козырь»:
    «После раздачи верхнюю карту кладут поперёк колоды открытой —
    это козырь, а ещё одну карту — закрытой под неё. Когда колода и козырь кончились,
    потайная карта открывается и становится новым козырем до конца партии».
    The hidden card stays out of play (hidden_trump_card: out_of_play)."""
    t = Table("app_potayny", ["9♠ 9♥ 9♣ Q♠ Q♥ Q♣", "10♠ 10♥ 10♣ J♠ J♥ J♣"], trump="Q♦",
              hidden="K♠", stock="9♦ K♥ J♦ A♠ A♦ 10♦ A♥ A♣ K♦ K♣", first_attacker=0,
              deck_size=24)
    t.setup()
    assert t.state.trump == Suit.DIAMONDS
    assert len(t.state.stock) == 11  # ten cards and the trump card; the hidden card is apart
    assert t.state.hidden_trump == UNKNOWN
    assert t.c("K♠") not in public_view(t.state)
    t.do("0 lead 9♠ 9♥ 9♣", "1 beat 10♠ on 9♠", "1 beat 10♥ on 9♥", "1 beat 10♣ on 9♣",
         "0 pass")
    t.do("1 lead J♠ J♥ J♣", "0 beat Q♠ on J♠", "0 beat Q♥ on J♥", "0 beat Q♣ on J♣",
         "1 pass")
    assert t.state.stock == ()
    assert t.state.phase == Phase.REVEAL_HIDDEN
    assert t.refuse("reveal A♣").reason is Reason.BAD_CHANCE
    t.do("reveal K♠")
    assert t.of(E.HiddenTrumpRevealed) == [E.HiddenTrumpRevealed(t.c("K♠"), int(Suit.SPADES))]
    assert t.state.trump == Suit.SPADES
    assert t.state.hidden_trump == t.c("K♠")
    assert t.hand(0) == "K♣ 9♦ J♦ Q♦ K♥"
    t.do("0 lead K♥")
    assert t.refuse("1 beat A♦ on K♥").reason is Reason.DOES_NOT_BEAT  # ♦ is trump no more
    t.do("1 beat A♠ on K♥")


def test_six_players_36_cards_no_stock_trump_is_the_last_dealt_card() -> None:
    """001_c746c7bb87124419.txt:
    «Каждому сдают по 6 карт, следующую кладут под колоду лицом вверх» — with six
    players there is no next card. SP2: the last dealt card (the dealer's) shows the trump,
    and its holder keeps it."""
    hands = ["6♠ 7♠ 8♠ 9♠ 10♠ J♠", "6♣ 7♣ 8♣ 9♣ 10♣ J♣", "6♥ 7♥ 8♥ 9♥ 10♥ J♥",
             "Q♠ K♠ A♠ Q♣ K♣ A♣", "Q♥ K♥ A♥ 6♦ 7♦ 8♦", "9♦ 10♦ J♦ Q♦ K♦ A♦"]
    t = Table("app_podkidnoy", hands, trump="A♦", dealer=5)
    t.do("deal")
    assert t.state.stock == ()
    assert t.refuse("reveal 6♠").reason is Reason.BAD_CHANCE
    t.do("reveal A♦")
    assert t.state.trump == Suit.DIAMONDS
    assert t.state.trump_card == t.c("A♦")
    assert "A♦" in t.hand(5).split()
    t.setup()
    assert t.state.attacker == 4  # 6♦
    t.do("4 lead Q♥", "5 beat 9♦ on Q♥", "0 pass", "1 pass", "2 pass", "3 pass", "4 pass")
    assert t.of(E.Drew) == []
    assert t.state.hand_size(4) == 5
    assert t.state.hand_size(5) == 5
    assert (t.state.attacker, t.state.defender) == (5, 0)
    forbid = get_preset("app_podkidnoy").rules.with_options(trump_when_no_stock="forbid")
    with pytest.raises(RuleError):
        validate(forbid, 6)


def test_compendium_template_throw_ins_after_the_beat_and_clockwise_refill() -> None:
    """000_0a1bcdd496bc6662.txt, «Дурак подкидной»: «Если игрок отбивает эту карту, то другие
    игроки могут подкидывать карты того же значения, что лежат на столе.» and «первым берет
    игрок, который делал первый ход, затем берут все остальные игроки по часовой стрелке».
    The compendium presets lead one card, throw in only when everything is covered, and have
    no throw-ins after a take (baseline.md §4)."""
    t = Table("podkidnoy", ["8♠ 8♣ 7♠ 10♠ J♠ Q♠", "9♠ 10♥ A♥ 9♣ K♠ A♠",
                            "9♥ 6♣ 7♣ Q♣ K♣ A♣"], trump="6♦", stock="7♦ 8♦ 9♦ 10♦",
              first_attacker=0)
    t.setup()
    assert "0 lead 8♠ 8♣" not in t.legal(0)
    assert t.refuse("0 lead 8♠ 8♣").reason is Reason.TOO_MANY_CARDS
    t.do("0 lead 8♠")
    assert to_act(t.state) == {1}  # nobody throws in before the defender beats
    t.do("1 beat 9♠ on 8♠")
    assert to_act(t.state) == {0, 2}
    t.do("2 throw 9♥")
    assert to_act(t.state) == {1}
    t.do("1 take")  # no throw-ins after «беру» in the compendium: the bout ends at once
    assert t.of(E.Took)[0].cards == tuple(sorted(t.cs("8♠ 9♠ 9♥")))
    assert [(e.seat, e.n) for e in t.of(E.Drew)] == [(0, 1), (2, 1)]
    assert (t.state.attacker, t.state.defender) == (2, 0)
