"""A deterministic simulated table for the ordered-log tests: N players, each with its own
Ed25519 identity and its own `OrderingLog`, over a network that drops, duplicates, reorders and
delays messages and kills and restarts players, as a seeded plan says.

Everything runs on one simulated clock (an event heap); nothing sleeps. Players are driven by
random bots over full-information engine states (every test player knows the deck order: this
tests ordering, not privacy); chance actions (deal, reveal, lots) are authored by the sequencer.

The simulation counts the faults it actually injected (`Sim.faults`: drops, duplicates, delayed
and reordered deliveries, kills), so a test can check that its plan did more than name them.

Timing assumption (rule L5): a message between live players is delivered within
``max_delay_ms`` unless dropped, and the same bytes on the same link are dropped at most
``max_drops`` times, so retransmissions get through within the delivery bound.
"""

from __future__ import annotations

import heapq
import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from p2p_durak import engine
from p2p_durak.engine import CHANCE, Action, Game, State
from p2p_durak.engine.presets import get_preset
from p2p_durak.protocol.codec import sha256
from p2p_durak.protocol.engine_machine import EngineMachine, action_bytes
from p2p_durak.protocol.envelope import Envelope
from p2p_durak.protocol.errors import LocalProtocolError
from p2p_durak.protocol.identity import Identity
from p2p_durak.protocol.log import EnvelopeCache, LogConfig, OrderingLog
from p2p_durak.protocol.log_effects import (
    Broadcast,
    Committed,
    Diagnosis,
    Dropped,
    Halted,
    Rejected,
    SendTo,
    Waiting,
)
from p2p_durak.protocol.messages import Entry, Intent, PlayerInfo, Start
from p2p_durak.protocol.transcript import Transcript, audit

IDENTITIES = tuple(Identity.from_seed(sha256(b"p2p-durak log test %d" % i)) for i in range(6))
GAME_ID = sha256(b"p2p-durak log test game")[:16]

TEST_CONFIG = LogConfig(window_ms=20, resend_ms=100, omit_ms=1_500, censor_ms=3_000,
                        notice_ms=300)
"""Bounds for a network with delays up to 100 ms and two drops per message (D < 300 ms)."""

Effect = Any


def make_game(n: int, preset: str = "app_podkidnoy", dealer: int = 0) -> Game:
    return engine.make_game(get_preset(preset).rules, n, dealer)


def start_envelope(game: Game, creator: int = 0) -> Envelope:
    players = tuple(PlayerInfo(IDENTITIES[s].peer_id, f"P{s}") for s in range(game.n_players))
    start = Start(GAME_ID, bytes.fromhex(game.rules_hash), players)
    return Envelope.seal(IDENTITIES[creator], GAME_ID, start)


def shuffled_deck(game: Game, seed: int) -> list[int]:
    deck = list(range(game.n_cards))
    random.Random(f"deck {seed}").shuffle(deck)
    return deck


@dataclass(frozen=True)
class Kill:
    at_ms: int
    seat: int
    down_ms: int
    journal_lag: int = 0
    """How many committed entries the restarted player's journal is missing (it catches up)."""
    power_cut: bool = False
    """The journal lost the entry the player signed last too (it was not synced yet)."""


@dataclass(frozen=True)
class Plan:
    seed: int = 0
    drop: float = 0.0
    dup: float = 0.0
    max_delay_ms: int = 0
    max_drops: int = 2
    think_ms: int = 0
    kills: tuple[Kill, ...] = ()


