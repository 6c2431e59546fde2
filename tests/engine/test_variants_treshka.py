"""«Дурак трешка» (treshka): every lead is exactly three cards of any kind. Catalogue:
shared/rules/variants-attack-defend.md, section `treshka`."""

from __future__ import annotations

from engine_support import Table

from p2p_durak.engine import Reason


def _table(a: str, b: str, **kw: object) -> Table:
    t = Table("treshka", [a, b], trump="9♠", first_attacker=0, **kw)  # type: ignore[arg-type]
    t.setup()
    return t


def test_a_lead_is_any_three_cards() -> None:
    """000_0a1bcdd496bc6662.txt: «Первый игрок может сделать первый ход только с трех карт.
    Игрок выкладывает свои любые 3 карты следующему игроку по часовой стрелке.»"""
    t = _table("6♣ 7♥ K♦ 8♥ 9♥ 10♥", "7♣ A♦ Q♠ Q♦ J♦ 10♦")
    leads = [a for a in t.legal(0) if "lead" in a]
    assert len(leads) == 20  # every 3 of 6
    assert "0 lead 6♣ 7♥ K♦" in leads
    assert t.refuse("0 lead 6♣").reason is Reason.LEAD_NOT_ALLOWED
    assert t.refuse("0 lead 6♣ 7♥").reason is Reason.LEAD_NOT_ALLOWED


def test_each_card_is_beaten_separately_and_their_ranks_may_be_thrown_in() -> None:
    """000_0a1bcdd496bc6662.txt: «Для того, чтобы отбить одну из них необходимо, положить карту
    старшего значения той же масти.» and «другие игроки могут подкидывать карты того же
    значения, что лежат на столе»"""
    t = Table("treshka", ["6♣ 7♥ K♦ 6♥ 9♥ 10♥", "7♣ A♦ 8♥ Q♦ J♦ 10♦", "6♦ 7♦ K♣ Q♣ J♣ 10♣"],
              trump="9♠", first_attacker=0)
    t.setup()
    t.do("0 lead 6♣ 7♥ K♦", "1 beat 7♣ on 6♣", "1 beat 8♥ on 7♥", "1 beat A♦ on K♦")
    assert "0 throw 6♥" in t.legal(0)
    assert "2 throw 6♦" in t.legal(2)
    assert "2 throw 7♦" in t.legal(2)
    assert "2 throw K♣" in t.legal(2)


def test_fewer_cards_at_the_end_lead_all_of_them() -> None:
    """000_0a1bcdd496bc6662.txt: «Если в конце игры у игрока менее трех карт на руках и он
    делает ход, то он выкладывает не 3 карты, а то количество карт, которое у него на руках.»"""
    t = _table("6♣ 7♥", "7♣ A♦", hand_size=2)
    assert [a for a in t.legal(0) if "lead" in a] == ["0 lead 6♣ 7♥"]


def test_the_bout_limit_caps_the_lead() -> None:
    """Catalogue `treshka`: «lead size = min(3, attacker's hand, defender's hand)», within the
    bout limit (the same cap: SP8); shown with a first-bout limit of two."""
    t = _table("6♣ 7♥ K♦ 8♥ 9♥ 10♥", "7♣ A♦ Q♠ Q♦ J♦ 10♦", first_bout_attack_limit=2)
    leads = [a for a in t.legal(0) if "lead" in a]
    assert len(leads) == 15  # every 2 of 6
    assert t.refuse("0 lead 6♣ 7♥ K♦").reason is Reason.LEAD_NOT_ALLOWED
