"""«Дурак занудный» (zanudny): every lead is a card of the highest rank in the attacker's hand,
whatever its suit. Catalogue: shared/rules/variants-attack-defend.md, section `zanudny`."""

from __future__ import annotations

import random

from engine_support import Table

from p2p_durak.engine import (
    CHANCE,
    Phase,
    Reason,
    State,
    apply,
    chance_outcome,
    legal_actions,
    make_game,
    new_game,
    to_act,
)
from p2p_durak.engine.presets import get_preset


def test_the_lead_is_the_highest_rank_whatever_the_suit() -> None:
    """000_0a1bcdd496bc6662.txt: «Первый игрок может сделать первый ход только с карты
    максимального значения независимо от масти.» — with a plain king and a trump queen, the
    king (catalogue: "Trumps get no extra weight")."""
    t = Table("zanudny", ["K♣ Q♠ 6♥ 7♥ 8♥ 9♥", "7♣ A♦ K♦ Q♦ J♦ 10♦"], trump="9♠",
              first_attacker=0)
    t.setup()
    assert t.legal(0) == ["0 lead K♣"]
    assert t.refuse("0 lead Q♠").reason is Reason.LEAD_NOT_ALLOWED
    assert t.refuse("0 lead 6♥").reason is Reason.LEAD_NOT_ALLOWED


def test_every_bout_lead_is_restricted_and_any_top_card_will_do() -> None:
    """Catalogue `zanudny`: scope `every_bout_lead` («a once-per-game rule would not justify
    the variant's name»); «With several cards of the top rank, any of them.»"""
    t = Table("zanudny", ["K♣ K♥ 6♥ 7♥ 8♥ 9♥", "A♣ A♥ 7♦ Q♦ J♦ 10♦"], trump="9♠",
              first_attacker=0)
    t.setup()
    assert t.legal(0) == ["0 lead K♣", "0 lead K♥"]
    t.do("0 lead K♣", "1 beat A♣ on K♣", "0 pass")
    # the defender leads next: his highest is now the ace of hearts
    assert [a for a in t.legal(1) if "lead" in a] == ["1 lead A♥"]


def test_throw_ins_are_not_restricted() -> None:
    """Catalogue `zanudny`: «Throw-ins and transfers are unaffected.»"""
    t = Table("zanudny", ["K♣ 6♥ 6♣ 7♥ 8♥ 9♥", "A♣ 6♦ 7♦ Q♦ J♦ 10♦"], trump="9♠",
              first_attacker=0)
    t.setup()
    t.do("0 lead K♣", "1 beat A♣ on K♣")
    assert t.legal(0) == ["0 pass"]  # nothing of rank K or A to throw
    first = Table("zanudny", ["K♣ 6♥ 6♣ 7♥ 8♥ 9♥", "A♣ 6♦ 7♦ Q♦ J♦ 10♦"], trump="9♠",
                  first_attacker=0, lead_restriction_scope="first_lead_of_game")
    first.setup()
    first.do("0 lead K♣", "1 beat A♣ on K♣", "0 pass")
    # the table option: only the game's first lead is restricted
    assert "1 lead 6♦" in first.legal(1)


def _loop_state() -> State:
    """A three-seat game (seeded random play) up to a position that comes round again: from
    there every move is forced and the same two queens go round for ever (nobody holds a trump
    or a higher card of their suits, so each queen is led, taken and led again)."""
    game = make_game(get_preset("zanudny").rules, 3, 0)
    order = list(range(game.n_cards))
    random.Random(0).shuffle(order)
    state = new_game(game, order)
    rng = random.Random(1)
    seen: set[tuple[tuple[int, ...], int]] = set()
    while state.phase != Phase.OVER:
        if state.phase == Phase.LEAD and not state.stock:
            key = (state.hands, state.attacker)
            if key in seen:
                return state
            seen.add(key)
        actors = sorted(to_act(state))
        if actors == [CHANCE]:
            action = chance_outcome(state) or legal_actions(state, CHANCE)[0]
        else:
            seat = rng.choice(actors)
            action = rng.choice(legal_actions(state, seat))
        state, _ = apply(state, action)
    raise AssertionError("this seeded game no longer reaches the cycle")


def test_forced_leads_can_go_round_for_ever_and_such_a_game_is_a_draw() -> None:
    """The text has no way out of a cycle of forced leads; its end, «игра идет до тех пор, пока
    не останется один игрок с картами на руках», never comes (docs/rules.md: the engine ends a
    game that reaches bout 3 × deck size as a draw)."""
    state = _loop_state()
    start = state
    for _ in range(12):  # one round of the two queens, every move the only legal one
        (seat,) = to_act(state)
        (action,) = legal_actions(state, seat)
        state, _ = apply(state, action)
    assert (state.hands, state.attacker) == (start.hands, start.attacker)
    while state.phase != Phase.OVER:
        (seat,) = to_act(state)
        (action,) = legal_actions(state, seat)
        state, _ = apply(state, action)
    assert state.result is not None
    assert state.result.draw
    assert state.bout == 3 * state.game.n_cards
