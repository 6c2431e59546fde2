"""Misbehaving peers, as small explicit test doubles. Each cheats in one way and otherwise plays
like an honest bot peer, so that a test can see what the honest nodes make of that one fault.

- `GarbageNode`: writes random bytes into its encrypted channels (below the channel layer).
- `ForgingPlayer`: sends envelopes with a broken signature, in another player's name, by a
  stranger, and an intent it signed for another seat.
- `ReplayingPlayer`: sends old entries, acks and intents of the game again.
- `IllegalMovePlayer`: a card not in its hand, a move out of turn, a card that does not beat.
- `FalseProofNode`: a shuffle whose proof does not hold, reveal tokens with a false proof.
- `EquivocatingNode`: as sequencer, signs two different entries for one position.
- `LyingAckNode`: acks an entry with a wrong state hash.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence

import trio

from p2p_durak import engine as eng
from p2p_durak.engine import actions as A
from p2p_durak.node.game import GameRunner, Player, Timing, Turn
from p2p_durak.node.lobby import GameStart
from p2p_durak.node.mesh import Mesh
from p2p_durak.node.node import Node
from p2p_durak.node.players import BotPlayer
from p2p_durak.node.store import GameJournal
from p2p_durak.node.transport import Dialer, Endpoint, Listener, StreamHandler
from p2p_durak.protocol import codec
from p2p_durak.protocol.envelope import Envelope, decode_envelope
from p2p_durak.protocol.identity import Identity
from p2p_durak.protocol.log_effects import Broadcast, SendTo
from p2p_durak.protocol.mental.messages import Shuffle, Tokens
from p2p_durak.protocol.mental.proofs import Proof
from p2p_durak.protocol.messages import Ack, Entry, FairnessWindow, Intent
from p2p_durak.protocol.table import DECK_STEP, MOVE, TableEvent, TableMachine, deck_message

# ---- sending what the node's own log would never send ---------------------------------------


def raw_intent(runner: GameRunner, payload: bytes) -> Envelope:
    """This party's signed intent for the committed position, made past its own log (which
    would refuse it): the next counter, based on the last committed position. Its honest move
    at the same position, afterwards, carries the same counter: counters advance only when an
    intent is ordered, so a real cheater that plays on after a refused cheat must reuse it
    (tests/protocol/log/test_log_intent_twins.py: one twin at most is ordered, logs agree)."""
    log = runner.log
    intent = Intent(log.game, log.seat, log.counters[log.seat] + 1, log.seq, payload)
    return Envelope.seal(runner.identity, log.game, intent)


def forged(author: Identity | None, envelope: Envelope, signature: bytes) -> Envelope:
    """An envelope object that never passed the signature check (the constructor would refuse
    it): `envelope`'s payload under another author and/or signature, ready for the wire."""
    fake = object.__new__(Envelope)
    object.__setattr__(fake, "author", envelope.author if author is None else author.peer_id)
    object.__setattr__(fake, "game", envelope.game)
    object.__setattr__(fake, "payload", envelope.payload)
    object.__setattr__(fake, "signature", signature)
    object.__setattr__(fake, "message", envelope.message)
    return fake


def move_payload(action: eng.Action, slots: Sequence[int]) -> bytes:
    """A move intent that plays `slots` as `action` (whose cards it does not name: the
    intent names slots only, docs/protocol.md §10.12), whatever the slots really hold."""
    template = eng.Action(action.kind, action.seat, (), action.target)
    return codec.encode((MOVE, eng.encode_action(template), tuple(slots)))


def my_slots(table: TableMachine) -> list[int]:
    return list(table.hand_slots.get(table.my_seat, []))


def card_in(table: TableMachine, slot: int) -> int:
    public = table.deck.slots[slot].card
    return public if public is not None else table.deck.seen[slot]


