"""A bot sees only its own seat: its view holds no other hand, and its decisions do not change
when the cards it cannot see are dealt differently (consistently with what it saw)."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest
from bot_support import game_for

from p2p_durak.bots.base import Bot
from p2p_durak.bots.hard import HardBot
from p2p_durak.bots.levels import EasyBot, MediumBot, RandomBot
from p2p_durak.bots.table import LocalTable
from p2p_durak.engine import (
    UNKNOWN,
    Action,
    Game,
    IllegalAction,
    State,
    is_over,
    legal_actions,
)
from p2p_durak.engine.state import known_cards

SEAT = 0


def public_cards(log: Sequence[Action]) -> int:
    mask = 0
    for action in log:
        for card in action.cards:
            mask |= 1 << card
    return mask


@pytest.mark.parametrize(("preset_id", "players"), [
    ("app_podkidnoy", 2), ("app_perevod_pokazom", 3), ("app_potayny", 2), ("app_komandy", 4)])
def test_a_view_holds_only_public_cards(preset_id: str, players: int) -> None:
    game = game_for(preset_id, players, 1)
    rng = random.Random(5)
    deck = list(range(game.n_cards))
    rng.shuffle(deck)
    bots = [MediumBot(s, random.Random(s)) for s in range(players)]
    table = LocalTable(game, deck, bots, rng)
    while not is_over(table.state):
        table.commit(table.next_action())
        public = public_cards(table.log)
        truth = table.state
        for bot in bots:
            view = bot.view
            assert view.hands[bot.seat] == truth.hands[bot.seat] or view.phase < 2
            for s in range(players):
                if s == bot.seat:
                    continue
                assert view.hands[s] & ~public == 0, "a bot knows a card nobody showed"
                assert view.hands[s] & ~truth.hands[s] == 0
                assert view.hidden[s] == truth.hand_size(s) - view.hands[s].bit_count()
            assert all(c == UNKNOWN or c == truth.trump_card for c in view.stock)
            assert view.reveal_card == UNKNOWN


def make_bots(kind: str, game: Game, peek: list[State] | None = None) -> list[Bot]:
    bots: list[Bot] = []
    for seat in range(game.n_players):
        rng = random.Random(f"bot/{seat}")
        if seat != SEAT:
            bots.append(EasyBot(seat, rng))
        elif kind == "medium":
            bots.append(MediumBot(seat, rng))
        elif kind == "hard":
            bots.append(HardBot(seat, rng, budget=60.0, iterations=3, endgame_nodes=300))
        elif kind == "random":
            bots.append(RandomBot(seat, rng))
        else:
            assert peek is not None
            bots.append(PeekingBot(seat, rng, peek))
    return bots


class PeekingBot(MediumBot):
    """A cheat, for the negative control: it reads the real hands through `peek` and lets
    them steer its choice (its card memory would hardly ever notice a reshuffle)."""

    def __init__(self, seat: int, rng: random.Random, peek: list[State]) -> None:
        super().__init__(seat, rng)
        self.peek = peek

    def decide(self, view: State, options: tuple[Action, ...]) -> Action:
        others = sum(h for s, h in enumerate(self.peek[0].hands) if s != self.seat)
        return options[others % len(options)]


def replay(game: Game, deck: list[int], log: Sequence[Action], bots: list[Bot],
           ask: bool = False) -> LocalTable:
    """The log replayed on `deck`; with `ask`, `SEAT`'s bot is asked for each of its moves
    again (so its generator advances as it did) and must make the same one."""
    table = LocalTable(game, deck, bots, random.Random(0))
    for action in log:
        if ask and action.seat == SEAT:
            assert table.bots[SEAT].choose() == action
        table.commit(action)
    return table


def reshuffled_unseen(game: Game, deck: list[int], log: Sequence[Action], seat_view: State,
                      rng: random.Random) -> tuple[list[int], LocalTable] | None:
    """The same deck with the cards `SEAT` has not seen shuffled among their positions, when
    the public log up to now is still legal with it and some other hand really changed."""
    unseen = game.all_cards & ~known_cards(seat_view)
    positions = [i for i, card in enumerate(deck) if (unseen >> card) & 1]
    for _ in range(30):
        cards = [deck[i] for i in positions]
        rng.shuffle(cards)
        other = list(deck)
        for i, card in zip(positions, cards, strict=True):
            other[i] = card
        try:
            table = replay(game, other, log, [EasyBot(s, random.Random(s))
                                              for s in range(game.n_players)])
        except IllegalAction:
            continue  # e.g. a lower trump moved into a hand that claimed its lowest
        original = replay(game, deck, log, [EasyBot(s, random.Random(s))
                                            for s in range(game.n_players)])
        if any(table.state.hands[s] != original.state.hands[s]
               for s in range(game.n_players) if s != SEAT):
            return other, table
    return None


def decisions_under_reshuffles(kind: str, preset_id: str, players: int,
                               seed: int) -> tuple[int, int]:
    """(decision points compared, decisions that differed) over one game."""
    game = game_for(preset_id, players, seed)
    rng = random.Random(seed)
    deck = list(range(game.n_cards))
    rng.shuffle(deck)
    peek_a: list[State] = []
    table = LocalTable(game, deck, make_bots(kind, game, peek_a), random.Random(0))
    compared = differed = 0
    while not is_over(table.state) and compared < 4:
        peek_a[:] = [table.state]
        actor = table.next_actor()
        if actor == SEAT and len(legal_actions(table.bots[SEAT].view, SEAT)) > 1 \
                and rng.random() < 0.5:
            mine = table.bots[SEAT].choose()
            found = reshuffled_unseen(game, deck, table.log, table.bots[SEAT].view, rng)
            if found is not None:
                other_deck, other_table = found
                peek_b = [other_table.state]
                twin = replay(game, other_deck, table.log, make_bots(kind, game, peek_b),
                              ask=kind != "peek")
                theirs = twin.bots[SEAT].choose()
                compared += 1
                differed += mine != theirs
            table.commit(mine)
        else:
            table.commit(table.next_action())
    return compared, differed


@pytest.mark.parametrize("kind", ["random", "medium", "hard"])
def test_decisions_ignore_cards_the_bot_cannot_see(kind: str) -> None:
    total = 0
    for seed in range(2 if kind == "hard" else 3):  # hard: replays are costly
        compared, differed = decisions_under_reshuffles(kind, "app_podkidnoy", 2, seed)
        assert differed == 0
        total += compared
    assert total >= 4


def test_the_check_catches_a_bot_that_peeks() -> None:
    differed = 0
    for seed in range(6):
        differed += decisions_under_reshuffles("peek", "app_podkidnoy", 2, seed)[1]
    assert differed > 0
