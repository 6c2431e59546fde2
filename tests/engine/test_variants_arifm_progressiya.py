"""«Дурак с арифметической прогрессией» (arifm_progressiya): one card dealt; after bout k the
hands are refilled up to k + 1, with no upper limit. Catalogue: section `arifm_progressiya`."""

from __future__ import annotations

from engine_support import Table

from p2p_durak.engine import events as E


def test_one_card_dealt_and_the_refill_target_grows_each_bout() -> None:
    """000_0a1bcdd496bc6662.txt: «каждому игроку сдается по 1-ой карте» and «Первый игрок
    делает свой первый ход своей одной картой.» and «после первого розыгрыша добирают до 2-х,
    после второго розыгрыша до 3-х, после третьего до 4-х и так далее пока предоставляется
    возможность добора карт, то есть пока есть карты в колоде.»"""
    t = Table("arifm_progressiya", ["6♣", "8♣"], trump="6♦", first_attacker=0)
    t.setup()
    assert t.legal(0) == ["0 lead 6♣"]
    t.do("0 lead 6♣", "1 beat 8♣ on 6♣")
    # «Игроки добирают карты по часовой стрелке»: from the lead attacker
    assert [(e.seat, e.n) for e in t.of(E.Drew)] == [(0, 2), (1, 2)]
    attacker = t.state.attacker
    t.do(t.legal(attacker)[0], f"{1 - attacker} take")
    assert t.state.hand_size(1 - attacker) == 3
    assert [(e.seat, e.n) for e in t.of(E.Drew)] == [(attacker, 2)]  # up to 3
    assert t.state.hand_size(attacker) == 3


def test_the_first_bout_has_no_throw_ins_against_one_card() -> None:
    """000_0a1bcdd496bc6662.txt: «(но не при первом розыгрыше карт, так как роздано по одной
    карте)» — the defender holds no card more, so nothing can be thrown in."""
    t = Table("arifm_progressiya", ["6♣", "8♣", "6♥"], trump="6♦", first_attacker=0)
    t.setup()
    t.do("0 lead 6♣", "1 beat 8♣ on 6♣")
    assert t.state.bout == 1
