"""One test per rule of the app's rules page, the product default (`app_podkidnoy`).

Each test names the sentence it checks, quoted from shared/seeds/001_c746c7bb87124419.txt.
Hands are written per seat; `Table` deals them in the engine's deal order. Unless a test says
otherwise there are two seats, diamonds are trump and `first_attacker` skips the claims.
"""

from __future__ import annotations

import random

import pytest
from engine_support import Table, random_playout

from p2p_durak.engine import (
    CHANCE,
    Phase,
    Reason,
    Suit,
    apply,
    make_game,
    new_game,
    private_view,
    public_view,
    state_hash,
    to_act,
)
from p2p_durak.engine import actions as A
from p2p_durak.engine import events as E
from p2p_durak.engine.presets import get_preset


def test_goal_last_with_cards_is_durak() -> None:
    """001_c746c7bb87124419.txt:
    «Цель игры. Избавиться от всех карт. Кто последним остался с картами на руках —
    тот и дурак.» — checked on random games: at the end only the durak holds cards."""
    rules = get_preset("app_podkidnoy").rules
    rng = random.Random(1)
    for n in (2, 3, 4, 5, 6):
        game = make_game(rules, n, 0)
        for _ in range(6):
            order = list(range(game.n_cards))
            rng.shuffle(order)
            final, _ = random_playout(game, order, rng)
            assert final.result is not None
            holding = [s for s in range(n) if final.hand_size(s)]
            assert list(final.result.durak) == holding
            assert final.result.draw == (not holding)
            assert sorted(final.result.finish + final.result.durak) == list(range(n))


@pytest.mark.parametrize(("size", "lowest"), [(36, 6), (24, 9), (32, 7), (52, 2)])
def test_deck_sizes(size: int, lowest: int) -> None:
    """001_c746c7bb87124419.txt:
    «Играют колодой в 36 карт (с шестёрок; можно 24, 32 или 52).»"""
    rules = get_preset("app_podkidnoy").rules
    if size != 36:
        rules = rules.with_options(deck_size=size)
    game = make_game(rules, 2, 0)
    assert game.n_cards == size
    assert sorted(set(game.rank)) == list(range(lowest, 15))
    for suit in Suit:
        assert sum(1 for s in game.suit if s == suit) == size // 4
    assert get_preset("app_podkidnoy").rules.deck_size == 36


def test_deal_six_each_and_turn_the_next_card_for_trump() -> None:
    """001_c746c7bb87124419.txt:
    «Каждому сдают по 6 карт, следующую кладут под колоду лицом вверх — её масть
    козырь.»"""
    t = Table("app_podkidnoy", ["6♠ 7♠ 8♠ 9♠ 10♠ J♠", "6♥ 7♥ 8♥ 9♥ 10♥ J♥"], trump="Q♣",
              stock="6♦ 7♦")
    t.do("deal")
    assert [t.hand(0), t.hand(1)] == ["6♠ 7♠ 8♠ 9♠ 10♠ J♠", "6♥ 7♥ 8♥ 9♥ 10♥ J♥"]
    assert t.of(E.Dealt) == [E.Dealt(0, (6, 6))]
    assert t.state.phase == Phase.REVEAL_TRUMP
    assert to_act(t.state) == {CHANCE}
    t.do("reveal Q♣")
    state = t.state
    assert state.trump == Suit.CLUBS
    assert state.trump_card == t.c("Q♣")
    # face up under the stock: the last card drawn, visible to everyone
    assert state.stock[-1] == t.c("Q♣")
    assert state.stock[:2] == t.cs("6♦ 7♦")
    assert len(state.stock) == 36 - 12
    assert t.c("Q♣") in public_view(state)
    # a reveal of any other card is refused
    fresh = Table("app_podkidnoy", ["6♠ 7♠ 8♠ 9♠ 10♠ J♠", "6♥ 7♥ 8♥ 9♥ 10♥ J♥"], trump="Q♣")
    fresh.do("deal")
    assert fresh.refuse("reveal K♣").reason is Reason.BAD_CHANCE


