"""Players of a networked seat: a bot, fed exactly what its node learns.

A bot is a full peer: its node has its own identity, deck secret and partial view, and the bot
is given only the committed public actions and its own cards (the bot interface of
`p2p_durak.bots`); it never sees the table machine's internals. Its decision runs in a worker
thread so that a searching bot never stalls the node's event loop, and its move goes out after
a reply delay drawn independently of its cards (`reply_delay.py`): how fast a bot answers must
not tell the table what it holds.
"""

from __future__ import annotations

import random

import trio

from p2p_durak.bots.base import Bot
from p2p_durak.bots.levels import make_bot
from p2p_durak.node import offload
from p2p_durak.node.bot_feed import BotFeed, bot_move
from p2p_durak.node.game import GameRunner, Player, Turn
from p2p_durak.node.reply_delay import ReplyDelay
from p2p_durak.protocol.table import TableEvent, TableMachine


class BotPlayer(Player):
    def __init__(self, bot_factory: type[Bot] | None = None, *, level: str = "easy",
                 seed: int | None = None, games: int | None = 1,
                 leave_at_bout: int | None = None,
                 reply_delay: ReplyDelay | None = None) -> None:
        self.level = level
        self.games = games  # how many games of a series it plays; None: as many as the others
        self.leave_at_bout = leave_at_bout  # leaves the table when this bout (0, 1, ...) comes
        self.rng = random.Random(seed)
        self.reply_delay = ReplyDelay() if reply_delay is None else reply_delay
        # its own stream: the delays must not shift the bot's decisions (seeded games replay)
        self._delay_rng = random.Random(None if seed is None else f"{seed}/reply-delay")
        self._factory = bot_factory
        self._feed = BotFeed(self._make)
        self.result_table: TableMachine | None = None
        self.diagnosis: str | None = None

    def _make(self, seat: int) -> Bot:
        if self._factory is not None:
            return self._factory(seat, self.rng)
        return make_bot(self.level, seat, self.rng)

    @property
    def bot(self) -> Bot | None:
        return self._feed.bot

    async def update(self, table: TableMachine, events: tuple[TableEvent, ...]) -> None:
        self._feed.update(table, events)

    async def turn(self, turn: Turn, runner: GameRunner) -> None:
        bot = self.bot
        assert bot is not None
        # drawn before the decision, from nothing of the position: the move leaves at the same
        # time whether the bot had one legal move or searched among many
        delay = self.reply_delay.for_bot(bot).draw(self._delay_rng)
        send_at = trio.current_time() + delay
        action = await offload.run_sync(lambda: bot_move(bot, turn.legal))
        if delay > 0:
            runner.move_at(turn.seq, action, send_at)
        else:  # (no delay: at once, in this task)
            await runner.move(turn.seq, action)

    def attach(self, runner: GameRunner) -> None:
        runner.journal.record_series(self.games)  # a restarted node plays on as it would have

    def leaving(self, table: TableMachine) -> bool:
        state = table.state
        return (self.leave_at_bout is not None and state is not None
                and state.bout >= self.leave_at_bout)

    async def after_game(self, table: TableMachine, runner: GameRunner) -> None:
        await runner.choose_next(self.games is None or table.game_number < self.games)

    async def finished(self, table: TableMachine, diagnosis: str | None) -> None:
        self.result_table = table
        self.diagnosis = diagnosis
