"""«Дурак верю не верю» (veryu_ne_veryu): covers laid face down, and «сомневаюсь». Catalogue:
shared/rules/variants-attack-defend.md, section `veryu_ne_veryu`."""

from __future__ import annotations

import pytest
from engine_support import Table

from p2p_durak.engine import (
    CHANCE,
    UNKNOWN,
    Phase,
    Reason,
    RuleError,
    apply,
    chance_outcome,
    learn,
    legal_actions,
    make_game,
    private_view,
    public_view,
    state_hash,
)
from p2p_durak.engine import actions as A
from p2p_durak.engine import events as E
from p2p_durak.engine.presets import get_preset, with_base_rules
from p2p_durak.engine.state import FACE_DOWN

TWO = ["6♠ 6♣ 7♥ 8♣ 10♠ J♥", "7♠ 6♥ 8♠ 9♣ Q♣ K♥"]
THREE = ["6♠ 7♥ 10♠ J♥ Q♥ A♣", "7♠ 8♣ 6♥ 9♣ Q♣ K♥", "6♣ 9♠ 10♥ J♣ K♠ A♠"]


def _table(hands: list[str], **knobs: object) -> Table:
    t = Table("veryu_ne_veryu", hands, trump="6♦", first_attacker=0, **knobs)
    t.setup()
    return t


def _challenge(**choices: str) -> tuple[tuple[str, str], ...]:
    rules = get_preset("veryu_ne_veryu").rules
    return tuple(sorted(dict(rules.challenge, **choices).items()))


def _open(t: Table) -> None:
    """Chance opens the doubted cover (over the network: the deck, with proven tokens)."""
    assert t.state.phase == Phase.CHALLENGE
    action = chance_outcome(t.state)
    assert action is not None
    t.state, events = apply(t.state, action)
    t.events = list(events)


def test_the_defence_card_is_laid_face_down_and_may_be_any_card() -> None:
    """000_0a1bcdd496bc6662.txt: «Карта, которой отбивается игрок, должна быть положена в
    закрытом виде поверх той карты, которую она отбивает.» — face down, so any card can be laid
    (a bluff), and an open beat is refused."""
    t = _table(TWO)
    t.do("0 lead 6♠")
    assert "1 cover 6♥ on 6♠" in t.legal(1)  # 6♥ does not beat 6♠: a bluff is a move
    assert not any(a.kind == A.BEAT for a in legal_actions(t.state, 1))
    assert t.refuse("1 beat 7♠ on 6♠").reason is Reason.FACE_DOWN_ONLY
    full = t.do("1 cover 6♥ on 6♠")
    assert t.of(E.Covered) == [E.Covered(1, 0, t.c("6♠"), t.c("6♥"))]
    assert full.covers == (t.c("6♥"),)
    # the others see a covered card, card unknown; the public view (and hash) is the same
    assert public_view(full)[13] == (FACE_DOWN,)
    before = private_view(_table(TWO).do("0 lead 6♠"), 0)
    other, events = apply(before, t.act("1 cover ? on 6♠"))
    assert other.covers == (FACE_DOWN,)
    assert events == (E.Covered(1, 0, t.c("6♠"), FACE_DOWN),)
    assert state_hash(other) == state_hash(full)
    assert private_view(full, 1).covers == (t.c("6♥"),)  # its author knows it


def test_a_doubted_legal_cover_makes_the_doubter_take_everything() -> None:
    """000_0a1bcdd496bc6662.txt: «Для этого он говорит "сомневаюсь" и карта, которой отбился
    игрок открывается. Если отбой правильный, то все карты, которые были выложены, забирает
    сомневающийся игрок» — then the defender leads, as after a defence (recommended)."""
    t = _table(TWO)
    t.do("0 lead 6♠", "1 cover 7♠ on 6♠")
    assert "0 doubt 6♠" in t.legal(0)
    t.do("0 doubt 6♠")
    assert t.of(E.Doubted) == [E.Doubted(0, 0, t.c("6♠"))]
    assert t.state.phase == Phase.CHALLENGE
    assert legal_actions(t.state, CHANCE) == (A.reveal(t.c("7♠")),)
    t.refuse(A.reveal(t.c("8♠")))  # a full state knows the card laid there
    _open(t)
    assert t.of(E.DoubtSettled) == [E.DoubtSettled(0, 1, t.c("7♠"), t.c("6♠"), True, 0)]
    assert t.of(E.Took) == [E.Took(0, t.cs("6♠ 7♠"))]
    assert {"6♠", "7♠"} <= set(t.hand(0).split())
    assert t.state.phase == Phase.LEAD
    assert (t.state.attacker, t.state.defender) == (1, 0)