class DelayedMovePlayer(BotPlayer):
    """A bot peer that, on the turns a subclass picks, first does something dishonest, and
    plays its honest move only a moment later (from a task of its own: `turn` runs in the
    node's core task, which must go on meanwhile so that the cheat is processed)."""

    def __init__(self, nursery: trio.Nursery, *, seed: int) -> None:
        super().__init__(level="easy", seed=seed)
        self.nursery = nursery
        self.turns = 0
        self.cheated: list[str] = []

    async def cheat(self, turn: Turn, runner: GameRunner) -> bool:
        """Misbehave on this turn; True if it did."""
        return False

    async def turn(self, turn: Turn, runner: GameRunner) -> None:
        self.turns += 1
        if await self.cheat(turn, runner):
            self.nursery.start_soon(self._move_later, turn, runner)
            return
        await super().turn(turn, runner)

    async def _move_later(self, turn: Turn, runner: GameRunner) -> None:
        await trio.sleep(1.0)
        if runner.log.seq == turn.seq and self.bot is not None:
            await runner.move(turn.seq, self.bot.choose())
        # else: the table moved on and the runner offers the new turn by itself


class SignallingPlayer(BotPlayer):
    """An honest bot that says when its node has committed position `at` (a game runs in zero
    virtual time: a test that polls the position would wake only after the game)."""

    def __init__(self, *, seed: int, at: int) -> None:
        super().__init__(level="easy", seed=seed)
        self.at = at
        self.reached = trio.Event()
        self.runner: GameRunner | None = None

    def attach(self, runner: GameRunner) -> None:
        super().attach(runner)
        self.runner = runner

    async def update(self, table: TableMachine, events: tuple[TableEvent, ...]) -> None:
        await super().update(table, events)
        if self.runner is not None and self.runner.log.seq >= self.at:
            self.reached.set()


# ---- garbage below the channel ---------------------------------------------------------------


class TapStream(trio.abc.Stream):
    """A stream the test can write raw bytes into, between the node's own frames."""

    def __init__(self, inner: trio.abc.Stream) -> None:
        self.inner = inner
        self.remote_host = getattr(inner, "remote_host", "")
        self._lock = trio.Lock()
        self.closed = False

    async def send_all(self, data: bytes | bytearray | memoryview) -> None:
        async with self._lock:
            await self.inner.send_all(data)

    async def wait_send_all_might_not_block(self) -> None:
        await self.inner.wait_send_all_might_not_block()

    async def receive_some(self, max_bytes: int | None = None) -> bytes | bytearray:
        return await self.inner.receive_some(max_bytes)

    async def aclose(self) -> None:
        self.closed = True
        await self.inner.aclose()

    async def inject(self, data: bytes) -> None:
        async with self._lock:
            await self.inner.send_all(data)


class TapDialer:
    def __init__(self, inner: Dialer, taps: list[TapStream]) -> None:
        self.inner = inner
        self.taps = taps

    async def dial(self, endpoint: Endpoint) -> trio.abc.Stream:
        tap = TapStream(await self.inner.dial(endpoint))
        self.taps.append(tap)
        return tap


class TapListener:
    def __init__(self, inner: Listener, taps: list[TapStream]) -> None:
        self.inner = inner
        self.taps = taps

    async def serve(self, handler: StreamHandler, *,
                    task_status: trio.TaskStatus[Endpoint] = trio.TASK_STATUS_IGNORED) -> None:
        async def tapped(stream: trio.abc.Stream) -> None:
            tap = TapStream(stream)
            self.taps.append(tap)
            await handler(tap)

        await self.inner.serve(tapped, task_status=task_status)


