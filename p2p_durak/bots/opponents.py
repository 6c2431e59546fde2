"""Opponent modelling from public play: how the hard bot's playouts play the other seats.

The paired rollout search plays every option out with a heuristic for every seat. By default
the other seats play the `STRONG` heuristic with the sampled deal in view — an opponent that
counts every card and throws in anything. Against a player who plays much worse than that
the values are pessimistic: the search avoids lines that only a strong opponent would punish
and does not look for the mistakes a weaker one makes.

So the bot watches each other seat's throw-ins, the moves that show a player's style without
any hidden card: the `EASY` heuristic (the cheapest card that does the job, trumps kept) never
throws in a trump, nor, while the stock lasts, a plain card above a ten (above a jack after
«беру»). While a seat has thrown in nothing outside that pattern, the playouts play it as the
easy heuristic without card memory; its first throw-in outside the pattern makes it a strong
player for the rest of the game. A seat that has not thrown in yet counts as restrained, so a
strong player is played as easy until its first high throw-in — a small cost, as the early
game is where the search's choice matters least.

Only public actions are read (the thrown card is on the table for everyone to see).
"""

from __future__ import annotations

from p2p_durak.bots.features import TRUMP_BONUS, card_values
from p2p_durak.bots.heuristic import EASY, Style
from p2p_durak.engine import Action, Game, State
from p2p_durak.engine.actions import THROW

Policy = tuple[Style, bool]
"""A playout policy for one seat: the heuristic's style, and whether it sees the deal."""


class OpponentModel:
    """Per seat, whether it has so far thrown in only what the easy heuristic throws in."""

    def __init__(self, game: Game, seat: int) -> None:
        self.game = game
        self.seat = seat
        self.restrained = [s != seat for s in range(game.n_players)]

    def update(self, before: State, action: Action) -> None:
        s = action.seat
        if action.kind != THROW or s == self.seat or s < 0 or not self.restrained[s]:
            return
        if s == before.defender:
            return  # американский: the defender throwing in to himself is another matter
        if any(not easy_throws(before, card) for card in action.cards):
            self.restrained[s] = False

    def policies(self, style: Style) -> tuple[Policy, ...]:
        """Each seat's playout policy: `style` seeing the deal, or the easy heuristic blind
        for a restrained seat."""
        return tuple((EASY, False) if restrained else (style, True)
                     for restrained in self.restrained)

    def any_restrained(self) -> bool:
        return any(self.restrained)


def easy_throws(state: State, card: int, style: Style = EASY) -> bool:
    """Whether the easy heuristic (card memory aside) may throw `card` in now."""
    game = state.game
    if card_values(game, state.trump)[card] >= TRUMP_BONUS:  # a trump, a joker
        return bool(not state.stock and style.throw_trumps_endgame)
    limit = style.dump_max_rank if state.taking else style.throw_max_rank
    return not state.stock or game.rank[card] <= limit

