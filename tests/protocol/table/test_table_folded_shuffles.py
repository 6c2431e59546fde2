"""The table checks the shuffles of one step together (folded) when the last one is applied.
A false shuffle that was committed before is then undone with every shuffle made on it, on
every party alike; its author is named and the undone parties shuffle again. A false last
shuffle is refused like any false proof. Real stack below the node: signed intents, the ordered
log, the table machine with the mental-poker deck."""

from __future__ import annotations

import dataclasses
import random
from collections import deque
from collections.abc import Callable

from p2p_durak.engine.actions import DEAL
from p2p_durak.engine.presets import get_preset
from p2p_durak.protocol import codec
from p2p_durak.protocol.envelope import Envelope
from p2p_durak.protocol.identity import Identity
from p2p_durak.protocol.log import OrderingLog
from p2p_durak.protocol.log_effects import Broadcast, Committed, Halted, Rejected, SendTo
from p2p_durak.protocol.mental.messages import Shuffle
from p2p_durak.protocol.messages import PlayerInfo, Start
from p2p_durak.protocol.table import DECK_STEP, Moved, TableMachine, deck_message
from p2p_durak.protocol.table_log import TableLogMachine

GAME_ID = b"folded-shuffles!"
N = 3


def _table(seed: int) -> list[OrderingLog[TableMachine]]:
    rules = get_preset("app_podkidnoy").rules
    ids = [Identity.from_seed(bytes([seed, p]) * 16) for p in range(N)]
    start = Start(GAME_ID, codec.sha256(rules.canonical()),
                  tuple(PlayerInfo(i.peer_id, f"P{p}") for p, i in enumerate(ids)))
    envelope = Envelope.seal(ids[0], GAME_ID, start)
    return [OrderingLog(identity, envelope, TableLogMachine(),
                        TableMachine(GAME_ID, p, N, rules, random.Random(seed * 97 + p).randbytes))
            for p, identity in enumerate(ids)]


def _swap_two_cards(payload: bytes) -> bytes:
    raw = codec.decode(payload)
    assert isinstance(raw, tuple)
    msg = deck_message(raw[1])
    assert isinstance(msg, Shuffle)
    bad = dataclasses.replace(msg, deck=(msg.deck[1], msg.deck[0], *msg.deck[2:]))
    return codec.encode((DECK_STEP, codec.encode(bad.to_wire())))


def _deal(logs: list[OrderingLog[TableMachine]], cheat: Callable[[TableMachine], bool],
          seed: int) -> tuple[dict[int, list[Committed[TableMachine]]], list[Rejected]]:
    """Run the table until every party has committed the deal; the first shuffle for which
    `cheat(table)` holds is sent false (two ciphertexts swapped: its proof no longer holds)."""
    rng = random.Random(seed)
    wire: deque[tuple[int, int, bytes]] = deque()
    commits: dict[int, list[Committed[TableMachine]]] = {p: [] for p in range(N)}
    rejected: list[Rejected] = []
    cheated = [False]
    now = 0

    def run(p: int, effects: list[object]) -> None:
        for eff in effects:
            if isinstance(eff, Broadcast):
                wire.extend((q, p, eff.data) for q in range(N) if q != p)
            elif isinstance(eff, SendTo):
                wire.append((eff.seat, p, eff.data))
            elif isinstance(eff, Committed):
                commits[p].append(eff)
            elif isinstance(eff, Rejected):
                rejected.append(eff)
            elif isinstance(eff, Halted):
                raise AssertionError(f"party {p} halted: {eff.diagnosis}")

    def dealt(table: TableMachine) -> bool:
        return any(isinstance(e, Moved) and e.action.kind == DEAL for e in table.history)

    messages = 0
    while not all(dealt(log.state) for log in logs):
        for p in rng.sample(range(N), N):
            log = logs[p]
            payload = log.state.owed() if log.own_pending is None else None
            if payload is None:
                continue
            raw = codec.decode(payload)
            if (not cheated[0] and isinstance(raw, tuple) and raw[0] == DECK_STEP
                    and isinstance(deck_message(raw[1]), Shuffle) and cheat(log.state)):
                payload = _swap_two_cards(payload)
                cheated[0] = True
            _, effects = log.submit(payload, now)
            run(p, effects)
        if not wire:
            now += 250  # let gathering windows close
            for p, log in enumerate(logs):
                run(p, log.tick(now))
            continue
        to, frm, data = wire.popleft()
        run(to, logs[to].receive(frm, data, now))
        messages += 1
        assert messages < 20_000, "the deal was never reached"
    assert cheated[0]
    return commits, rejected


def _shuffle_order(table: TableMachine) -> list[int]:
    pending = table.deck.pending_op()
    assert pending is not None
    return list(pending.order)


def _same_log(commits: dict[int, list[Committed[TableMachine]]]) -> None:
    reference = [(c.seq, c.data, c.state_hash) for c in commits[0]]
    for p in range(1, N):
        mine = [(c.seq, c.data, c.state_hash) for c in commits[p]]
        shortest = min(len(mine), len(reference))
        assert mine[:shortest] == reference[:shortest]


def _shuffles_committed(commits: list[Committed[TableMachine]]) -> list[int]:
    """The party of every shuffle intent applied, in log order."""
    out = []
    for commit in commits:
        for outcome in commit.outcomes:
            raw = codec.decode(outcome.item.intent.action)
            if (outcome.reject is None and isinstance(raw, tuple) and raw[0] == DECK_STEP
                    and isinstance(deck_message(raw[1]), Shuffle)):
                out.append(outcome.item.seat)
    return out


def test_a_false_earlier_shuffle_is_undone_everywhere_and_its_author_named() -> None:
    logs = _table(seed=5)
    first: list[int] = []

    def first_shuffler(table: TableMachine) -> bool:
        order = _shuffle_order(table)
        first[:] = order
        return table.deck_due() == (order[0],)

    commits, rejected = _deal(logs, first_shuffler, seed=5)
    order = first
    cheat = order[0]
    _same_log(commits)
    assert not rejected  # every intent was applied: the false shuffle's effect was undone
    for log in logs:
        assert len(log.state.undone) == 1
        party, step, why = log.state.undone[0]
        assert (party, step) == (cheat, "shuffle")
        assert "shuffle proof does not verify" in why
    # the cheat's shuffle and the ones on it were made again: the whole order, then again
    assert _shuffles_committed(commits[0]) == order + order
    assert all(log.state.deck.shuffled for log in logs)


def test_a_false_last_shuffle_is_refused_by_everyone() -> None:
    logs = _table(seed=6)

    def last_shuffler(table: TableMachine) -> bool:
        order = _shuffle_order(table)
        return table.deck_due() == (order[-1],)

    commits, rejected = _deal(logs, last_shuffler, seed=6)
    _same_log(commits)
    refusals = [r for r in rejected if "shuffle proof does not verify" in r.detail]
    assert refusals  # skipped in its entry, on every party alike
    last = refusals[0].seat
    assert all(r.seat == last for r in refusals)
    assert all(log.state.undone == () for log in logs)
    order = _shuffles_committed(commits[0])
    assert order.count(last) == 1  # its second, honest shuffle is the one applied