@dataclass
class Peer:
    """One player: its log, its bot, and what it has seen. Subclass to misbehave."""

    seat: int
    sim: Sim
    log: OrderingLog[State]
    rng: random.Random
    honest: bool = True
    alive: bool = True
    incarnation: int = 0
    halted: Diagnosis | None = None
    rejected: list[Rejected] = field(default_factory=list)
    dropped: list[Dropped] = field(default_factory=list)
    waiting: list[Waiting] = field(default_factory=list)
    commits: int = 0
    tick_at: int | None = None
    was_recovering: bool = False

    # Hooks for misbehaving players.
    def outbound(self, effect: Broadcast | SendTo) -> list[tuple[int, bytes]]:
        if isinstance(effect, Broadcast):
            return [(s, effect.data) for s in range(self.sim.n) if s != self.seat]
        return [(effect.seat, effect.data)]

    def inbound(self, from_seat: int, data: bytes) -> bool:
        return True

    def choose(self, state: State) -> Action | None:
        """A random legal action for this seat (chance if it is the sequencer), or None."""
        if engine.is_over(state):
            return None
        actors = engine.to_act(state)
        if CHANCE in actors:
            if engine.sequencer(state) != self.seat:
                return None
            outcome = engine.chance_outcome(state)
            if outcome is not None:
                return outcome
            options = engine.legal_actions(state, CHANCE)
            return options[self.rng.randrange(len(options))]
        if self.seat not in actors:
            return None
        options = engine.legal_actions(state, self.seat)
        return options[self.rng.randrange(len(options))] if options else None

    def act(self, now: int) -> None:
        log = self.log
        if log.halted or log.recovering or log.own_pending is not None:
            return
        action = self.choose(log.state)
        if action is None:
            return
        try:
            _, effects = log.submit(action_bytes(action), now)
        except LocalProtocolError:
            return
        self.sim.effects(self, effects, now)


