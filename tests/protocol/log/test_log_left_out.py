"""Rule L9: an intent the sequencer leaves out is judged at the position it names.

A player's precheck may know more than another's: in a networked table each player sees its own
hand. The sequencer then refuses (and never orders) an illegal intent that another player's
precheck let through; that player must still name its author once the next entry commits
without it, and must stay silent about a legal intent that merely lost the race. The logs are
wired by hand (h11's ConnectionPair style), so the interleaving is forced, not hoped for.
"""

from __future__ import annotations

from p2p_durak import engine
from p2p_durak.engine import CHANCE, Phase, State
from p2p_durak.engine import actions as A
from p2p_durak.protocol.engine_machine import EngineMachine, action_bytes, decode_intent_action
from p2p_durak.protocol.envelope import Envelope
from p2p_durak.protocol.log import OrderingLog
from p2p_durak.protocol.log_effects import Committed, Rejected
from p2p_durak.protocol.machine import MachineReject
from p2p_durak.protocol.messages import Intent, RejectCode

from .netsim import GAME_ID, IDENTITIES, TEST_CONFIG, make_game, shuffled_deck, start_envelope
from .test_log_units import Wire

GAME = make_game(3)


class BlindPrecheck(EngineMachine):
    """What a player who cannot see the other hands can precheck: the intent decodes to an
    action of its author's seat. `apply` stays the full engine check every player runs on an
    ordered intent (in a table, the reveal proofs make it public knowledge)."""

    def precheck(self, state: State, seat: int, intent: Intent) -> None:
        action = decode_intent_action(intent)
        if action.seat not in (seat, CHANCE):
            raise MachineReject(RejectCode.NOT_YOUR_TURN, "an action of another seat")


def logs_at_the_first_bout(sighted: int) -> tuple[Wire, int]:
    """Three logs played to the first bout; only seat `sighted` prechecks in full."""
    start = start_envelope(GAME)
    initial = engine.new_game(GAME, shuffled_deck(GAME, 3))
    logs = [
        OrderingLog(IDENTITIES[seat], start,
                    EngineMachine(GAME) if seat == sighted else BlindPrecheck(GAME),
                    initial, config=TEST_CONFIG)
        for seat in range(3)
    ]
    wire = Wire(logs)
    now = 0
    while logs[0].state.phase != Phase.BOUT:
        state = logs[0].state
        actors = engine.to_act(state)
        if CHANCE in actors:
            seat = engine.sequencer(state)
            action = engine.chance_outcome(state) or engine.legal_actions(state, CHANCE)[0]
        else:
            seat = min(actors)
            action = engine.legal_actions(state, seat)[0]
        wire.submit(seat, action, now)
        now = settle(wire, now)
    return wire, now


def settle(wire: Wire, now: int) -> int:
    """Deliver everything and let windows close until the logs agree and nothing is pending."""
    for _ in range(50):
        wire.flush(now)
        wire.tick(now)
        wire.flush(now)
        if not wire.queue and all(log.next_deadline() is None for log in wire.logs):
            break
        now += TEST_CONFIG.window_ms
    assert len({log.head_hash for log in wire.logs}) == 1
    return now


def seal(seat: int, log: OrderingLog[State], action: engine.Action) -> bytes:
    """`seat`'s signed intent for `log`'s committed position, made past its own log."""
    intent = Intent(GAME_ID, seat, log.counters[seat] + 1, log.seq, action_bytes(action))
    return Envelope.seal(IDENTITIES[seat], GAME_ID, intent).encode()


def named(wire: Wire, seat: int, author: int) -> list[Rejected]:
    return [r for r in wire.of(seat, Rejected) if r.seat == author and r.seq is None]


def test_an_intent_the_sequencer_refuses_privately_is_named_by_the_blind_peer_too() -> None:
    wire, _ = logs_at_the_first_bout(sighted=-1)
    defender = engine.sequencer(wire.logs[0].state)
    cheat, blind = (s for s in range(3) if s != defender)
    # The same deterministic play again, now with the sequencer seeing its own hand.
    wire, now = logs_at_the_first_bout(sighted=defender)
    state = wire.logs[defender].state
    stolen = next(c for c in range(GAME.n_cards) if state.hands[defender] >> c & 1)
    counter = wire.logs[cheat].counters[cheat] + 1
    data = seal(cheat, wire.logs[cheat], A.throw(cheat, stolen))
    wire.queue += [(cheat, defender, data), (cheat, blind, data)]
    wire.flush(now)
    assert [r.intent.counter for r in named(wire, defender, cheat)] == [counter]
    assert not named(wire, blind, cheat)  # it cannot tell yet: it holds the intent as live
    wire.submit(defender, engine.legal_actions(state, defender)[0], now)
    settle(wire, now)
    assert wire.logs[blind].seq == wire.logs[defender].seq == state_seq(wire, defender)
    (refusal,) = named(wire, blind, cheat)  # left out of the entry, judged where it was made
    assert refusal.intent.counter == counter
    assert refusal.code is RejectCode.ILLEGAL_ACTION
    assert [r.seat for r in wire.of(blind, Rejected)] == [cheat]


