"""Regression tests for engine bugs (the B-numbers of the bug list kept by the test battery).

Each test plays the reproduction of a fixed bug and checks the fix: the action is refused with
a reason (the state unchanged), or the rule set is refused by `validate`. The last section holds
`random_playout` to the engine: its games replay move for move through `step`.
"""

from __future__ import annotations

import hashlib
import importlib
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest
from engine_support import Table

import p2p_durak.engine as engine
from p2p_durak.engine import (
    CHANCE,
    Action,
    IllegalAction,
    Reason,
    RuleError,
    State,
    apply,
    is_over,
    legal_actions,
    make_game,
    new_game,
    private_view,
    random_playout,
    state_hash,
    step,
    to_act,
    validate,
)
from p2p_durak.engine import actions as A
from p2p_durak.engine._compiled import use_native
from p2p_durak.engine.presets import get_preset, working_presets


def _refused(table: Table, action: Action) -> Reason:
    return table.refuse(action).reason


def _bout() -> Table:
    """Seat 0 leads 7♠ to seat 1; trump ♦."""
    t = Table("app_podkidnoy", ["7♠ 7♣ 8♥ 9♥ 10♥ J♥", "7♦ 8♠ 9♠ 10♠ K♥ A♥"], trump="6♦",
              first_attacker=0)
    t.setup()
    return t


# ---- B1: only the canonical form of a legal action is applied -------------------------------

def test_b1_an_unsorted_lead_is_refused() -> None:
    t = _bout()
    pair = tuple(sorted(t.cs("7♠ 7♣")))
    assert Action(A.LEAD, 0, pair) in legal_actions(t.state, 0)
    assert _refused(t, Action(A.LEAD, 0, pair[::-1])) is Reason.BAD_ACTION
    t.do("0 lead 7♠ 7♣")
    assert t.state.table == pair


@pytest.mark.parametrize("kind", [A.LEAD, A.THROW, A.TRANSFER, A.SHOW, A.CLAIM, A.TAKE,
                                  A.PASS, A.NO_TRUMP])
def test_b1_a_target_on_an_action_that_has_none_is_refused(kind: int) -> None:
    t = _bout()
    assert _refused(t, Action(kind, 0, (t.c("7♠"),), 3)) is Reason.BAD_ACTION


def test_b1_cards_on_an_action_that_names_none_are_refused() -> None:
    t = _bout()
    t.do("0 lead 7♠")
    for action in (Action(A.TAKE, 1, (t.c("7♦"),)), Action(A.PASS, 0, (t.c("7♣"),))):
        assert _refused(t, action) is Reason.BAD_ACTION
    game = make_game(get_preset("app_podkidnoy").rules, 2, 0)
    fresh = new_game(game, list(range(game.n_cards)))
    with pytest.raises(IllegalAction) as caught:
        step(fresh, Action(A.DEAL, CHANCE, (0,)))
    assert caught.value.reason is Reason.BAD_ACTION


def test_b1_cards_must_be_a_tuple() -> None:
    t = _bout()
    cards: object = [t.c("7♠")]
    assert _refused(t, Action(A.LEAD, 0, cards)) is Reason.BAD_ACTION  # type: ignore[arg-type]


def test_b1_the_canonical_forms_are_still_applied() -> None:
    t = _bout()
    t.do("0 lead 7♠", "1 beat 8♠ on 7♠", "0 throw 7♣", "1 take", "0 pass")
    assert t.state.bout == 1


# ---- B2: chance actions come only from chance; player actions only from a seat --------------

def test_b2_chance_actions_from_a_seat_are_refused() -> None:
    game = make_game(get_preset("app_podkidnoy").rules, 2, 0)
    order = list(range(game.n_cards))
    state = new_game(game, order)
    for seat in (0, 1):
        with pytest.raises(IllegalAction) as caught:
            step(state, Action(A.DEAL, seat))
        assert caught.value.reason is Reason.NOT_YOUR_TURN
    state = step(state, A.deal())
    with pytest.raises(IllegalAction) as caught:
        step(state, Action(A.REVEAL, 1, (order[12],)))
    assert caught.value.reason is Reason.NOT_YOUR_TURN
    assert step(state, A.reveal(order[12])).trump == game.suit[order[12]]


