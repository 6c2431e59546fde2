"""Дурак чухонский's bots: each level plays legal moves from its own seat's view only, the
accounting never excludes a card a hand really holds, and the levels are ordered (a seeded,
fixed set of games: the same result every run)."""

from __future__ import annotations

import random

import pytest

from p2p_durak.bots import chukhonsky as B
from p2p_durak.bots.chukhonsky_table import LocalTable, deal_for
from p2p_durak.engine.games import chukhonsky as C


class Watching(LocalTable):
    """A local table that checks, after every move, each bot's view against the full state
    and its accounting against the true hands."""

    def commit(self, move: C.Move) -> None:
        super().commit(move)
        for seat, bot in enumerate(self.bots):
            assert bot.view == C.private_view(self.state, seat)
            possible = bot.possible(bot.view)
            for other in range(self.state.n_players):
                assert self.state.hands[other] & ~possible[other] == 0


def advance(table: LocalTable, moves: int) -> None:
    """`moves` moves of the table's own bots (the deal by chance)."""
    for _ in range(moves):
        (seat,) = C.to_act(table.state)
        table.commit(C.chance_outcome(table.state) or table.bots[seat].choose())


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("rules", [C.ChukhonskyRules(),
                                   C.ChukhonskyRules(climb_rule="any_higher_same_suit",
                                                     play_compulsory=False, deck_size=52,
                                                     deal_remainder="out_of_play")])
def test_every_level_plays_a_whole_game_from_its_own_view(
        n: int, rules: C.ChukhonskyRules) -> None:
    rng = random.Random(f"levels/{n}/{rules.climb_rule}")
    game, deck = deal_for(rules, n, rng)
    levels = ["random", "easy", "medium"]
    bots = [B.make_bot(levels[s % 3], s, random.Random(s)) for s in range(n)]
    played = Watching(game, deck, bots).play()
    assert not played.aborted
    assert C.is_over(played.final)


def test_the_sampled_deals_fit_the_view_and_the_proved_lacks() -> None:
    """hard's deals: every seat's view of a sampled deal is this bot's view, and a seat that
    took when the pile needed 9♠ never gets 9♠ («Тот игрок, у которого нет необходимой карты,
    забирает себе верхнюю карту»)."""
    rng = random.Random(7)
    game, deck = deal_for(C.ChukhonskyRules(), 4, rng)
    bots = [B.make_bot("medium", s, random.Random(s)) for s in range(4)]
    table = LocalTable(game, deck, bots)
    advance(table, 60)
    bot = bots[0]
    assert any(bot.lacks)
    for k in range(20):
        deal = B.determinize(bot.view, 0, bot.lacks, random.Random(k))
        assert C.private_view(deal, 0) == bot.view
        for seat in range(4):
            fresh = deal.hands[seat] & ~bot.view.hands[seat]
            assert fresh & bot.lacks[seat] == 0


def duel(a: str, b: str, deals: int) -> tuple[int, int]:
    """Wins of `a` and of `b` over `deals` two-player deals, each played twice, seats
    swapped."""
    wins = [0, 0]
    for deal in range(deals):
        for swap in (False, True):
            levels = (b, a) if swap else (a, b)
            rng = random.Random(f"duel/{deal}")
            game, deck = deal_for(C.ChukhonskyRules(), 2, rng)
            bots = [B.make_bot(level, s, random.Random(f"{deal}/{swap}/{s}"))
                    for s, level in enumerate(levels)]
            result = LocalTable(game, deck, bots).play().final.result
            assert result is not None
            if not result.draw:
                loser = levels[result.durak[0]]
                wins[0 if loser == b else 1] += 1
    return wins[0], wins[1]


def test_medium_beats_random_and_easy_beats_random() -> None:
    """Fixed seeds: 40 deals, each both ways. docs/bots.md has the measured rates."""
    medium, random_ = duel("medium", "random", 40)
    assert medium >= 2 * random_
    easy, random_ = duel("easy", "random", 40)
    assert easy > random_


def test_hard_searches_the_sampled_deals_and_plays_a_legal_lead() -> None:
    """hard at a lead of a three-player game (taking over seat 0's view and accounting from a
    medium bot): it plays one of the legal moves, after trying every option on the same
    sampled deals."""
    rng = random.Random(11)
    game, deck = deal_for(C.ChukhonskyRules(), 3, rng)
    bots = [B.make_bot("medium", s, random.Random(s)) for s in range(3)]
    table = Watching(game, deck, bots)
    advance(table, 40)
    while C.to_act(table.state) != {0} or table.state.pile:
        advance(table, 1)
    hard = B.HardBot(0, random.Random(0), budget=30.0, iterations=2)
    hard.new_game(game)
    hard._view, hard.lacks = bots[0].view, list(bots[0].lacks)
    move = hard.choose()
    assert move in C.legal_actions(table.state, 0)
    assert hard.deliberated
