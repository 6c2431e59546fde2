"""Дурак чухонский (`chukhonsky`), rule by rule: each test quotes the sentence of
000_0a1bcdd496bc6662.txt («Дурак чухонский», lines 488–496) it checks; the resolutions the
source leaves open follow shared/rules/variants-other-games.md, `chukhonsky`."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from chukhonsky_support import cards, do, position

from p2p_durak.engine import IllegalAction, Reason, RuleError
from p2p_durak.engine.cards import mask_of
from p2p_durak.engine.games import chukhonsky as C


def test_the_whole_deck_is_dealt_one_at_a_time() -> None:
    """000_0a1bcdd496bc6662.txt: «Колода тщательно тасуется, снимать необязательно и все
    карты сдаются поровну между всеми игроками.» — round-robin from the dealer's left, so 36
    among 5 gives the first seat after the dealer one card more."""
    game = C.make_game(C.ChukhonskyRules(), 5, dealer=2)
    deck = list(range(36))
    random.Random(1).shuffle(deck)
    state = C.step(C.new_game(game, deck), C.deal())
    assert [state.hand_size(s) for s in range(5)] == [7, 7, 7, 8, 7]
    assert state.hands[3] >> deck[0] & 1
    assert state.hands[4] >> deck[1] & 1
    assert state.set_aside == 0
    assert state.stock == ()


def test_the_remainder_can_lie_out_of_play() -> None:
    """000_0a1bcdd496bc6662.txt: «все карты сдаются поровну между всеми игроками.» — the table
    option: as evenly as possible, the cards that do not divide lie face down out of play."""
    game = C.make_game(C.ChukhonskyRules(deck_size=52, deal_remainder="out_of_play"), 5)
    state = C.step(C.new_game(game, list(range(52))), C.deal())
    assert [state.hand_size(s) for s in range(5)] == [10] * 5
    assert state.set_aside == 2
    assert state.set_aside_cards == mask_of([50, 51])


def test_the_player_left_of_the_dealer_leads_first_with_any_card() -> None:
    """000_0a1bcdd496bc6662.txt: «В первой игре первый ход принадлежит игроку слева от
    сдатчика» and «Первый игрок может сделать первый ход с любой своей карты.»"""
    game = C.make_game(C.ChukhonskyRules(), 3, dealer=1)
    state = C.step(C.new_game(game, list(range(36))), C.deal())
    assert C.to_act(state) == {2}
    assert C.legal_actions(state, 2) == tuple(C.play(2, c) for c in range(0, 36, 3))
    assert C.legal_actions(state, 0) == ()


def test_the_next_player_lays_the_next_card_of_the_suit() -> None:
    """000_0a1bcdd496bc6662.txt: «Игрок ходит картой к игроку слева от себя и этот игрок
    должен положить на нее карту той же масти, но старшего достоинства, например, на
    восьмерку - девятку и т.д., следующий игрок по часовой стрелке кладет следующую по
    старшинству карту.»"""
    state = position(["8♠ 6♥", "9♠ 10♠ 7♥", "J♦ 6♦"], turn=0)
    state = do(state, "0 play 8♠")
    assert C.to_act(state) == {1}
    assert C.legal_actions(state, 1) == (C.play(1, state.game.deck.parse("9♠")),)
    with pytest.raises(IllegalAction) as refused:
        do(state, "1 play 10♠")
    assert refused.value.reason is Reason.DOES_NOT_CLIMB
    state = do(state, "1 play 9♠")
    assert state.pile == cards(state.game, "8♠ 9♠")
    assert C.to_act(state) == {2}


def test_any_higher_card_of_the_suit_is_the_table_option() -> None:
    """000_0a1bcdd496bc6662.txt: «должен положить на нее карту той же масти, но старшего
    достоинства» — `climb_rule: any_higher_same_suit` reads it as any higher card."""
    state = do(position(["8♠ 6♥", "10♠ Q♠ 7♥", "J♦ 6♦"],
                        climb_rule="any_higher_same_suit"), "0 play 8♠")
    assert {m.card for m in C.legal_actions(state, 1)} == set(cards(state.game, "10♠ Q♠"))
    state = do(state, "1 play Q♠")
    assert C.legal_actions(state, 2) == (C.take(2),)


def test_playing_is_compulsory_when_possible() -> None:
    """000_0a1bcdd496bc6662.txt: «этот игрок должен положить на нее карту той же масти» and
    «Тот игрок, у которого нет необходимой карты, забирает себе верхнюю карту» — only who
    lacks the card takes; `play_compulsory: false` lets him take all the same."""
    state = do(position(["8♠ 6♥", "9♠ 7♥", "J♦ 6♦"]), "0 play 8♠")
    with pytest.raises(IllegalAction) as refused:
        C.step(state, C.take(1))
    assert refused.value.reason is Reason.MUST_PLAY
    free = do(position(["8♠ 6♥", "9♠ 7♥", "J♦ 6♦"], play_compulsory=False), "0 play 8♠")
    assert C.take(1) in C.legal_actions(free, 1)


def test_who_lays_the_ace_clears_the_pile_and_leads_again() -> None:
    """000_0a1bcdd496bc6662.txt: «Тот игрок, который положит туза, скидывает в отбой всю
    колоду и вновь ходит первым.»"""
    state = do(position(["K♠ 6♥", "A♠ 7♥", "J♦ 6♦"]), "0 play K♠")
    before = state.discard
    state, events = C.apply(state, C.play(1, state.game.deck.parse("A♠")))
    assert state.pile == ()
    assert C.to_act(state) == {1}
    assert state.discard == before | mask_of(cards(state.game, "K♠ A♠"))
    assert [type(e).__name__ for e in events] == ["Played", "Cleared"]


def test_a_lead_ace_clears_at_once_and_the_same_player_leads() -> None:
    """000_0a1bcdd496bc6662.txt: «Тот игрок, который положит туза, скидывает в отбой всю
    колоду и вновь ходит первым.» — the catalogue: leading an ace is allowed and clears at
    once."""
    state = do(position(["A♣ 6♥", "9♠ 7♥", "J♦ 6♦"]), "0 play A♣")
    assert state.pile == ()
    assert C.to_act(state) == {0}


def test_an_ace_as_the_last_card_passes_the_lead_on() -> None:
    """000_0a1bcdd496bc6662.txt: «Тот игрок, который положит туза, скидывает в отбой всю
    колоду и вновь ходит первым.» and «игра идет до тех пор, пока не останется один игрок с
    картами на руках» — his hand is empty, so he is out and his left neighbour leads."""
    state = do(position(["K♠ 6♥", "A♠", "J♦ 6♦", "7♦"]), "0 play K♠", "1 play A♠")
    assert state.out == 0b10
    assert state.finish == (1,)
    assert C.to_act(state) == {2}


def test_who_lacks_the_card_takes_the_top_and_the_next_leads() -> None:
    """000_0a1bcdd496bc6662.txt: «Тот игрок, у которого нет необходимой карты, забирает себе
    верхнюю карту, а остальные карты скидывает в отбой, а ход передается следующему игроку
    по часовой стрелке.»"""
    state = do(position(["8♠ 6♥", "9♠ 7♥", "J♦ 6♦"]), "0 play 8♠", "1 play 9♠")
    assert C.legal_actions(state, 2) == (C.take(2),)
    state, events = C.apply(state, C.take(2))
    nine, eight = state.game.deck.parse("9♠"), state.game.deck.parse("8♠")
    assert state.hands[2] >> nine & 1
    assert state.shown >> nine & 1
    assert state.discard >> eight & 1
    assert state.pile == ()
    assert C.to_act(state) == {0}
    assert state.idle == 0
    assert [type(e).__name__ for e in events] == ["Took"]


def test_the_last_player_holding_cards_is_the_durak() -> None:
    """000_0a1bcdd496bc6662.txt: «Таким образом, игра идет до тех пор, пока не останется один
    игрок с картами на руках. Этот игрок считается проигравшим и зовется "чухонским
    дураком".»"""
    state = final_position()
    assert C.is_over(state)
    assert state.result == C.Result((2,), False, (0, 1))