class Sim:
    """The event loop: deliveries, ticks, bot moves, kills and restarts, in simulated time."""

    def __init__(
        self,
        n: int,
        plan: Plan,
        *,
        config: LogConfig = TEST_CONFIG,
        game: Game | None = None,
        deck: Sequence[int] | None = None,
        peer_class: Callable[..., Peer] | dict[int, Callable[..., Peer]] = Peer,
        bots: bool = True,
    ) -> None:
        self.n = n
        self.plan = plan
        self.config = config
        self.game = game or make_game(n)
        self.machine = EngineMachine(self.game)
        self.initial = engine.new_game(self.game, deck or shuffled_deck(self.game, plan.seed))
        self.start = start_envelope(self.game)
        self.machine.check_start(self.start.message)  # type: ignore[arg-type]
        self.bots = bots
        self.commit_hooks: list[Callable[[Peer, Committed[State]], None]] = []
        self.now = 0
        self._heap: list[tuple[int, int, str, tuple[Any, ...]]] = []
        self._order = 0
        self._net = random.Random(f"net {plan.seed}")
        self._drops: Counter[tuple[int, int, bytes]] = Counter()
        self._sent: Counter[tuple[int, int]] = Counter()  # messages put on each link so far
        self._latest: dict[tuple[int, int], int] = {}  # newest message delivered on each link
        self.faults: Counter[str] = Counter()
        """What the network did: "drop", "dup", "delay", "reorder" and "kill" counts."""
        self._kills_due = len(plan.kills)  # kills (and their restarts) still to happen
        self.delivered = 0
        self.cache = EnvelopeCache(1 << 16)  # shared: one verification per envelope
        # What each honest player signed: (seat, counter, based_on) -> intent actions, and
        # (seat, seq) -> entries. Two for one key would be equivocation.
        self.signed_intents: dict[tuple[int, int, int], set[bytes]] = {}
        self.signed_entries: dict[tuple[int, int], set[bytes]] = {}
        self.peers: list[Peer] = []
        classes = peer_class if isinstance(peer_class, dict) else {}
        for seat in range(n):
            cls = classes.get(seat, Peer) if classes else peer_class
            assert callable(cls)
            log = OrderingLog(IDENTITIES[seat], self.start, self.machine, self.initial,
                              config=config, now_ms=0, cache=self.cache)
            self.peers.append(cls(seat, self, log, random.Random(f"bot {plan.seed} {seat}")))
        for kill in plan.kills:
            self._push(kill.at_ms, "kill", (kill,))
        for peer in self.peers:
            self._push(0, "act", (peer.seat, 0))

    # ---- plumbing ---------------------------------------------------------------------------

    def _push(self, at: int, kind: str, args: tuple[Any, ...]) -> None:
        self._order += 1
        heapq.heappush(self._heap, (at, self._order, kind, args))

    def effects(self, peer: Peer, effects: list[Effect], now: int) -> None:
        for effect in effects:
            if isinstance(effect, Broadcast | SendTo):
                self._note_signed(peer, effect.data)
                for dest, data in peer.outbound(effect):
                    self.route(peer.seat, dest, data, now)
            elif isinstance(effect, Committed):
                peer.commits += 1
                for hook in self.commit_hooks:
                    hook(peer, effect)
                self._schedule_act(peer, now)
            elif isinstance(effect, Rejected):
                peer.rejected.append(effect)
                if effect.seat == peer.seat:
                    self._schedule_act(peer, now)
            elif isinstance(effect, Halted):
                peer.halted = effect.diagnosis
            elif isinstance(effect, Dropped):
                peer.dropped.append(effect)
            elif isinstance(effect, Waiting):
                peer.waiting.append(effect)
        if peer.was_recovering and not peer.log.recovering:
            self._schedule_act(peer, now)  # back in the game: the bot may move again
        peer.was_recovering = peer.log.recovering
        self._schedule_tick(peer, now)

    def _note_signed(self, peer: Peer, data: bytes) -> None:
        envelope = self.cache.get(data)
        if envelope is None or not peer.honest or envelope.author != IDENTITIES[peer.seat].peer_id:
            return
        message = envelope.message
        if isinstance(message, Intent):
            key = (message.seat, message.counter, message.based_on)
            self.signed_intents.setdefault(key, set()).add(message.action)
        elif isinstance(message, Entry):
            self.signed_entries.setdefault((peer.seat, message.seq), set()).add(data)

    def check_no_double_signing(self) -> None:
        """No honest player signed two different intents for one counter and position, or
        two different entries for one position (across restarts too)."""
        for key, actions in self.signed_intents.items():
            assert len(actions) == 1, f"seat {key[0]} signed {len(actions)} intents {key}"
        for key, entries in self.signed_entries.items():
            assert len(entries) == 1, f"seat {key[0]} signed {len(entries)} entries {key}"

    def _schedule_act(self, peer: Peer, now: int) -> None:
        if self.bots:
            think = self._net.randint(0, self.plan.think_ms) if self.plan.think_ms else 0
            self._push(now + think, "act", (peer.seat, peer.incarnation))

    def _schedule_tick(self, peer: Peer, now: int) -> None:
        deadline = peer.log.next_deadline()
        if deadline is None:
            return
        deadline = max(deadline, now)
        if peer.tick_at is None or deadline < peer.tick_at or peer.tick_at < now:
            peer.tick_at = deadline
            self._push(deadline, "tick", (peer.seat, peer.incarnation))

    def route(self, src: int, dst: int, data: bytes, now: int) -> None:
        plan = self.plan
        target = self.peers[dst]
        if not target.alive:
            return
        copies = 2 if plan.dup and self._net.random() < plan.dup else 1
        self.faults["dup"] += copies - 1
        self._sent[src, dst] += 1
        number = self._sent[src, dst]
        for _ in range(copies):
            key = (src, dst, data)
            if plan.drop and self._net.random() < plan.drop and self._drops[key] < plan.max_drops:
                self._drops[key] += 1
                self.faults["drop"] += 1
                continue
            delay = self._net.randint(0, plan.max_delay_ms) if plan.max_delay_ms else 0
            self.faults["delay"] += delay > 0
            self._push(now + delay, "deliver", (src, dst, data, target.incarnation, number))

    # ---- the loop ---------------------------------------------------------------------------

    def run(self, until_ms: int = 600_000, max_entries: int | None = None,
            max_events: int = 2_000_000) -> None:
        events = 0
        while self._heap and self._heap[0][0] <= until_ms:
            at, _, kind, args = heapq.heappop(self._heap)
            self.now = at
            events += 1
            assert events < max_events, "the simulation does not settle"
            getattr(self, "_on_" + kind)(*args)
            if max_entries is not None and not self._kills_due and all(
                p.log.halted or (p.log.seq >= max_entries and not p.log.recovering)
                for p in self.peers
            ):
                break

    def _on_deliver(self, src: int, dst: int, data: bytes, incarnation: int, number: int) -> None:
        peer = self.peers[dst]
        if not peer.alive or peer.incarnation != incarnation or not peer.inbound(src, data):
            return
        if number < self._latest.get((src, dst), 0):
            self.faults["reorder"] += 1  # overtaken by a message sent after it on this link
        else:
            self._latest[src, dst] = number
        self.delivered += 1
        self.effects(peer, peer.log.receive(src, data, self.now), self.now)

    def _on_tick(self, seat: int, incarnation: int) -> None:
        peer = self.peers[seat]
        if not peer.alive or peer.incarnation != incarnation or peer.tick_at != self.now:
            return
        peer.tick_at = None
        self.effects(peer, peer.log.tick(self.now), self.now)

    def _on_act(self, seat: int, incarnation: int) -> None:
        peer = self.peers[seat]
        if self.bots and peer.alive and peer.incarnation == incarnation:
            peer.act(self.now)

    def _on_kill(self, kill: Kill) -> None:
        peer = self.peers[kill.seat]
        if not peer.alive:
            self._kills_due -= 1  # already down: this kill changes nothing
            return
        self.faults["kill"] += 1
        # The journal: a committed prefix (perhaps lagging) and, written ahead, its last
        # signed entry.
        keep = max(0, peer.log.seq - kill.journal_lag)
        certified = [s for s in peer.log.certified() if s <= keep]
        journal = peer.log.transcript(max(certified))
        signed = None if kill.power_cut else peer.log.signed_entry
        peer.journal = (journal, signed)  # type: ignore[attr-defined]
        peer.alive = False
        peer.incarnation += 1
        for other in self.peers:
            if other.alive:
                self.effects(other, other.log.peer_disconnected(kill.seat, self.now), self.now)
        self._push(self.now + kill.down_ms, "restart", (kill.seat,))

    def _on_restart(self, seat: int) -> None:
        self._kills_due -= 1
        peer = self.peers[seat]
        journal, signed = peer.journal  # type: ignore[attr-defined]
        peer.log = OrderingLog.resume(IDENTITIES[seat], journal, self.machine, self.initial,
                                      config=self.config, now_ms=self.now, signed_entry=signed,
                                      cache=self.cache)
        peer.alive = True
        peer.tick_at = None
        peer.was_recovering = True
        for other in self.peers:
            if other.alive and other is not peer:
                self.effects(other, other.log.peer_connected(seat, self.now), self.now)
                self.effects(peer, peer.log.peer_connected(other.seat, self.now), self.now)
        self._schedule_act(peer, self.now)

    # ---- checks -----------------------------------------------------------------------------

    def kill_later(self, kill: Kill) -> None:
        """Add a kill to the plan after the start (`kill.at_ms` is absolute)."""
        self._kills_due += 1
        self._push(kill.at_ms, "kill", (kill,))

    def pause_bots(self) -> None:
        """Stop the bots and let everything in flight settle (the state stops moving)."""
        self.bots = False
        self.run(until_ms=self.now + 60_000)

    def resume_bots(self) -> None:
        self.bots = True
        for peer in self.peers:
            self._schedule_act(peer, self.now)

    def submit(self, seat: int, action: Action) -> None:
        """Make `seat` submit `action` now (scripted scenarios)."""
        peer = self.peers[seat]
        _, effects = peer.log.submit(action_bytes(action), self.now)
        self.effects(peer, effects, self.now)

    def inject(self, src: int, data: bytes, dests: Sequence[int] | None = None) -> None:
        """Put bytes on the wire from `src` (misbehaviour scripted by a test)."""
        for dst in dests if dests is not None else range(self.n):
            if dst != src:
                self.route(src, dst, data, self.now)

    def honest(self) -> list[Peer]:
        return [p for p in self.peers if p.honest]

    def check_agreement(self) -> None:
        """Committed logs are prefixes of each other, every transcript audits to the state its
        log holds, and honest peers at one position hold one state hash."""
        logs = [p.log for p in self.honest()]
        longest = max(logs, key=lambda log: log.seq)
        full = longest.transcript()
        for log in logs:
            mine = log.transcript().entries if log.certified()[-1] == log.seq else None
            entries = mine if mine is not None else tuple(
                log.entry_bytes(s) for s in range(1, log.seq + 1))
            assert entries == full.entries[: log.seq], "committed logs fork"
        for log in logs:
            report = audit(log.transcript(log.certified()[-1]), self.machine, self.initial)
            if report.head.seq == log.seq:
                assert report.head.state_hash == log.state_hash
                assert report.state == log.state
        by_seq: dict[int, set[bytes]] = {}
        for log in logs:
            by_seq.setdefault(log.seq, set()).add(log.state_hash)
        assert all(len(hashes) == 1 for hashes in by_seq.values()), "honest states differ"

    def transcript(self) -> Transcript:
        return max((p.log for p in self.honest()), key=lambda log: log.seq).transcript()
