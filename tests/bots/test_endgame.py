"""The exact endgame solver: small positions with known answers, and agreement with a plain
minimax (no pruning, no table) on random small endgames."""

from __future__ import annotations

import random
import sys

import pytest
from bot_support import endgame, podkidnoy

from p2p_durak.bots.base import outcome, priority_actor
from p2p_durak.bots.endgame import MAX_DEPTH, EndgameSolver, OutOfBudget
from p2p_durak.engine import CHANCE, State, chance_outcome, is_over, legal_actions, step
from p2p_durak.engine.actions import lead


def minimax(state: State, root: int, path: frozenset[object] = frozenset()) -> float:
    """Plain minimax, no pruning, no table (a repeated position would score ½)."""
    if is_over(state):
        assert state.result is not None
        return outcome(state.result, root, state.game.team)
    seat = priority_actor(state)
    if seat == CHANCE:
        action = chance_outcome(state)
        assert action is not None
        return minimax(step(state, action), root, path)
    key = (state.hands, state.table, state.covers, state.attacker, state.defender,
           state.taking, state.passed, state.out)
    if key in path:
        return 0.5
    values = [minimax(step(state, a), root, path | {key}) for a in legal_actions(state, seat)]
    return max(values) if state.game.team[seat] == state.game.team[root] else min(values)


def card(state: State, text: str) -> int:
    return state.game.deck.parse(text)


def test_a_trump_nobody_can_beat_wins() -> None:
    state = endgame([["AH"], ["6S"]], trump="H")
    result = EndgameSolver(0).solve(state)
    assert result is not None
    assert result[0] == 1.0
    assert result[1] == lead(0, card(state, "AH"))


def test_the_only_winning_lead_is_found() -> None:
    # Leading 6♠ lets the defender go out with A♠; leading 7♦ makes him take it, then 6♠ is
    # beaten by A♠ and the attacker goes out, leaving the defender with 7♦.
    state = endgame([["6S", "7D"], ["AS"]], trump="H")
    values = EndgameSolver(0).root_values(state)
    assert values == {lead(0, card(state, "6S")): 0.0, lead(0, card(state, "7D")): 1.0}


def test_both_out_at_once_is_a_draw() -> None:
    state = endgame([["6S"], ["7S"]], trump="H")
    result = EndgameSolver(0).solve(state)
    assert result is not None
    assert result[0] == 0.5
    assert EndgameSolver(1).solve(state) == (0.5, lead(0, card(state, "6S")))


def test_the_defender_side_sees_its_loss() -> None:
    state = endgame([["AH"], ["6S"]], trump="H")
    result = EndgameSolver(1).solve(state)
    assert result is not None
    assert result[0] == 0.0


def test_budget_exhaustion_gives_up_instead_of_guessing() -> None:
    state = endgame([["6S", "7S", "8D", "9C", "TH", "JS"], ["6D", "7C", "8S", "QS", "KD", "AC"]],
                    trump="C")
    assert EndgameSolver(0, node_limit=5).solve(state) is None


def random_endgame(rng: random.Random, size: int, players: int = 2) -> State:
    game = podkidnoy(players)
    faces = [f.text("en", ascii_only=True) for f in game.deck.faces]
    picked = rng.sample(faces, size * players)
    hands = [picked[i * size:(i + 1) * size] for i in range(players)]
    return endgame(hands, trump=rng.choice("SCDH"), attacker=rng.randrange(players), game=game)


@pytest.mark.parametrize("seed", range(12))
def test_alpha_beta_agrees_with_plain_minimax(seed: int) -> None:
    rng = random.Random(seed)
    state = random_endgame(rng, size=rng.choice((2, 3)))
    for root in range(2):
        solver = EndgameSolver(root)
        solved = solver.solve(state)
        assert solved is not None
        assert solved[0] == minimax(state, root)


def test_three_seats_lead_the_unbeatable_trump() -> None:
    # Seat 0 leads its ace of trumps: nobody can beat it, seat 1 takes, seat 0 is out first.
    state = endgame([["AH"], ["6S", "7S"], ["8S", "9D"]], trump="H")
    assert EndgameSolver(0).solve(state) == (1.0, lead(0, card(state, "AH")))


def test_a_line_deeper_than_the_depth_cap_gives_up_instead_of_overflowing_the_stack() -> None:
    """bench/bot_games.py found the hard bot raising RecursionError (круговой, six seats: a
    line of play longer than Python's recursion limit, with no repetition on the path). The
    search now gives up at `max_depth` plies, as it does when out of nodes or time; the default
    cap stays well inside the interpreter's limit (two frames a ply, with room for the caller's
    stack: a node runs the bot deep in trio's)."""
    state = endgame([["6S", "7S", "8D", "9C", "TH", "JS"], ["6D", "7C", "8S", "QS", "KD", "AC"]],
                    trump="C")
    assert EndgameSolver(0).solve(state) is not None  # solvable within the default cap
    assert EndgameSolver(0, max_depth=3).solve(state) is None
    solver = EndgameSolver(0, max_depth=3)
    with pytest.raises(OutOfBudget):
        solver.value(state)
    assert solver._depth == 0  # the count unwinds with the stack
    assert sys.getrecursionlimit() > 2 * MAX_DEPTH + 300