@pytest.mark.parametrize("seat", [CHANCE, -5, 2, 99])
def test_b2_a_player_action_from_no_seat_is_refused_not_a_crash(seat: int) -> None:
    """A pass or throw from seat -1 used to raise ValueError (a negative shift)."""
    t = _bout()
    t.do("0 lead 7♠")
    before = state_hash(t.state)
    for action in (Action(A.PASS, seat), Action(A.THROW, seat, (t.c("7♣"),)),
                   Action(A.TAKE, seat)):
        assert _refused(t, action) is Reason.NOT_YOUR_TURN
    assert state_hash(t.state) == before


# ---- B3: a knob value the engine does not play is refused -----------------------------------

def test_b3_showing_a_trump_again_is_pending() -> None:
    rules = get_preset("app_perevod_pokazom").rules
    validate(rules, 2)
    with pytest.raises(RuleError) as caught:
        validate(rules.with_options(show_once_per_card_per_bout=False), 2)
    assert caught.value.knob == "show_once_per_card_per_bout"


# ---- B4: team play needs the team rule for the loser -----------------------------------------

def test_b4_teams_without_team_last_are_refused() -> None:
    """With `last_with_cards` a game of teams went on after one team was out, a seat
    attacking itself (nobody left to attack)."""
    rules = get_preset("app_komandy").rules
    validate(rules, 4)
    with pytest.raises(RuleError) as caught:
        validate(rules.with_options(loser_rule="last_with_cards"), 4)
    assert caught.value.knob == "loser_rule"
    assert caught.value.message_ru


# ---- random_playout: only legal play, exactly what `step` makes of it -----------------------

def _playout_starts(preset: str, n: int, seed: int) -> list[State]:
    """A fresh full state and one some random actions into the game."""
    game = make_game(get_preset(preset).rules, n, seed % n)
    rng = random.Random(seed)
    order = list(range(game.n_cards))
    rng.shuffle(order)
    start = new_game(game, order)
    state = start
    for _ in range(rng.randrange(80)):
        if is_over(state):
            break
        seat = rng.choice(sorted(to_act(state)))
        state = step(state, rng.choice(legal_actions(state, seat)))
    return [start, state]


@pytest.mark.parametrize(("preset", "n"), [(p.id, n) for p in working_presets()
                                           for n in p.players])
def test_playouts_are_legal_play_replayed_exactly_by_step(preset: str, n: int) -> None:
    for seed in range(4):
        for start in _playout_starts(preset, n, seed):
            log: list[Action] = []
            final = random_playout(start, seed, log)
            assert is_over(final)
            state = start
            for action in log:
                actor = action.seat
                if actor not in to_act(state):
                    # оборотный: a claim made for the claimant by the seat on his left
                    assert action.kind in (A.CLAIM, A.NO_TRUMP)
                    (actor,) = to_act(state)
                assert action in legal_actions(state, actor)
                state = step(state, action)
            assert tuple(state) == tuple(final)
            assert tuple(random_playout(start, seed)) == tuple(final)  # the seed decides


def test_playouts_differ_by_seed_and_need_a_full_state() -> None:
    start = _playout_starts("app_podkidnoy", 3, 1)[0]
    logs = set()
    for seed in range(5):
        log: list[Action] = []
        random_playout(start, seed, log)
        logs.add(tuple(log))
    assert len(logs) == 5
    with pytest.raises(ValueError, match="full state"):
        random_playout(private_view(start, 0), 0)


def test_b5_a_full_hidden_trump_deal_is_full_before_the_deal() -> None:
    """`State.is_full` said False for a full потайной state before the deal (the face-down
    card is still in the known stock)."""
    game = make_game(get_preset("app_potayny").rules, 2, 0)
    start = new_game(game, list(range(game.n_cards)))
    assert start.is_full
    assert not new_game(game, None).is_full
    assert is_over(random_playout(start, 7))


# ---- the compiled engine: current, and the same as its Python sources -----------------------

