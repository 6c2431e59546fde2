"""«Дурак американский» (amerikansky): once every card on the table is beaten, the defender may
throw in to himself and beat the card; the others may then throw in again.

Catalogue: shared/rules/variants-attack-defend.md, section `amerikansky`."""

from __future__ import annotations

from engine_support import Table

from p2p_durak.engine import Reason
from p2p_durak.engine import events as E

# The compendium's example: two players, trump hearts.
_P1 = "6♦ 8♦ 10♠ Q♦ 9♥ Q♥"
_P2 = "6♠ 7♦ A♦ A♠ 8♥ 10♥"


def _example(preset: str = "amerikansky") -> Table:
    t = Table(preset, [_P1, _P2], trump="J♥", first_attacker=0)
    t.setup()
    t.do("0 lead 6♦", "1 beat 7♦ on 6♦")
    return t


def test_the_worked_example_plays_as_told() -> None:
    """000_0a1bcdd496bc6662.txt: «Представим ситуацию: играют двое, козырь черва, у 1-го игрока
    6 бубны, 8 бубны, 10 пик, дама бубны, 9 червы и дама червы, у 2-го игрока 6 пик, 7 бубны, туз
    бубны, туз пик, 8 червы и 10 червы. 1-й игрок ходит ко 2-му игроку 6 бубны, 2-й игрок бьёт 7
    бубны. Затем 1-й игрок говорит, что у него нечего подкидывать, а 2-й выкладывает из своих карт
    6 пик и бьёт тузом пик. Далее, он выкладывает туза бубны (то есть, можно подкидывать и те
    карты, которыми бился сам 2-й игрок) и перебивает его 8 червы. 2-й игрок заявляет, что у него
    самого карт для подкидывания самому себе нет, и тогда 1-й игрок подкидывает 8 бубны, а 2-ой
    уже отбивается своей последней картой – 10 черва.»"""
    t = _example()
    # both may act: the attacker (nothing to throw) and the defender (6♠ to himself)
    assert set(t.state.actors) == {0, 1}
    assert t.legal(0) == ["0 pass"]
    assert t.legal(1) == ["1 throw 6♠", "1 pass"]
    t.do("0 pass", "1 throw 6♠")
    assert "1 beat A♠ on 6♠" in t.legal(1)
    t.do("1 beat A♠ on 6♠")
    # the ace he beat with opens aces: A♦ is his to throw in to himself
    assert "1 throw A♦" in t.legal(1)
    t.do("1 throw A♦", "1 beat 8♥ on A♦")
    # one card left: nothing to beat a self-thrown card with, so he throws in no more, but the
    # attacker's pass is not final and the eight on the table is his now
    assert t.legal(1) == []
    assert t.legal(0) == ["0 throw 8♦", "0 pass"]
    t.do("0 throw 8♦", "1 beat 10♥ on 8♦")
    # «Когда у всех игроков, в том числе и у бьющегося, не останется карт для подкидывания...
    # все выложенные карты уходят в отбой»: 10♠ matches the ten, but the defender has no cards
    assert t.of(E.Discarded)[0].cards == tuple(sorted(t.cs("6♦ 7♦ 6♠ A♠ A♦ 8♥ 8♦ 10♥")))
    # «первым берет игрок, который делал первый ход, затем берет карту игрок, который
    # отбивался»
    assert [(e.seat, e.n) for e in t.of(E.Drew)] == [(0, 2), (1, 6)]
    assert (t.state.attacker, t.state.defender) == (1, 0)


def test_the_bout_ends_only_when_the_defender_passes_too() -> None:
    """000_0a1bcdd496bc6662.txt: «Когда у всех игроков, в том числе и у бьющегося, не останется
    карт для подкидывания, или же они не захотят сбрасывать свои карты, все выложенные карты
    уходят в отбой.»"""
    t = _example()
    t.do("0 pass")
    assert t.state.actors == (1,)
    t.do("1 pass")
    assert t.of(E.Discarded)[0].cards == tuple(sorted(t.cs("6♦ 7♦")))


def test_after_a_self_throw_the_others_may_throw_in_again() -> None:
    """000_0a1bcdd496bc6662.txt: «Если игрок, который отбивается, отобьет все выложенные карты,
    то он имеет право подкинуть самому себе, а потом отбить. После этого, остальные игроки могут
    продолжать подкидывать карты того же достоинства, что лежат на столе.»"""
    t = Table("amerikansky", ["6♦ 8♦ 10♠ Q♦ 9♥ K♣", "6♠ 7♦ A♦ K♠ 8♥ 10♥"], trump="J♥",
              first_attacker=0)
    t.setup()
    t.do("0 lead 6♦", "1 beat 7♦ on 6♦", "0 pass", "1 throw 6♠")
    # while his own card is unbeaten only he acts, and he must beat it or take
    assert t.state.actors == (1,)
    assert t.refuse("0 throw K♣").reason is Reason.THROW_IN_NOT_ALLOWED
    assert t.refuse("1 throw A♦").reason is Reason.THROW_IN_NOT_ALLOWED
    t.do("1 beat K♠ on 6♠")
    # the attacker passed before, but a pass holds only until the table changes
    assert t.legal(0) == ["0 throw K♣", "0 pass"]
    t.do("0 throw K♣", "1 beat 8♥ on K♣", "0 pass", "1 pass")
    assert t.of(E.Discarded)[0].cards == tuple(sorted(t.cs("6♦ 7♦ 6♠ K♠ K♣ 8♥")))


def test_a_defender_who_cannot_beat_his_own_card_takes_everything() -> None:
    """Catalogue resolution: a defender who self-throws and then will not beat takes every
    card on the table, as in the template: «Если игрок, который отбивается, не отобьет
    выложенные карты, то он забирает карты себе.»"""
    t = _example()
    t.do("0 pass", "1 throw 6♠", "1 take")
    assert t.of(E.Took)[0] == E.Took(1, tuple(sorted(t.cs("6♦ 7♦ 6♠"))))
    assert (t.state.attacker, t.state.defender) == (0, 1)


def test_the_template_has_no_self_throw() -> None:
    """000_0a1bcdd496bc6662.txt: «Когда игрок отбил эту карту, то другие игроки могут
    подкидывать карты того же значения, что лежат на столе.» — only the others."""
    t = _example("podkidnoy")
    assert t.state.actors == (0,)
    assert t.legal(1) == []
    assert t.refuse("1 throw 6♠").reason is Reason.THROW_IN_NOT_ALLOWED
    assert t.refuse("1 pass").reason is Reason.NOT_YOUR_TURN