def test_trump_beats_any_other_suit() -> None:
    """001_c746c7bb87124419.txt:
    «Козырь бьёт любую карту другой масти.»"""
    t = Table("app_podkidnoy", ["A♠ A♣ A♥ 7♠ 8♠ 9♠", "6♦ 7♦ 8♦ 6♠ 6♣ 6♥"], trump="10♦",
              first_attacker=0)
    t.setup()
    t.do("0 lead A♠ A♣ A♥")
    assert {"1 beat 6♦ on A♠", "1 beat 6♦ on A♣", "1 beat 6♦ on A♥"} <= set(t.legal(1))
    t.do("1 beat 6♦ on A♠", "1 beat 7♦ on A♣", "1 beat 8♦ on A♥")
    assert all(cover is not None for _, cover in t.table_text())


def test_lowest_trump_leads_first() -> None:
    """001_c746c7bb87124419.txt:
    «Первым ходит тот, у кого младший козырь.» Claims go round from the dealer's left;
    a claim that is not the lowest trump, or "no trump" from a trump holder, is refused."""
    t = Table("app_podkidnoy", ["6♠ 7♠ 8♠ 9♠ 10♠ J♠", "9♦ A♦ 8♥ 9♥ 10♥ J♥",
                                "7♦ K♦ 6♣ 7♣ 8♣ 9♣"], trump="6♦", dealer=0)
    t.do("deal", "reveal 6♦")
    assert t.state.phase == Phase.CLAIM
    assert to_act(t.state) == {1}
    assert t.refuse("1 claim A♦").reason is Reason.WRONG_CLAIM
    assert t.refuse("1 no_trump").reason is Reason.WRONG_CLAIM
    assert t.refuse("2 claim 7♦").reason is Reason.NOT_YOUR_TURN
    t.do("1 claim 9♦", "2 claim 7♦")
    assert t.refuse("0 claim 6♠").reason is Reason.WRONG_CLAIM
    t.do("0 no_trump")
    assert t.of(E.FirstAttacker) == [E.FirstAttacker(2, False)]
    assert t.state.phase == Phase.LEAD
    assert t.state.attacker == 2
    assert t.state.defender == 0


def test_nobody_holds_a_trump_then_lot() -> None:
    """001 is silent when nobody holds a trump; SP5 (the compendium): «если козыря нет, то
    либо по жребию» — a lot among all seats."""
    t = Table("app_podkidnoy", ["6♠ 7♠ 8♠ 9♠ 10♠ J♠", "6♥ 7♥ 8♥ 9♥ 10♥ J♥"], trump="6♦")
    t.do("deal", "reveal 6♦", "1 no_trump", "0 no_trump")
    assert t.state.phase == Phase.LOT
    assert t.state.lot_among == (0, 1)
    assert t.refuse("lot 2").reason is Reason.BAD_CHANCE
    t.do("lot 1")
    assert t.of(E.FirstAttacker) == [E.FirstAttacker(1, True)]
    assert t.state.attacker == 1


def test_play_goes_clockwise_to_the_left_neighbour() -> None:
    """001_c746c7bb87124419.txt:
    «Ходят по часовой стрелке: ходящий ходит под соседа слева.»"""
    t = Table("app_podkidnoy", ["6♠ 7♠ 8♠ 9♠ 10♠ J♠", "6♥ 7♥ 8♥ 9♥ 10♥ J♥",
                                "6♣ 7♣ 8♣ 9♣ 10♣ J♣", "Q♠ K♠ A♠ Q♣ K♥ A♥"], trump="6♦",
              first_attacker=2)
    t.setup()
    assert (t.state.attacker, t.state.defender) == (2, 3)
    t.do("2 lead 6♣", "3 beat Q♣ on 6♣", "0 pass", "1 pass", "2 pass")
    # the defender beat off, so he attacks his own left neighbour, seat 0
    assert (t.state.attacker, t.state.defender) == (3, 0)


def test_lead_one_card_or_several_of_one_rank() -> None:
    """001_c746c7bb87124419.txt:
    «Ходящий кладёт карту — или сразу несколько одного достоинства.»"""
    t = Table("app_podkidnoy", ["6♠ 6♣ 6♥ 9♠ 10♠ J♠", "Q♠ K♠ A♠ Q♥ K♥ A♥"], trump="6♦",
              first_attacker=0)
    t.setup()
    legal = set(t.legal(0))
    assert {"0 lead 6♠", "0 lead 6♠ 6♣", "0 lead 6♠ 6♥", "0 lead 6♠ 6♣ 6♥", "0 lead J♠"} <= legal
    assert "0 lead 9♠ 10♠" not in legal
    assert t.refuse("0 lead 9♠ 10♠").reason is Reason.NOT_SAME_RANK
    assert t.refuse("1 lead Q♠").reason is Reason.NOT_YOUR_TURN
    assert t.refuse("0 lead Q♠").reason is Reason.NOT_IN_HAND
    t.do("0 lead 6♠ 6♣ 6♥")
    assert [a for a, _ in t.table_text()] == ["6♠", "6♣", "6♥"]


