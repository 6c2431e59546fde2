"""The knowledge model and determinization: every card in exactly one place, counts kept,
hard facts respected, and the real deal always consistent with the model."""

from __future__ import annotations

import random

import pytest
from bot_support import fits, game_for, preset_tables

from p2p_durak.bots.features import bits, trump_mask
from p2p_durak.bots.knowledge import HARD, Knowledge, determinize
from p2p_durak.bots.levels import MediumBot, RandomBot
from p2p_durak.bots.table import LocalTable
from p2p_durak.engine import UNKNOWN, State, is_over, legal_actions, state_hash
from p2p_durak.engine.actions import NO_TRUMP
from p2p_durak.engine.state import BOUT, LEAD, known_cards


def places(state: State) -> list[int]:
    """Every card mask of a full state, one per place."""
    out = list(state.hands) + [state.discard]
    out += [1 << c for c in state.table] + [1 << c for c in state.covers if c >= 0]
    out += [1 << c for c in state.stock]
    out += [1 << c for pile in state.locked for c in pile]  # магаданский
    out.append(state.buried)  # верю не верю: covers discarded face down
    if state.hidden_trump >= 0:
        out.append(1 << state.hidden_trump)
    elif state.reveal_card >= 0:
        out.append(1 << state.reveal_card)
    return out


def check_determinization(view: State, knowledge: Knowledge, det: State) -> None:
    game = view.game
    assert det.is_full
    assert state_hash(det) == state_hash(view)
    seen = 0
    for mask in places(det):
        assert not seen & mask, "a card in two places"
        seen |= mask
    assert seen == game.all_cards, "a card in no place"
    for s in range(game.n_players):
        assert det.hands[s] & view.hands[s] == view.hands[s]
        assert det.hand_size(s) == view.hand_size(s)
        if s != knowledge.seat:
            assert fits(bits(det.hands[s] & ~view.hands[s]), knowledge.groups[s])
    mine, sampled = legal_actions(view, knowledge.seat), legal_actions(det, knowledge.seat)
    if game.tables.blind and view.hidden[knowledge.seat]:
        # оборотный: his view lists picks by position, the sample the cards it dealt him
        assert {(a.kind, a.target) for a in mine} == {(a.kind, a.target) for a in sampled}
        assert len(mine) == len(sampled)
    else:
        assert sampled == mine


def check_truth_fits(truth: State, bot: MediumBot) -> None:
    view, knowledge = bot.view, bot.memory
    knowledge.check(view)
    for s in range(truth.game.n_players):
        if s != bot.seat:
            hidden = truth.hands[s] & ~view.hands[s]
            assert not hidden & known_cards(view)
            assert fits(bits(hidden), knowledge.groups[s]), f"the real hand of seat {s}"


@pytest.mark.parametrize(("preset_id", "players"), preset_tables())
def test_model_and_samples_stay_consistent(preset_id: str, players: int) -> None:
    game = game_for(preset_id, players, 3)
    rng = random.Random(f"{preset_id}/{players}")
    bots = [MediumBot(s, random.Random(s)) if s % 2 == 0 else RandomBot(s, random.Random(s))
            for s in range(players)]
    deck = list(range(game.n_cards))
    rng.shuffle(deck)
    table = LocalTable(game, deck, bots, rng)
    sample_rng = random.Random(1)
    steps = 0
    while not is_over(table.state):
        table.commit(table.next_action())
        steps += 1
        for bot in bots:
            assert state_hash(bot.view) == state_hash(table.state)
            if isinstance(bot, MediumBot):
                check_truth_fits(table.state, bot)
                if bot.view.phase in (LEAD, BOUT) and steps % 3 == 0:
                    det = determinize(bot.view, bot.memory, sample_rng)
                    check_determinization(bot.view, bot.memory, det)
    assert steps > 10


def test_no_trump_and_lowest_trump_claims_bind_the_dealt_hand() -> None:
    game = game_for("app_podkidnoy", 4, 0)
    for seed in range(40):
        rng = random.Random(seed)
        deck = list(range(game.n_cards))
        rng.shuffle(deck)
        bots = [MediumBot(s, random.Random(s)) for s in range(4)]
        table = LocalTable(game, deck, bots, rng)
        while table.state.phase not in (LEAD, BOUT):
            table.commit(table.next_action())
        claims = table.state.claims
        if UNKNOWN not in claims:
            continue
        watcher = bots[0]
        trumps = trump_mask(game, table.state.trump)
        for i, claim in enumerate(claims):
            seat = (game.dealer + 1 + i) % 4
            if seat == 0:
                continue
            groups = watcher.memory.groups[seat]
            if claim == UNKNOWN:
                assert all(g[HARD] & trumps == trumps for g in groups)
                assert any(a.kind == NO_TRUMP and a.seat == seat for a in table.log)
            else:
                lower = [c for c in bits(trumps) if game.rank[c] < game.rank[claim]]
                assert all((g[HARD] >> c) & 1 for g in groups for c in lower)
        for _ in range(20):
            det = determinize(watcher.view, watcher.memory, rng)
            for i, claim in enumerate(claims):
                seat = (game.dealer + 1 + i) % 4
                if seat != 0 and claim == UNKNOWN:
                    assert not det.hands[seat] & trumps
        return
    pytest.fail("no deal with a «нет козыря» in 40 seeds")


def test_a_revealed_card_leaves_the_most_constrained_group() -> None:
    game = game_for("app_podkidnoy", 2, 0)
    knowledge = Knowledge(game, 0)
    knowledge.groups[1] = [[2, 0b1111, 0], [1, 0, 0]]
    knowledge._remove_slot(1, 5)  # allowed by both: leave the constrained one
    assert knowledge.groups[1] == [[1, 0b1111, 0], [1, 0, 0]]
    knowledge._remove_slot(1, 2)  # excluded by the first group: must come from the free one
    assert knowledge.groups[1] == [[1, 0b1111, 0]]
