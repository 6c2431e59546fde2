"""Дурак чухонский over random play (seeded, derandomized hypothesis): cards are conserved,
every game ends within a bound, a replay of the moves reproduces the state, and every seat's
partial view — fed only the public moves and its own deal — agrees with the full state."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from p2p_durak.engine.games import chukhonsky as C
from p2p_durak.engine.games.chukhonsky.ladder import known_cards

SETTINGS = settings(derandomize=True, database=None, deadline=None, max_examples=25,
                    suppress_health_check=list(HealthCheck))

OPTIONS = st.builds(
    C.ChukhonskyRules, deck_size=st.sampled_from([36, 52]),
    climb_rule=st.sampled_from(["strict_successor", "any_higher_same_suit"]),
    play_compulsory=st.booleans(),
    deal_remainder=st.sampled_from(["round_robin", "out_of_play"]),
    cycle_result=st.sampled_from(["most_cards_loses", "draw"]),
    stall_limit=st.sampled_from([5, 40, 1000]))


def bound(game: C.Game) -> int:
    """Each move lays a card or takes one; every card reaches the discard at most once, and
    between two discards at most `stall_limit` lone takes and a ladder of at most 13 cards."""
    return (game.n_cards + 1) * (game.rules.stall_limit + 2 * 13 + 2)


def check_cards(state: C.State) -> None:
    game = state.game
    parts = [*state.hands, state.discard, state.set_aside_cards,
             sum(1 << c for c in state.pile)]
    total = 0
    for part in parts:
        assert not total & part
        total |= part
    assert total == (1 << game.n_cards) - 1 if state.phase is not C.Phase.DEAL else True
    assert state.shown & ~total == 0
    for seat in range(game.n_players):
        assert bool((state.out >> seat) & 1) == (state.hand_size(seat) == 0) \
            or state.phase is C.Phase.DEAL


@SETTINGS
@given(seed=st.integers(0, 2**32), n=st.integers(2, 6), rules=OPTIONS)
def test_random_games_conserve_cards_end_replay_and_agree_with_every_view(
        seed: int, n: int, rules: C.ChukhonskyRules) -> None:
    rng = random.Random(seed)
    game = C.make_game(rules, n, rng.randrange(n))
    deck = list(range(game.n_cards))
    rng.shuffle(deck)
    state = C.new_game(game, deck)
    views = [C.new_game(game, None) for _ in range(n)]
    log: list[C.Move] = []
    for _ in range(bound(game)):
        if C.is_over(state):
            break
        (seat,) = C.to_act(state)
        options = C.legal_actions(state, seat)
        move = options[rng.randrange(len(options))]
        if seat != C.CHANCE:
            # the actor's own view offers the same moves
            assert C.legal_actions(views[seat], seat) == options
        state = C.step(state, move)
        log.append(move)
        check_cards(state)
        for viewer in range(n):
            views[viewer] = C.step(views[viewer], move)
            if move.kind is C.MoveKind.DEAL:
                own = tuple(c for c in range(game.n_cards) if state.hands[viewer] >> c & 1)
                views[viewer] = C.learn(views[viewer], viewer, own)
            assert views[viewer] == C.private_view(state, viewer)
            assert C.state_hash(views[viewer]) == C.state_hash(state)
            assert known_cards(views[viewer]) & ~known_cards(state) == 0
    assert C.is_over(state), "the game did not end within its bound"
    result = state.result
    assert result is not None
    assert result.draw == (not result.durak)
    assert set(result.finish).isdisjoint(result.durak)
    replayed = C.new_game(game, deck)
    for move in log:
        replayed = C.step(replayed, move)
    assert replayed == state