def test_each_card_is_covered_by_a_higher_card_of_its_suit_or_a_trump() -> None:
    """001_c746c7bb87124419.txt:
    «Отбивающийся кроет каждую старшей картой той же масти или козырем (козырь —
    только старшим козырем).»"""
    t = Table("app_podkidnoy", ["9♠ 9♦ 6♥ 7♥ 8♥ 9♥", "8♠ 10♠ 10♣ 7♦ 10♦ A♥"], trump="6♦",
              first_attacker=0)
    t.setup()
    t.do("0 lead 9♠ 9♦")
    assert t.refuse("1 beat 8♠ on 9♠").reason is Reason.DOES_NOT_BEAT  # lower, same suit
    assert t.refuse("1 beat 10♣ on 9♠").reason is Reason.DOES_NOT_BEAT  # another plain suit
    assert t.refuse("1 beat 7♦ on 9♦").reason is Reason.DOES_NOT_BEAT  # a lower trump
    assert t.refuse("1 beat A♥ on 9♦").reason is Reason.DOES_NOT_BEAT  # a plain card on a trump
    assert set(t.legal(1)) >= {"1 beat 10♠ on 9♠", "1 beat 7♦ on 9♠", "1 beat 10♦ on 9♠",
                               "1 beat 10♦ on 9♦"}
    t.do("1 beat 10♦ on 9♦")
    assert t.refuse("1 beat 10♦ on 9♦").reason in (Reason.ALREADY_COVERED, Reason.NOT_IN_HAND)
    t.do("1 beat 10♠ on 9♠")
    assert t.table_text() == [("9♠", "10♠"), ("9♦", "10♦")]


def test_all_covered_goes_to_the_discard_and_the_defender_attacks() -> None:
    """001_c746c7bb87124419.txt:
    «Когда всё покрыто и никто ничего не подкинул, карты уходят в бито, и ход
    переходит к отбившемуся.»"""
    t = Table("app_podkidnoy", ["6♠ 7♠ 8♠ 9♠ 10♠ J♠", "Q♠ K♠ A♠ Q♥ K♥ A♥",
                                "6♣ 7♣ 8♣ 9♣ 10♣ J♣"], trump="6♦", first_attacker=0)
    t.setup()
    t.do("0 lead 6♠", "1 beat Q♠ on 6♠", "2 pass")
    assert t.state.phase == Phase.BOUT  # seat 0 may still throw in
    t.do("0 pass")
    assert t.of(E.Discarded) == [E.Discarded(tuple(sorted(t.cs("6♠ Q♠"))))]
    assert t.state.discard == (1 << t.c("6♠")) | (1 << t.c("Q♠"))
    assert (t.state.attacker, t.state.defender) == (1, 2)


def test_refill_attacker_first_then_the_others_the_defender_last() -> None:
    """001_c746c7bb87124419.txt:
    «После кона все добирают из колоды до шести: сначала ходивший, потом остальные,
    отбивавшийся — последним.» The others go clockwise from the attacker (SP13)."""
    t = Table("app_podkidnoy", ["6♠ 7♠ 8♠ 9♠ 10♠ J♠", "Q♠ K♠ A♠ Q♣ K♥ A♥",
                                "6♣ 7♣ 8♣ 9♣ 10♣ J♣", "6♥ 7♥ 8♥ 9♥ 10♥ J♥"],
              trump="6♦", stock="7♦ 8♦ 9♦ 10♦", first_attacker=0)
    t.setup()
    t.do("0 lead 6♠", "1 beat Q♠ on 6♠", "2 throw 6♣", "1 beat Q♣ on 6♣",
         "3 throw 6♥", "1 beat K♥ on 6♥", "2 pass", "3 pass", "0 pass")
    drew = [(e.seat, e.n) for e in t.of(E.Drew)]
    assert drew == [(0, 1), (2, 1), (3, 1), (1, 3)]
    assert [e.cards for e in t.of(E.Drew)][:3] == [t.cs("7♦"), t.cs("8♦"), t.cs("9♦")]