class GarbageNode(Node):
    """Every stream it opens or accepts is tapped; `spray` writes random bytes into all."""

    def __post_init__(self) -> None:
        super().__post_init__()
        self.taps: list[TapStream] = []
        self.listener = TapListener(self.listener, self.taps)
        self.dialer = TapDialer(self.dialer, self.taps)
        self.sprayed = 0

    async def spray(self, rng: random.Random) -> None:
        await self.inject(rng.randbytes(48))

    async def inject(self, data: bytes) -> None:
        """Write `data` into every open stream, between the node's own frames."""
        for tap in self.taps:
            if tap.closed:
                continue
            try:
                await tap.inject(data)
                self.sprayed += 1
            except (trio.BrokenResourceError, trio.ClosedResourceError):
                pass


# ---- forged and foreign envelopes --------------------------------------------------------------


class ForgingPlayer(DelayedMovePlayer):
    """On its third turn: an intent it signed naming another seat, and an intent signed by a
    stranger (both well-formed envelopes: the log refuses them). On its fifth: its own intent
    with a broken signature, and one in an honest player's name that it signed itself (the
    channel refuses those: the signature does not verify)."""

    def __init__(self, nursery: trio.Nursery, *, seed: int, victim: Identity) -> None:
        super().__init__(nursery, seed=seed)
        self.victim = victim

    async def cheat(self, turn: Turn, runner: GameRunner) -> bool:
        bot = self.bot
        assert bot is not None
        payload = turn.table.play(bot.choose())
        log = runner.log
        victim = runner.start.party_of(self.victim.peer_id)
        if self.turns == 3:
            other_seat = Intent(log.game, victim, log.counters[victim] + 1, log.seq, payload)
            await runner.mesh.broadcast(Envelope.seal(runner.identity, log.game, other_seat))
            stranger = Identity.from_seed(b"a stranger".ljust(32, b"_"))
            await runner.mesh.broadcast(Envelope.seal(stranger, log.game,
                                                      raw_intent(runner, payload).message))
            self.cheated.append("foreign")
            return True
        if self.turns == 5:
            mine = raw_intent(runner, payload)
            broken = bytes([mine.signature[0] ^ 1]) + mine.signature[1:]
            await runner.mesh.broadcast(forged(None, mine, broken))
            self.cheated.append("bad signature")
            return True
        if self.turns == 7:
            victims = Intent(log.game, victim, log.counters[victim] + 1, log.seq, payload)
            signed = Envelope.seal(runner.identity, log.game, victims)
            await runner.mesh.broadcast(forged(self.victim, signed, signed.signature))
            self.cheated.append("in another's name")
            return True
        return False


# ---- replays -----------------------------------------------------------------------------------


class ReplayingPlayer(DelayedMovePlayer):
    """On its fourth turn: the game's first entries, their acks and their intents, again."""

    async def cheat(self, turn: Turn, runner: GameRunner) -> bool:
        if self.turns != 4:
            return False
        log = runner.log
        old = [seq for seq in log.certified() if 0 < seq < log.seq - 2][:3]
        assert old, "no old certified position to replay"
        for seq in old:
            entry = decode_envelope(log.entry_bytes(seq))
            await runner.mesh.broadcast(entry)
            for ack in log.transcript(seq).acks:
                await runner.mesh.broadcast(decode_envelope(ack))
            assert isinstance(entry.message, Entry)
            for intent in entry.message.intents:
                await runner.mesh.broadcast(decode_envelope(intent))
        self.cheated.append(f"replayed positions {old}")
        return True


# ---- illegal moves -----------------------------------------------------------------------------


