"""A practice table: one human seat and bots, in one trio process.

`LocalSession` implements the `Session` seam of `p2p_durak.node.api`. It holds the full engine
state (it shuffles the deck itself, from a seed), yet everything it publishes is what the
human's seat may know: the snapshot carries `private_view(full, seat)`, the seat's legal
actions and a log whose draws by other seats name no cards. Each bot is a peer fed exactly
what its own seat learns (the public log and its own private cards), as a networked node
would feed it, so no bot can read another hand.

Turn order when several seats may act (throw-ins race the defender) follows
`p2p_durak.bots.base.priority_actor`: the defender while he has cards to answer, then the
throwers from the lead attacker clockwise. A bot acts after a short delay, and the human may
act during that delay whenever the rules let him; when the priority seat is the human, the
table waits for him, with an optional turn timer on trio's clock. When it runs out a
stand-in bot (fed the human's view all along) plays the move, or, by the table's policy, the
human loses the game.
"""

from __future__ import annotations

import logging
import math
import random
import secrets
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass, field

import trio

from p2p_durak.bots.base import Bot, priority_actor
from p2p_durak.bots.blind import HandOrder, blind_shares
from p2p_durak.bots.levels import LEVELS, make_bot
from p2p_durak.engine import (
    CHANCE,
    Action,
    Game,
    IllegalAction,
    Reason,
    RuleSet,
    State,
    apply,
    cards_of,
    chance_outcome,
    is_over,
    legal_actions,
    make_game,
    new_game,
    next_game,
    private_view,
    validate,
)
from p2p_durak.engine import events as E
from p2p_durak.engine.actions import PASS
from p2p_durak.engine.presets import DEFAULT_PRESET, PRESETS
from p2p_durak.engine.seats import acting_party
from p2p_durak.engine.state import DEAL, DEAL_SIXES, REVEAL_TRUMP
from p2p_durak.node import offload
from p2p_durak.node.api import LogLine, SeatInfo, TableSnapshot
from p2p_durak.node.history import DUMMY, PRACTICE, UNKNOWN_LEVEL, GameRecord, PlayerRecord
from p2p_durak.node.narrate import dummy_name

log = logging.getLogger(__name__)

TIMER_POLICIES = ("bot", "lose")

NOTICE_TIMEOUT_BOT = "timeout:bot"
"""Notice codes the session publishes (the UI translates them)."""
NOTICE_TIMEOUT_LOSE = "timeout:lose"

EXTRA_TIMEOUT_LOSER = "timeout_loser"
"""`TableSnapshot.extra` key: the seat that lost the game on time (no engine result then)."""
EXTRA_TIMEOUT_POLICY = "timeout_policy"
"""`TableSnapshot.extra` key: with a turn timer, what its running out does ("bot", "lose")."""
EXTRA_POGONY = "pogony"
EXTRA_SCORES = "scores"  # a scored game's points per seat, summed over the series
"""`TableSnapshot.extra` key: epaulettes hung per seat over the series, comma-separated."""


@dataclass(frozen=True)
class PracticeSetup:
    """Everything a practice table needs; `seed` makes the whole table reproducible."""

    rules: RuleSet
    n_players: int  # the engine's seats: с болваном, the players and the dummy
    preset_id: str = DEFAULT_PRESET
    table_name: str = "Practice"
    # per player, in seat order (с болваном: the dummy's seat, drawn, is skipped); by default
    # "You", "Bot 1", ...
    names: tuple[str, ...] = ()
    bot_level: str = "medium"
    seed: int | None = None
    human_seat: int = 0
    timer: float | None = None  # seconds the human has per turn; None: no timer
    timer_policy: str = "bot"  # "bot": a stand-in bot moves; "lose": the human loses the game
    bot_delay: float = 0.8  # seconds a bot "thinks" before a move, so the table can be followed
    log_size: int = 80
    extra: dict[str, str] = field(default_factory=dict)

    def check(self) -> None:
        """Refuse a setup that cannot be played (raises `RuleError` or `ValueError`)."""
        validate(self.rules, self.n_players)
        if not 0 <= self.human_seat < self.n_players:
            raise ValueError(f"seat {self.human_seat} is not at a {self.n_players}-seat table")
        players = self.n_players - (1 if self.rules.dummy_hand else 0)
        if self.names and len(self.names) != players:
            raise ValueError(f"{players} players need {players} names")
        if self.bot_level not in LEVELS:
            raise ValueError(f"unknown bot level {self.bot_level!r} (one of {', '.join(LEVELS)})")
        if self.timer is not None and not self.timer > 0:
            raise ValueError("the turn timer must be positive")
        if self.timer_policy not in TIMER_POLICIES:
            raise ValueError(f"the timer policy is one of {', '.join(TIMER_POLICIES)}")
        if not self.bot_delay >= 0:
            raise ValueError("the bot delay cannot be negative")