def test_throw_in_ranks_on_the_table_until_the_bout_closes() -> None:
    """001_c746c7bb87124419.txt:
    «В подкидном, пока кон не закончен, можно подкидывать карты того же достоинства,
    что уже лежат на столе.» Also while cards are uncovered, and the ranks of covering cards
    count too (SP11)."""
    t = Table("app_podkidnoy", ["6♠ 6♣ 8♣ 9♠ 10♠ J♠", "8♠ K♠ A♠ Q♥ K♥ A♥"], trump="6♦",
              first_attacker=0)
    t.setup()
    t.do("0 lead 6♠")
    assert set(t.legal(0)) == {"0 throw 6♣", "0 pass"}  # uncovered cards do not stop it
    assert t.refuse("0 throw 9♠").reason is Reason.RANK_NOT_ON_TABLE
    assert t.refuse("0 throw 8♣").reason is Reason.RANK_NOT_ON_TABLE
    t.do("0 throw 6♣", "1 beat 8♠ on 6♠")
    assert set(t.legal(0)) == {"0 throw 8♣", "0 pass"}  # 8 came with the covering card
    t.do("0 throw 8♣")
    assert [a for a, _ in t.table_text()] == ["6♠", "6♣", "8♣"]
    assert t.refuse("1 throw K♠").reason is Reason.THROW_IN_NOT_ALLOWED  # not the defender


def test_throw_ins_are_open_to_the_attacker_and_everyone_else() -> None:
    """001_c746c7bb87124419.txt:
    «Первым подкидывает ходивший, потом остальные по кругу.» The engine lets every
    eligible thrower act at once (the network's log orders racing throw-ins, docs/rules.md);
    the bout waits until each of them has passed, the lead attacker listed first."""
    t = Table("app_podkidnoy", ["6♠ 7♠ 8♠ 9♠ 10♠ J♠", "Q♠ K♠ A♠ Q♥ K♥ A♥",
                                "6♣ 7♣ 8♣ 9♣ 10♣ J♣", "6♥ 7♥ 8♥ 9♥ 10♥ J♥"], trump="6♦",
              first_attacker=0)
    t.setup()
    t.do("0 lead 6♠")
    assert to_act(t.state) == {0, 1, 2, 3}
    assert "2 throw 6♣" in t.legal(2)
    assert "3 throw 6♥" in t.legal(3)
    t.do("1 beat Q♠ on 6♠", "3 pass", "2 pass")
    assert to_act(t.state) == {0}  # the lead attacker has not passed yet
    t.do("0 pass")
    assert t.state.bout == 1


def test_first_bout_at_most_five_cards() -> None:
    """001_c746c7bb87124419.txt:
    «В первом коне партии — не больше пяти.»"""
    t = Table("app_podkidnoy", ["6♠ 6♣ 6♥ 7♠ 8♣ J♠", "8♠ 10♠ 8♥ 9♠ 9♣ 9♥",
                                "7♥ 6♦ 8♦ Q♣ K♣ A♣"], trump="A♦", first_attacker=0)
    t.setup()
    t.do("0 lead 6♠ 6♣ 6♥", "1 beat 8♠ on 6♠", "2 throw 6♦", "2 throw 8♦")
    assert len(t.state.table) == 5
    assert t.state.hand_size(1) == 5
    assert "0 throw 8♣" not in t.legal(0)
    assert to_act(t.state) == {1}
    assert t.refuse("0 throw 8♣").reason in (Reason.THROW_IN_NOT_ALLOWED, Reason.TOO_MANY_CARDS)