def test_a_doubted_bluff_makes_the_defender_take_everything() -> None:
    """000_0a1bcdd496bc6662.txt: «а если отбой был неправильным, то все карты забирает тот
    игрок, который отбивался.» — a take: his left neighbour leads next."""
    t = _table(TWO)
    t.do("0 lead 6♠", "1 cover 6♥ on 6♠", "0 doubt 6♠")
    _open(t)
    assert t.of(E.DoubtSettled) == [E.DoubtSettled(0, 1, t.c("6♥"), t.c("6♠"), False, 1)]
    assert t.of(E.Took) == [E.Took(1, t.cs("6♠ 6♥"))]
    assert (t.state.attacker, t.state.defender) == (0, 1)


def test_any_player_may_doubt_and_takes_the_covers_unseen_by_the_others() -> None:
    """000_0a1bcdd496bc6662.txt: «Любой из игроков, который сомневается в правильном отбивании
    карты, может проверить это.» — not the defender; the doubted card is opened to all, the other
    face-down covers go to the taker's hand seen by him alone (recommended)."""
    t = _table(THREE)
    t.do("0 lead 6♠", "1 cover 7♠ on 6♠", "2 throw 6♣")
    # while 6♣ waits to be covered, the covered 6♠ may already be doubted
    assert "2 doubt 6♠" in t.legal(2)
    assert "0 doubt 6♠" in t.legal(0)
    assert t.refuse(A.challenge(1, 0)).reason is Reason.CANNOT_DOUBT
    assert t.refuse(A.challenge(2, 1)).reason is Reason.NOT_FACE_DOWN
    t.do("1 cover 8♣ on 6♣")
    views = [private_view(t.state, s) for s in range(3)]
    t.do("2 doubt 6♠")
    _open(t)
    assert t.of(E.Took) == [E.Took(2, t.cs("6♠ 6♣ 7♠ 8♣"))]
    assert (t.state.attacker, t.state.defender) == (1, 2)  # the defender leads
    # the same entries in the views of seat 0 (a bystander) and seat 2 (the doubter)
    for seat in (0, 2):
        view, _ = apply(views[seat], A.challenge(2, 0))
        view, _ = apply(view, A.reveal(t.c("7♠")))
        assert state_hash(view) == state_hash(t.state)
        assert (view.hands[2] >> t.c("8♣")) & 1 == 0  # 8♣ is still face down to him
        assert view.hidden[2] >= 1
    seen = learn(view, 2, (t.c("8♣"),))  # the deck shows the doubter the card he took
    assert (seen.hands[2] >> t.c("8♣")) & 1
    t.refuse(A.challenge(0, 0))  # the bout is over


def test_an_undoubted_cover_goes_to_the_discard_unseen() -> None:
    """000_0a1bcdd496bc6662.txt: «Если игрок, который отбивается, отобьет все выложенные карты,
    то карты идут в отбой, откладываются в закрытую стопку» — a bluff nobody doubted stands; its
    card goes there face down, the attack cards face up."""
    t = _table(TWO)
    t.do("0 lead 6♠", "1 cover 6♥ on 6♠")
    view = private_view(t.state, 0)
    t.do("0 pass")
    assert t.of(E.Discarded) == [E.Discarded(t.cs("6♠"))]
    assert t.of(E.Buried) == [E.Buried(1, t.cs("6♥"))]
    assert t.state.discard == 1 << t.c("6♠")
    assert (t.state.buried, t.state.n_buried) == (1 << t.c("6♥"), 1)
    assert (t.state.attacker, t.state.defender) == (1, 0)  # a defence: the defender leads
    view, events = apply(view, A.pass_(0))
    assert E.Buried(1, ()) in events
    assert (view.buried, view.n_buried) == (0, 1)
    assert state_hash(view) == state_hash(t.state)


