"""Helpers for the bot tests: hand-built endgame positions and bot games."""

from __future__ import annotations

import random
from collections.abc import Sequence

from p2p_durak.bots.base import Bot
from p2p_durak.bots.levels import MediumBot, RandomBot
from p2p_durak.bots.table import LocalTable, Played
from p2p_durak.engine import Game, State, make_game, mask_of, new_game, step
from p2p_durak.engine.actions import deal
from p2p_durak.engine.presets import get_preset
from p2p_durak.engine.state import LEAD

HARD_TEST = {"budget": 60.0, "iterations": 3, "endgame_nodes": 400}
"""Iteration and node caps, not the clock, bound the hard bot in tests: reproducible, and as
fast on a busy machine as on an idle one (the default is a second of wall clock a move)."""


def podkidnoy(players: int = 2, dealer: int = 0) -> Game:
    return make_game(get_preset("app_podkidnoy").rules, players, dealer)


def endgame(hands: Sequence[Sequence[str]], trump: str, attacker: int = 0,
            game: Game | None = None) -> State:
    """A full heads-up (or n-seat) position at a lead, stock empty, every other card
    discarded; cards in text form (`"6S"`, `"AH"`), `trump` a suit letter."""
    game = game or podkidnoy(len(hands))
    deck = game.deck
    state = step(new_game(game, list(range(game.n_cards))), deal())
    masks = tuple(mask_of([deck.parse(c) for c in hand]) for hand in hands)
    held = 0
    for mask in masks:
        held |= mask
    suit = "SCDH".index(trump)
    n = game.n_players
    defender = (attacker + 1) % n
    return state._replace(phase=LEAD, hands=masks, hidden=(0,) * n, stock=(), trump=suit,
                          trump_card=-2, reveal_card=-1, table=(), covers=(), table_by=(),
                          attacker=attacker, defender=defender, taking=False, passed=0,
                          shown=0, out=0, finish=(), discard=game.all_cards & ~held, bout=3,
                          claims=(), lot_among=(), result=None, actors=(attacker,))


def play(game: Game, bots: Sequence[Bot], seed: int) -> Played:
    rng = random.Random(seed)
    deck = list(range(game.n_cards))
    rng.shuffle(deck)
    return LocalTable(game, deck, bots, rng).play()


def fits(cards: Sequence[int], groups: Sequence[Sequence[int]]) -> bool:
    """Whether `cards` can fill the slots of `groups` ([count, hard mask, ...]) so that no
    card lands in a group that excludes it (bipartite matching, augmenting paths)."""
    slots = [hard for group in groups for hard in [group[1]] * group[0]]
    if len(slots) != len(cards):
        return False
    owner: list[int] = [-1] * len(slots)

    def place(card_index: int, seen: set[int]) -> bool:
        card = cards[card_index]
        for slot, hard in enumerate(slots):
            if (hard >> card) & 1 or slot in seen:
                continue
            seen.add(slot)
            if owner[slot] < 0 or place(owner[slot], seen):
                owner[slot] = card_index
                return True
        return False

    return all(place(i, set()) for i in range(len(cards)))


def game_for(preset_id: str, players: int, seed: int) -> Game:
    return make_game(get_preset(preset_id).rules, players, seed % players)


def preset_tables() -> list[tuple[str, int]]:
    """Every working preset, heads-up and at one larger table (its only size for teams)."""
    from p2p_durak.engine.presets import table_presets
    out = []
    for preset in table_presets():
        sizes = sorted(preset.players)
        out.append((preset.id, sizes[0]))
        if len(sizes) > 1:
            out.append((preset.id, 4 if 4 in sizes else sizes[-1]))
    return out


def medium_vs_random(preset_id: str, games: int, seed: int) -> tuple[int, int]:
    """(medium's wins, decided games) over `games` two-player games of the preset, seats
    alternating; game `g` is dealt and played from `seed + g`."""
    wins = decided = 0
    for g in range(games):
        game = game_for(preset_id, 2, g)
        medium_seat = g % 2
        bots: list[Bot] = [MediumBot(s, random.Random(g * 2 + s)) if s == medium_seat
                           else RandomBot(s, random.Random(g * 2 + s)) for s in range(2)]
        result = play(game, bots, seed=seed + g).final.result
        assert result is not None
        if not result.draw:
            decided += 1
            wins += medium_seat not in result.durak
    return wins, decided