def test_at_most_six_cards_a_bout() -> None:
    """001_c746c7bb87124419.txt:
    «Всего за кон — не больше шести карт ...» — even when the defender holds more."""
    t = Table("app_podkidnoy", ["6♠ 8♥ 9♠ 9♣ 9♥ 10♣", "10♠ Q♠ Q♣ Q♥ J♠ J♣",
                                "7♥ 9♦ 10♥ 10♦ K♣ K♥"], trump="A♦",
              stock="6♣ 6♥ 7♠", first_attacker=0)
    t.setup()
    # bout 1: seat 1 takes, so he holds 7 cards; bout 2: seat 2 attacks seat 0
    t.do("0 lead 6♠", "1 take", "0 pass", "2 pass")
    assert t.state.hand_size(1) == 7
    assert (t.state.attacker, t.state.defender) == (2, 0)
    t.do("2 lead 7♥", "0 beat 8♥ on 7♥", "1 pass", "2 pass")
    assert (t.state.attacker, t.state.defender) == (0, 1)
    assert t.state.bout == 2
    t.do("0 lead 9♠ 9♣ 9♥", "2 throw 9♦", "1 beat 10♠ on 9♠", "0 throw 10♣", "2 throw 10♥")
    assert len(t.state.table) == 6
    assert t.state.hand_size(1) == 6
    assert t.state.covers.count(-1) + 1 <= t.state.hand_size(1)  # the defender cap allows it
    assert "2 throw 10♦" not in t.legal(2)
    assert t.refuse("2 throw 10♦").reason in (Reason.THROW_IN_NOT_ALLOWED,
                                              Reason.TOO_MANY_CARDS)


def test_never_more_uncovered_cards_than_the_defender_holds() -> None:
    """001_c746c7bb87124419.txt:
    «... и не больше, чем у отбивающегося на руках.» Four players, 24 cards: no stock,
    so hands shrink; seat 0 defends with three cards and a fourth attack card is refused."""
    t = Table("app_podkidnoy", ["9♠ 9♣ 9♥ A♠ A♣ A♥", "10♠ 10♣ 10♥ J♠ Q♣ K♣",
                                "J♣ J♥ Q♠ Q♥ K♠ K♥", "9♦ 10♦ J♦ Q♦ K♦ A♦"], trump="A♦",
              dealer=3, first_attacker=0, deck_size=24)
    t.setup()
    assert t.state.stock == ()
    t.do("0 lead 9♠ 9♣ 9♥", "1 beat 10♠ on 9♠", "1 beat 10♣ on 9♣", "1 beat 10♥ on 9♥",
         "2 pass", "3 pass", "0 pass")
    t.do("1 lead J♠", "2 take", "3 pass", "0 pass", "1 pass")
    assert (t.state.attacker, t.state.defender) == (3, 0)
    assert t.state.hand_size(0) == 3
    assert "3 lead K♦" in t.legal(3)
    t.do("3 lead K♦", "1 throw K♣", "2 throw K♠")
    assert t.state.covers.count(-1) == 3 == t.state.hand_size(0)
    assert "2 throw K♥" not in t.legal(2)
    assert t.refuse("2 throw K♥").reason in (Reason.THROW_IN_NOT_ALLOWED, Reason.TOO_MANY_CARDS)
    assert to_act(t.state) == {0}


def test_simple_durak_has_no_throw_ins() -> None:
    """001_c746c7bb87124419.txt:
    «В «простом» (классическом) дураке подкидывать нельзя: кон — это только первый
    ход.»"""
    t = Table("app_prostoy", ["6♠ 6♣ 8♠ 9♠ 10♠ J♠", "7♠ 7♣ Q♠ Q♥ K♥ A♥",
                              "6♥ 7♥ 8♥ 9♥ 10♥ J♥"], trump="6♦", first_attacker=0)
    t.setup()
    t.do("0 lead 6♠")
    assert to_act(t.state) == {1}  # nobody may throw in, not even a matching 6
    assert t.refuse("2 throw 6♥").reason in (Reason.THROW_IN_NOT_ALLOWED, Reason.NOT_YOUR_TURN)
    t.do("1 beat 7♠ on 6♠")  # the bout is over at once
    assert t.state.bout == 1
    assert (t.state.attacker, t.state.defender) == (1, 2)
    t.do("1 lead 7♣")  # a lead of one rank is still a lead
    t.do("2 take")
    assert t.state.bout == 2


def test_the_defender_may_take_even_when_he_could_beat() -> None:
    """001_c746c7bb87124419.txt:
    «Если отбиться нечем (или не хочется тратить козыри), отбивающийся говорит
    «беру».»"""
    t = Table("app_podkidnoy", ["6♠ 7♠ 8♠ 9♠ 10♠ J♠", "Q♠ K♠ A♠ 7♦ K♥ A♥"], trump="6♦",
              first_attacker=0)
    t.setup()
    t.do("0 lead 6♠")
    assert {"1 beat Q♠ on 6♠", "1 beat 7♦ on 6♠", "1 take"} <= set(t.legal(1))
    t.do("1 take")
    assert t.of(E.TakeDeclared) == [E.TakeDeclared(1)]
    assert t.state.taking
    assert t.refuse("1 beat Q♠ on 6♠").reason is Reason.ALREADY_TAKING
    assert t.refuse("1 take").reason is Reason.ALREADY_TAKING


