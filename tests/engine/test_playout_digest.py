"""`random_playout` is fixed by its state and seed: a digest of many seeded games of the default
rules — every action played and the final state's hash — recorded from the engine as it was
before the playout's speed work (main at 2c8002b, Python sources).

The playout's fast path keeps its own copy of a few facts (the defender's hand size, the lead
combinations by cap) instead of re-deriving them from the state at every move; this holds it
to the same moves, in the same order, from the same seeds, as the engine it replaced.
test_engine_regressions.py holds it to `step` for every preset; this one pins the games
themselves, so bots' seeded rollouts and recorded benchmark games stay what they were.
"""

from __future__ import annotations

import hashlib

from p2p_durak.engine import make_game, new_game, random_playout, state_hash
from p2p_durak.engine.actions import Action
from p2p_durak.engine.presets import DEFAULT_PRESET, get_preset
from p2p_durak.engine.xorshift import shuffled

RECORDED = "2c89e5a7678ec85d53a51ec06645d577b22e6033ae972cf31e999c56016eb539"
GAMES_PER_COUNT = 60


def playout_digest() -> str:
    digest = hashlib.sha256()
    rules = get_preset(DEFAULT_PRESET).rules
    for n in (2, 3, 4, 6):
        for seed in range(GAMES_PER_COUNT):
            game = make_game(rules, n, seed % n)
            log: list[Action] = []
            final = random_playout(new_game(game, shuffled(list(range(game.n_cards)), seed)),
                                   seed, log)
            for action in log:
                digest.update(repr((int(action.kind), action.seat, action.cards,
                                    action.target)).encode())
            digest.update(state_hash(final))
    return digest.hexdigest()


def test_seeded_playouts_are_the_recorded_games() -> None:
    assert playout_digest() == RECORDED
