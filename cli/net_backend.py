"""The lobby's networked backend: host a table (with bot peers of this process) or join one
found over mDNS, and play this seat through a `HumanPlayer` session.

Practice games stay local (`LocalLobbyBackend`); tables created here are real: advertised over
mDNS, reachable over TCP, shuffled and dealt with the mental-poker deck, every seat a peer.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Awaitable, Callable
from pathlib import Path

import trio

from p2p_durak import engine as eng
from p2p_durak.cli.backend import LobbyError, LocalLobbyBackend, TableOptions
from p2p_durak.cli.waiting_view import UNKNOWN_NAME
from p2p_durak.engine import RuleError
from p2p_durak.engine.presets import get_preset
from p2p_durak.node import reply_delay
from p2p_durak.node.api import Session, TableSnapshot
from p2p_durak.node.discovery import Discovery
from p2p_durak.node.headless import Seat, make_node, spawn_bot_seats
from p2p_durak.node.identity_store import load_or_create
from p2p_durak.node.liveness import TableKnocker
from p2p_durak.node.lobby import GameStart, JoinFailed, TableConfig
from p2p_durak.node.node import Node
from p2p_durak.node.players import BotPlayer
from p2p_durak.node.session import HumanPlayer
from p2p_durak.node.tableinfo import DiscoveryEvent, TableSeen
from p2p_durak.node.transport import Dialer, Endpoint, TcpDialer
from p2p_durak.protocol.messages import PlayerInfo, TableInfo

log = logging.getLogger(__name__)


def distinct_names(names: list[str]) -> list[str]:
    """Names as the seat list shows them: a name already taken gets a number («Player 2»), so
    two people who both kept the default name can still tell whose turn it is."""
    shown: list[str] = []
    for name in names:
        candidate, number = name, 1
        while candidate in shown:
            number += 1
            candidate = f"{name} {number}"
        shown.append(candidate)
    return shown


class NetworkSeat:
    """A person's seat at a networked table, as the lobby's `Session`: the `HumanPlayer`, and
    the cancel scope of everything this process runs for the table (its node, its bot peers).

    Leaving before the game starts cancels that scope: the node stops listening, so a host's
    table is withdrawn from discovery and a joiner's seat is freed (the host sees the link
    drop). Leaving during the game is the graceful leave of `HumanPlayer.leave`; the scope ends
    when the node's play does."""

    def __init__(self, human: HumanPlayer, scope: trio.CancelScope,
                 fill: Callable[[], Awaitable[None]] | None = None) -> None:
        self.human = human
        self.scope = scope
        self.started = False  # the game began: leaving is the graceful leave from now on
        self.finished = trio.Event()  # this process runs nothing for the table any more
        self.node: Node | None = None
        self._fill = fill

    async def gone(self) -> None:
        """Wait until this seat is off the table: its leave or its choice to stop after a game
        committed (the others know; waiting for the rest of the vote would keep a player who
        quits at the end screen for the vote's whole timeout), the series over, or nothing
        running for the table any more."""
        runner = self.node.runner if self.node is not None else None
        async with trio.open_nursery() as nursery:
            async def first(event: trio.Event) -> None:
                await event.wait()
                nursery.cancel_scope.cancel()

            nursery.start_soon(first, self.finished)
            nursery.start_soon(first, self.human.off_table)
            if runner is not None:
                nursery.start_soon(first, runner.finished)

    @property
    def can_fill(self) -> bool:
        """The host, before the start, may fill the free seats with bots."""
        return self._fill is not None and not self.started

    async def fill_with_bots(self) -> None:
        """Seat a bot (of the form's level) in every free seat; the game then starts."""
        if self._fill is not None and not self.started:
            await self._fill()

    @property
    def snapshots(self) -> trio.MemoryReceiveChannel[TableSnapshot]:
        return self.human.snapshots

    async def act(self, action: eng.Action) -> None:
        await self.human.act(action)

    async def next_game(self) -> None:
        await self.human.next_game()

    async def leave(self) -> None:
        if self.started and not self.scope.cancel_called:
            await self.human.leave()
        else:
            self.scope.cancel()
            await trio.lowlevel.checkpoint()


