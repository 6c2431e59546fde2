"""«Длинный дурак» (app_dlinny): the sixes taken out and dealt as personal trumps once a match,
the defender's trump beats, throw-ins strictly in turn, and the durak's ladder 7 → A that
shrinks his hand and ends the match. Catalogue: shared/rules/variants-attack-defend.md, section
`app_dlinny`."""

from __future__ import annotations

import random

import pytest
from engine_support import deck_order, format_action, parse_action

from p2p_durak.engine import (
    CHANCE,
    Game,
    IllegalAction,
    Phase,
    Reason,
    Result,
    State,
    apply,
    chance_outcome,
    legal_actions,
    make_game,
    new_game,
    next_game,
)
from p2p_durak.engine import actions as A
from p2p_durak.engine import events as E
from p2p_durak.engine.presets import get_preset
from p2p_durak.engine.setup import deal_seats, ladder_after, long_durak

RULES = get_preset("app_dlinny").rules
SPADES, CLUBS, DIAMONDS, HEARTS = range(4)


def _sixes(state: State, *suits: int) -> State:
    for suit in suits:
        state, _ = apply(state, A.announce_suit(suit))
    return state


def _play(state: State, *lines: str) -> State:
    for line in lines:
        state, _ = apply(state, parse_action(state, line))
    return state


def _started(hands: list[str], suits: tuple[int, ...], dealer: int = 0) -> State:
    """Game 1 from readable hands: the sixes dealt (seat by seat from the dealer's left), then
    the deal, up to the first lead."""
    game = make_game(RULES, len(hands), dealer)
    state = new_game(game, deck_order(game, hands))
    n = len(hands)
    by_deal = [suits[(dealer + 1 + k) % n] for k in range(n)]
    state = _sixes(state, *by_deal)
    state, _ = apply(state, A.deal())
    return state


def test_the_sixes_are_taken_out_and_dealt_one_each_as_personal_trumps() -> None:
    """001_c746c7bb87124419.txt: «Перед первой партией из колоды вынимают шестёрки и раздают по
    одной: масть шестёрки — личный козырь игрока, сами шестёрки не играют.»"""
    game = make_game(RULES, 4, 0)
    assert game.n_cards == 32
    assert all(game.rank[c] >= 7 for c in range(game.n_cards))
    state = new_game(game, range(32))
    assert state.phase == Phase.DEAL_SIXES
    assert state.actors == (CHANCE,)
    assert len(legal_actions(state, CHANCE)) == 4
    state, events = apply(state, A.announce_suit(HEARTS))
    assert events == (E.SixDealt(1, HEARTS),)  # the dealer's left first
    assert A.announce_suit(HEARTS) not in legal_actions(state, CHANCE)
    state = _sixes(state, SPADES, CLUBS, DIAMONDS)
    assert state.phase == Phase.DEAL
    assert state.seat_trumps == (DIAMONDS, HEARTS, SPADES, CLUBS)


def test_with_two_players_two_sixes_are_dealt_and_the_first_six_in_suit_order_leads() -> None:
    """001_c746c7bb87124419.txt: «Играют вчетвером (можно вдвоём или втроём).» «Первым ходит
    тот, у кого шестёрка пик» — nobody may hold it with two: catalogue "the holder of the
    highest-priority assigned six leads (fixed suit order ♠, ♣, ♦, ♥)"."""
    state = _started(["7♠ 8♠ 9♠ 10♠ J♠ Q♠", "7♦ 8♦ 9♦ 10♦ J♦ Q♦"], (HEARTS, CLUBS))
    assert state.phase == Phase.LEAD
    assert state.attacker == 1  # clubs before hearts
    four = _started(["7♠ 8♠ 9♠ 10♠ J♠ Q♠", "7♦ 8♦ 9♦ 10♦ J♦ Q♦", "7♣ 8♣ 9♣ 10♣ J♣ Q♣",
                     "7♥ 8♥ 9♥ 10♥ J♥ Q♥"], (HEARTS, CLUBS, SPADES, DIAMONDS))
    assert four.attacker == 2  # the six of spades


def test_the_defenders_trump_beats_and_the_attackers_is_a_plain_suit_for_him() -> None:
    """001_c746c7bb87124419.txt: «Козырь отбивающегося бьёт любую карту другой масти, а козырь
    ходящего для отбивающегося — обычная масть.»"""
    state = _started(["A♠ 8♠ 9♣ 10♣ J♣ Q♣", "7♥ 8♦ 9♦ 10♦ J♦ A♦"], (CLUBS, HEARTS))
    assert state.attacker == 0
    assert state.defender == 1
    assert state.trump == HEARTS
    state = _play(state, "0 lead A♠")  # not a trump for the defender: any heart beats it
    assert "1 beat 7♥ on A♠" in [format_action(state, a) for a in legal_actions(state, 1)]
    state = _started(["A♠ 8♠ 9♣ 10♣ J♣ Q♣", "7♥ 8♦ 9♦ 10♦ J♦ A♦"], (CLUBS, HEARTS))
    state = _play(state, "0 lead 9♣")  # the attacker's trump: the defender's clubs are none
    beats = [format_action(state, a) for a in legal_actions(state, 1) if a.kind == A.BEAT]
    assert beats == ["1 beat 7♥ on 9♣"]


