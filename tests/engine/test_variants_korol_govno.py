"""«Король-говно» (app_korol_govno): a podkidnoy series with titles. After the first game the
players are titled by the order they went out; then the King names the trump after seeing his
hand, Говно deals and leads, and the durak swaps titles with Говно.
Catalogue: shared/rules/variants-attack-defend.md, section `app_korol_govno`."""

from __future__ import annotations

import random

import pytest
from engine_support import Table, format_action

from p2p_durak.engine import (
    CHANCE,
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
from p2p_durak.engine.cards import NO_SUIT
from p2p_durak.engine.presets import get_preset
from p2p_durak.engine.setup import GOVNO, KING, next_titles

RULES = get_preset("app_korol_govno").rules
HEARTS = 3


def _over(state: State, durak: tuple[int, ...], finish: tuple[int, ...]) -> State:
    """`state` as a finished game with this result."""
    return state._replace(phase=Phase.OVER, actors=(),
                          result=Result(durak, not durak, 0, finish))


def _first_game(n: int) -> State:
    hands = ["6♦ 7♠ 10♦ Q♣ 9♥ K♥", "7♦ 8♠ J♦ A♣ 8♥ 10♥", "6♣ 7♣ 8♣ 9♣ 10♣ J♣",
             "6♠ 9♠ 10♠ J♠ Q♠ K♠"][:n]
    t = Table("app_korol_govno", hands, trump="6♥")
    t.setup()
    return t.state


def test_the_first_game_is_plain_podkidnoy() -> None:
    """001_c746c7bb87124419.txt: «Дворовая игра со званиями поверх подкидного.» — the first
    game has no titles yet: a turned trump and the lowest trump leads."""
    state = _first_game(3)
    assert state.game.titles == ()
    assert state.trump_card >= 0
    assert state.phase == Phase.LEAD


@pytest.mark.parametrize(("n", "finish", "durak", "titles"), [
    (2, (1,), (0,), (GOVNO, KING)),
    (3, (2, 0), (1,), (1, GOVNO, KING)),
    (4, (3, 1, 0), (2,), (2, 1, GOVNO, KING)),
])
def test_titles_go_by_the_order_of_going_out(n: int, finish: tuple[int, ...],
                                             durak: tuple[int, ...],
                                             titles: tuple[int, ...]) -> None:
    """001_c746c7bb87124419.txt: «После первой партии звания раздают по порядку выхода:
    Король, Принц, в середине — Палач, Солдат, Вор, Шут, последний — Говно.»"""
    over = _over(_first_game(n), durak, finish)
    assert next_titles(over) == titles
    game = next_game(over)
    assert game.titles == titles
    govno = titles.index(GOVNO)
    # «а сдаёт и первым ходит Говно»
    assert (game.dealer, game.first_attacker) == (govno, govno)


def _second_game(seed: int = 1) -> State:
    game = make_game(RULES, 3, 1, 1, 1, (1, GOVNO, KING))
    deck = list(range(game.n_cards))
    random.Random(seed).shuffle(deck)
    state, _ = apply(new_game(game, deck), A.deal())
    return state


def test_the_king_names_the_trump_after_seeing_his_hand() -> None:
    """001_c746c7bb87124419.txt: «Дальше козырь назначает Король, посмотрев свои карты, а
    сдаёт и первым ходит Говно.»"""
    state = _second_game()
    assert state.phase == Phase.NAME_TRUMP
    assert state.trump == NO_SUIT
    assert state.trump_card < 0  # no card is turned: the whole stock is face down
    assert len(state.stock) == 36 - 18
    assert state.actors == (2,)  # the King
    assert legal_actions(state, 2) == tuple(A.name_trump(2, s) for s in range(4))
    assert legal_actions(state, 0) == ()
    state, events = apply(state, A.name_trump(2, HEARTS))
    assert state.trump == HEARTS
    assert E.TrumpNamed(2, HEARTS) in events
    # Говно (seat 1) leads, against his left neighbour
    assert (state.phase, state.attacker, state.defender) == (Phase.LEAD, 1, 2)
    assert format_action(state, A.name_trump(2, HEARTS)) == "2 name_trump hearts"


def test_only_the_king_names_and_only_a_suit() -> None:
    """Refusals: another seat naming, a suit that does not exist."""
    state = _second_game()
    for action, reason in ((A.name_trump(0, HEARTS), Reason.NOT_YOUR_TURN),
                           (A.name_trump(2, 4), Reason.BAD_ACTION),
                           (A.Action(A.NAME_TRUMP, 2, (3,), 1), Reason.BAD_ACTION)):
        with pytest.raises(IllegalAction) as caught:
            apply(state, action)
        assert caught.value.reason is reason


def test_the_durak_swaps_with_govno() -> None:
    """001_c746c7bb87124419.txt: «Кто остался дураком — меняется местами с Говном (если сам не
    Говно).»"""
    state = _second_game()
    assert next_titles(_over(state, (0,), (2, 1))) == (GOVNO, 1, KING)
    assert next_titles(_over(state, (1,), (2, 0))) == (1, GOVNO, KING)  # Говно stays Говно
    assert next_titles(_over(state, (), (2, 0, 1))) == (1, GOVNO, KING)  # a draw: no swap


def test_a_whole_series_plays_on_with_titles() -> None:
    """001_c746c7bb87124419.txt: «Выигрывает тот, кто Король в конце серии.» — three games in
    a row, each after the first started by the King's naming."""
    rng = random.Random(5)
    game = make_game(RULES, 3, 0)
    for number in range(3):
        deck = list(range(game.n_cards))
        rng.shuffle(deck)
        state = new_game(game, deck)
        while state.phase != Phase.OVER:
            if CHANCE in state.actors:
                action = chance_outcome(state) or legal_actions(state, CHANCE)[0]
            else:
                seat = rng.choice(state.actors)
                action = rng.choice(legal_actions(state, seat))
            if number and action.kind == A.NAME_TRUMP:
                assert state.game.titles[action.seat] == KING
            state, _ = apply(state, action)
        game = next_game(state)
        assert sorted(game.titles) == [KING, 1, GOVNO]
