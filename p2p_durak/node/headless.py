"""Hosting, joining and filling seats with bots without the UI.

Every seat a headless process plays is a bot peer (the process's own seat included, at the
level asked for). Each peer prints a readable game log and writes a JSON-lines event log and the
saved transcript into its game folder. `durak host`, `durak join`, `durak bots` and the
multi-process tests are built on these functions.
"""

from __future__ import annotations

import ipaddress
import json
import logging
import random
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

import trio

from p2p_durak.engine import RuleSet
from p2p_durak.node import reply_delay
from p2p_durak.node.discovery import Discovery, host_ipv4_addresses, open_discovery
from p2p_durak.node.game import Problem, game_dir
from p2p_durak.node.identity_store import load_or_create
from p2p_durak.node.lobby import GameStart, TableConfig
from p2p_durak.node.narrate import Narrator, event_record
from p2p_durak.node.node import Node
from p2p_durak.node.players import BotPlayer
from p2p_durak.node.store import Resumable
from p2p_durak.node.tableinfo import TableSeen
from p2p_durak.node.transport import Dialer, Endpoint, Listener, TcpDialer, TcpListener
from p2p_durak.protocol.table import Seated, TableEvent, TableMachine

log = logging.getLogger(__name__)


class HeadlessPlayer(BotPlayer):
    """A bot that also tells what happens: printed lines and a JSON-lines event log."""

    def __init__(self, *, label: str, names: Sequence[str], level: str, seed: int | None,
                 lang: str = "en", out: TextIO | None = None,
                 events_path: Path | None = None, games: int | None = 1,
                 leave_at_bout: int | None = None) -> None:
        super().__init__(level=level, seed=seed, games=games, leave_at_bout=leave_at_bout,
                         reply_delay=reply_delay.configured())
        self.label = label
        self.names = list(names)
        self.out = out if out is not None else sys.stdout
        self.events_path = events_path
        self.narrator = Narrator(None, self.names, lang)

    def _say(self, text: str) -> None:
        print(f"[{self.label}] {text}", file=self.out, flush=True)

    async def update(self, table: TableMachine, events: tuple[TableEvent, ...]) -> None:
        await super().update(table, events)
        for event in events:
            if self.events_path is not None:
                with self.events_path.open("a", encoding="utf-8") as f:
                    f.write(json.dumps(event_record(event), ensure_ascii=False) + "\n")
            if isinstance(event, Seated):
                assert table.state is not None
                self._say(self.narrator.seated(event, self.names,
                                               event.game or table.state.game))
                continue
            for line in self.narrator.lines(event, self.names):
                self._say(line)

    async def finished(self, table: TableMachine, diagnosis: str | None) -> None:
        await super().finished(table, diagnosis)
        if diagnosis is not None:
            self._say(f"the game stopped: {diagnosis}")


@dataclass
class Seat:
    """One peer a headless process runs."""

    node: Node
    level: str
    result: TableMachine | None = None
    reports: list[Problem] = field(default_factory=list)  # its runner's faults and news
    diagnosis: str | None = None


def _player(seat: Seat, start: GameStart, lang: str, out: TextIO, seed: int | None,
            games: int | None, leave_at_bout: int | None) -> HeadlessPlayer:
    folder = game_dir(seat.node.home, start.game_id)
    folder.mkdir(parents=True, exist_ok=True)
    return HeadlessPlayer(label=seat.node.name, names=[p.name for p in start.players],
                          level=seat.level, seed=seed, lang=lang, out=out,
                          events_path=folder / "events.jsonl", games=games,
                          leave_at_bout=leave_at_bout)


async def play_seat(seat: Seat, start: GameStart, *, lang: str = "en",
                    out: TextIO = sys.stdout, seed: int | None = None,
                    games: int | None = 1, leave_at_bout: int | None = None) -> None:
    """Play the table's games: `games` of the series (None: as many as the others play);
    `leave_at_bout`: leave the table (gracefully) when that bout of a game comes."""
    player = _player(seat, start, lang, out, seed, games, leave_at_bout)
    print(f"[{seat.node.name}] the game starts: {start.timer.describe()}", file=out, flush=True)
    await seat.node.play(start, player)
    runner = seat.node.runner
    assert runner is not None
    seat.result = runner.log.state
    seat.reports = runner.reports
    seat.diagnosis = runner.diagnosis


