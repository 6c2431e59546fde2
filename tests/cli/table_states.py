"""Table situations for view and key tests, reached by playing seeded games with the engine."""

from __future__ import annotations

import random
from collections.abc import Callable

from p2p_durak.engine import (
    CHANCE,
    RuleSet,
    State,
    chance_outcome,
    is_over,
    legal_actions,
    make_game,
    new_game,
    private_view,
    step,
    to_act,
)
from p2p_durak.engine.presets import get_preset
from p2p_durak.node.api import LogLine, SeatInfo, TableSnapshot

NAMES = ("Tester", "Anna", "Boris", "Vera", "Gleb", "Dasha")


def find_state(predicate: Callable[[State], bool], *, preset: str = "app_podkidnoy",
               players: int = 3, rules: RuleSet | None = None, seeds: range = range(200),
               ) -> State:
    """The first full state, over seeded random games, for which the predicate holds."""
    rules = rules or get_preset(preset).rules
    for seed in seeds:
        rng = random.Random(seed)
        game = make_game(rules, players, rng.randrange(players))
        deck = list(range(game.n_cards))
        rng.shuffle(deck)
        state = new_game(game, deck)
        while not is_over(state):
            if predicate(state):
                return state
            actors = sorted(to_act(state))
            if actors == [CHANCE]:
                action = chance_outcome(state) or legal_actions(state, CHANCE)[0]
            else:
                seat = actors[rng.randrange(len(actors))]
                options = legal_actions(state, seat)
                action = options[rng.randrange(len(options))]
            state = step(state, action)
        if predicate(state):
            return state
    raise LookupError("no seeded game reaches that situation")


def snapshot_of(full: State, me: int = 0, *, preset: str = "app_podkidnoy",
                activity: str | None = None, log: tuple[LogLine, ...] = (),
                duraks: tuple[int, ...] | None = None, **extra: object) -> TableSnapshot:
    view = private_view(full, me)
    n = full.game.n_players
    waiting: tuple[int, ...] = tuple(s for s in full.actors if s != CHANCE)
    if me in waiting:
        waiting = (me,) + tuple(s for s in waiting if s != me)
    return TableSnapshot(
        table_name="Test", preset_id=preset, rules=full.game.rules,
        seats=tuple(SeatInfo(s, NAMES[s], is_bot=s != me, bot_level="" if s == me else "easy")
                    for s in range(n)),
        my_seat=me, state=view, legal=legal_actions(view, me), waiting_for=waiting,
        activity=activity or ("over" if is_over(full) else "playing"), log=log,
        duraks=duraks or (0,) * n, **extra)  # type: ignore[arg-type]