def final_position() -> C.State:
    """Seat 0 goes out with 8♠, 2 takes 9♠, 1 goes out with A♦: 2 is left with cards."""
    return do(position(["8♠", "9♠ A♦", "J♦ 6♣"]), "0 play 8♠", "1 play 9♠", "2 take",
              "1 play A♦")


def test_the_next_game_is_dealt_by_the_durak_and_led_pod_or_iz_pod_durak() -> None:
    """000_0a1bcdd496bc6662.txt: «в следующей игре сдает карты игрок, который проиграл в
    предыдущей игре» and «в следующих играх существуют 2 варианта первого хода: под дурака,
    то есть первым ходит игрок, который сидит справа от дурака; из-под дурака, первым ходит
    игрок, который сидит слева от дурака.»"""
    final = final_position()
    pod = C.next_game(final)
    assert (pod.dealer, pod.first, pod.game_index) == (2, 1, 1)
    iz = C.next_game(replace_rules(final, first_player_next_game="iz_pod_durak"))
    assert (iz.dealer, iz.first) == (2, 0)


def replace_rules(state: C.State, **options: object) -> C.State:
    rules = replace(state.game.rules, **options)  # type: ignore[arg-type]
    game = C.Game(rules, state.game.n_players, state.game.dealer, state.game.first)
    return replace(state, game=game)


