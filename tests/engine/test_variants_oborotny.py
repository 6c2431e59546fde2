"""«Дурак оборотный» (oborotny): hands held backwards — everybody sees a player's cards but
himself; every play is a blind pick, checked once the card is shown, and a wrong one is
penalised. Catalogue: shared/rules/variants-attack-defend.md, section `oborotny`."""

from __future__ import annotations

import pytest
from engine_support import Table

from p2p_durak.engine import (
    IllegalAction,
    Phase,
    Reason,
    RuleError,
    apply,
    cards_of,
    legal_actions,
    private_view,
    to_act,
)
from p2p_durak.engine import actions as A
from p2p_durak.engine import events as E
from p2p_durak.engine.presets import get_preset, with_base_rules
from p2p_durak.engine.rules import BLIND_PENALTY_FROM_ATTACKER, validate

# diamonds are trump; seat 0 attacks seat 1, seat 2 throws in
HANDS = ["6♣ 7♠ 8♠ 9♠ 10♠ J♠", "7♣ 8♥ 9♥ 10♥ J♥ Q♥", "6♦ 7♦ 8♦ 9♦ 10♦ J♦"]


def table(**knobs: object) -> Table:
    t = Table("oborotny", HANDS, trump="A♦", first_attacker=0, **knobs)
    t.setup()
    return t


def test_a_player_does_not_see_his_cards_and_the_others_do() -> None:
    """000_0a1bcdd496bc6662.txt: «После этого игроки берут карты в руки рубашкой к себе, а
    лицевой стороной к сопернику, таким образом, что игрок не видит своих карт, а соперник их
    видит.»"""
    t = table()
    for seat in range(3):
        view = private_view(t.state, seat)
        assert view.hands[seat] == 0
        assert view.hidden[seat] == 6
        for other in range(3):
            if other != seat:
                assert view.hands[other] == t.state.hands[other]
                assert view.hidden[other] == 0


def test_every_play_is_a_pick_by_position_in_his_own_view() -> None:
    """000_0a1bcdd496bc6662.txt: «Так как игрок не видит своих карт, то вытаскивает у себя
    любую карту и ходит случайной картой к игроку слева от себя»."""
    t = table()
    assert len(t.legal(0)) == 6  # the full state: any of his cards may be led
    view = private_view(t.state, 0)
    picks = legal_actions(view, 0)
    assert picks == tuple(A.pick(A.Action(A.LEAD, 0), p) for p in range(6))
    assert [A.pick_position(a) for a in picks] == list(range(6))
    # the engine never applies a pick: the table opens the card first (resolve_pick)
    with pytest.raises(IllegalAction) as caught:
        apply(view, picks[0])
    assert caught.value.reason is Reason.NOT_IN_HAND
    assert A.resolve_pick(picks[2], t.c("8♠")) == A.lead(0, t.c("8♠"))


def test_the_defender_may_try_any_card_and_a_wrong_one_takes_the_table() -> None:
    """000_0a1bcdd496bc6662.txt: «Но так как отбивающийся игрок не видит своих карт, то
    отбивается наугад любой своей картой. Если игрок отбивает эту карту правильно, то другие
    игроки могут подкидывать карты того же значения, что лежат на столе.» The catalogue: a
    wrong card stays on the table and the defender takes it all, with no second try."""
    t = table()
    t.do("0 lead 6♣")
    # every card of his against the one attack card, and «беру»
    assert len(t.legal(1)) == 7
    assert "1 beat 8♥ on 6♣" in t.legal(1)
    view = private_view(t.state, 1)
    assert [a for a in legal_actions(view, 1) if a.kind == A.BEAT] == [
        A.Action(A.BEAT, 1, (A.BLIND_BASE + p,), 0) for p in range(6)]
    t.do("1 beat 8♥ on 6♣")
    assert t.of(E.Misplayed) == [E.Misplayed(1, t.c("8♥"), A.BEAT, 0)]
    assert t.of(E.Took) == [E.Took(1, tuple(sorted(t.cs("6♣ 8♥"))))]
    # a taker loses his turn: his left neighbour leads
    assert t.state.phase == Phase.LEAD
    assert (t.state.attacker, t.state.defender) == (2, 0)