def make_node(home: Path, name: str, *, bind: str, port: int, advertise: str | None,
              identity_name: str = "node", listener: Listener | None = None,
              dialer: Dialer | None = None, rng: Callable[[int], bytes] | None = None) -> Node:
    identity = load_or_create(home, identity_name)
    host = advertise or (bind if bind != "0.0.0.0" else host_ipv4_addresses()[0])
    # bound to one address, it dials from it too: peers reach us where our links come from
    node = Node(identity, name, home, listener or TcpListener(bind, port),
                dialer or TcpDialer(None if bind == "0.0.0.0" else bind),
                advertised_host=host, identity_name=identity_name, bind=bind)
    if rng is not None:
        node.rng = rng
    return node


@dataclass
class HostOptions:
    home: Path
    name: str
    config: TableConfig
    bind: str = "0.0.0.0"
    port: int = 0
    advertise: str | None = None
    level: str = "easy"  # the host's own seat (headless: a bot)
    mdns: bool = True
    interfaces: Sequence[str] | None = None
    lang: str = "en"
    seed: int | None = None
    games: int | None = 1  # games of the series this process's seats play
    leave_at_bout: int | None = None  # the host's own seat leaves the table at that bout


async def host_and_play(opts: HostOptions, out: TextIO = sys.stdout) -> list[Seat]:
    """Host a table, seat `config.bots` bots of this process, wait for the others, play."""
    host = Seat(make_node(opts.home, opts.name, bind=opts.bind, port=opts.port,
                          advertise=opts.advertise), opts.level)
    seats = [host]
    async with trio.open_nursery() as nursery:
        await nursery.start(host.node.serve)
        assert host.node.endpoint is not None
        print(f"[{opts.name}] table «{opts.config.name}» at {host.node.endpoint} "
              f"({opts.config.preset_id}, {opts.config.seats} seats; "
              f"{opts.config.timer.describe()}); host fingerprint "
              f"{host.node.identity.fingerprint}", file=out, flush=True)
        discovery_cm = open_discovery(interfaces=opts.interfaces, browse=False,
                                      advertise_addresses=reachable_at(opts)) if opts.mdns \
            else None
        async with trio.open_nursery() as inner:
            if discovery_cm is not None:
                host.node.discovery = await _enter(inner, discovery_cm)
            host.node.host_table(opts.config)
            bot_seats = await spawn_bot_seats(nursery, opts.home, opts.config.bots, opts.bind,
                                          host.node.endpoint.host)
            seats += bot_seats
            starts = await _gather_starts(host, bot_seats, host.node.endpoint)
            async with trio.open_nursery() as games:
                for i, seat in enumerate(seats):
                    games.start_soon(_play, seat, starts[i], opts, out, i)
            inner.cancel_scope.cancel()
        nursery.cancel_scope.cancel()
    return seats


def reachable_at(opts: HostOptions) -> list[str] | None:
    """The addresses a table's mDNS advertisement names: the one players dial (`--advertise`),
    else the one address we listen on (`--bind`); None: discovery's default (the interfaces
    it runs on, or all of the machine's). A host bound to 127.0.0.1 advertised the machine's
    LAN addresses, where nothing listened: every join failed with 'cannot reach'."""
    for address in (opts.advertise, opts.bind):
        with suppress(ValueError):  # (a host name is not advertised: mDNS names addresses)
            if address and not ipaddress.IPv4Address(address).is_unspecified:
                return [address]
    return None


async def _play(seat: Seat, start: GameStart, opts: HostOptions, out: TextIO, i: int) -> None:
    seed = None if opts.seed is None else opts.seed * 31 + i
    await play_seat(seat, start, lang=opts.lang, out=out, seed=seed, games=opts.games,
                    leave_at_bout=opts.leave_at_bout if i == 0 else None)


async def _enter(nursery: trio.Nursery, cm: object) -> Discovery:
    """Keep an async context manager open for the nursery's lifetime; return its value."""
    ready: trio.MemorySendChannel[Discovery]
    ready, got = trio.open_memory_channel[Discovery](1)

    async def hold() -> None:
        async with cm as value:  # type: ignore[attr-defined]
            await ready.send(value)
            await trio.sleep_forever()

    nursery.start_soon(hold)
    return await got.receive()


