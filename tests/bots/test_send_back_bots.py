"""Bots at a щелковский table with the option (B), `over_limit_policy: defender_chooses`: past
the cap the defender sends back the cards he cannot (or can least cheaply) beat, and every
level plays such games legally to the end. Catalogue: «(B): allow more and let the defender
pick 10 to beat and return the rest to their owners»; seed 000_0a1bcdd496bc6662.txt:
«выбрать карты, которые отбивать, а остальные возвратить»."""

from __future__ import annotations

import random

import pytest
from bot_support import HARD_TEST, play

from p2p_durak.bots.features import card_values
from p2p_durak.bots.heuristic import heuristic_action
from p2p_durak.bots.levels import LEVELS, make_bot
from p2p_durak.engine import (
    CHANCE,
    apply,
    chance_outcome,
    legal_actions,
    make_game,
    new_game,
    state_hash,
)
from p2p_durak.engine import actions as A
from p2p_durak.engine.bout import over_limit
from p2p_durak.engine.presets import get_preset
from p2p_durak.engine.rules import RuleSet
from p2p_durak.engine.state import State


def _rules(limit: int = 2) -> RuleSet:
    return get_preset("shchelkovsky").rules.with_options(
        over_limit_policy="defender_chooses", bout_attack_limit=limit,
        first_bout_attack_limit=limit)


def _positions_past_the_cap(games: int) -> list[State]:
    """States of random games (the throwers always throw in) where the defender must choose."""
    found = []
    for seed in range(games):
        rng = random.Random(seed)
        game = make_game(_rules(), 3, seed % 3)
        order = list(range(game.n_cards))
        rng.shuffle(order)
        state = new_game(game, order)
        while state.result is None:
            if over_limit(state):
                found.append(state)
            seat = rng.choice(state.actors)
            if seat == CHANCE:
                action = chance_outcome(state) or rng.choice(legal_actions(state, CHANCE))
            else:
                options = legal_actions(state, seat)
                throws = [a for a in options if a.kind == A.THROW]
                action = rng.choice(throws or options)
            state, _ = apply(state, action)
    return found


def _beat_costs(state: State) -> dict[int, int]:
    """For each card on the table, what the defender's cheapest beater of it is worth (more
    than any card when he has none)."""
    values = card_values(state.game, state.trump)
    beaters = state.game.beaters(state.trump)
    hand = state.hands[state.defender]
    return {card: min((values[c] for c in range(state.game.n_cards)
                       if (hand & beaters[card]) >> c & 1), default=1 << 20)
            for card in state.table}


def test_the_defender_sends_back_what_he_cannot_beat_or_beats_dearest() -> None:
    positions = _positions_past_the_cap(6)
    assert len(positions) > 10
    for state in positions:
        seat = state.defender
        action = heuristic_action(state, seat)
        assert action in legal_actions(state, seat)
        assert action.kind == A.SEND_BACK
        costs = _beat_costs(state)
        sent = action.cards[0]
        assert all(costs[sent] >= costs[a.cards[0]] for a in legal_actions(state, seat))


@pytest.mark.parametrize("level", LEVELS)
def test_each_level_plays_the_option_to_the_end(level: str) -> None:
    game = make_game(_rules(), 3, 1)
    extra = HARD_TEST if level == "hard" else {}
    bots = [make_bot(level, s, random.Random(s), **extra) for s in range(3)]
    played = play(game, bots, seed=23)
    assert not played.aborted
    assert played.final.result is not None
    assert any(a.kind == A.SEND_BACK for a in played.log)
    for bot in bots:
        assert state_hash(bot.view) == state_hash(played.final)
