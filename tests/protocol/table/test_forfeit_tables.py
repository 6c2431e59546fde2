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
from p2p_durak.protocol.table import AuditFinished, Forfeited, TableMachine

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