async def spawn_bot_seats(nursery: trio.Nursery, home: Path, levels: Sequence[str], bind: str,
                      advertise: str, *, names: Sequence[str] = (), first: int = 1
                      ) -> list[Seat]:
    """Bot peers of this process: each its own node, identity and listener, reachable at the
    host's address so that every other player can dial it. `names`: their seat names (the
    UI's "Anna", "Boris"…); the rest are named by number and level. `first`: the number of
    the first (bots added later to a table must not reuse an identity seated there)."""
    seats = []
    for at, level in enumerate(levels):
        number = first + at
        name = names[at] if at < len(names) else f"bot{number}-{level}"
        node = make_node(home, name, bind=bind, port=0, advertise=advertise,
                         identity_name=f"bot-{number}")
        await nursery.start(node.serve)
        seats.append(Seat(node, level))
    return seats


async def _gather_starts(host: Seat, bots: list[Seat], endpoint: Endpoint) -> list[GameStart]:
    starts: dict[int, GameStart] = {}

    async def wait_host() -> None:
        starts[0] = await host.node.wait_for_start()

    async def join(i: int, seat: Seat) -> None:
        starts[i] = await seat.node.join(endpoint, expected_host=host.node.identity.peer_id)

    async with trio.open_nursery() as nursery:
        nursery.start_soon(wait_host)
        for i, seat in enumerate(bots, start=1):
            nursery.start_soon(join, i, seat)
    return [starts[i] for i in range(len(bots) + 1)]


@dataclass
class JoinOptions:
    home: Path
    name: str
    endpoint: Endpoint | None = None  # or find a table by name over mDNS
    table_name: str | None = None
    bind: str = "0.0.0.0"
    port: int = 0
    advertise: str | None = None
    level: str = "easy"
    count: int = 1  # how many bot peers this process seats
    interfaces: Sequence[str] | None = None
    find_seconds: float = 30.0
    lang: str = "en"
    seed: int | None = None
    identity_prefix: str = "node"
    games: int | None = 1  # games of the series this process's seats play
    leave_at_bout: int | None = None  # this process's seats leave the table at that bout


async def find_table(name: str | None, interfaces: Sequence[str] | None, seconds: float
                     ) -> TableSeen:
    """Browse mDNS until a table (with that name, if given) with a free seat that speaks our
    protocol version shows up;
    `TimeoutError` if none does within `seconds`."""
    try:
        with trio.fail_after(seconds):
            async with open_discovery(interfaces=interfaces) as discovery:
                async for event in discovery.events:
                    if isinstance(event, TableSeen) and event.table.seats_free > 0 and (
                            event.table.compatible) and (
                            name is None or event.table.name == name):
                        return event
    except trio.TooSlowError as exc:  # (not a TimeoutError: `durak join` printed a traceback)
        raise TimeoutError(f"no table found in {seconds:g} s") from exc
    raise TimeoutError("discovery ended")


async def join_and_play(opts: JoinOptions, out: TextIO = sys.stdout) -> list[Seat]:
    if opts.endpoint is not None:
        endpoint = opts.endpoint
        rules_hash: bytes | None = None
        host_fingerprint: str | None = None
    else:
        seen = await find_table(opts.table_name, opts.interfaces, opts.find_seconds)
        endpoint = Endpoint(seen.addresses[0], seen.table.port)
        rules_hash = bytes.fromhex(seen.table.rules_hash)
        host_fingerprint = seen.table.fingerprint
        print(f"found «{seen.table.name}» ({seen.table.variant}; "
              f"{seen.table.timer.describe()}) at {endpoint}; host fingerprint "
              f"{host_fingerprint} (the join checks it)", file=out, flush=True)
    seats = []
    async with trio.open_nursery() as nursery:
        for i in range(opts.count):
            ident = opts.identity_prefix if opts.count == 1 else f"{opts.identity_prefix}-{i + 1}"
            name = opts.name if opts.count == 1 else f"{opts.name}{i + 1}"
            node = make_node(opts.home, name, bind=opts.bind, port=opts.port if i == 0 else 0,
                             advertise=opts.advertise, identity_name=ident)
            await nursery.start(node.serve)
            seats.append(Seat(node, opts.level))
        starts: dict[int, GameStart] = {}

        async def join(i: int, seat: Seat) -> None:
            starts[i] = await seat.node.join(endpoint, rules_hash=rules_hash,
                                             host_fingerprint=host_fingerprint)

        async with trio.open_nursery() as lobby:
            for i, seat in enumerate(seats):
                lobby.start_soon(join, i, seat)
        async with trio.open_nursery() as games:
            for i, seat in enumerate(seats):
                seed = None if opts.seed is None else opts.seed * 31 + i
                games.start_soon(_play_join, seat, starts[i], opts.lang, out, seed,
                                 opts.games, opts.leave_at_bout)
        nursery.cancel_scope.cancel()
    return seats


