"""Links to every other party of one game, kept open for as long as the game runs.

Each pair of parties needs exactly one link, so the rule is fixed: the party with the smaller
identity key dials, the other accepts (its node's listener hands the link over with `offer`).
A dropped link is redialled with backoff; a newer link from the same peer replaces the old one.
Everything a peer sends arrives on one memory channel as `(party, message)`; `Connected` and
`Disconnected` markers on the same channel let the game tell the ordered log who is reachable.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Sequence
from dataclasses import dataclass

import trio

from p2p_durak.node.link import Link, PeerFault, open_link
from p2p_durak.node.transport import Dialer, Endpoint
from p2p_durak.protocol.errors import ErrorCode
from p2p_durak.protocol.identity import Identity, PeerId
from p2p_durak.protocol.messages import Message

log = logging.getLogger(__name__)

# A peer's node holds a link that comes before its game runs (node.py), so a dial fails only
# when the peer cannot be reached (or hung up on us): the first redials come quickly, then
# back off.
REDIAL_FIRST = 0.02
REDIAL_MAX = 5.0
STABLE_SECONDS = 1.0  # a link that lasted this long was up: redial at once-ish when it drops


@dataclass(frozen=True, slots=True)
class Party:
    peer: PeerId
    endpoint: Endpoint | None  # where it listens; None: it dials us


@dataclass(frozen=True, slots=True)
class Connected:
    party: int


@dataclass(frozen=True, slots=True)
class Disconnected:
    party: int
    reason: str


@dataclass(frozen=True, slots=True)
class Received:
    party: int
    message: Message


MeshEvent = Connected | Disconnected | Received


@dataclass(frozen=True, slots=True)
class Outgoing:
    """A message to send: to one party, or to every other one (`party` None); `encoded` is its
    bytes (``message.encode()``)."""

    party: int | None
    message: Message
    encoded: bytes


def dial_error(exc: OSError) -> str:
    """Why a dial failed, as the system says it ("Connection refused"): trio's own error only
    says that every attempt failed, and holds each attempt's error as its cause."""
    causes = getattr(exc.__cause__, "exceptions", ())
    said = [os.strerror(cause.errno) if cause.errno else str(cause) for cause in causes
            if isinstance(cause, OSError)]
    return ", ".join(dict.fromkeys(said)) or exc.strerror or str(exc)


