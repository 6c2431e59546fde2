"""A bot fed exactly what its node learns: the committed public actions and its own cards.

Shared by the bot peers (`players.BotPlayer`) and the turn timer's stand-in (`game.GameRunner`,
which lets an easy bot move for a player who ran out of time): both need a bot whose card memory
follows the committed table, and neither may see the table machine's internals.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from p2p_durak.bots.base import Bot
from p2p_durak.engine import Action
from p2p_durak.engine.actions import PASS
from p2p_durak.protocol.table import (
    CardsLearned,
    HandSeen,
    Moved,
    Seated,
    TableEvent,
    TableMachine,
)


class BotFeed:
    def __init__(self, make: Callable[[int], Bot]) -> None:
        self._make = make
        self.bot: Bot | None = None

    def update(self, table: TableMachine, events: tuple[TableEvent, ...]) -> None:
        for event in events:
            if isinstance(event, Seated):
                game = event.game
                if game is None:
                    assert table.state is not None
                    game = table.state.game
                self.bot = self._make(table.my_seat)
                self.bot.new_game(game)
            elif self.bot is None:
                continue
            elif isinstance(event, Moved):
                self.bot.observe(event.action)
            elif isinstance(event, CardsLearned):
                self.bot.learn(event.cards)
            elif isinstance(event, HandSeen):  # оборотный, с болваном: another seat's cards
                self.bot.learn_hand(event.seat, event.cards)


def bot_move(bot: Bot, legal: Sequence[Action]) -> Action:
    """The bot's move among its party's legal moves: its own seat's, or (с болваном) those of
    the dummy it controls. When both may act, a throw-in of the dummy's comes first (its cards
    cost the controller nothing); else the bot's own move. A pass is not final, so the party
    is asked again for the other seat at the next commit."""
    dummy = bot.view.game.dummy
    if dummy < 0 or all(a.seat != dummy for a in legal):
        return bot.choose()
    if all(a.seat != bot.seat for a in legal):
        return bot.choose_dummy()
    for_dummy = bot.choose_dummy()
    return for_dummy if for_dummy.kind != PASS else bot.choose()
