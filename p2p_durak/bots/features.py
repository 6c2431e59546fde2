"""Card values and mask helpers shared by the heuristics, the search and the knowledge model."""

from __future__ import annotations

from p2p_durak.engine import Game

TRUMP_BONUS = 13
"""Added to a trump's value so that every trump is worth more than every plain card."""

_VALUES: dict[tuple[Game, int], tuple[int, ...]] = {}


def card_values(game: Game, trump: int) -> tuple[int, ...]:
    """How much each card is worth keeping: its rank above the deck's lowest, plus
    `TRUMP_BONUS` for a trump; a joker or the blank more than any trump."""
    key = (game, trump)
    values = _VALUES.get(key)
    if values is None:
        low = game.deck.lowest_rank
        trumps = game.trump_mask(trump)
        # a joker or the blank beats (nearly) anything: worth more than the highest trump
        special = TRUMP_BONUS + 15 - low
        values = tuple(
            special if rank < 0 else rank - low + (TRUMP_BONUS if (trumps >> card) & 1 else 0)
            for card, rank in enumerate(game.rank))
        if len(_VALUES) > 256:
            _VALUES.clear()
        _VALUES[key] = values
    return values


def bits(mask: int) -> list[int]:
    """Card ids in a mask, ascending."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def cheapest(mask: int, values: tuple[int, ...]) -> int:
    """The lowest-valued card of a non-empty mask (ties: the lowest id)."""
    best, best_value = -1, 1 << 30
    while mask:
        low = mask & -mask
        card = low.bit_length() - 1
        mask ^= low
        if values[card] < best_value:
            best, best_value = card, values[card]
    return best


def trump_mask(game: Game, trump: int) -> int:
    return game.trump_mask(trump)