def test_throw_in_vdogonku_after_take_and_the_taker_takes_everything() -> None:
    """001_c746c7bb87124419.txt:
    «Остальные ещё могут подкинуть ему «вдогонку» — сколько позволяет лимит, — и он
    забирает со стола всё.»"""
    t = Table("app_podkidnoy", ["6♠ 6♣ 7♣ 7♥ 10♠ J♠", "7♠ K♠ A♠ Q♥ K♥ A♥",
                                "6♥ 6♦ 8♣ 9♣ 10♣ J♣"], trump="A♦", first_attacker=0)
    t.setup()
    t.do("0 lead 6♠ 6♣", "1 beat 7♠ on 6♠", "1 take")
    assert to_act(t.state) == {0, 2}
    t.do("0 throw 7♣", "2 throw 6♥", "2 throw 6♦")  # 5 attack cards: the first-bout limit
    # five attack cards: no room for 7♥, so the bout closed at once and seat 1 took it all
    assert t.state.bout == 1
    assert t.state.table == ()
    took = t.of(E.Took)
    assert took == [E.Took(1, tuple(sorted(t.cs("6♠ 7♠ 6♣ 7♣ 6♥ 6♦"))))]
    assert t.state.hand_size(1) == 5 + 6


def test_the_taker_loses_his_turn() -> None:
    """001_c746c7bb87124419.txt:
    «Взявший пропускает ход: ходит следующий за ним.»"""
    t = Table("app_podkidnoy", ["6♠ 7♠ 8♠ 9♠ 10♠ J♠", "Q♠ K♠ A♠ Q♥ K♥ A♥",
                                "6♣ 7♣ 8♣ 9♣ 10♣ J♣", "6♥ 7♥ 8♥ 9♥ 10♥ J♥"], trump="6♦",
              first_attacker=0)
    t.setup()
    t.do("0 lead 6♠", "1 take", "2 pass", "3 pass", "0 pass")
    assert (t.state.attacker, t.state.defender) == (2, 3)


def test_cards_seen_on_the_table_stay_public() -> None:
    """001_c746c7bb87124419.txt:
    «Карты, которые все видели на столе, помнят все — сильные боты тоже.» The
    discard is part of the public view every node hashes; each seat's view has it."""
    t = Table("app_podkidnoy", ["6♠ 7♠ 8♠ 9♠ 10♠ J♠", "Q♠ K♠ A♠ Q♥ K♥ A♥",
                                "6♣ 7♣ 8♣ 9♣ 10♣ J♣"], trump="6♦", first_attacker=0)
    t.setup()
    t.do("0 lead 6♠", "1 beat Q♠ on 6♠", "2 pass", "0 pass")
    seen = (1 << t.c("6♠")) | (1 << t.c("Q♠"))
    assert t.state.discard == seen
    assert seen in public_view(t.state)
    for seat in range(3):
        view = private_view(t.state, seat)
        assert view.discard == seen
        assert state_hash(view) == state_hash(t.state)


# ---- Переводной ------------------------------------------------------------------------------

def test_transfer_only_before_anything_is_covered() -> None:
    """001_c746c7bb87124419.txt:
    «В переводном, пока отбивающийся не покрыл ни одной карты, он может перевести:
    положить к атакующим карту того же достоинства — и отбиваться теперь следующему.»"""
    t = Table("app_perevodnoy", ["7♠ 7♣ 8♥ 9♥ 10♥ J♥", "7♥ 8♠ 9♠ 7♦ K♥ A♥",
                                 "6♣ 8♣ 9♣ 10♣ J♣ Q♣"], trump="6♦", first_attacker=0)
    t.setup()
    t.do("0 lead 7♠ 7♣")
    assert {"1 transfer 7♥", "1 transfer 7♦"} <= set(t.legal(1))
    assert t.refuse("1 transfer 8♠").reason is Reason.TRANSFER_NOT_ALLOWED
    t.do("1 beat 8♠ on 7♠")
    assert not any("transfer" in a for a in t.legal(1))
    assert t.refuse("1 transfer 7♥").reason is Reason.TRANSFER_NOT_ALLOWED
    plain = Table("app_podkidnoy", ["7♠ 7♣ 8♥ 9♥ 10♥ J♥", "7♥ 8♠ 9♠ 7♦ K♥ A♥"], trump="6♦",
                  first_attacker=0)
    plain.setup()
    plain.do("0 lead 7♠")
    assert plain.refuse("1 transfer 7♥").reason is Reason.TRANSFER_NOT_ALLOWED