async def _play_join(seat: Seat, start: GameStart, lang: str, out: TextIO, seed: int | None,
                     games: int | None = 1, leave_at_bout: int | None = None) -> None:
    await play_seat(seat, start, lang=lang, out=out, seed=seed, games=games,
                    leave_at_bout=leave_at_bout)


def summary(seats: Sequence[Seat]) -> dict[str, object]:
    """A machine-readable outcome (the last line of a headless run with --json)."""
    table = next((s.result for s in seats if s.result is not None), None)
    state = table.state if table is not None else None
    result = state.result if state is not None else None
    names: dict[int, str] = {}
    runner = next((s.node.runner for s in seats if s.node.runner is not None), None)
    if table is not None and table.party_of_seat and runner is not None:
        players = runner.start.players
        names = {seat: players[party].name for seat, party in enumerate(table.party_of_seat)
                 if party >= 0}  # (с болваном: the dummy's seat, -1, is never a durak)
    score = table.score if table is not None else None
    return {
        "finished": result is not None,
        "games": table.game_number if table is not None else 0,
        "series_duraks": list(score.duraks) if score is not None else [],  # per seat
        # с болваном: the seat (in `series_duraks` too) that is no player's; -1 without one
        "dummy": state.game.dummy if state is not None else -1,
        "durak": list(result.durak) if result else [],
        "durak_names": [names.get(s, f"#{s}") for s in result.durak] if result else [],
        "draw": bool(result and result.draw),
        "audit_clean": bool(table is not None and table.audit is not None
                            and not table.audit.cheaters),
        "halted": [s.diagnosis for s in seats if s.diagnosis],
        # faults only (a peer that misbehaved, named by each seat that saw it); what honest
        # play brings too (a throw-in that lost a race, a late retransmission, a connection
        # closed at the end) is news, counted by kind
        "problems": sum(1 for s in seats for p in s.reports if p.fault),
        "news": dict(sorted(Counter(p.kind for s in seats for p in s.reports
                                    if not p.fault).items())),
    }


def rules_for(preset_id: str, options: dict[str, object]) -> RuleSet:
    from p2p_durak.engine.presets import get_preset

    rules = get_preset(preset_id).rules
    return rules.with_options(**options) if options else rules


def seeded(seed: int | None) -> Callable[[int], bytes] | None:
    """Deterministic peer randomness, for reproducible test runs only."""
    return None if seed is None else random.Random(seed).randbytes


async def resume_and_play(home: Path, found: Sequence[Resumable], *, level: str = "easy",
                          lang: str = "en", out: TextIO = sys.stdout) -> list[Seat]:
    """Rejoin the unfinished games `found` in this data folder (`scan_unfinished`, after a
    crash), each seat on its old port with its old identity, and play them to the end."""
    seats = []
    async with trio.open_nursery() as nursery:
        for item in found:
            node = make_node(home, item.player_name, bind=item.bind, port=item.port,
                             advertise=item.advertise, identity_name=item.identity_name)
            await nursery.start(node.serve)
            seats.append(Seat(node, level))
            print(f"[{item.player_name}] rejoining game {item.start.game_id.hex()[:8]}",
                  file=out, flush=True)
        async with trio.open_nursery() as games:
            for seat, item in zip(seats, found, strict=True):
                games.start_soon(_play_join, seat, item.start, lang, out, None, item.games)
        nursery.cancel_scope.cancel()
    return seats
