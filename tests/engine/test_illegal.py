"""Illegal actions: refused with a reason code and a message in Russian and English, the state
unchanged; and only the canonical form of a legal action is accepted.

Found by this battery and fixed in the engine: a lead in another order than the legal
action's, fields an action kind does not use, chance actions from a seat (B1, B2).
"""

from __future__ import annotations

import random

import pytest
from engine_support import Table

from p2p_durak.engine import (
    CHANCE,
    Action,
    IllegalAction,
    Reason,
    State,
    apply,
    chance_outcome,
    decode_action,
    encode_action,
    is_over,
    learn,
    legal_actions,
    make_game,
    new_game,
    next_game,
    state_hash,
    step,
    to_act,
)
from p2p_durak.engine import actions as A
from p2p_durak.engine.presets import get_preset


def test_every_reason_has_distinct_english_and_russian_text() -> None:
    for reason in Reason:
        assert reason.en
        assert reason.ru
        assert reason.en != reason.ru
        assert any("а" <= ch <= "я" for ch in reason.ru.lower()), reason
    assert len({r.en for r in Reason}) == len(Reason)
    assert len({r.ru for r in Reason}) == len(Reason)
    error = IllegalAction(Reason.DOES_NOT_BEAT, "7♠ on 8♠")
    assert error.code == "DOES_NOT_BEAT"
    assert error.message("ru") == Reason.DOES_NOT_BEAT.ru
    assert error.message("en") == Reason.DOES_NOT_BEAT.en
    assert "7♠ on 8♠" in str(error)


def test_refusals_in_every_phase_leave_the_state_unchanged() -> None:
    t = Table("app_podkidnoy", ["6♠ 7♠ 8♠ 9♠ 10♠ J♠", "Q♠ K♠ A♠ Q♥ K♥ 7♦"], trump="6♦")
    assert t.refuse("0 lead 6♠").reason is Reason.WRONG_PHASE  # before the deal
    t.do("deal")
    assert t.refuse("deal").reason is Reason.WRONG_PHASE
    assert t.refuse("1 take").reason is Reason.WRONG_PHASE
    t.do("reveal 6♦")
    assert t.refuse("0 claim 6♠").reason is Reason.NOT_YOUR_TURN  # seat 1 claims first
    assert t.refuse("1 claim Q♠").reason is Reason.WRONG_CLAIM  # not a trump
    assert t.refuse("1 claim 6♠").reason is Reason.NOT_IN_HAND
    t.do("1 claim 7♦", "0 no_trump")
    assert t.refuse("1 lead 6♠").reason is Reason.NOT_IN_HAND
    assert t.refuse("0 lead 6♠").reason is Reason.NOT_YOUR_TURN
    assert t.refuse("1 take").reason is Reason.WRONG_PHASE
    t.do("1 lead Q♠")
    assert t.refuse("0 beat 7♠ on Q♠").reason is Reason.DOES_NOT_BEAT
    assert t.refuse(A.beat(0, t.c("7♠"), 3)).reason is Reason.NO_SUCH_TARGET
    assert t.refuse("1 beat K♠ on Q♠").reason is Reason.NOT_YOUR_TURN
    assert t.refuse(Action(A.LEAD, 1, (t.c("K♠"),))).reason is Reason.WRONG_PHASE
    assert t.refuse(Action(A.BEAT, 0, (), 0)).reason is Reason.BAD_ACTION


def test_a_malformed_object_is_refused_not_crashed_on() -> None:
    t = Table("app_podkidnoy", ["6♠ 7♠ 8♠ 9♠ 10♠ J♠", "Q♠ K♠ A♠ Q♥ K♥ 7♦"], trump="6♦")
    t.setup()
    for junk in [("lead", 0), None, 5, (A.LEAD, 1, (t.c("Q♠"),))]:
        before = state_hash(t.state)
        with pytest.raises(IllegalAction) as caught:
            apply(t.state, junk)  # type: ignore[arg-type]
        assert caught.value.reason is Reason.BAD_ACTION
        assert state_hash(t.state) == before