def test_transfer_moves_the_defence_to_the_next_player() -> None:
    """001_c746c7bb87124419.txt:
    «... положить к атакующим карту того же достоинства — и отбиваться теперь
    следующему.»"""
    t = Table("app_perevodnoy", ["7♠ 7♣ 8♥ 9♥ 10♥ J♥", "7♥ 8♠ 9♠ 10♠ K♥ A♥",
                                 "6♣ 8♣ 9♣ 10♣ J♣ Q♣"], trump="6♦", first_attacker=0)
    t.setup()
    t.do("0 lead 7♠", "1 transfer 7♥")
    assert t.of(E.Transferred) == [E.Transferred(1, t.c("7♥"), 2, False)]
    assert [a for a, _ in t.table_text()] == ["7♠", "7♥"]
    assert (t.state.attacker, t.state.defender) == (0, 2)  # the lead attacker keeps his role
    assert t.state.hand_size(1) == 5


def test_transfer_needs_enough_cards_in_the_next_hand() -> None:
    """001_c746c7bb87124419.txt:
    «Перевести можно, только если у следующего хватает карт на все переведённые.»
    Two seats: the transfer goes back to the attacker, who kept three cards."""
    t = Table("app_perevodnoy", ["7♠ 7♣ 7♥ 8♥ 9♥ 10♥", "7♦ 8♠ 9♠ 10♠ K♥ A♥"], trump="6♦",
              first_attacker=0)
    t.setup()
    t.do("0 lead 7♠ 7♣ 7♥")
    assert t.state.hand_size(0) == 3
    assert "1 transfer 7♦" not in t.legal(1)
    assert t.refuse("1 transfer 7♦").reason is Reason.TRANSFER_CAPACITY
    ok = Table("app_perevodnoy", ["7♠ 7♣ 7♥ 8♥ 9♥ 10♥", "7♦ 8♠ 9♠ 10♠ K♥ A♥"], trump="6♦",
               first_attacker=0)
    ok.setup()
    ok.do("0 lead 7♠ 7♣", "1 transfer 7♦")  # four cards left: enough for three
    assert ok.state.defender == 0


def test_transfer_by_showing_keeps_the_trump_in_hand_once_a_bout() -> None:
    """001_c746c7bb87124419.txt:
    «Если включён перевод показом, достаточно показать козырь того же достоинства —
    карта остаётся на руке. Каждым козырем — один раз за кон.»"""
    t = Table("app_perevod_pokazom", ["7♠ 7♣ 8♥ 9♥ 10♥ J♥", "7♦ 8♠ 9♠ 10♠ K♥ A♥"],
              trump="6♦", first_attacker=0)
    t.setup()
    t.do("0 lead 7♠")
    assert "1 show 7♦" in t.legal(1)
    t.do("1 show 7♦")
    assert t.of(E.Transferred) == [E.Transferred(1, t.c("7♦"), 0, True)]
    assert t.hand(1).split().count("7♦") == 1
    assert t.state.table == t.cs("7♠")
    assert t.state.defender == 0
    t.do("0 transfer 7♣")  # back to seat 1, now with two cards to beat
    assert t.state.defender == 1
    assert "1 show 7♦" not in t.legal(1)
    assert t.refuse("1 show 7♦").reason is Reason.SHOW_NOT_ALLOWED
    assert t.refuse("1 show 8♠").reason in (Reason.SHOW_NOT_ALLOWED,
                                            Reason.TRANSFER_NOT_ALLOWED)
    plain = Table("app_perevodnoy", ["7♠ 7♣ 8♥ 9♥ 10♥ J♥", "7♦ 8♠ 9♠ 10♠ K♥ A♥"],
                  trump="6♦", first_attacker=0)
    plain.setup()
    plain.do("0 lead 7♠")
    assert plain.refuse("1 show 7♦").reason is Reason.SHOW_NOT_ALLOWED


