"""A node: one seat's process on the network — its identity, its listener, the table it hosts or
joins, and the game it plays there.

The listener hands every authenticated connection to whoever it belongs to: a joiner's to the
table we host (while it seats players), a fellow player's to the running game's mesh. Anything
else is refused with a reason. A fellow player's link can come before our game runs (the
players' nodes start their games one after another: the host seals the `Start` and withdraws its
table, each joiner gets the `Start` in turn, the journal is prepared): it waits for the game,
up to `HOLD_SECONDS`, instead of being refused and redialled. Bots are nodes too, each with its
own identity and listener, so a process can host several of them (`spawn_bots`).
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path

import trio

from p2p_durak.engine import RuleSet
from p2p_durak.node.discovery import Discovery, DiscoveryError
from p2p_durak.node.doorman import Doorman
from p2p_durak.node.game import GameRunner, Player, Timing, game_dir
from p2p_durak.node.link import Link, PeerFault, SilentHangUp, accept_link
from p2p_durak.node.lobby import GameStart, HostedTable, TableConfig, join_table
from p2p_durak.node.mesh import Mesh, Party
from p2p_durak.node.store import GameJournal
from p2p_durak.node.tableinfo import TableAd
from p2p_durak.node.transport import Dialer, Endpoint, Listener, remote_address
from p2p_durak.protocol.identity import Identity, PeerId
from p2p_durak.protocol.messages import PROTOCOL_VERSION, TableInfo, TurnTimer

log = logging.getLogger(__name__)

# How long a link from a player of the game we are about to play waits for it to run (it runs
# within milliseconds of the `Start`; a link still waiting then is refused and redialled).
HOLD_SECONDS = 10.0


def parse_endpoint(text: str) -> Endpoint | None:
    host, _, port = text.rpartition(":")
    if not host or not port.isdigit():
        return None
    return Endpoint(host, int(port))


@dataclass(eq=False)
class Node:
    identity: Identity
    name: str
    home: Path
    listener: Listener
    dialer: Dialer
    advertised_host: str = "127.0.0.1"
    discovery: Discovery | None = None
    identity_name: str = "node"  # which key of the identity store (journaled, to rejoin)
    bind: str = "0.0.0.0"
    rng: Callable[[int], bytes] = field(default=os.urandom)

    def __post_init__(self) -> None:
        self.endpoint: Endpoint | None = None
        self.hosted: HostedTable | None = None
        self.mesh: Mesh | None = None
        self.runner: GameRunner | None = None
        self.doorman = Doorman()
        self.knocks = 0  # connections that hung up without a word (lobbies' liveness knocks)
        self._joining = 0  # joins under way: a fellow player may dial before the Start comes
        self._coming: GameStart | None = None  # the game joined, not yet running
        self._playing = trio.Event()  # our game runs: its mesh takes the links of its parties

    async def serve(self, *, task_status: trio.TaskStatus[Endpoint] = trio.TASK_STATUS_IGNORED
                    ) -> None:
        """Accept connections until cancelled; reports the bound endpoint."""
        async with trio.open_nursery() as nursery:
            bound = await nursery.start(self.listener.serve, self._on_stream)
            self.endpoint = Endpoint(self.advertised_host, bound.port)
            task_status.started(self.endpoint)

    def _admit(self, peer: PeerId) -> str | None:
        if peer == self.identity.peer_id:
            return "that is our own identity"
        return None

    async def _on_stream(self, stream: trio.abc.Stream) -> None:
        label = f"a peer at {remote_address(stream) or 'an unknown address'}"
        link = await self._handshake(stream, label)
        if link is None:
            return
        if self._game_coming(link.peer) and not await self._wait_for_game(link):
            return
        if self._playing.is_set() and self.mesh is not None and self.mesh.wants(link):
            await self.mesh.adopt(link)
        elif self.hosted is not None and not self.hosted.started.is_set():
            with self.doorman.enter(link.label, handshaking=False) as ticket:
                if ticket is None:
                    await link.close("too many connections at once: try again")
                    return
                await self.hosted.handle(link)
        else:
            self.doorman.refuse(link.label, "nothing here for it (no table or game of ours)")
            await link.close("no table or game here for you")

    def _game_coming(self, peer: PeerId) -> bool:
        """Whether `peer` may be a player of the game we are about to play (not yet running)."""
        if self._playing.is_set():
            return False
        if self.mesh is not None:
            return self.mesh.party_of(peer) is not None
        start = self._coming or (self.hosted.start if self.hosted is not None else None)
        if start is not None:
            return any(p.identity == peer for p in start.players)
        return self._joining > 0  # the Start may reach the peer before it reaches us

    async def _wait_for_game(self, link: Link) -> bool:
        """Hold a fellow player's early link until our game runs (or `HOLD_SECONDS` pass), as
        one of the doorman's strangers (it may be cut for room); False when it was cut."""
        with self.doorman.enter(link.label) as ticket:
            if ticket is None:
                await link.close("too many connections at once: try again")
                return False
            with ticket.scope, trio.move_on_after(HOLD_SECONDS):
                await self._playing.wait()
            if ticket.cut:
                await link.close("too many connections at once: try again")
                return False
        return True

    async def _handshake(self, stream: trio.abc.Stream, label: str) -> Link | None:
        """The handshake with whoever connected, as one of the doorman's strangers (it may cut
        the connection for room); None when it failed, was refused or was cut."""
        with self.doorman.enter(label) as ticket:
            if ticket is None:
                return None
            with ticket.scope:
                try:
                    return await accept_link(stream, self.identity, admit=self._admit,
                                             label=label)
                except SilentHangUp:
                    self.knocks += 1  # a lobby checking that our table is alive: no fault
                except PeerFault as fault:
                    self.doorman.refuse(fault.peer, fault.reason)
            return None

    @property
    def refused(self) -> list[str]:
        """The last connections turned away, each naming the peer and the reason."""
        return list(self.doorman.refusals)

    # ---- tables -------------------------------------------------------------------------------

    def host_table(self, config: TableConfig) -> HostedTable:
        assert self.endpoint is not None, "serve() first"
        self.hosted = HostedTable(config, self.identity, self.name, self.endpoint)
        return self.hosted

    def advertisement(self) -> TableAd:
        table = self.hosted
        assert table is not None
        assert self.endpoint is not None
        return TableAd(table.table_id, table.config.name[:32] or "durak", table.config.preset_id,
                       table.config.rules.rules_hash(), len(table.players), table.free,
                       self.identity.fingerprint, self.endpoint.port, PROTOCOL_VERSION,
                       table.config.timer)

    async def wait_for_start(self) -> GameStart:
        table = self.hosted
        assert table is not None
        if self.discovery is not None:
            await self.discovery.advertise(self.advertisement())
        try:
            while not table.started.is_set():
                changed = table.changed
                with trio.move_on_after(1):
                    await changed.wait()
                if self.discovery is not None and not table.started.is_set():
                    await self.discovery.update(self.advertisement())
        finally:
            # also when the host gives up before the start: no ghost table on anyone's list
            if self.discovery is not None:
                with trio.CancelScope(shield=True), suppress(DiscoveryError):
                    await self.discovery.withdraw(table.table_id)
        assert table.start is not None
        return table.start

    async def join(self, endpoint: Endpoint, *, expected_host: PeerId | None = None,
                   host_fingerprint: str | None = None,
                   rules_hash: bytes | None = None, timer: TurnTimer | None = None,
                   on_table: Callable[[TableInfo, RuleSet], None] | None = None
                   ) -> GameStart:
        assert self.endpoint is not None, "serve() first"
        self._joining += 1
        try:
            start = await join_table(self.identity, self.dialer, endpoint, name=self.name,
                                     listen_port=self.endpoint.port,
                                     expected_host=expected_host,
                                     host_fingerprint=host_fingerprint, rules_hash=rules_hash,
                                     timer=timer, on_table=on_table)
        finally:
            self._joining -= 1
        self._coming = _reach_host_where_we_joined(start, endpoint)
        return self._coming

    # ---- playing ------------------------------------------------------------------------------

    async def play(self, start: GameStart, player: Player, *, timing: Timing | None = None,
                   task_status: trio.TaskStatus[GameRunner] = trio.TASK_STATUS_IGNORED) -> None:
        """Play the game to its end (or until it halts, or a party stays away too long).
        The clocks are the ones the `Start` carries (the same on every node); `timing` replaces
        them only where a test must run one node on other clocks."""
        parties = []
        for p, info in enumerate(start.players):
            endpoint = parse_endpoint(info.endpoint)
            if p != start.party_of(self.identity.peer_id) and endpoint is None:
                log.warning("party %d (%s) gave no endpoint", p, info.name)
            parties.append(Party(info.identity, endpoint))
        self.mesh = self._open_mesh(parties)
        party = start.party_of(self.identity.peer_id)
        journal = GameJournal(game_dir(self.home, start.game_id), party)
        assert self.endpoint is not None, "serve() first"
        journal.record_start(start, self.identity_name, self.name, self.bind,
                             self.endpoint.host, self.endpoint.port)
        self.runner = self._new_runner(start, self.mesh, player, journal,
                                       timing or Timing.of(start.timer))
        try:
            async with trio.open_nursery() as nursery:
                await nursery.start(self.runner.run)  # (returns once the mesh runs)
                self._playing.set()
                task_status.started(self.runner)
        finally:
            journal.close()


    # Seams: a test double of a misbehaving peer replaces the links or the runner here.

    def _open_mesh(self, parties: list[Party]) -> Mesh:
        return Mesh(self.identity, parties, self.dialer)

    def _new_runner(self, start: GameStart, mesh: Mesh, player: Player, journal: GameJournal,
                    timing: Timing) -> GameRunner:
        return GameRunner(self.identity, start, mesh, player, journal, rng=self.rng,
                          timing=timing, home=self.home)


def _reach_host_where_we_joined(start: GameStart, endpoint: Endpoint) -> GameStart:
    """The host's advertised endpoint may name an address we cannot reach; we know one we can."""
    host = start.players[0]
    reached = f"{endpoint.host}:{endpoint.port}"
    if host.endpoint == reached:
        return start
    players = (type(host)(host.identity, host.name, reached), *start.players[1:])
    return GameStart(start.game_id, start.start, players, start.rules, start.table_name)