def test_a_dead_position_is_played_out_on_the_counts() -> None:
    """Not in the source (docs/rules.md): once no card can go on another (no ace left, every
    card's next one discarded), every lead is taken by the next player, so the rest is
    forced and the engine plays it at once, to 000_0a1bcdd496bc6662.txt's end: «пока не
    останется один игрок с картами на руках»."""
    live = do(position(["9♠ 6♥", "7♥ J♦"]), "0 play 9♠", "1 take")
    assert not C.is_over(live)  # 6♥ can still be followed by 7♥
    assert do(live, "0 play 6♥").result == C.Result((1,), False, (0,))
    dead = do(position(["10♠ 7♣", "6♥ 8♦"]), "0 play 10♠")
    assert C.legal_actions(dead, 1) == (C.take(1),)
    dead = do(dead, "1 take")
    # forced: 0 leads 7♣, 1 takes it, and 0 is out
    assert dead.result == C.Result((1,), False, (0,), C.EndReason.FORCED)


def test_a_dead_position_that_goes_round_for_ever_ends_by_the_cards_held() -> None:
    """Not in the source (docs/rules.md): with three players each leads once and takes once a
    round, so the counts come back for ever; the player holding the most cards is the durak
    (`cycle_result`), several with the most draw."""
    state = do(position(["10♠ 7♣", "6♥ 8♦ 9♣", "J♦ Q♣"]), "0 play 10♠", "1 take")
    assert state.result == C.Result((1,), False, (), C.EndReason.CYCLE)
    tied = do(position(["10♠ 7♣ 6♠", "6♥ 8♦", "J♦ Q♣ 8♠"]), "0 play 10♠", "1 take")
    assert tied.result == C.Result((), True, (), C.EndReason.CYCLE)
    drawn = do(position(["10♠ 7♣", "6♥ 8♦ 9♣", "J♦ Q♣"], cycle_result="draw"),
               "0 play 10♠", "1 take")
    assert drawn.result == C.Result((), True, (), C.EndReason.CYCLE)


def test_the_stall_limit_ends_a_game_of_lone_cards_taken_back() -> None:
    """Not in the source (docs/rules.md): a run of takes of a lone card ends the game at the
    stall limit, by the cards held (the aces keep the position alive)."""
    state = position(["9♠ A♠ 6♣", "7♥ A♥", "8♣ A♦"], stall_limit=3)
    state = do(state, "0 play 9♠", "1 take", "2 play 8♣", "0 take")
    assert not C.is_over(state)
    assert state.idle == 2
    state = do(state, "1 play 7♥", "2 take")
    assert state.result == C.Result((0,), False, (), C.EndReason.STALLED)


def test_bad_moves_are_refused_with_the_reason() -> None:
    """A move out of turn, a card not held, a take with nothing on the pile, a malformed
    move: refused, the state unchanged."""
    state = position(["8♠ 6♥", "9♠ 7♥", "J♦ 6♦"])
    for move, reason in ((C.play(1, 0), Reason.NOT_YOUR_TURN),
                         (C.play(0, state.game.deck.parse("9♠")), Reason.NOT_IN_HAND),
                         (C.take(0), Reason.NOTHING_TO_TAKE), ("8♠", Reason.BAD_ACTION),
                         (C.deal(), Reason.WRONG_PHASE)):
        with pytest.raises(IllegalAction) as refused:
            C.apply(state, move)
        assert refused.value.reason is reason
    with pytest.raises(RuleError):
        C.make_game(C.ChukhonskyRules(), 7)
    with pytest.raises(RuleError):
        C.validate(C.ChukhonskyRules(climb_rule="any"))  # type: ignore[arg-type]