# ---- 2 на 2: командами -----------------------------------------------------------------------

TEAM_HANDS = ["6♠ 7♠ 8♠ 9♠ 10♠ J♠", "Q♠ K♠ A♠ Q♥ K♥ A♥", "6♣ 7♣ 8♣ 9♣ 10♣ J♣",
              "6♥ 7♥ 8♥ 9♥ 10♥ J♥"]


def test_teams_sit_in_alternate_seats_so_play_goes_to_an_opponent() -> None:
    """001_c746c7bb87124419.txt:
    «Напарники сидят через одного, так что ход всегда идёт на соперника.»"""
    t = Table("app_komandy", TEAM_HANDS, trump="6♦", first_attacker=1)
    t.setup()
    game = t.game
    assert game.team[0] == game.team[2] != game.team[1] == game.team[3]
    assert (t.state.attacker, t.state.defender) == (1, 2)
    assert game.team[t.state.attacker] != game.team[t.state.defender]


def test_only_the_defenders_opponents_throw_in() -> None:
    """001_c746c7bb87124419.txt:
    «Подкидывают только соперники отбивающегося — на напарника не подкидывают.»"""
    t = Table("app_komandy", TEAM_HANDS, trump="6♦", first_attacker=0)
    t.setup()
    t.do("0 lead 6♠")
    assert to_act(t.state) == {0, 1, 2}  # seat 3 is the defender's partner
    assert t.refuse("3 throw 6♥").reason in (Reason.THROW_IN_NOT_ALLOWED, Reason.NOT_YOUR_TURN)
    t.do("2 throw 6♣")


def test_teams_transfer_only_to_an_opponent() -> None:
    """001_c746c7bb87124419.txt:
    «Переводят тоже только на соперника — следующего игрока другой команды.» With
    every seat in play the next seat is an opponent; test_scenarios plays the case where an
    out opponent makes the transfer skip the partner."""
    t = Table("app_komandy", ["6♠ 7♠ 8♠ 9♠ 10♠ J♠", "6♥ K♠ A♠ Q♥ K♥ A♥",
                               "6♣ 7♣ 8♣ 9♣ 10♣ J♣", "Q♠ 7♥ 8♥ 9♥ 10♥ J♥"], trump="6♦",
               first_attacker=0, transfer=True)
    t.setup()
    t.do("0 lead 6♠", "1 transfer 6♥")
    assert t.state.defender == 2
    assert t.game.team[2] != t.game.team[1]


# ---- the end of the game ---------------------------------------------------------------------

def test_last_bout_everyone_out_at_once_is_a_draw_in_random_games() -> None:
    """001_c746c7bb87124419.txt:
    «Если в последнем коне карты кончились у всех разом — ничья.» Random games that
    end in a draw have nobody holding a card and no durak (the scripted draw is in
    test_scenarios)."""
    rules = get_preset("app_podkidnoy").rules
    rng = random.Random(7)
    draws = 0
    game = make_game(rules, 2, 0)
    for _ in range(200):
        order = list(range(game.n_cards))
        rng.shuffle(order)
        final, _ = random_playout(game, order, rng)
        assert final.result is not None
        if final.result.draw:
            draws += 1
            assert final.result.durak == ()
            assert all(final.hand_size(s) == 0 for s in range(2))
    assert draws > 0


def test_with_no_card_left_to_turn_the_last_dealt_card_shows_the_trump() -> None:
    """001_c746c7bb87124419.txt:
    «следующую кладут под колоду лицом вверх — её масть козырь», with 6 × 6 = 36 cards
    there is no next card: SP2, the last dealt card (the dealer's) shows the trump."""
    game = make_game(get_preset("app_podkidnoy").rules, 6, 4)
    order = list(range(36))
    random.Random(3).shuffle(order)
    state, _ = apply(new_game(game, order), A.deal())
    assert state.stock == ()
    assert state.phase == Phase.REVEAL_TRUMP
    state, events = apply(state, A.reveal(order[-1]))
    assert state.trump == game.suit[order[-1]]
    assert state.trump_card == order[-1]
    assert (state.hands[4] >> order[-1]) & 1  # the dealer keeps it
    assert events[0] == E.TrumpRevealed(order[-1], game.suit[order[-1]])