class IllegalMovePlayer(DelayedMovePlayer):
    """Tries each of `kinds` once, one per turn, at the first chance the game surely gives it
    (in the order given when several fit): "not in hand" (leads, or throws in, a slot of another
    seat's hand: every seat leads or may throw in early in a game, while a throw-in alone may
    never come its way), "out of turn" (leads while another seat is to lead: done from
    `update`, only where the rules refuse it for exactly that reason), "does not beat" (covers
    an attack with a card that cannot: the move is committed, its card opened, and the move is
    void)."""

    def __init__(self, nursery: trio.Nursery, *, seed: int, kinds: tuple[str, ...]) -> None:
        super().__init__(nursery, seed=seed)
        self.todo = list(kinds)
        self.runner: GameRunner | None = None

    async def update(self, table: TableMachine, events: tuple[TableEvent, ...]) -> None:
        await super().update(table, events)
        runner = self.runner
        if (runner is None or "out of turn" not in self.todo
                or table.state is None or table.deck.pending_op() is not None
                or table.party in table.waiting_for() or not my_slots(table)
                or table.state.result is not None):
            return
        slot = my_slots(table)[0]
        action = eng.Action(A.LEAD, table.my_seat, (card_in(table, slot),))
        try:
            eng.apply(table.state, action)
        except eng.IllegalAction as refused:
            if refused.reason is not eng.Reason.NOT_YOUR_TURN:
                return  # refused for another reason (the phase): not this cheat
        else:
            return  # legal after all: not a cheat
        await runner.mesh.broadcast(raw_intent(runner, move_payload(action, [slot])))
        self._done("out of turn")

    async def cheat(self, turn: Turn, runner: GameRunner) -> bool:
        self.runner = runner
        table = turn.table
        assert table.state is not None
        for kind in self.todo:
            payload: bytes | None = None
            if kind == "not in hand":
                payload = self._not_in_hand(table, turn)
            elif kind == "does not beat" and any(a.kind == A.BEAT for a in turn.legal):
                payload = self._not_beating(table, turn)
            if payload is not None and kind == "does not beat":
                # its public form is a legal beat: submitted as its own, it is ordered and
                # committed; its card, opened then, shows it void
                await runner._carry_out(runner._submit(payload, "move"))
                self._done(kind)
                return True
            if payload is not None:
                await runner.mesh.broadcast(raw_intent(runner, payload))
                self._done(kind)
                return True
        return False

    def _done(self, kind: str) -> None:
        self.todo.remove(kind)
        self.cheated.append(kind)

    def _not_in_hand(self, table: TableMachine, turn: Turn) -> bytes | None:
        """Lead, or throw in, a card this seat does not hold: a slot of another seat's hand (a
        move names slots, not cards)."""
        kind = next((a.kind for a in turn.legal if a.kind in (A.LEAD, A.THROW)), None)
        if kind is None:
            return None
        other = next((s for seat, slots in sorted(table.hand_slots.items())
                      if seat != table.my_seat for s in slots), None)
        if other is None:
            return None
        return move_payload(eng.Action(kind, table.my_seat), [other])

    def _not_beating(self, table: TableMachine, turn: Turn) -> bytes | None:
        state = table.state
        assert state is not None
        targets = dict.fromkeys(a.target for a in turn.legal if a.kind == A.BEAT)
        for target in targets:  # any attack card one of its cards cannot beat
            for slot in my_slots(table):
                card = card_in(table, slot)
                action = eng.Action(A.BEAT, table.my_seat, (card,), target)
                if action in turn.legal:
                    continue
                try:
                    eng.apply(state, action)
                except eng.IllegalAction as refused:
                    if refused.reason is eng.Reason.DOES_NOT_BEAT:
                        return move_payload(action, [slot])
        return None


# ---- runner doubles: false proofs, equivocation, lying acks ------------------------------------