def test_only_face_up_ranks_are_thrown_in() -> None:
    """Not in the source, recommended: the others do not know a face-down card's rank, so only
    the attack cards' ranks may be thrown in (`throw_in_ranks_from: face_up_only`)."""
    t = _table(TWO)
    t.do("0 lead 6♠", "1 cover 7♠ on 6♠")
    assert "0 throw 6♣" in t.legal(0)
    assert "0 throw 7♥" not in t.legal(0)
    assert t.refuse("0 throw 7♥").reason is Reason.RANK_NOT_ON_TABLE


def test_a_doubt_after_beru_is_a_table_choice() -> None:
    """The catalogue's window «until the bout closes» keeps a doubt open after «беру»
    (`window: until_bout_closed`); `until_take` closes it then."""
    t = _table(TWO)
    t.do("0 lead 6♠", "1 cover 7♠ on 6♠", "0 throw 6♣", "1 take")
    assert t.state.phase == Phase.BOUT
    assert t.legal(0) == ["0 pass", "0 doubt 6♠"]
    t.do("0 pass")
    assert t.of(E.Took) == [E.Took(1, t.cs("6♠ 6♣ 7♠"))]
    t = _table(TWO, challenge=_challenge(window="until_take"))
    t.do("0 lead 6♠", "1 cover 7♠ on 6♠", "0 throw 6♣", "1 take")
    assert t.state.phase == Phase.LEAD
    assert t.of(E.Took) == [E.Took(1, t.cs("6♠ 6♣ 7♠"))]


def test_who_leads_after_the_doubter_took_is_a_table_choice() -> None:
    """`next_attacker_if_challenger_took: left_of_challenger` treats the doubter like a taker:
    his left neighbour leads."""
    t = _table(THREE, challenge=_challenge(next_attacker_if_challenger_took="left_of_challenger"))
    t.do("0 lead 6♠", "1 cover 7♠ on 6♠", "2 doubt 6♠")
    _open(t)
    assert t.of(E.Took) == [E.Took(2, t.cs("6♠ 7♠"))]
    assert (t.state.attacker, t.state.defender) == (0, 1)


def test_a_partial_view_accepts_any_unseen_card_for_the_doubted_cover() -> None:
    """A node cannot check the opened card itself: the deck proves it is the card in the slot
    (tests/protocol/table). A view refuses a card it knows to be elsewhere."""
    t = _table(TWO)
    t.do("0 lead 6♠", "1 cover 7♠ on 6♠")
    view = private_view(t.state, 0)
    view, _ = apply(view, A.challenge(0, 0))
    options = legal_actions(view, CHANCE)
    assert A.reveal(t.c("7♠")) in options
    assert A.reveal(t.c("9♣")) in options
    with pytest.raises(Exception, match="BAD_CHANCE"):
        apply(view, A.reveal(t.c("6♣")))  # in seat 0's own hand


def test_the_base_rules_and_what_goes_together() -> None:
    """000_0a1bcdd496bc6662.txt: «Данная игра может играться также по правилам простого и
    переводного дурака.» — with transfers the transfer card is laid face up (it is an attack
    card), before anything is covered."""
    for base in ("prostoy", "perevodnoy"):
        make_game(with_base_rules("veryu_ne_veryu", base), 3)
    rules = with_base_rules("veryu_ne_veryu", "perevodnoy")
    t = Table("veryu_ne_veryu", THREE, trump="6♦", first_attacker=2, **{
        k: getattr(rules, k) for k in ("base_rules", "transfer")})
    t.setup()
    t.do("2 lead 6♣", "0 transfer 6♠")
    assert t.state.table == t.cs("6♣ 6♠")
    assert t.state.defender == 1
    rules = get_preset("veryu_ne_veryu").rules
    with pytest.raises(RuleError):
        make_game(rules.with_options(challenge=()), 2)
    with pytest.raises(RuleError):
        make_game(rules.with_options(throw_in_ranks_from="all_table_cards"), 2)
    with pytest.raises(RuleError):
        make_game(rules.with_options(transfer=True, transfer_window="any_unbeaten_same_rank",
                                     base_rules="perevodnoy"), 2)
    assert UNKNOWN != FACE_DOWN