def test_a_right_beat_opens_the_throw_ins() -> None:
    """000_0a1bcdd496bc6662.txt: «Если игрок отбивает эту карту правильно, то другие игроки
    могут подкидывать карты того же значения, что лежат на столе.»"""
    t = table()
    t.do("0 lead 6♣", "1 beat 7♣ on 6♣")
    assert t.of(E.Misplayed) == []
    assert to_act(t.state) == {0, 2}
    # a thrower may pick any of his cards: the check comes when it is shown
    assert len(t.legal(2)) == 7
    assert "2 pass" in t.legal(2)
    t.do("0 throw 7♠")
    assert t.of(E.ThrewIn) == [E.ThrewIn(0, t.c("7♠"))]


def test_a_wrong_throw_in_makes_the_thrower_take_everything() -> None:
    """000_0a1bcdd496bc6662.txt: «Если игрок неправильно подбросит карту, то все карты он
    забирает к себе, а ход переходит к следующему игроку по часовой стрелке.» The catalogue:
    the defender does not take; his beaten pairs go to the thrower; the turn passes to the
    left of the penalised thrower."""
    t = table()
    t.do("0 lead 6♣", "1 beat 7♣ on 6♣", "2 throw 8♦")
    assert t.of(E.Misplayed) == [E.Misplayed(2, t.c("8♦"), A.THROW, -1)]
    assert t.of(E.Took) == [E.Took(2, tuple(sorted(t.cs("6♣ 7♣ 8♦"))))]
    assert t.state.phase == Phase.LEAD
    assert (t.state.attacker, t.state.defender) == (0, 1)
    assert {t.c("6♣"), t.c("7♣"), t.c("8♦")} <= set(cards_of(t.state.hands[2]))


def test_the_turn_after_a_penalty_may_pass_from_the_attacker_instead() -> None:
    """The catalogue's alternative reading of «ход переходит к следующему игроку по часовой
    стрелке»: the player left of the bout's attacker leads (a knob)."""
    t = table(invalid_play_penalty=BLIND_PENALTY_FROM_ATTACKER)
    t.do("0 lead 6♣", "1 beat 7♣ on 6♣", "2 throw 8♦")
    assert (t.state.attacker, t.state.defender) == (1, 2)


def test_a_wrong_transfer_is_a_failed_defence() -> None:
    """000_0a1bcdd496bc6662.txt: «Данная игра может играться также по правилам простого и
    переводного дурака.» The catalogue: a blind transfer card of the wrong rank is treated
    like a wrong beat (the defender takes)."""
    rules = with_base_rules("oborotny", "perevodnoy")
    t = Table("oborotny", HANDS, trump="A♦", first_attacker=0,
              transfer=rules.transfer, base_rules=rules.base_rules)
    t.setup()
    t.do("0 lead 6♣")
    assert "1 transfer 8♥" in t.legal(1)
    t.do("1 transfer 8♥")
    assert t.of(E.Misplayed) == [E.Misplayed(1, t.c("8♥"), A.TRANSFER, -1)]
    assert t.of(E.Took) == [E.Took(1, tuple(sorted(t.cs("6♣ 8♥"))))]


def test_the_lowest_trump_is_shown_by_the_left_neighbour() -> None:
    """000_0a1bcdd496bc6662.txt: «В первой игре ходит первым игрок, у которого имеется младший
    козырь». The catalogue: the engine, not the player, finds it — here the seat on his left,
    who sees his hand, shows it for him (the end-of-game audit checks it over the network)."""
    t = Table("oborotny", HANDS, trump="A♦")
    t.do("deal", "reveal A♦")
    for claimant in (1, 2, 0):
        assert to_act(t.state) == {(claimant + 1) % 3}
        assert legal_actions(t.state, claimant) == ()
        (claim,) = legal_actions(t.state, (claimant + 1) % 3)
        assert claim.seat == claimant
        t.state, _ = apply(t.state, claim)
    assert t.state.phase == Phase.LEAD
    assert t.state.attacker == 2


def test_blind_play_goes_with_its_penalties_and_single_cards() -> None:
    rules = get_preset("oborotny").rules
    validate(rules)
    with pytest.raises(RuleError) as caught:
        validate(rules.with_options(invalid_play_penalty=()))
    assert caught.value.knob == "hand_visibility"
    with pytest.raises(RuleError):
        validate(rules.with_options(lead_rule="same_rank_multi"))
    with pytest.raises(RuleError):
        validate(get_preset("podkidnoy").rules.with_options(hand_visibility="others_only"))