class FalseProofRunner(GameRunner):
    """Its first shuffle has two ciphertexts swapped (the proof no longer holds); its first
    opening of a played card (the deck step after the move's commit) carries reveal tokens
    with a false proof."""

    tampered: list[str]

    def _submit(self, payload: bytes, kind: str) -> Sequence[object]:
        if not hasattr(self, "tampered"):
            self.tampered = []
        raw = codec.decode(payload)
        assert isinstance(raw, tuple)
        if raw[0] == DECK_STEP and "shuffle" not in self.tampered:
            msg = deck_message(raw[1])
            if isinstance(msg, Shuffle):
                deck = (msg.deck[1], msg.deck[0], *msg.deck[2:])
                bad = dataclasses.replace(msg, deck=deck)
                payload = codec.encode((DECK_STEP, codec.encode(bad.to_wire())))
                self.tampered.append("shuffle")
        elif raw[0] == DECK_STEP and "tokens" not in self.tampered:
            msg = deck_message(raw[1])
            if isinstance(msg, Tokens) and msg.step.startswith("open:"):
                # a played card's opening, made after its move was committed
                bad = dataclasses.replace(msg, proof=Proof(msg.proof.c, msg.proof.s ^ 1))
                payload = codec.encode((DECK_STEP, codec.encode(bad.to_wire())))
                self.tampered.append("tokens")
        return super()._submit(payload, kind)


class EquivocatingRunner(GameRunner):
    """The first time it orders an entry of one intent at position >= `at`, it sends that
    entry to one peer and a second, different entry for the same position (the same intent
    with a fairness record) to the other."""

    at = 30
    equivocated_at: int | None = None

    async def _carry_out(self, effects: Sequence[object]) -> None:
        out: list[object] = []
        for effect in effects:
            twin = self._twin(effect)
            if twin is None:
                out.append(effect)
                continue
            assert isinstance(effect, Broadcast)
            first, second = [p for p in range(len(self.start.players)) if p != self.party]
            out.append(SendTo(first, effect.message, effect.data))
            out.append(SendTo(second, twin, twin.encode()))
        await super()._carry_out(out)

    def _twin(self, effect: object) -> Envelope | None:
        if self.equivocated_at is not None or not isinstance(effect, Broadcast):
            return None
        envelope = effect.message
        if not isinstance(envelope, Envelope) or envelope.author != self.identity.peer_id:
            return None
        entry = envelope.message
        if not isinstance(entry, Entry) or entry.seq < self.at or len(entry.intents) != 1:
            return None
        self.equivocated_at = entry.seq
        other = dataclasses.replace(entry, fairness=FairnessWindow(0, 1))
        return Envelope.seal(self.identity, envelope.game, other)


class LyingAckRunner(GameRunner):
    """From position `at` on, its first ack names a wrong state hash (on every path it takes:
    broadcast, re-sent, shown to a peer)."""

    at = 25
    lied_at: int | None = None

    async def _carry_out(self, effects: Sequence[object]) -> None:
        await super()._carry_out([self._lie(e) for e in effects])

    def _lie(self, effect: object) -> object:
        if not isinstance(effect, Broadcast | SendTo):
            return effect
        envelope = effect.message
        if not isinstance(envelope, Envelope) or envelope.author != self.identity.peer_id:
            return effect
        ack = envelope.message
        if not isinstance(ack, Ack) or ack.seq < self.at:
            return effect
        if self.lied_at is None:
            self.lied_at = ack.seq
        if ack.seq != self.lied_at:
            return effect
        wrong = Ack(ack.seq, ack.entry_hash, codec.sha256(b"not the state" + ack.state_hash))
        lie = Envelope.seal(self.identity, envelope.game, wrong)
        if isinstance(effect, Broadcast):
            return Broadcast(lie, lie.encode())
        return SendTo(effect.seat, lie, lie.encode())


class RunnerDoubleNode(Node):
    """A node whose game runner is the test double `runner_class`."""

    runner_class: type[GameRunner] = GameRunner

    def _new_runner(self, start: GameStart, mesh: Mesh, player: Player, journal: GameJournal,
                    timing: Timing) -> GameRunner:
        return self.runner_class(self.identity, start, mesh, player, journal, rng=self.rng,
                                 timing=timing)


class FalseProofNode(RunnerDoubleNode):
    runner_class = FalseProofRunner


class EquivocatingNode(RunnerDoubleNode):
    runner_class = EquivocatingRunner


class LyingAckNode(RunnerDoubleNode):
    runner_class = LyingAckRunner