class NetworkLobbyBackend(LocalLobbyBackend):
    """`discovery`: the tables it finds are listed while their hosts answer a knock (a table
    whose host died leaves the list within `liveness.GONE_WITHIN` seconds, not when its mDNS
    records expire); `knocks` dials those knocks (TCP by default). `tables`: events listed as
    they come, unchecked (tests)."""

    def __init__(self, nursery: trio.Nursery, home: Path, player_name: str,
                 discovery: Discovery | None = None,
                 tables: trio.MemoryReceiveChannel[DiscoveryEvent] | None = None, *,
                 bind: str = "0.0.0.0", advertise: str | None = None,
                 knocks: Dialer | None = None) -> None:
        if tables is None and discovery is not None:
            send, tables = trio.open_memory_channel[DiscoveryEvent](math.inf)
            knocker = TableKnocker(knocks if knocks is not None else TcpDialer())
            nursery.start_soon(knocker.run, discovery.events, send)
        super().__init__(nursery, tables, home)
        self._home = home
        self._name = player_name
        self._discovery = discovery
        self._bind = bind
        self._advertise = advertise
        self._fingerprint: str | None = None

    @property
    def fingerprint(self) -> str:
        """The fingerprint of the identity every node of this lobby uses (made on first use,
        as the first node would)."""
        if self._fingerprint is None:
            self._fingerprint = load_or_create(self._home).fingerprint
        return self._fingerprint

    async def _node(self, nursery: trio.Nursery) -> Node:
        node = make_node(self._home, self._name, bind=self._bind, port=0,
                         advertise=self._advertise)
        node.discovery = self._discovery
        await nursery.start(node.serve)
        return node

    async def create_table(self, options: TableOptions) -> Session:
        try:
            rules = options.rules()
        except RuleError as error:
            raise LobbyError(error.message_en, error.message_ru) from error
        levels = (options.bot_level,) * options.network_bots
        preset = get_preset(options.preset_id)
        try:
            config = TableConfig(options.table_name or self._name or preset.name_en, preset.id,
                                 rules, options.players, levels, int(options.timer or 0),
                                 options.timer_policy, options.grace_seconds)
        except ValueError as error:
            raise LobbyError(str(error), str(error)) from error
        seat: NetworkSeat = await self._nursery.start(self._run_hosted, config,
                                                      options.bot_level, options.bot_names)
        return seat

    async def _run_hosted(self, config: TableConfig, bot_level: str, bot_names: tuple[str, ...],
                          *, task_status: trio.TaskStatus[NetworkSeat]) -> None:
        """Everything this process runs for a table it hosts, until the series ends or the
        person leaves before it starts."""
        with trio.CancelScope() as scope:
            async with trio.open_nursery() as nursery:
                node = await self._node(nursery)
                table = node.host_table(config)
                endpoint = node.endpoint
                assert endpoint is not None
                bots: list[Seat] = []

                async def seat_bots(levels: tuple[str, ...]) -> None:
                    more = await spawn_bot_seats(
                        nursery, self._home, levels, self._bind, endpoint.host,
                        names=bot_names[len(bots):], first=len(bots) + 1)
                    bots.extend(more)
                    for bot in more:
                        nursery.start_soon(self._bot, bot, endpoint, node)

                async def fill() -> None:
                    if not table.started.is_set():
                        await seat_bots((bot_level,) * table.free)

                await seat_bots(config.bots)
                human = HumanPlayer(table_name=config.name, preset_id=config.preset_id,
                                    names=[self._name], clocks=config.timer)
                seat = NetworkSeat(human, scope, fill)
                seat.node = node
                self._show_seated(human, config, table.players, bots)
                task_status.started(seat)
                follow = trio.CancelScope()

                async def follow_joiners() -> None:
                    with follow:
                        while not table.started.is_set():
                            await table.changed.wait()
                            self._show_seated(human, config, table.players, bots)

                nursery.start_soon(follow_joiners)
                start = await node.wait_for_start()
                follow.cancel()
                seat.started = True
                await self._play(node, start, human, {b.node.identity.peer_id.key: b.level
                                                      for b in bots})
                nursery.cancel_scope.cancel()  # the series is over: stop serving, bots too
        seat.finished.set()

    @staticmethod
    def _show_seated(human: HumanPlayer, config: TableConfig, players: list[PlayerInfo],
                     bots: list[Seat]) -> None:
        levels = {b.node.identity.peer_id: b.level for b in bots}
        human.bots = {i: levels[p.identity] for i, p in enumerate(players)
                      if p.identity in levels}
        human.waiting_room(config.rules, config.seats, distinct_names([p.name for p in players]))

    async def _bot(self, bot: Seat, endpoint: Endpoint, host: Node) -> None:
        try:
            start = await bot.node.join(endpoint, expected_host=host.identity.peer_id)
        except JoinFailed as exc:
            log.warning("bot %s could not sit down: %s", bot.node.name, exc.reason)
            return
        # the creator's bots play on as long as the people at the table do
        await bot.node.play(start, BotPlayer(level=bot.level, games=None,
                                                    reply_delay=reply_delay.configured()))

    async def join(self, table: TableSeen) -> Session:
        if not table.table.compatible:  # (the lobby says so first: never dialled)
            raise LobbyError("that table speaks another protocol version",
                             "этот стол говорит на другой версии протокола")
        if table.table.seats_free <= 0:
            raise LobbyError("that table is full", "за этим столом нет мест")
        try:
            rules = get_preset(table.table.variant).rules
        except RuleError as error:
            raise LobbyError(error.message_en, error.message_ru) from error
        seat: NetworkSeat = await self._nursery.start(self._run_joined, table, rules)
        return seat

    async def _run_joined(self, table: TableSeen, rules: eng.RuleSet, *,
                          task_status: trio.TaskStatus[NetworkSeat]) -> None:
        """Everything this process runs for a table it joins, until the series ends or the
        person leaves before it starts."""
        with trio.CancelScope() as scope:
            async with trio.open_nursery() as nursery:
                node = await self._node(nursery)
                human = HumanPlayer(table_name=table.table.name, preset_id=table.table.variant,
                                    names=[self._name], clocks=table.table.timer)
                seat = NetworkSeat(human, scope)
                seat.node = node
                human.waiting_room(rules, table.table.seats,
                                   [UNKNOWN_NAME] * table.table.seats_taken + [self._name],
                                   my_seat=table.table.seats_taken)
                task_status.started(seat)
                shown = rules  # the preset's, until the host shows the table's own

                def show_table(info: TableInfo, table_rules: eng.RuleSet) -> None:
                    nonlocal shown
                    shown = table_rules
                    me = node.identity.peer_id
                    names = [p.name for p in info.players if p.identity != me] + [self._name]
                    mine = next((i for i, p in enumerate(info.players) if p.identity == me),
                                len(info.players))
                    names.insert(mine, names.pop())
                    human.waiting_room(table_rules, info.seats, distinct_names(names),
                                       my_seat=mine)

                endpoint = Endpoint(table.addresses[0], table.table.port)
                try:
                    start = await node.join(
                        endpoint, rules_hash=bytes.fromhex(table.table.rules_hash),
                        timer=table.table.timer, host_fingerprint=table.table.fingerprint,
                        on_table=show_table)
                except JoinFailed as exc:
                    human.waiting_room(shown, table.table.seats, [self._name],
                                       notice=exc.reason, notice_ru=exc.reason_ru)
                else:
                    seat.started = True
                    await self._play(node, start, human, {})
                nursery.cancel_scope.cancel()  # the series is over (or never began): stop
        seat.finished.set()

    async def _play(self, node: Node, start: GameStart, human: HumanPlayer,
                    bot_keys: dict[bytes, str]) -> None:
        names = distinct_names([p.name for p in start.players])
        bots = {i: bot_keys[p.identity.key] for i, p in enumerate(start.players)
                if p.identity.key in bot_keys}
        human.seated(names, bots)
        human.clocks = start.timer
        await node.play(start, human)