class Mesh:
    def __init__(self, identity: Identity, parties: list[Party], dialer: Dialer) -> None:
        self.identity = identity
        self.parties = parties
        self.me = next(i for i, p in enumerate(parties) if p.peer == identity.peer_id)
        self.dialer = dialer
        self._links: dict[int, Link] = {}
        self._send: trio.MemorySendChannel[MeshEvent]
        self._send, self.inbox = trio.open_memory_channel[MeshEvent](1024)
        self._nursery: trio.Nursery | None = None
        self.faults: list[str] = []  # every peer fault seen, naming the peer and the reason
        self._trouble: dict[int, str] = {}  # party -> why its link is down (the last failure)

    def deliver_to(self, channel: trio.MemorySendChannel[MeshEvent]) -> None:
        """Put events on `channel` instead of `inbox` (a game's own input queue: one task
        switch less per message). Call it before `run`."""
        self._send = channel

    def party_of(self, peer: PeerId) -> int | None:
        return next((i for i, p in enumerate(self.parties) if p.peer == peer), None)

    def connected(self, party: int) -> bool:
        link = self._links.get(party)
        return link is not None and not link.closed

    def why_away(self, party: int) -> str:
        """Why there is no link to `party` now, in words for the player ("" when there is)."""
        if self.connected(party):
            return ""
        trouble = self._trouble.get(party)
        if trouble is not None:
            return trouble
        if not self.i_dial(party):
            return "it has not connected to us"
        if self.parties[party].endpoint is None:
            return "it gave no address to reach it at"
        return "connecting"

    def i_dial(self, party: int) -> bool:
        return self.identity.peer_id.key < self.parties[party].peer.key

    async def run(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        async with trio.open_nursery() as nursery:
            self._nursery = nursery
            for party, info in enumerate(self.parties):
                if party != self.me and self.i_dial(party) and info.endpoint is not None:
                    nursery.start_soon(self._keep_dialled, party, info.endpoint)
            task_status.started()
            await trio.sleep_forever()

    def wants(self, link: Link) -> bool:
        """Whether a link our listener accepted belongs to this mesh."""
        party = self.party_of(link.peer)
        return party is not None and party != self.me and not self.i_dial(party)

    async def adopt(self, link: Link) -> None:
        """Serve a link our listener accepted (see `wants`), in the caller's task, until it
        ends: the listener's handler owns the stream, so it must not return earlier."""
        party = self.party_of(link.peer)
        assert party is not None
        await self._serve(party, link)

    async def send(self, party: int, message: Message, encoded: bytes | None = None) -> bool:
        """Send to one party (`encoded`: the message's bytes, if the caller has them); False
        when it is not reachable now (the log will retry)."""
        link = self._links.get(party)
        if link is None or link.closed:
            return False
        try:
            await link.send(message, encoded)
        except PeerFault as fault:
            self._note_fault(fault)
            return False
        return True

    async def broadcast(self, message: Message, encoded: bytes | None = None) -> None:
        """Send to every other party: encoded once, encrypted per link."""
        data = message.encode() if encoded is None else encoded
        await self.send_all([Outgoing(None, message, data)])

    async def send_all(self, messages: Sequence[Outgoing]) -> None:
        """Send several messages, in order, with one write per link (a write on loopback runs
        the reader's side of TCP too: fewer, larger writes cost less). Unreachable parties are
        skipped (the log will retry)."""
        for party in range(len(self.parties)):
            if party == self.me:
                continue
            batch = [(m.message, m.encoded) for m in messages if m.party in (None, party)]
            link = self._links.get(party)
            if not batch or link is None or link.closed:
                continue
            try:
                await link.send_many(batch)
            except PeerFault as fault:
                self._note_fault(fault)

    async def _keep_dialled(self, party: int, endpoint: Endpoint) -> None:
        delay = REDIAL_FIRST
        label = f"party {party} at {endpoint}"
        while True:
            try:
                stream = await self.dialer.dial(endpoint)
                link = await open_link(stream, self.identity, expected=self.parties[party].peer,
                                       label=label)
            except (OSError, PeerFault) as exc:
                self._trouble[party] = (f"{endpoint} answers, but {exc.reason}"
                                        if isinstance(exc, PeerFault) else
                                        f"cannot connect to {endpoint}: {dial_error(exc)}")
                log.debug("dial %s failed: %s", label, exc)
                await trio.sleep(delay)
                delay = min(delay * 2, REDIAL_MAX)
                continue
            opened = trio.current_time()
            await self._serve(party, link)
            if trio.current_time() - opened >= STABLE_SECONDS:
                delay = REDIAL_FIRST
            await trio.sleep(delay)
            delay = min(delay * 2, REDIAL_MAX)

    async def _serve(self, party: int, link: Link) -> None:
        old = self._links.get(party)
        self._links[party] = link
        if old is not None and old is not link:
            await old.close("replaced by a newer connection")
        self._trouble.pop(party, None)
        await self._send.send(Connected(party))
        reason = "connection closed"
        try:
            while True:
                message = await link.receive()
                if message is None:
                    break
                try:
                    # No task switch per message: the frames already read are parsed and
                    # queued back to back (reading more data is a checkpoint), and the game
                    # handles what queued up in one batch.
                    self._send.send_nowait(Received(party, message))
                except trio.WouldBlock:
                    await self._send.send(Received(party, message))
        except PeerFault as fault:
            if fault.code is ErrorCode.GOING_AWAY:
                # an orderly hang-up (the peer's game ended, or it has none for us): news for
                # the game (`Disconnected` names it), not a fault
                log.info("%s hung up: %s", fault.peer, fault.reason)
            else:
                self._note_fault(fault)
            reason = fault.reason
        finally:
            if self._links.get(party) is link:
                del self._links[party]
                self._trouble[party] = f"the link dropped ({reason})"
                with trio.CancelScope(shield=True):
                    await self._send.send(Disconnected(party, reason))
            await trio.aclose_forcefully(link.stream)

    def _note_fault(self, fault: PeerFault) -> None:
        text = f"{fault.peer}: {fault.reason}"
        self.faults.append(text)
        log.warning("peer fault: %s", text)