def make_level_bot(level: str, seat: int, rng: random.Random) -> tuple[Bot, str]:
    """A bot of `level`, or of the next lower level when that one is not built yet."""
    start = LEVELS.index(level)
    for candidate in reversed(LEVELS[: start + 1]):
        try:
            return make_bot(candidate, seat, rng), candidate
        except ImportError:
            continue
    raise RuntimeError("no bot level is available")


def public_event(event: E.Event, seat: int, blind: bool = False) -> E.Event:
    """The event as `seat` may see it: another seat's drawn (магаданский: unlocked) cards stay
    face down; with hands held backwards (оборотный) his own do, and the others' show."""
    if isinstance(event, (E.Drew, E.Unlocked)) and (event.seat == seat) == blind:
        return event._replace(cards=())
    return event


class LocalSession:
    """One human seat at a table of bots, driven by `run` (start it in a nursery)."""

    def __init__(self, setup: PracticeSetup,
                 on_game_over: Callable[[GameRecord], None] | None = None) -> None:
        """`on_game_over`: told each finished game (the history of the evening records it;
        an error it raises is logged, and the table plays on)."""
        setup.check()
        self.setup = setup
        self._on_game_over = on_game_over
        self.table_id = secrets.token_hex(8)  # names the table's games in the history
        self.me = setup.human_seat
        seed = setup.seed if setup.seed is not None else secrets.randbits(64)
        self.seed = seed
        self._rng = random.Random(f"p2p-durak/practice/{seed}/table")
        self._send, self._receive = trio.open_memory_channel[TableSnapshot](math.inf)
        n = setup.n_players
        # с болваном: the first dealer is drawn among the seats that leave the human a
        # player's seat (the dummy sits on the dealer's left, and keeps its seat in a series)
        self._first_dealer: int | None = None
        self._dummy = -1
        if setup.rules.dummy_hand:
            dealers = [d for d in range(n) if (d + 1) % n != self.me]
            self._first_dealer = dealers[self._rng.randrange(len(dealers))]
            self._dummy = (self._first_dealer + 1) % n
        self._bots: dict[int, Bot] = {}
        levels: list[str] = [""] * n
        for seat in range(n):
            if seat == self._dummy:
                continue  # its controller's bot (or the human) plays it
            bot, level = make_level_bot(setup.bot_level, seat,
                                        random.Random(f"p2p-durak/practice/{seed}/bot/{seat}"))
            self._bots[seat] = bot  # the human's seat: the stand-in for timeouts
            levels[seat] = level
        self._stand_in = self._bots.pop(self.me)
        self.seats = tuple(
            SeatInfo(seat, self._seat_name(seat), is_dummy=True) if seat == self._dummy else
            SeatInfo(seat, self._seat_name(seat), is_bot=seat != self.me,
                     bot_level="" if seat == self.me else levels[seat])
            for seat in range(n))
        self._duraks = [0] * n
        self._pogony = [0] * n
        self._scores = [0] * n
        self._game_number = 0
        self._state: State | None = None
        self._hand_order = HandOrder()  # оборотный: the positions blind picks name
        self._log: list[LogLine] = []
        self._seq = 0
        self._notice: str | None = None
        self._deadline: float | None = None
        self._timeout_loser: int | None = None
        self._changed = trio.Event()
        self._lock = trio.Lock()
        self._scope: trio.CancelScope | None = None
        self.latest: TableSnapshot | None = None

    def _seat_name(self, seat: int) -> str:
        if seat == self._dummy:
            return dummy_name("en")
        player = seat - (0 <= self._dummy < seat)  # с болваном: players past the dummy's seat
        if self.setup.names:
            return self.setup.names[player]
        return "You" if seat == self.me else f"Bot {player + (seat < self.me)}"

    # ---- the Session protocol -------------------------------------------------------------

    @property
    def snapshots(self) -> trio.MemoryReceiveChannel[TableSnapshot]:
        return self._receive

    async def act(self, action: Action) -> None:
        await trio.lowlevel.checkpoint()
        if self._state is not None and self._dummy >= 0 \
                and acting_party(self.state, action.seat) == self.me:
            pass  # с болваном: the dummy's throw-in or pass, for its controller
        elif action.seat != self.me and (self._state is None or self.me not in self.state.actors
                                         or action not in legal_actions(
                                             private_view(self.state, self.me), self.me)):
            # (оборотный: a claim he makes for the claimant on his right is his to make)
            raise IllegalAction(Reason.NOT_YOUR_TURN, f"this session plays seat {self.me}")
        if self.game_over:
            raise IllegalAction(Reason.GAME_OVER)
        async with self._lock:
            self._commit(action)  # raises IllegalAction before changing anything
            self._notice = None
            self._publish()

    async def next_game(self) -> None:
        await trio.lowlevel.checkpoint()
        if not self.game_over:
            raise IllegalAction(Reason.WRONG_PHASE, "the game is not over yet")
        state = self.state
        if state.result is not None:
            game = next_game(state)
        else:  # lost on time: no engine result, the loser deals as a durak would
            old = state.game
            loser = self.me if self._timeout_loser is None else self._timeout_loser
            # Длинный дурак: the same sixes and ladders (nothing is laid out)
            personal = old.personal or (state.seat_trumps if state.phase != DEAL_SIXES
                                        and old.rules.trump_rule == "personal_six" else ())
            game = make_game(old.rules, old.n_players, loser, None, old.game_index + 1,
                             old.titles, personal=personal,
                             ladder=old.ladder if personal else (),
                             dummy=old.dummy if old.dummy >= 0 else None)
        self._start(game)
        self._signal()

    async def leave(self) -> None:
        await trio.lowlevel.checkpoint()
        if self._scope is not None:
            self._scope.cancel()
        self._send.close()

    # ---- running --------------------------------------------------------------------------

    async def run(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        """Drive the table (bots, chance, the timer) until `leave`."""
        try:
            with trio.CancelScope() as self._scope:
                rules, n = self.setup.rules, self.setup.n_players
                dealer = self._first_dealer
                self._start(make_game(rules, n, self._rng.randrange(n) if dealer is None
                                      else dealer))
                task_status.started()
                while True:
                    await self._advance()
        finally:
            self._send.close()

    @property
    def state(self) -> State:
        if self._state is None:
            raise RuntimeError("the session has not started")
        return self._state

    @property
    def game_over(self) -> bool:
        return self._state is not None and (is_over(self._state)
                                            or self._timeout_loser is not None)

    def _start(self, game: Game) -> None:
        deck = list(range(game.n_cards))
        self._rng.shuffle(deck)
        self._state = new_game(game, deck)
        self._hand_order = HandOrder()
        self._game_number += 1
        self._timeout_loser = None
        self._notice = None
        self._log.clear()
        self._stand_in.new_game(game)
        for bot in self._bots.values():
            bot.new_game(game)
        self._publish()

    async def _advance(self) -> None:
        changed = self._changed
        if self.game_over:
            await changed.wait()
            return
        state = self.state
        seat = priority_actor(state)
        if seat == CHANCE:
            if state.phase in (DEAL, REVEAL_TRUMP):
                # a moment to show the deal happening; the human cannot act during it
                await trio.sleep(self.setup.bot_delay)
            action = chance_outcome(state)
            if action is None:  # a lot
                options = legal_actions(state, CHANCE)
                action = options[self._rng.randrange(len(options))]
            self._commit(action)
            self._publish()
        elif acting_party(state, seat) == self.me:  # (с болваном: the dummy he controls)
            await self._human_turn(changed)
        else:
            await self._bot_turn(seat, changed)

    async def _bot_turn(self, seat: int, changed: trio.Event) -> None:
        bot = self._bots[acting_party(self.state, seat)]  # с болваном: the dummy's controller
        if seat == self._dummy:  # its throw-ins are cheap to choose: no search
            await self._bot_move(bot.choose_dummy(), changed)
            return
        if bot.level == "hard":
            # A searching bot thinks for a while on a thread; the wait comes first, so the
            # human may still act, and the table holds still while it thinks.
            with trio.move_on_after(self.setup.bot_delay):
                await changed.wait()
                return
            async with self._lock:
                if changed.is_set():
                    return
                self._commit(await self._decide(bot))
                self._publish()
            return
        await self._bot_move(bot.choose(), changed)

    async def _bot_move(self, action: Action, changed: trio.Event) -> None:
        delay = self.setup.bot_delay / (3 if action.kind == PASS else 1)
        with trio.move_on_after(delay):
            await changed.wait()
            return  # the human acted meanwhile: the bot looks at the new table
        async with self._lock:
            if changed.is_set():
                return
            self._commit(action)
            self._publish()

    @staticmethod
    async def _decide(bot: Bot) -> Action:
        """The bot's move; a searching bot thinks on a thread so the UI stays responsive
        (callers hold the lock, so nothing feeds the bot meanwhile)."""
        if bot.level == "hard":
            return await offload.run_sync(bot.choose)
        return bot.choose()

    async def _human_turn(self, changed: trio.Event) -> None:
        timer = self.setup.timer
        if timer is None:
            await changed.wait()
            return
        deadline = trio.current_time() + timer
        try:
            while (left := deadline - trio.current_time()) > 0:
                self._deadline = left
                self._publish()
                with trio.move_on_after(min(1.0, left)):
                    await changed.wait()
                    return
        finally:
            self._deadline = None
        async with self._lock:
            if changed.is_set():
                return
            if self.setup.timer_policy == "bot":
                self._notice = NOTICE_TIMEOUT_BOT
                if priority_actor(self.state) == self._dummy:  # с болваном: the dummy he plays
                    self._commit(self._stand_in.choose_dummy())
                else:
                    self._commit(await self._decide(self._stand_in))
            else:
                self._notice = NOTICE_TIMEOUT_LOSE
                self._timeout_loser = self.me
                self._duraks[self.me] += 1
                self._game_over((self.me,), False)
                self._signal()
            self._publish()

    def _commit(self, action: Action) -> None:
        """Apply an action to the full state, feed every bot its share, log it."""
        action = self._hand_order.resolve(self.state, action)  # оборотный: a blind pick
        before = self.state
        self._state, events = apply(before, action)
        state = self._state
        for bot in (*self._bots.values(), self._stand_in):
            bot.observe(action)
        blind = state.game.tables.blind
        if blind:
            self._hand_order.sync(state)
            for holder, cards in blind_shares(state, events):
                for bot in (*self._bots.values(), self._stand_in):
                    if bot.seat != holder:
                        bot.learn_hand(holder, cards)
        for event in events if not blind else ():
            if isinstance(event, (E.Dealt, E.HandsRotated)):  # круговой: a new hand each
                for bot in (*self._bots.values(), self._stand_in):
                    bot.learn(cards_of(state.hands[bot.seat]))
            elif isinstance(event, (E.Drew, E.Unlocked)) and event.seat != self._dummy:
                # круговой: a card drawn and then passed on is no longer this seat's to learn
                hand = state.hands[event.seat]
                self._feed(event.seat).learn(tuple(c for c in event.cards if (hand >> c) & 1))
        if self._dummy >= 0:
            self._show_dummy(state)
        for event in events:
            self._seq += 1
            self._log.append(LogLine(self._seq, public_event(event, self.me, blind)))
        del self._log[: -self.setup.log_size]
        if state.result is not None:
            for seat in state.result.durak:
                self._duraks[seat] += 1
                self._pogony[seat] += state.result.pogony
            for seat, points in enumerate(state.result.scores):
                self._scores[seat] += points
            self._game_over(state.result.durak, state.result.draw)
        self._signal()

    def _game_over(self, durak: tuple[int, ...], draw: bool) -> None:
        if self._on_game_over is None:
            return
        preset = PRESETS.get(self.setup.preset_id)
        players = tuple(
            PlayerRecord(info.name, bot=DUMMY) if info.is_dummy else
            PlayerRecord(info.name, bot=(info.bot_level or UNKNOWN_LEVEL) if info.is_bot
                         else "", me=seat == self.me)
            for seat, info in enumerate(self.seats))
        record = GameRecord(
            self.table_id, self._game_number, PRACTICE, time.time(), self.setup.table_name,
            self.setup.preset_id, preset is None or preset.rules != self.setup.rules, players,
            durak, draw, tuple(self._duraks))
        try:
            self._on_game_over(record)
        except Exception:  # a full disk must not end the game; the player is not told
            log.exception("practice game %d was not recorded in the history",
                          self._game_number)

    def _feed(self, seat: int) -> Bot:
        return self._stand_in if seat == self.me else self._bots[seat]

    def _show_dummy(self, state: State) -> None:
        """с болваном: the dummy's controller is shown whatever of its hand he has not seen
        (dealt, drawn, or all of it when control passes to him); one before keeps what he
        saw, as at a networked table."""
        if state.controller < 0:
            return
        bot = self._feed(state.controller)
        seen = bot.view.hands[self._dummy]
        unseen = tuple(c for c in cards_of(state.hands[self._dummy]) if not (seen >> c) & 1)
        if unseen:
            bot.learn_hand(self._dummy, unseen)

    def _signal(self) -> None:
        self._changed.set()
        self._changed = trio.Event()

    # ---- snapshots ------------------------------------------------------------------------

    def snapshot(self) -> TableSnapshot:
        state = self.state
        view = private_view(state, self.me)
        over = self.game_over
        legal = () if over else legal_actions(view, self.me)
        if not over and self._dummy >= 0 and state.controller == self.me:
            legal += legal_actions(view, self._dummy)  # с болваном: the dummy's moves too
        waiting: tuple[int, ...] = ()
        if not over and CHANCE not in state.actors:
            first = priority_actor(state)
            # the people it waits for (с болваном: for the dummy, whoever controls it)
            seats = (first,) + tuple(s for s in state.actors if s != first)
            waiting = tuple(dict.fromkeys(acting_party(state, s) for s in seats))
        extra = dict(self.setup.extra)
        extra[EXTRA_POGONY] = ",".join(map(str, self._pogony))
        if state.game.tables.counter:
            extra[EXTRA_SCORES] = ",".join(map(str, self._scores))
        if self._timeout_loser is not None:
            extra[EXTRA_TIMEOUT_LOSER] = str(self._timeout_loser)
        if self.setup.timer is not None:
            extra[EXTRA_TIMEOUT_POLICY] = self.setup.timer_policy
        return TableSnapshot(
            table_name=self.setup.table_name,
            preset_id=self.setup.preset_id,
            rules=self.setup.rules,
            seats=self.seats,
            my_seat=self.me,
            state=view,
            legal=legal,
            waiting_for=waiting,
            activity="over" if over else (
                "dealing" if state.phase in (DEAL, REVEAL_TRUMP) else "playing"),
            deadline=self._deadline,
            log=tuple(self._log),
            duraks=tuple(self._duraks),
            game_number=self._game_number,
            notice=self._notice,
            extra=extra,
        )

    def _publish(self) -> None:
        snapshot = self.snapshot()
        self.latest = snapshot
        # after `leave` (or when nobody watches any more) there is no one to tell
        with suppress(trio.ClosedResourceError, trio.BrokenResourceError):
            self._send.send_nowait(snapshot)


@asynccontextmanager
async def open_local_session(setup: PracticeSetup) -> AsyncIterator[LocalSession]:
    """A running practice table for the duration of the block."""
    session = LocalSession(setup)
    async with trio.open_nursery() as nursery:
        await nursery.start(session.run)
        try:
            yield session
        finally:
            await session.leave()