def state_seq(wire: Wire, seat: int) -> int:
    return wire.logs[seat].seq


def test_a_legal_intent_that_lost_the_race_is_not_named() -> None:
    wire, now = logs_at_the_first_bout(sighted=-1)
    state = wire.logs[0].state
    defender = engine.sequencer(state)
    attackers = [s for s in range(3) if s != defender]
    throws = [(s, a) for s in attackers for a in engine.legal_actions(state, s)
              if a.kind == A.THROW]
    if not throws:  # pragma: no cover - the seeded deal gives an attacker a throw-in
        raise AssertionError("the seeded deal has no throw-in")
    thrower, throw = throws[0]
    data = seal(thrower, wire.logs[thrower], throw)
    witness = next(s for s in attackers if s != thrower)
    wire.queue.append((thrower, witness, data))  # the sequencer sees it only too late
    wire.flush(now)
    wire.submit(defender, A.take(defender), now)
    for _ in range(5):
        wire.flush(now, hold=lambda src, dst, raw: raw == data)
        wire.tick(now)
        now += TEST_CONFIG.window_ms
    assert wire.logs[witness].seq == wire.logs[defender].seq
    last = wire.of(witness, Committed)[-1]
    assert [o.item.seat for o in last.outcomes] == [defender]  # the throw was left out
    wire.queue.append((thrower, defender, data))  # and reaches the sequencer only now: stale
    settle(wire, now)
    for seat in range(3):
        assert not any(r.seat == thrower for r in wire.of(seat, Rejected)), wire.of(seat, Rejected)


def stolen_throw_held_live(wire: Wire, now: int) -> tuple[int, int, int, int]:
    """The cheat throws in a card of the sequencer's hand: the sequencer refuses it at once,
    the blind peer holds it live. Returns (defender, cheat, blind, counter)."""
    logs = wire.logs
    defender = engine.sequencer(logs[0].state)
    cheat, blind = (s for s in range(3) if s != defender)
    state = logs[defender].state
    stolen = next(c for c in range(GAME.n_cards) if state.hands[defender] >> c & 1)
    counter = logs[cheat].counters[cheat] + 1
    data = seal(cheat, logs[cheat], A.throw(cheat, stolen))
    wire.queue += [(cheat, defender, data), (cheat, blind, data)]
    wire.flush(now)
    assert not named(wire, blind, cheat)
    return defender, cheat, blind, counter


def sighted_sequencer_at_the_first_bout() -> tuple[Wire, int]:
    wire, _ = logs_at_the_first_bout(sighted=-1)
    return logs_at_the_first_bout(sighted=engine.sequencer(wire.logs[0].state))


def test_a_slow_defender_is_not_called_a_censor_for_leaving_out_an_illegal_intent() -> None:
    wire, now = sighted_sequencer_at_the_first_bout()
    defender, cheat, blind, counter = stolen_throw_held_live(wire, now)
    later = now + TEST_CONFIG.omit_ms + TEST_CONFIG.window_ms  # the defender thinks a while
    for t in range(now, later, TEST_CONFIG.resend_ms):
        wire.tick(t)
        wire.flush(t)
    state = wire.logs[defender].state
    wire.submit(defender, engine.legal_actions(state, defender)[0], later)
    settle(wire, later)
    assert all(log.halted is None for log in wire.logs), [log.halted for log in wire.logs]
    assert [r.intent.counter for r in named(wire, blind, cheat)] == [counter]


def test_a_sequencer_that_orders_nothing_for_an_illegal_intent_is_not_a_censor() -> None:
    wire, now = sighted_sequencer_at_the_first_bout()
    _, cheat, blind, counter = stolen_throw_held_live(wire, now)
    end = now + 2 * TEST_CONFIG.censor_ms
    for t in range(now, end, TEST_CONFIG.resend_ms):
        wire.tick(t)
        wire.flush(t)
    assert all(log.halted is None for log in wire.logs), [log.halted for log in wire.logs]
    assert [r.intent.counter for r in named(wire, blind, cheat)] == [counter]
    assert wire.logs[blind].next_deadline() is None  # nothing left to time out on
