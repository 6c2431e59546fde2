"""Rule L9 for intents that arrive late: an intent is judged at the position it names even when
it reaches a player several entries after that position, or while the player catches up over
it. The logs are wired by hand, so the lateness is forced."""

from __future__ import annotations

from p2p_durak import engine
from p2p_durak.engine import CHANCE
from p2p_durak.engine import actions as A
from p2p_durak.protocol.log import OrderingLog
from p2p_durak.protocol.messages import RejectCode

from .netsim import IDENTITIES, TEST_CONFIG, shuffled_deck
from .test_log_left_out import (
    GAME,
    BlindPrecheck,
    logs_at_the_first_bout,
    named,
    seal,
    settle,
)
from .test_log_units import Wire


def _play_entries(wire: Wire, now: int, count: int, avoid: int) -> int:
    """Commit `count` more entries, none with an intent of seat `avoid`."""
    for _ in range(count):
        state = wire.logs[0].state
        actors = engine.to_act(state)
        if CHANCE in actors:
            seat = engine.sequencer(state)
            action = engine.chance_outcome(state) or engine.legal_actions(state, CHANCE)[0]
        else:
            seat = min(s for s in actors if s != avoid)
            action = engine.legal_actions(state, seat)[0]
        assert seat != avoid
        wire.submit(seat, action, now)
        now = settle(wire, now)
    return now


def _cheat_and_blind(wire: Wire) -> tuple[int, int, int, bytes, int]:
    logs = wire.logs
    defender = engine.sequencer(logs[0].state)
    cheat, blind = (s for s in range(3) if s != defender)
    state = logs[0].state
    stolen = next(c for c in range(GAME.n_cards) if state.hands[defender] >> c & 1)
    counter = logs[cheat].counters[cheat] + 1
    return defender, cheat, blind, seal(cheat, logs[cheat], A.throw(cheat, stolen)), counter


def test_an_illegal_intent_several_entries_late_is_named() -> None:
    wire, now = logs_at_the_first_bout(sighted=-1)
    _, cheat, blind, data, counter = _cheat_and_blind(wire)
    made_at = wire.logs[blind].seq
    now = _play_entries(wire, now, 3, avoid=cheat)
    assert wire.logs[blind].seq == made_at + 3
    wire.queue.append((cheat, blind, data))
    wire.flush(now)
    (refusal,) = named(wire, blind, cheat)
    assert refusal.intent.counter == counter
    assert refusal.code is RejectCode.ILLEGAL_ACTION


def test_an_illegal_intent_caught_up_over_is_named() -> None:
    wire, now = logs_at_the_first_bout(sighted=-1)
    _, cheat, blind, data, counter = _cheat_and_blind(wire)
    made_at = wire.logs[blind].seq
    now = _play_entries(wire, now, 3, avoid=cheat)
    # the blind player restarts from a journal that ends where the intent was made: the intent
    # reaches it first (live there), then it catches up over three entries at once
    initial = engine.new_game(GAME, shuffled_deck(GAME, 3))
    wire.logs[blind] = OrderingLog.resume(IDENTITIES[blind], wire.logs[blind].transcript(made_at),
                                          BlindPrecheck(GAME), initial, config=TEST_CONFIG,
                                          now_ms=now)
    wire.queue.append((cheat, blind, data))
    wire.flush(now)
    assert not named(wire, blind, cheat)
    settle(wire, now + TEST_CONFIG.resend_ms)
    assert wire.logs[blind].seq == made_at + 3
    assert not wire.logs[blind].recovering
    assert [r.intent.counter for r in named(wire, blind, cheat)] == [counter]

