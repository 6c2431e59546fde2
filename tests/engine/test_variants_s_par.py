"""«Дурак с пар» (s_par) and its «Пятерка» (s_par_pyaterka): five-card hands, leads of pairs
and odd cards, no throw-ins, the player left of the dealer leads first. Catalogue:
shared/rules/variants-attack-defend.md, sections `s_par` and `s_par_pyaterka`."""

from __future__ import annotations

from engine_support import Table

from p2p_durak.engine import Phase, Reason
from p2p_durak.engine import events as E


def _leads(t: Table, seat: int = 1) -> list[str]:
    return [a.split(" ", 2)[2] for a in t.legal(seat) if " lead " in a]


def _table(preset: str, a: str, b: str) -> Table:
    t = Table(preset, [a, b], trump="9♠", dealer=0)
    t.setup()
    return t


def test_five_cards_each_and_the_dealers_left_neighbour_leads() -> None:
    """000_0a1bcdd496bc6662.txt: «каждому игроку сдается по 5 карт.» and «Первый ход
    принадлежит игроку слева от сдатчика.»"""
    t = _table("s_par", "6♣ 7♥ 8♥ 9♥ 10♥", "6♦ 7♣ Q♠ Q♦ J♦")
    assert t.state.hand_size(0) == t.state.hand_size(1) == 5
    assert t.state.phase == Phase.LEAD
    assert t.state.attacker == 1  # no lowest-trump claims
    assert t.of(E.Claimed) == []


def test_s_par_leads_one_card_pairs_and_an_added_card() -> None:
    """000_0a1bcdd496bc6662.txt: «Игрок может зайти с любой карты или с двух карт одного
    достоинства. Заход двумя картами позволяет добавить еще одну любую карту или еще две карты
    одного достоинства. Разрешается также зайти пятью картами: двумя парами и одной картой.»"""
    t = _table("s_par", "A♣ A♥ K♥ K♣ 10♥", "6♦ 6♣ Q♠ Q♦ J♦")
    leads = _leads(t)
    for ok in ("J♦", "6♦ 6♣", "6♦ 6♣ J♦", "6♦ 6♣ Q♠ Q♦", "6♦ 6♣ Q♠ Q♦ J♦"):
        assert " ".join(sorted(ok.split(), key=t.c)) in leads
    for wrong in ("6♦ J♦", "6♦ Q♠ J♦", "6♣ Q♦ Q♠ J♦"):
        assert t.refuse("1 lead " + " ".join(sorted(wrong.split(), key=t.c))).reason \
            is Reason.LEAD_NOT_ALLOWED


def test_no_throw_ins_and_one_lead_a_bout() -> None:
    """000_0a1bcdd496bc6662.txt: «После того как сделан ход, запрещается подбрасывать или
    заменять карты. Ход делается один раз.»"""
    t = _table("s_par", "7♦ 7♣ K♥ 8♥ 10♥", "6♦ 6♣ Q♠ Q♦ J♦")
    t.do("1 lead 6♣ 6♦", "0 beat 7♣ on 6♣", "0 beat 7♦ on 6♦")
    assert t.state.phase == Phase.LEAD  # the bout closed at once: nobody may add a card
    assert t.state.attacker == 0  # «Следующий ход принадлежит игроку, который отбился»


def test_the_lead_is_capped_by_the_defenders_hand() -> None:
    """000_0a1bcdd496bc6662.txt: «Несмотря на то, что у игрока на руках может быть больше пяти
    карт, ход делается максимум с пяти карт. Игрок, у которого менее пяти карт на руках, должен
    предупредить об этом ходящего игрока. В этом случае ход соответствует количеству карт,
    которые имеет отбивающийся игрок.»"""
    t = _table("s_par", "A♣ A♥ K♥ K♣ 10♥", "6♦ 6♣ Q♠ Q♦ J♦")
    assert max(len(lead.split()) for lead in _leads(t)) == 5
    # a position with the defender down to two cards (three of his went to the discard)
    gone = t.cs("K♥ K♣ 10♥")
    hands = list(t.state.hands)
    for card in gone:
        hands[0] &= ~(1 << card)
    t.state = t.state._replace(hands=tuple(hands),
                               discard=t.state.discard | sum(1 << c for c in gone))
    assert sorted(_leads(t), key=len)[-1].count(" ") == 1  # pairs at most
    assert t.refuse("1 lead " + " ".join(sorted(["6♦", "6♣", "J♦"], key=t.c))).reason \
        is Reason.TOO_MANY_CARDS


def test_pyaterka_needs_an_odd_card_with_pairs_and_allows_trips_and_quads() -> None:
    """000_0a1bcdd496bc6662.txt: «Разрешается ходить с одной или двух пар карт, к которым
    обязательно добавляется одна непарная карта, эта карта называется "разводящей". Также
    разрешается ходить только тремя картами одного достоинства и четырьмя картами одного
    достоинства, к которым добавляется одна карта любого другого значения.»"""
    t = _table("s_par_pyaterka", "A♣ A♥ K♥ K♣ 10♥", "6♦ 6♣ Q♠ Q♦ J♦")
    leads = _leads(t)
    assert "J♦" in leads  # a single card (catalogue: allowed, or a hand without pairs is stuck)
    for ok in ("6♦ 6♣ J♦", "6♦ 6♣ Q♠ Q♦ J♦"):
        assert " ".join(sorted(ok.split(), key=t.c)) in leads
    for bare in ("6♦ 6♣", "6♦ 6♣ Q♠ Q♦"):
        assert t.refuse("1 lead " + " ".join(sorted(bare.split(), key=t.c))).reason \
            is Reason.LEAD_NOT_ALLOWED
    trips = _table("s_par_pyaterka", "A♣ A♥ K♥ K♣ 10♥", "6♦ 6♣ 6♥ 6♠ J♦")
    leads = _leads(trips)
    assert " ".join(sorted(["6♦", "6♣", "6♥"], key=trips.c)) in leads
    assert " ".join(sorted(["6♦", "6♣", "6♥", "6♠", "J♦"], key=trips.c)) in leads


def test_pyaterka_forbids_a_full_house() -> None:
    """000_0a1bcdd496bc6662.txt: «Ходить тремя картами одного достоинства вместе с двумя
    картами другого одинакового достоинства запрещено.»"""
    t = _table("s_par_pyaterka", "A♣ A♥ K♥ K♣ 10♥", "6♦ 6♣ 6♥ Q♠ Q♦")
    full = " ".join(sorted(["6♦", "6♣", "6♥", "Q♠", "Q♦"], key=t.c))
    assert full not in _leads(t)
    assert t.refuse("1 lead " + full).reason is Reason.LEAD_NOT_ALLOWED
    s_par = _table("s_par", "A♣ A♥ K♥ K♣ 10♥", "6♦ 6♣ 6♥ Q♠ Q♦")
    assert full in _leads(s_par)  # с пар: two pairs and one card, the card a third six
