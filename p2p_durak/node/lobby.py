"""Before a game: a table's host seats the players who join, then seals the `Start`.

The host is special only here. It advertises the table, answers each joiner with `TableInfo`
(the rules travel as canonical bytes, checked against their hash), seats those whose protocol
version and rules hash match, and when every seat is taken signs the `Start` envelope — the
genesis of the game's log — and sends it to everyone. From then on the game belongs to all of
them equally.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field

import trio

from p2p_durak.engine import RuleError, RuleSet
from p2p_durak.node.link import Link, PeerFault, open_link
from p2p_durak.node.transport import Dialer, Endpoint, remote_host
from p2p_durak.protocol import codec
from p2p_durak.protocol.envelope import Envelope
from p2p_durak.protocol.errors import ErrorCode
from p2p_durak.protocol.identity import Identity, PeerId
from p2p_durak.protocol.messages import (
    DEFAULT_GRACE_SECONDS,
    GAME_ID_SIZE,
    MAX_GRACE_SECONDS,
    MAX_TURN_SECONDS,
    PROTOCOL_VERSION,
    JoinAccepted,
    JoinRefused,
    JoinRequest,
    Leave,
    PlayerInfo,
    RefuseCode,
    Start,
    TableInfo,
    TimeoutPolicy,
    TurnTimer,
)

log = logging.getLogger(__name__)

JOIN_TIMEOUT = 30.0
TIMEOUT_POLICIES = {"bot": TimeoutPolicy.BOT, "lose": TimeoutPolicy.LOSE}


class JoinFailed(Exception):
    """The table would not seat us; `reason` says why in words a player understands,
    `reason_ru` the same in Russian (a fault's own words stay English inside it)."""

    def __init__(self, reason: str, reason_ru: str | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.reason_ru = reason_ru or reason


REFUSED_RU = {
    RefuseCode.TABLE_FULL: "за столом нет свободных мест",
    RefuseCode.RULES_MISMATCH: "у стола другие правила",
    RefuseCode.VERSION_MISMATCH: "у хозяина другая версия протокола",
    RefuseCode.ALREADY_STARTED: "партия уже началась",
    RefuseCode.NAME_TAKEN: "это имя за столом уже занято",
    RefuseCode.NOT_WELCOME: "хозяин не пускает за стол",
    RefuseCode.UNKNOWN_GAME: "у хозяина нет такого стола",
}
"""The host's refusal by its code, for a Russian screen (its `detail` is the host's English)."""


@dataclass(frozen=True, slots=True)
class TableConfig:
    name: str
    preset_id: str
    rules: RuleSet
    seats: int
    bots: tuple[str, ...] = ()  # levels of the bots the creator's process seats
    turn_seconds: int = 0  # 0: no turn timer
    on_timeout: str = "bot"  # "bot": a bot plays the move; "lose": the player loses
    grace_seconds: int = DEFAULT_GRACE_SECONDS  # how long the others wait for a party

    def __post_init__(self) -> None:
        if type(self.turn_seconds) is not int or not 0 <= self.turn_seconds <= MAX_TURN_SECONDS:
            raise ValueError(f"the turn timer is 0 (none) to {MAX_TURN_SECONDS} whole seconds, "
                             f"not {self.turn_seconds!r}")
        if self.on_timeout not in TIMEOUT_POLICIES:
            raise ValueError(f"when the turn timer runs out: {' or '.join(TIMEOUT_POLICIES)}, "
                             f"not {self.on_timeout!r}")
        if type(self.grace_seconds) is not int or \
                not 1 <= self.grace_seconds <= MAX_GRACE_SECONDS:
            raise ValueError(f"the grace period is 1 to {MAX_GRACE_SECONDS} whole seconds, "
                             f"not {self.grace_seconds!r}")

    @property
    def timer(self) -> TurnTimer:
        """The clocks as they travel in `TableInfo` and `Start`."""
        return TurnTimer(self.turn_seconds, TIMEOUT_POLICIES[self.on_timeout],
                         self.grace_seconds)


@dataclass(frozen=True, slots=True)
class GameStart:
    """What every player holds once the game starts."""

    game_id: bytes
    start: Envelope  # the signed genesis of the log
    players: tuple[PlayerInfo, ...]  # in party order
    rules: RuleSet
    table_name: str

    def party_of(self, peer: PeerId) -> int:
        return next(i for i, p in enumerate(self.players) if p.identity == peer)

    @property
    def timer(self) -> TurnTimer:
        """The table's clocks, as the host signed them into the genesis."""
        start = self.start.message
        assert isinstance(start, Start)
        return start.timer


@dataclass(eq=False)
class HostedTable:
    """The host's side of one table until its game starts."""

    config: TableConfig
    identity: Identity
    host_name: str
    endpoint: Endpoint
    game_id: bytes = field(default_factory=lambda: secrets.token_bytes(GAME_ID_SIZE))
    table_id: str = field(default_factory=lambda: secrets.token_hex(16))

    def __post_init__(self) -> None:
        self.players: list[PlayerInfo] = [
            PlayerInfo(self.identity.peer_id, self.host_name, str(self.endpoint))]
        self._links: dict[PeerId, Link] = {}
        self.started = trio.Event()
        self.start: GameStart | None = None
        self.changed = trio.Event()
        self.refusals: list[str] = []  # who was turned away and why, for the host's log

    @property
    def rules_bytes(self) -> bytes:
        return self.config.rules.canonical()

    def info(self) -> TableInfo:
        return TableInfo(self.game_id, self.config.name, codec.sha256(self.rules_bytes),
                         self.rules_bytes, self.config.seats, tuple(self.players),
                         self.started.is_set(), self.config.timer)

    @property
    def free(self) -> int:
        return self.config.seats - len(self.players)

    async def handle(self, link: Link) -> None:
        """Serve one joiner's connection until the game starts or it leaves."""
        try:
            await link.send(self.info())
            with trio.fail_after(JOIN_TIMEOUT):
                request = await link.receive()
            if not isinstance(request, JoinRequest):
                raise PeerFault(link.label, f"expected JoinRequest, got {type(request).__name__}")
            refusal = self._refusal(link, request)
            if refusal is not None:
                code, detail = refusal
                self.refusals.append(f"{link.label}: {detail}")
                await link.send(JoinRefused(self.game_id, code, detail))
                await link.close(detail)
                return
            host = remote_host(link.stream)
            endpoint = f"{host}:{request.listen_port}" if host and request.listen_port else ""
            player = PlayerInfo(request.identity, request.name, endpoint)
            self.players.append(player)
            self._links[request.identity] = link
            await link.send(JoinAccepted(self.game_id, len(self.players) - 1))
            await self._announce()
            if self.free == 0:
                await self._seal()
            await self._hold(link, request.identity)
        except (PeerFault, trio.TooSlowError) as exc:
            orderly = isinstance(exc, PeerFault) and exc.code is ErrorCode.GOING_AWAY
            why = exc.reason if isinstance(exc, PeerFault) else \
                f"no JoinRequest within {JOIN_TIMEOUT:g} s"
            text = f"{link.label}: {why}"
            # a joiner that breaks the protocol is shown (durak host prints warnings)
            log.log(logging.INFO if orderly else logging.WARNING, "joiner dropped: %s", text)
            self.refusals.append(text)
        finally:  # also when the host gives up before the start: never leak the socket
            await link.close("the table is closed")

    def _refusal(self, link: Link, request: JoinRequest) -> tuple[RefuseCode, str] | None:
        if request.identity != link.peer:
            return RefuseCode.NOT_WELCOME, \
                "the join request names another identity than the connection's"
        if request.game != self.game_id:  # docs/protocol.md §9 step 3 (was seated regardless)
            return RefuseCode.UNKNOWN_GAME, "the join request is for another game than this table's"
        if request.protocol_version != PROTOCOL_VERSION:
            return RefuseCode.VERSION_MISMATCH, (
                f"this table speaks protocol version {PROTOCOL_VERSION}, "
                f"you speak {request.protocol_version}: update the game")
        ours = codec.sha256(self.rules_bytes)
        if request.rules_hash != ours:
            return RefuseCode.RULES_MISMATCH, (
                "you proposed other rules than this table's "
                f"({request.rules_hash.hex()[:12]}… ≠ {ours.hex()[:12]}…)")
        if any(p.identity == request.identity for p in self.players):
            return RefuseCode.NAME_TAKEN, "you are already seated at this table"
        if self.started.is_set():
            return RefuseCode.ALREADY_STARTED, "the game at this table has already started"
        if self.free <= 0:
            return RefuseCode.TABLE_FULL, "the table is full"
        return None

    async def _announce(self) -> None:
        info = self.info()
        for link in list(self._links.values()):
            try:
                await link.send(info)
            except PeerFault as exc:
                log.info("could not update %s: %s", link.label, exc)
        self.changed.set()
        self.changed = trio.Event()

    async def _hold(self, link: Link, peer: PeerId) -> None:
        """Keep the joiner's seat while it waits; a `Leave`, a drop or a broken channel frees
        it (a fault is raised on, for the log, once the seat is free)."""
        fault: PeerFault | None = None
        while not self.started.is_set():
            try:
                message = await link.receive()
            except PeerFault as exc:
                fault = exc
                break
            if message is None or isinstance(message, Leave):
                break
        if not self.started.is_set():
            self.players = [p for p in self.players if p.identity != peer]
            self._links.pop(peer, None)
            await self._announce()
        if fault is not None:
            raise fault

    async def _seal(self) -> None:
        start = Start(self.game_id, codec.sha256(self.rules_bytes), tuple(self.players),
                      self.config.timer)
        envelope = Envelope.seal(self.identity, self.game_id, start)
        self.start = GameStart(self.game_id, envelope, tuple(self.players), self.config.rules,
                               self.config.name)
        self.started.set()
        for link in list(self._links.values()):
            try:
                await link.send(envelope)
            except PeerFault as exc:
                log.info("could not send the start to %s: %s", link.label, exc)


async def join_table(identity: Identity, dialer: Dialer, endpoint: Endpoint, *, name: str,
                     listen_port: int, expected_host: PeerId | None = None,
                     host_fingerprint: str | None = None,
                     rules_hash: bytes | None = None, timer: TurnTimer | None = None,
                     on_table: Callable[[TableInfo, RuleSet], None] | None = None
                     ) -> GameStart:
    """Join the table at `endpoint` and wait for its game to start. `host_fingerprint`,
    `rules_hash`, `timer`: what we saw advertised (the host must prove that identity in the
    handshake and still offer the rest); by default whoever answers, whatever it shows.
    `on_table`: told the table (who sits, its rules) when it is first shown and as it changes
    while we wait, for a waiting room."""
    try:
        stream = await dialer.dial(endpoint)
    except OSError as exc:
        why = exc.strerror or exc
        raise JoinFailed(f"cannot reach {endpoint}: {why}",
                         f"нет связи с {endpoint}: {why}") from exc
    try:
        link = await open_link(stream, identity, expected=expected_host, label=f"host {endpoint}",
                               expected_fingerprint=host_fingerprint)
    except PeerFault as exc:
        raise JoinFailed(exc.reason, f"соединение с хозяином не удалось: {exc.reason}") from exc
    try:
        info = await link.receive()
        if not isinstance(info, TableInfo):
            raise JoinFailed(f"the host sent {type(info).__name__} instead of its table",
                             f"хозяин прислал {type(info).__name__} вместо описания стола")
        try:
            rules = RuleSet.from_canonical(info.rules)
        except RuleError as exc:
            raise JoinFailed(f"the table's rules cannot be read: {exc.message_en}",
                             f"правила стола не читаются: {exc.message_ru}") from exc
        if timer is not None and timer != info.timer:
            raise JoinFailed(f"the table's clocks are now {info.timer.describe()}, "
                             f"not {timer.describe()} as advertised",
                             f"часы стола теперь {info.timer.describe()}, а объявлены были "
                             f"{timer.describe()}")
        if on_table is not None:
            on_table(info, rules)
        wanted = rules_hash if rules_hash is not None else info.rules_hash
        await link.send(JoinRequest(info.game, PROTOCOL_VERSION, wanted, name, identity.peer_id,
                                    listen_port))
        while True:
            message = await link.receive()
            if message is None:
                raise JoinFailed("the host closed the connection", "хозяин закрыл соединение")
            if isinstance(message, JoinRefused):
                raise JoinFailed(message.detail, REFUSED_RU.get(message.code))
            if isinstance(message, Envelope) and isinstance(message.message, Start):
                start = message.message
                if message.author != link.peer or start.game != info.game:
                    raise JoinFailed("the start was not signed by the host for this table",
                                     "начало партии подписал не хозяин этого стола")
                if start.rules_hash != info.rules_hash:
                    raise JoinFailed("the host started with other rules than it showed",
                                     "хозяин начал с другими правилами, чем объявил")
                if start.timer != info.timer:
                    raise JoinFailed(f"the host started with other clocks "
                                     f"({start.timer.describe()}) than it showed "
                                     f"({info.timer.describe()})",
                                     f"хозяин начал с другими часами "
                                     f"({start.timer.describe()}), чем объявил "
                                     f"({info.timer.describe()})")
                if not any(p.identity == identity.peer_id for p in start.players):
                    raise JoinFailed("the game started without us", "партия началась без нас")
                return GameStart(info.game, message, start.players, rules, info.name)
            if isinstance(message, TableInfo):
                # the clocks shown when we asked to join are the ones we agreed to
                same = message.rules_hash == info.rules_hash and message.timer == info.timer
                info = message if same else info
                if same and on_table is not None:
                    on_table(info, rules)
    except PeerFault as exc:
        raise JoinFailed(exc.reason, f"соединение с хозяином прервалось: {exc.reason}") from exc
    finally:
        await link.close("joined")
