"""A seat the end-of-game audit catches lying loses the game, with teams its team (issue #22,
hole 3b): the result and the series score change the same way on every machine.

A partial view takes a «нет козыря» on trust: only the audit, with every key public, can check
it. These games are played to the audit with every machine's record of one claim changed to
«no trump» — the record each party would hold had the claimant said so while holding the trump
he in fact showed — so the lie is certain, and the audit then decides the result.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from p2p_durak import engine as eng
from p2p_durak.protocol.table import (
    ABANDON,
    AuditFinished,
    Forfeited,
    SeriesOver,
    TableMachine,
    TableReject,
)

from .test_table_machine import _deliver, _next_intent, _table


def _play_to_the_audit(machines: list[TableMachine], seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(20000):
        pending = machines[0].deck.pending_op()
        if pending is not None and pending.op.step == "audit":
            return
        _deliver(machines, *_next_intent(machines, rng))
    raise AssertionError("the game never reached its audit")


def _finish(machines: list[TableMachine], seed: int) -> None:
    rng = random.Random(seed)
    while machines[0].audit is None:
        _deliver(machines, *_next_intent(machines, rng))


@pytest.mark.parametrize(("preset", "n", "seed"), [("app_podkidnoy", 3, 11),
                                                   ("app_komandy", 4, 12)])
def test_a_false_no_trump_loses_the_game_and_the_series_counts_it(
        preset: str, n: int, seed: int) -> None:
    """Seed 001_c746c7bb87124419.txt: «Первым ходит тот, у кого младший козырь.» — a seat that
    says it has no trump while holding one decided who led; the audit names it, and it is the
    durak of the game, with teams its team («оставшиеся — дураки»: the team loses together)."""
    machines = _table(n, preset, seed)
    _play_to_the_audit(machines, seed)
    index, claim = next((i, c) for i, c in enumerate(machines[0].claims) if c.card >= 0)
    played = machines[0].state
    assert played is not None
    assert played.result is not None
    for m in machines:
        m.claims[index] = replace(m.claims[index], card=-1)
    _finish(machines, seed + 1)
    liar = claim.seat
    game = played.game
    losers = tuple(s for s in range(n) if s == liar or (game.rules.teams != "none"
                                                        and game.team[s] == game.team[liar]))
    assert len(losers) == (2 if preset == "app_komandy" else 1)
    for m in machines:
        assert m.audit == AuditFinished(((liar, "said «no trump» while holding one"),))
        forfeits = [e for e in m.history if isinstance(e, Forfeited)]
        assert [(f.seats, f.why) for f in forfeits] == [((liar,), "cheated")]
        assert m.state is not None
        assert m.state.result is not None
        assert m.state.result.durak == losers
        assert not m.state.result.draw
        assert m.state.result.finish == played.result.finish  # the play stays as it went
        assert forfeits[0].result == m.state.result
        assert m.score.games == 1
        assert m.score.duraks == tuple(int(s in losers) for s in range(n))
    assert len({m.state_hash() for m in machines}) == 1
    assert len({eng.state_hash(m.state) for m in machines if m.state is not None}) == 1


def test_an_honest_game_keeps_its_result() -> None:
    machines = _table(3, "app_podkidnoy", 13)
    _play_to_the_audit(machines, 13)
    played = machines[0].state
    assert played is not None
    _finish(machines, 14)
    for m in machines:
        assert m.audit == AuditFinished(())
        assert not any(isinstance(e, Forfeited) for e in m.history)
        assert m.state is not None
        assert m.state.result == played.result


def test_forfeit_names_player_seats() -> None:
    state = eng.new_game(eng.make_game(eng.RuleSet(), 2))
    with pytest.raises(ValueError, match="player seats"):
        eng.forfeit(state, ())
    with pytest.raises(ValueError, match="player seats"):
        eng.forfeit(state, (2,))
    over = eng.forfeit(state, (1,))
    assert over.phase == eng.Phase.OVER
    assert over.result is not None
    assert over.result.durak == (1,)


# ---- abandonment (hole 3a) -------------------------------------------------------------------


def _until_one_awaited(machines: list[TableMachine], rng: random.Random) -> int:
    """Play on until, with the cards dealt, the table waits for one party alone, which does
    not order the log (`sequencer`: a deck step it alone owes, or a move of a party that is not
    the engine's sequencer)."""
    for _ in range(20000):
        m = machines[0]
        waiting = m.waiting_for()
        if (m.state is not None and m.state.phase not in (eng.Phase.DEAL, eng.Phase.DEAL_SIXES)
                and len(waiting) == 1 and m.sequencer() != waiting[0]):
            return waiting[0]
        _deliver(machines, *_next_intent(machines, rng))
    raise AssertionError("the table never waited for one party alone")


def _claim(machines: list[TableMachine], by: int, target: int) -> None:
    _deliver(machines, by, machines[by].abandon(target))


def test_a_claim_suspends_and_the_answer_reinstates() -> None:
    """One party's claim is not a verdict: the claimed party's acks are not needed meanwhile
    (the table waits for it anyway), and once it answers it is a member again and the claim
    lapses."""
    machines = _table(3, "app_podkidnoy", 21)
    rng = random.Random(21)
    target = _until_one_awaited(machines, rng)
    by = next(p for p in range(3) if p != target)
    assert machines[0].sequencer() != target  # it would never order the claims against it
    _claim(machines, by, target)
    for m in machines:
        assert m.abandon_claims == {target: (by,)}
        assert target not in m.members()
        assert m.sequencer() != target
        assert m.state is not None
        assert m.state.result is None
    with pytest.raises(TableReject, match="claimed party"):
        machines[by].check_abandon(by, (ABANDON, target))
    with pytest.raises(TableReject, match="only a party at the table"):
        machines[target].check_abandon(target, (ABANDON, by))  # a suspended party answers
    # it answers: what it owed, or its move
    msg = machines[target].owed()
    payload = msg if msg is not None else machines[target].play(machines[target].legal()[0])
    _deliver(machines, target, payload)
    for m in machines:
        assert m.abandon_claims == {}
        assert target in m.members()
        assert m.abandoned == ()


@pytest.mark.parametrize(("preset", "n", "seed"), [("app_podkidnoy", 3, 22),
                                                   ("app_komandy", 4, 23)])
def test_every_other_party_claiming_makes_the_silent_one_the_durak(
        preset: str, n: int, seed: int) -> None:
    machines = _table(n, preset, seed)
    target = _until_one_awaited(machines, random.Random(seed))
    others = [p for p in range(n) if p != target]
    for by in others[:-1]:
        _claim(machines, by, target)
        assert machines[0].abandoned == ()
    _claim(machines, others[-1], target)
    game = machines[0].state.game if machines[0].state is not None else None
    assert game is not None
    seat = machines[0].seat_of_party[target]
    losers = tuple(s for s in range(n) if s == seat or (game.rules.teams != "none"
                                                        and game.team[s] == game.team[seat]))
    for m in machines:
        assert m.abandoned == (target,)
        assert m.members() == tuple(others)
        assert m.series_over
        assert m.state is not None
        assert m.state.result is not None
        assert m.state.result.durak == losers
        assert m.score.games == 1
        assert m.score.duraks == tuple(int(s in losers) for s in range(n))
        events = m.history[-2:]
        assert isinstance(events[0], Forfeited)
        assert (events[0].seats, events[0].why) == ((seat,), "abandoned")
        assert isinstance(events[1], SeriesOver)
        assert (events[1].stopped, events[1].abandoned) == ((), (target,))
        assert m.waiting_for() == ()
        assert m.owed() is None
    assert len({m.state_hash() for m in machines}) == 1


def test_where_the_log_cannot_tell_nobody_claims() -> None:
    """Claims come only where the committed log names the party the table waits for, with
    the cards dealt and three or more at the table."""
    machines = _table(3, "app_podkidnoy", 24)
    with pytest.raises(TableReject, match="no game is on"):
        machines[0].abandon(1)  # the keys: no game yet
    rng = random.Random(24)
    while machines[0].state is None:
        _deliver(machines, *_next_intent(machines, rng))
    assert machines[0].state.phase == eng.Phase.DEAL
    waiting = machines[0].waiting_for()
    by = next(p for p in range(3) if p not in waiting)
    with pytest.raises(TableReject, match="no card is dealt"):
        machines[by].abandon(waiting[0])
    target = _until_one_awaited(machines, rng)
    by = next(p for p in range(3) if p != target)
    idle = next(p for p in range(3) if p not in (target, by))
    with pytest.raises(TableReject, match="does not wait for"):
        machines[by].abandon(idle)
    with pytest.raises(TableReject, match="another party"):
        machines[by].abandon(by)
    # a move the party owes as the engine's sequencer: it would have to order the claims
    while not (machines[0].deck_due() == () and machines[0].waiting_for() == (
            machines[0].sequencer(),)):
        _deliver(machines, *_next_intent(machines, rng))
    target = machines[0].sequencer()
    by = next(p for p in range(3) if p != target)
    with pytest.raises(TableReject, match="orders the log"):
        machines[by].abandon(target)
    two = _table(2, "app_podkidnoy", 25)
    target = _until_one_awaited(two, random.Random(25))
    with pytest.raises(TableReject, match="two at the table"):
        two[1 - target].abandon(target)
    assert two[0].sequencer() == two[0]._turn_sequencer()  # two at the table: as before
