"""«Дурак королевский» (korolevsky): the deck's lowest rank is beaten only by the same-suit ace
or the trump ace. Catalogue: shared/rules/variants-attack-defend.md, section `korolevsky`."""

from __future__ import annotations

from engine_support import Table

from p2p_durak.engine import Reason


def _table(a: str, b: str) -> Table:
    t = Table("korolevsky", [a, b], trump="9♠", first_attacker=0)
    t.setup()
    return t


def test_a_plain_six_is_beaten_only_by_its_ace_or_the_trump_ace() -> None:
    """000_0a1bcdd496bc6662.txt: «самую младшую карту в игре можно отбить только тузом.» and
    «Если игра идет колодой в 36 карт, то младшей картой является шестерка, которую можно
    отбить только тузом. Козырным тузом можно отбить любую младшую карту.»"""
    t = _table("6♣ 6♠ 7♥ 8♥ 9♥ 10♥", "7♣ A♣ K♠ A♠ A♦ Q♦")
    t.do("0 lead 6♣")
    beats = [a for a in t.legal(1) if " beat " in a]
    assert sorted(beats) == ["1 beat A♠ on 6♣", "1 beat A♣ on 6♣"]
    for line in ("1 beat 7♣ on 6♣", "1 beat K♠ on 6♣", "1 beat A♦ on 6♣"):
        assert t.refuse(line).reason is Reason.DOES_NOT_BEAT


def test_the_trump_six_only_by_the_trump_ace() -> None:
    """000_0a1bcdd496bc6662.txt: «Козырным тузом можно отбить любую младшую карту.»"""
    t = _table("6♠ 6♣ 7♥ 8♥ 9♥ 10♥", "7♣ A♣ K♠ A♠ A♦ Q♦")
    t.do("0 lead 6♠")
    assert [a for a in t.legal(1) if " beat " in a] == ["1 beat A♠ on 6♠"]


def test_other_ranks_are_beaten_as_usual() -> None:
    """000_0a1bcdd496bc6662.txt: «Если карта, которую необходимо отбить не является козырем,
    то можно отбить ее козырем.»"""
    t = _table("7♥ 6♣ 6♠ 8♥ 9♥ 10♥", "7♣ A♣ K♠ A♠ A♦ Q♦")
    t.do("0 lead 7♥", "1 beat K♠ on 7♥")
    assert t.table_text() == [("7♥", "K♠")]


def test_with_52_cards_the_two_is_the_lowest() -> None:
    """000_0a1bcdd496bc6662.txt: «Например, если игра идет колодой в 52 карты, то младшей
    картой является двойка, двойку можно отбить только тузом.»"""
    t = Table("korolevsky", ["2♣ 6♣ 7♥ 8♥ 9♥ 10♥", "3♣ A♣ K♠ A♠ A♦ 6♦"], trump="9♠",
              first_attacker=0, deck_size=52)
    t.setup()
    t.do("0 lead 6♣")
    assert "1 beat K♠ on 6♣" in t.legal(1)  # a six is ordinary with 52 cards
    t2 = Table("korolevsky", ["2♣ 6♣ 7♥ 8♥ 9♥ 10♥", "3♣ A♣ K♠ A♠ A♦ 6♦"], trump="9♠",
               first_attacker=0, deck_size=52)
    t2.setup()
    t2.do("0 lead 2♣")
    assert sorted(a for a in t2.legal(1) if " beat " in a) == ["1 beat A♠ on 2♣",
                                                                "1 beat A♣ on 2♣"]


def test_the_table_option_any_ace_beats_the_lowest_rank_with_every_ace() -> None:
    """The catalogue: «"только тузом": any ace, or the same-suit ace? … `any_ace` is the
    alternative» (`lowest_rank_only_by_ace: any_ace`): every ace beats a lowest-rank card,
    the trump six included, and nothing else does."""
    t = Table("korolevsky", ["6♣ 6♠ 7♥ 8♥ 9♥ 10♥", "7♣ A♣ K♠ A♠ A♦ Q♦"], trump="9♠",
              first_attacker=0, lowest_rank_only_by_ace="any_ace")
    t.setup()
    t.do("0 lead 6♣")
    beats = sorted(a for a in t.legal(1) if " beat " in a)
    assert beats == ["1 beat A♠ on 6♣", "1 beat A♣ on 6♣", "1 beat A♦ on 6♣"]
    for line in ("1 beat 7♣ on 6♣", "1 beat K♠ on 6♣"):
        assert t.refuse(line).reason is Reason.DOES_NOT_BEAT
    trump = Table("korolevsky", ["6♠ 6♣ 7♥ 8♥ 9♥ 10♥", "7♣ A♣ K♠ A♠ A♦ Q♦"], trump="9♠",
                  first_attacker=0, lowest_rank_only_by_ace="any_ace")
    trump.setup()
    trump.do("0 lead 6♠")
    assert sorted(a for a in trump.legal(1) if " beat " in a) == [
        "1 beat A♠ on 6♠", "1 beat A♣ on 6♠", "1 beat A♦ on 6♠"]
    trump.do("1 beat A♦ on 6♠")
    assert trump.table_text() == [("6♠", "A♦")]