def test_throw_ins_go_strictly_in_turn_clockwise() -> None:
    """001_c746c7bb87124419.txt: «Подкидывают строго по очереди по часовой стрелке.» — one
    thrower at a time from the lead attacker; after a throw-in the turn goes on, not back to
    the lead attacker (catalogue `throw_in_order: strict_clockwise`)."""
    state = _started(["7♠ 7♣ 9♣ 10♣ J♣ Q♣", "8♠ 8♦ 9♦ 10♦ J♦ A♦", "7♦ 7♥ 9♥ 10♥ J♥ Q♥"],
                     (SPADES, DIAMONDS, HEARTS))
    assert state.attacker == 0
    state = _play(state, "0 lead 7♠")
    assert state.actors == (1, 0)  # the defender, and only the lead attacker may throw in
    assert legal_actions(state, 2) == ()
    with pytest.raises(IllegalAction) as caught:
        apply(state, parse_action(state, "2 throw 7♦"))
    assert caught.value.reason is Reason.THROW_IN_NOT_ALLOWED
    state = _play(state, "0 throw 7♣")
    assert state.actors == (1, 2)  # the turn went on to seat 2
    state = _play(state, "2 throw 7♦")
    assert state.actors == (1, 0)  # round again, from the seat after seat 2
    state = _play(state, "0 pass")
    assert state.actors == (1, 2)
    state = _play(state, "2 throw 7♥")
    state = _play(state, "1 take")
    assert state.actors == (0,)  # «вдогонку» in turn as well
    state = _play(state, "0 pass", "2 pass")
    assert state.phase == Phase.LEAD
    assert state.attacker == 2  # the taker's left neighbour


def _finished(game: Game, durak: int | None) -> State:
    """A state of `game` that is over with this durak (or a draw)."""
    state = new_game(game, range(game.n_cards))
    if state.phase == Phase.DEAL_SIXES:
        state = _sixes(state, *range(game.n_players))
    result = Result((durak,) if durak is not None else (), durak is None, 0, ())
    return state._replace(phase=Phase.OVER, result=result, actors=())


def test_the_durak_lays_out_the_next_card_of_his_suit_and_deals_from_under_him() -> None:
    """001_c746c7bb87124419.txt: «Дурак выкладывает перед собой следующую карту своей масти:
    семёрку, потом восьмёрку…» «Первым ходит тот, у кого шестёрка пик, дальше — «из-под
    дурака».»"""
    first = _finished(make_game(RULES, 3, 0), durak=1)
    assert ladder_after(first) == (0, 7, 0)
    game = next_game(first)
    assert game.personal == first.seat_trumps
    assert game.ladder == (0, 7, 0)
    assert game.dealer == 1
    assert game.first_attacker == 2  # из-под дурака: his left neighbour
    seven = next(c for c in range(game.n_cards)
                 if game.rank[c] == 7 and game.suit[c] == game.personal[1])
    state = new_game(game, range(game.n_cards))
    assert state.phase == Phase.DEAL  # the sixes are dealt once a match
    assert seven not in state.stock
    assert state.discard == 1 << seven  # laid out face up, out of play
    assert len(state.stock) == 31
    # again: the eight goes next to the seven
    again = next_game(_finished(game, durak=1))
    assert again.ladder == (0, 8, 0)
    assert bin(new_game(again, range(again.n_cards)).discard).count("1") == 2


@pytest.mark.parametrize(("top", "size"), [(9, 6), (10, 5), (11, 4), (12, 3), (13, 2)])
def test_the_durak_is_dealt_fewer_cards_from_the_ten(top: int, size: int) -> None:
    """001_c746c7bb87124419.txt: «С десятки ему сдают по 5 карт, с валета — по 4, с дамы — по
    3, с короля — по 2.» — for the deal and the refill (catalogue)."""
    game = make_game(RULES, 2, 0, 1, 1, personal=(CLUBS, HEARTS), ladder=(top, 0))
    seats = deal_seats(game)
    assert seats.count(0) == size
    assert seats.count(1) == 6
    assert game.tables.seat_sizes == (size, 6)
    state = new_game(game, range(game.n_cards))
    state, _ = apply(state, A.deal())
    assert state.hand_size(0) == size
    assert state.hand_size(1) == 6


def test_laying_out_the_ace_ends_the_match() -> None:
    """001_c746c7bb87124419.txt: «Выложил туза — длинный дурак, игра окончена.»"""
    game = make_game(RULES, 2, 0, 1, 7, personal=(CLUBS, HEARTS), ladder=(13, 9))
    over = _finished(game, durak=0)
    assert long_durak(over) == 0
    fresh = next_game(over)
    assert fresh.personal == ()
    assert fresh.ladder == ()
    assert fresh.dealer == 0
    assert new_game(fresh, range(fresh.n_cards)).phase == Phase.DEAL_SIXES
    assert long_durak(_finished(game, durak=1)) is None


def test_a_draw_lays_out_nothing() -> None:
    """Catalogue `app_dlinny`: "A draw: no durak, so no ladder card is laid"."""
    game = make_game(RULES, 2, 0, 1, 3, personal=(CLUBS, HEARTS), ladder=(8, 0))
    after = next_game(_finished(game, durak=None))
    assert after.ladder == (8, 0)
    assert after.dealer == 0


def test_a_whole_match_of_random_play_ends_with_a_long_durak() -> None:
    rng = random.Random(5)
    game = make_game(RULES, 3, 0)
    for _ in range(200):
        order = list(range(game.n_cards))
        rng.shuffle(order)
        state = new_game(game, order)
        while state.phase != Phase.OVER:
            actors = sorted(state.actors)
            if actors == [CHANCE]:
                action = chance_outcome(state) or rng.choice(legal_actions(state, CHANCE))
            else:
                action = rng.choice(legal_actions(state, rng.choice(actors)))
            state, _ = apply(state, action)
        if long_durak(state) is not None:
            assert max(ladder_after(state)) == 14
            return
        game = next_game(state)
    raise AssertionError("no long durak in 200 games")
