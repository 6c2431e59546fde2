"""The lobby's networked backend: host a table (with bot peers of this process) or join one
found over mDNS, and play this seat through a `HumanPlayer` session.

Practice games stay local (`LocalLobbyBackend`); tables created here are real: advertised over
mDNS, reachable over TCP, shuffled and dealt with the mental-poker deck, every seat a peer.
"""

from __future__ import annotations

import logging
from pathlib import Path

import trio

from p2p_durak.cli.backend import LobbyError, LocalLobbyBackend, TableOptions
from p2p_durak.engine import RuleError
from p2p_durak.engine.presets import get_preset
from p2p_durak.node.api import Session
from p2p_durak.node.discovery import Discovery
from p2p_durak.node.headless import Seat, make_node, spawn_bot_seats
from p2p_durak.node.identity_store import load_or_create
from p2p_durak.node.lobby import GameStart, JoinFailed, TableConfig
from p2p_durak.node.node import Node
from p2p_durak.node.players import BotPlayer
from p2p_durak.node.session import HumanPlayer
from p2p_durak.node.tableinfo import DiscoveryEvent, TableSeen
from p2p_durak.node.transport import Endpoint

log = logging.getLogger(__name__)


class NetworkLobbyBackend(LocalLobbyBackend):
    def __init__(self, nursery: trio.Nursery, home: Path, player_name: str,
                 discovery: Discovery | None = None,
                 tables: trio.MemoryReceiveChannel[DiscoveryEvent] | None = None, *,
                 bind: str = "0.0.0.0", advertise: str | None = None) -> None:
        super().__init__(nursery, tables if tables is not None else
                         (discovery.events if discovery is not None else None))
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

    async def _node(self) -> Node:
        node = make_node(self._home, self._name, bind=self._bind, port=0,
                         advertise=self._advertise)
        node.discovery = self._discovery
        await self._nursery.start(node.serve)
        return node

    async def create_table(self, options: TableOptions) -> Session:
        try:
            rules = options.rules()
        except RuleError as error:
            raise LobbyError(error.message_en, error.message_ru) from error
        levels = (options.bot_level,) * options.network_bots
        preset = get_preset(options.preset_id)
        try:
            config = TableConfig(options.table_name or preset.name_en, preset.id, rules,
                                 options.players, levels, int(options.timer or 0),
                                 options.timer_policy, options.grace_seconds)
        except ValueError as error:
            raise LobbyError(str(error), str(error)) from error
        node = await self._node()
        table = node.host_table(config)
        assert node.endpoint is not None
        bots = await spawn_bot_seats(self._nursery, self._home, levels, self._bind,
                                     node.endpoint.host)
        human = HumanPlayer(table_name=config.name, preset_id=preset.id,
                            names=[self._name], clocks=config.timer)
        self._nursery.start_soon(self._host, node, human, bots)
        for bot in bots:
            self._nursery.start_soon(self._bot, bot, node.endpoint, node)
        human.waiting_room(rules, config.seats, [p.name for p in table.players])
        return human

    async def _host(self, node: Node, human: HumanPlayer, bots: list[Seat]) -> None:
        table = node.hosted
        assert table is not None
        watcher = self._nursery
        cancel = trio.CancelScope()

        async def follow() -> None:
            with cancel:
                while not table.started.is_set():
                    changed = table.changed
                    await changed.wait()
                    human.waiting_room(table.config.rules, table.config.seats,
                                       [p.name for p in table.players])

        watcher.start_soon(follow)
        start = await node.wait_for_start()
        cancel.cancel()
        await self._play(node, start, human, {b.node.identity.peer_id.key: b.level
                                              for b in bots})

    async def _bot(self, bot: Seat, endpoint: Endpoint, host: Node) -> None:
        try:
            start = await bot.node.join(endpoint, expected_host=host.identity.peer_id)
        except JoinFailed as exc:
            log.warning("bot %s could not sit down: %s", bot.node.name, exc.reason)
            return
        # the creator's bots play on as long as the people at the table do
        await bot.node.play(start, BotPlayer(level=bot.level, games=None))

    async def join(self, table: TableSeen) -> Session:
        if table.table.seats_free <= 0:
            raise LobbyError("that table is full", "за этим столом нет мест")
        try:
            rules = get_preset(table.table.variant).rules
        except RuleError as error:
            raise LobbyError(error.message_en, error.message_ru) from error
        node = await self._node()
        human = HumanPlayer(table_name=table.table.name, preset_id=table.table.variant,
                            names=[self._name], clocks=table.table.timer)
        human.waiting_room(rules, table.table.seats, ["…"] * table.table.seats_taken +
                           [self._name])
        self._nursery.start_soon(self._join_and_play, node, table, human)
        return human

    async def _join_and_play(self, node: Node, table: TableSeen, human: HumanPlayer) -> None:
        endpoint = Endpoint(table.addresses[0], table.table.port)
        try:
            start = await node.join(endpoint, rules_hash=bytes.fromhex(table.table.rules_hash),
                                    timer=table.table.timer,
                                    host_fingerprint=table.table.fingerprint)
        except JoinFailed as exc:
            human.waiting_room(get_preset(table.table.variant).rules, table.table.seats,
                               [self._name], notice=f"could not join: {exc.reason}")
            return
        await self._play(node, start, human, {})

    async def _play(self, node: Node, start: GameStart, human: HumanPlayer,
                    bot_keys: dict[bytes, str]) -> None:
        names = [p.name for p in start.players]
        bots = {i: bot_keys[p.identity.key] for i, p in enumerate(start.players)
                if p.identity.key in bot_keys}
        human.seated(names, bots)
        human.clocks = start.timer
        await node.play(start, human)