def test_a_partial_view_learns_only_cards_it_can_hold() -> None:
    t = Table("app_podkidnoy", ["6♠ 7♠ 8♠ 9♠ 10♠ J♠", "Q♠ K♠ A♠ Q♥ K♥ 7♦"], trump="6♦")
    view = apply(new_game(t.game, None), A.deal())[0]
    view = apply(view, A.reveal(t.c("6♦")))[0]
    mine = learn(view, 0, t.cs("6♠ 7♠ 8♠"))
    assert mine.hand_size(0) == 6
    assert learn(mine, 0, t.cs("6♠")) == mine  # already known: nothing changes
    for seat, cards in [(0, "6♦"), (1, "6♠"), (0, "9♠ 10♠ J♠ Q♠")]:
        with pytest.raises(IllegalAction) as caught:
            learn(mine, seat, t.cs(cards))
        assert caught.value.reason is Reason.NOT_IN_HAND


def test_next_game_needs_a_finished_game() -> None:
    t = Table("app_seriya", ["6♠ 7♠ 8♠ 9♠ 10♠ J♠", "Q♠ K♠ A♠ Q♥ K♥ 7♦"], trump="6♦")
    with pytest.raises(ValueError, match="not over"):
        next_game(t.state)


def test_wire_form_round_trips_and_decoding_is_strict() -> None:
    for action in [A.deal(), A.reveal(7), A.lot(2), A.lead(0, 5, 1), A.beat(1, 30, 2),
                   A.take(3), A.pass_(2), A.show(1, 20), A.transfer(1, 3), A.claim(0, 9),
                   A.no_trump(4), A.throw(2, 11)]:
        assert decode_action(list(encode_action(action))) == action
    for bad in [None, [1, 2, 3], [99, 0, [], -1], [A.LEAD, 0, [True], -1], ["5", 0, [], -1],
                [A.LEAD, 0, [1] * 17, -1], [A.LEAD, 99, [], -1], [A.LEAD, 0, [-1], -1]]:
        with pytest.raises(ValueError):  # noqa: PT011 - every rejection is a ValueError
            decode_action(bad)


# ---- only the canonical form of a legal action --------------------------------------------

def _states(seed: int, preset: str = "app_perevod_pokazom", games: int = 6) -> list[State]:
    """States along random 3-seat games, one per action."""
    rng = random.Random(seed)
    game = make_game(get_preset(preset).rules, 3, 0)
    out = []
    for _ in range(games):
        order = list(range(game.n_cards))
        rng.shuffle(order)
        state = new_game(game, order)
        while not is_over(state):
            out.append(state)
            actors = sorted(to_act(state))
            if actors == [CHANCE]:
                action = chance_outcome(state) or rng.choice(legal_actions(state, CHANCE))
            else:
                action = rng.choice(legal_actions(state, rng.choice(actors)))
            state = step(state, action)
    return out


def _accepted(state: State, action: Action) -> bool:
    try:
        step(state, action)
    except IllegalAction:
        return False
    return True


def _accepted_variants(variants: list[tuple[State, Action]]) -> list[Action]:
    return [a for s, a in variants if a not in legal_actions(s, a.seat) and _accepted(s, a)]


def test_an_unsorted_lead_is_refused() -> None:
    variants = [(s, a._replace(cards=tuple(reversed(a.cards))))
                for s in _states(1) for a in legal_actions(s, s.attacker)
                if a.kind == A.LEAD and len(a.cards) > 1]
    assert variants
    assert _accepted_variants(variants) == []


def test_fields_an_action_does_not_use_are_refused() -> None:
    variants = []
    for s in _states(2):
        for seat in to_act(s):
            for a in legal_actions(s, seat):
                if a.kind not in (A.BEAT, A.LOT):
                    variants.append((s, a._replace(target=3)))
                if a.kind in (A.TAKE, A.PASS, A.NO_TRUMP, A.DEAL, A.LOT):
                    variants.append((s, a._replace(cards=(0,))))
    assert _accepted_variants(variants) == []


def test_chance_actions_come_only_from_chance() -> None:
    variants = [(s, a._replace(seat=0)) for s in _states(3, games=2)
                if CHANCE in to_act(s) for a in legal_actions(s, CHANCE)]
    assert variants
    assert _accepted_variants(variants) == []


def test_the_canonical_forms_are_accepted() -> None:
    """The control for the tests above: every listed legal action is applied."""
    for s in _states(4, games=2):
        for seat in to_act(s):
            for action in legal_actions(s, seat):
                assert _accepted(s, action), action
