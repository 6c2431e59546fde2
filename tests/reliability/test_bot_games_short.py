"""CI's short run of bench/bot_games.py: one game at every (working preset, seat count from 2
to 6), in this process, with the card check after every action; and the check itself catches
a lost or doubled card. The 100,000-game run is in docs/reliability.md."""

from __future__ import annotations

import bot_games  # bench/bot_games.py
import pytest

from p2p_durak.engine import make_game, new_game
from p2p_durak.engine.presets import get_preset


def test_one_game_at_every_table_ends_with_every_card_conserved() -> None:
    chunks = bot_games.plan(len(bot_games.tables(bot_games.working_presets())), seed=1,
                            game_seconds=120.0)
    failures = []
    games = 0
    for chunk in chunks:
        result = bot_games.run_chunk(chunk)
        games += result.games
        failures += result.failures
    assert games >= 200
    assert failures == []


def test_the_card_check_catches_a_lost_and_a_doubled_card() -> None:
    game = make_game(get_preset("app_podkidnoy").rules, 3, 0)
    state = new_game(game, list(range(game.n_cards)))
    bot_games.check_conserved(state)
    lost = state._replace(stock=state.stock[1:])
    with pytest.raises(bot_games.CardsNotConserved, match="missing"):
        bot_games.check_conserved(lost)
    doubled = state._replace(discard=state.discard | (1 << state.stock[0]))
    with pytest.raises(bot_games.CardsNotConserved, match="twice"):
        bot_games.check_conserved(doubled)


def test_a_game_is_replayed_from_its_seed() -> None:
    preset = get_preset("app_perevodnoy")
    first = bot_games.play_one(preset, 4, 7, 0, 120.0)
    again = bot_games.play_one(preset, 4, 7, 0, 120.0)
    assert first[:3] == again[:3]
    assert first[2] is None
