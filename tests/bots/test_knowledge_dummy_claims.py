"""What the claim rounds tell a bot at a table with a dummy (с болваном): the dummy never
claims (`Game.claim_seats`), so the rounds are counted over the claiming seats, not over
`n_players`. docs/rules.md, щелковский's first attacker: "When none of them shows a next trump,
each shows a joker or says he has none" — a "none" in that round hides no joker."""

from __future__ import annotations

import random

from p2p_durak.bots.knowledge import HARD, determinize
from p2p_durak.bots.levels import MediumBot
from p2p_durak.bots.table import LocalTable
from p2p_durak.engine import UNKNOWN
from p2p_durak.engine.presets import get_preset
from p2p_durak.engine.rules import engine_seats
from p2p_durak.engine.setup import JOKER_ROUND, JOKERS, claim_round, make_game
from p2p_durak.engine.state import BOUT, LEAD

RULES = get_preset("s_bolvanom").rules.with_options(
    deck_count=2, deck_size=52, jokers_per_deck=2, joker_rule="beats_all_but_two",
    first_attacker_tiebreak="next_trumps_then_joker_then_lot")
DEAL_SEED = 403  # a deal whose lowest trumps tie, and neither tied seat holds a next trump


def test_a_no_joker_in_the_joker_round_at_a_dummy_table_binds_the_hand() -> None:
    game = make_game(RULES, engine_seats(RULES, 2), 0)
    assert game.dummy >= 0
    assert len(game.claim_seats) < game.n_players
    rng = random.Random(DEAL_SEED)
    deck = list(range(game.n_cards))
    rng.shuffle(deck)
    bots = [MediumBot(s, random.Random(s)) for s in range(game.n_players)]
    table = LocalTable(game, deck, bots, rng)
    said: dict[int, int] = {}  # seat: its card in the joker round
    while table.state.phase not in (LEAD, BOUT):
        round_ = claim_round(table.state)
        action = table.next_action()
        if round_.round == JOKER_ROUND:
            said[action.seat] = action.cards[0] if action.cards else UNKNOWN
        table.commit(action)
    assert set(said) == set(game.claim_seats), "this deal no longer reaches the joker round"
    jokers = sum(1 << c for c, f in enumerate(game.deck.faces) if f.kind in JOKERS)
    assert jokers
    denied = [s for s, card in said.items() if card == UNKNOWN]
    assert denied
    for watcher in game.claim_seats:
        memory = bots[watcher].memory
        for seat in denied:
            if seat == watcher:
                continue
            assert all(g[HARD] & jokers == jokers for g in memory.groups[seat]), \
                f"seat {watcher} still thinks seat {seat} may hold a joker"
            for _ in range(10):
                det = determinize(bots[watcher].view, memory, rng)
                assert not det.hands[seat] & jokers