ENGINE_DIR = Path(engine.__file__).parent


def test_the_compiled_build_is_used_exactly_when_it_is_current() -> None:
    stamp = ENGINE_DIR / "_native" / "sources.sha256"
    if "durak-pure" in sys._xoptions or not stamp.exists():
        pytest.skip("no compiled engine here (pure install or -X durak-pure)")
    assert engine.COMPILED, (
        "p2p_durak/engine/_native/ was compiled from other sources than p2p_durak/engine/*.py, "
        "so the engine runs as Python: reinstall to rebuild it (./run-tests does it when the "
        "engine changes; or `pip install -e .`)")
    assert "_native" in str(engine.core.__file__)
    assert type(engine.legal_actions).__name__ == "builtin_function_or_method"


def test_a_stale_or_missing_build_is_not_used(tmp_path: Path) -> None:
    (tmp_path / "alpha.py").write_text("X = 1\n")
    native = tmp_path / "_native"
    native.mkdir()
    path = [str(tmp_path)]
    assert not use_native(path)  # no stamp
    digest = hashlib.sha256(b"alpha\0X = 1\n\0").hexdigest()
    (native / "sources.sha256").write_text(f"{digest} alpha\n")
    assert use_native(path)
    assert path == [str(native), str(tmp_path)]
    (tmp_path / "alpha.py").write_text("X = 2\n")  # edited after the build
    path = [str(tmp_path)]
    assert not use_native(path)
    assert path == [str(tmp_path)]


@pytest.fixture(scope="module")
def pure_engine(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    """The engine's Python sources as a second package, beside the engine under test."""
    root = tmp_path_factory.mktemp("pure")
    package = root / "pure_engine"
    package.mkdir()
    for source in ENGINE_DIR.glob("*.py"):
        text = source.read_text(encoding="utf-8").replace("p2p_durak.engine", "pure_engine")
        (package / source.name).write_text(text, encoding="utf-8")
    sys.path.insert(0, str(root))
    try:
        module = importlib.import_module("pure_engine")
        assert not module.COMPILED
        yield module
    finally:
        sys.path.remove(str(root))
        for name in [n for n in sys.modules if n == "pure_engine" or n.startswith("pure_engine.")]:
            del sys.modules[name]


@pytest.mark.parametrize(("preset", "n"), [("app_podkidnoy", 2), ("app_perevod_pokazom", 3),
                                           ("app_komandy", 4), ("app_potayny", 5),
                                           ("podkidnoy", 6)])
def test_the_compiled_engine_plays_exactly_like_its_sources(pure_engine: ModuleType,
                                                             preset: str, n: int) -> None:
    """Every legal action set, state, event and hash along random games, both engines."""
    if not engine.COMPILED:
        pytest.skip("the engine under test is its Python sources already")
    pure_presets = importlib.import_module("pure_engine.presets")
    game = make_game(get_preset(preset).rules, n, 0)
    pure_game = pure_engine.make_game(pure_presets.get_preset(preset).rules, n, 0)
    rng = random.Random(n)
    for _ in range(3):
        order = list(range(game.n_cards))
        rng.shuffle(order)
        state, pure = new_game(game, order), pure_engine.new_game(pure_game, order)
        while not is_over(state):
            assert tuple(state)[1:] == tuple(pure)[1:]
            assert state_hash(state) == pure_engine.state_hash(pure)
            for seat in (*range(n), CHANCE):
                assert legal_actions(state, seat) == pure_engine.legal_actions(pure, seat)
            seat = rng.choice(sorted(to_act(state)))
            action = rng.choice(legal_actions(state, seat))
            state, events = apply(state, action)
            pure, pure_events = pure_engine.apply(pure, pure_engine.Action(*action))
            assert [(type(e).__name__, *e) for e in events] == \
                [(type(e).__name__, *e) for e in pure_events]
        seed = rng.randrange(1 << 30)
        start = new_game(game, order)
        assert tuple(random_playout(start, seed))[1:] == \
            tuple(pure_engine.random_playout(pure_engine.new_game(pure_game, order), seed))[1:]
