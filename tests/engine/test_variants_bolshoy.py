"""«Дурак большой» (bolshoy): two decks shuffled together; a player holding 52 cards or more
loses at once. Catalogue: shared/rules/variants-attack-defend.md, section `bolshoy` (and SP19:
identical cards)."""

from __future__ import annotations

from engine_support import Table

from p2p_durak.engine import Phase, Reason
from p2p_durak.engine import events as E
from p2p_durak.engine.presets import get_preset


def test_two_decks_are_mixed_into_one() -> None:
    """000_0a1bcdd496bc6662.txt: «Количество колод: 2» and «Две колоды смешиваются в одну.»"""
    rules = get_preset("bolshoy").rules
    assert rules.deck().n_cards == 72
    assert rules.with_options(deck_size=52).deck().n_cards == 104
    t = Table("bolshoy", ["7♥#0 6♣#0 6♣#1 8♥#0 9♥#0 10♥#0", "7♥#1 7♣#0 K♦#0 Q♦#0 J♦#0 10♦#0"],
              trump="9♠#0", first_attacker=0)
    assert t.c("7♥#0") != t.c("7♥#1")


def test_a_copy_does_not_beat_its_twin() -> None:
    """000_0a1bcdd496bc6662.txt: «Для того, чтобы отбить необходимо, положить карту старшего
    значения той же масти.» — the twin is not higher (catalogue SP19, `duplicate_beats`)."""
    t = Table("bolshoy", ["7♥#0 6♣#0 6♣#1 8♥#0 9♥#0 10♥#0", "7♥#1 8♥#1 K♦#0 Q♦#0 J♦#0 10♦#0"],
              trump="9♠#0", first_attacker=0)
    t.setup()
    t.do("0 lead 7♥#0")
    assert [a for a in t.legal(1) if " beat " in a] == ["1 beat 8♥#1 on 7♥#0"]
    assert t.refuse("1 beat 7♥#1 on 7♥#0").reason is Reason.DOES_NOT_BEAT


def test_both_copies_of_a_rank_may_be_thrown_in() -> None:
    """000_0a1bcdd496bc6662.txt: «другие игроки могут подкидывать карты того же значения, что
    лежат на столе» — the twin has the same rank."""
    t = Table("bolshoy", ["6♣#0 6♣#1 7♥#0 8♥#0 9♥#0 10♥#0", "7♣#0 7♣#1 K♦#0 Q♦#0 J♦#0 10♦#0"],
              trump="9♠#0", first_attacker=0)
    t.setup()
    t.do("0 lead 6♣#0", "1 beat 7♣#0 on 6♣#0")
    assert "0 throw 6♣#1" in t.legal(0)


def test_equal_lowest_trumps_in_two_hands_go_to_a_lot() -> None:
    """000_0a1bcdd496bc6662.txt: «В первой игре ходит первым игрок, у которого имеется младший
    козырь» — two copies of it: the lot (catalogue SP4, SP19)."""
    t = Table("bolshoy", ["6♠#0 7♥#0 8♥#0 9♥#0 10♥#0 J♥#0", "6♠#1 7♣#0 K♦#0 Q♦#0 J♦#0 10♦#0"],
              trump="9♠#0")
    t.setup(lot=1)
    assert t.state.phase == Phase.LEAD
    assert t.state.attacker == 1
    assert t.of(E.FirstAttacker) == [E.FirstAttacker(1, True)]


def test_a_hand_of_52_after_a_take_loses_at_once() -> None:
    """000_0a1bcdd496bc6662.txt: «Игрок, у которого оказываются 52 карты или более в ходе игры,
    сразу считается проигравшим.» The threshold is a knob (catalogue: "keep 52 for both; it is
    a knob"); a small one shows the rule with six-card hands."""
    assert get_preset("bolshoy").rules.immediate_loss_hand_size == 52
    t = Table("bolshoy", ["6♣#0 6♣#1 7♥#0 8♥#0 9♥#0 10♥#0", "7♣#0 A♥#1 K♦#0 Q♦#0 J♦#0 10♦#0"],
              trump="9♠#0", first_attacker=0, immediate_loss_hand_size=7)
    t.setup()
    t.do("0 lead 6♣#0", "1 take")
    assert t.state.phase == Phase.OVER
    assert t.state.result is not None
    assert t.state.result.durak == (1,)
    assert t.of(E.GameOver) == [E.GameOver((1,), False, 0)]
    assert t.of(E.Drew) == []  # the game ended before anybody drew


def test_a_refill_does_not_make_a_player_lose() -> None:
    """Catalogue `bolshoy`: «Checked after every take; a refill cannot trigger it.»"""
    t = Table("bolshoy", ["6♣#0 6♣#1 7♥#0 8♥#0 9♥#0 10♥#0", "7♣#0 A♥#1 K♦#0 Q♦#0 J♦#0 10♦#0"],
              trump="9♠#0", first_attacker=0, immediate_loss_hand_size=6)
    t.setup()
    t.do("0 lead 6♣#0", "1 beat 7♣#0 on 6♣#0", "0 pass")
    assert t.state.phase == Phase.LEAD
    assert t.state.hand_size(0) == t.state.hand_size(1) == 6
