"""The parts of «Дурак щелковский» (shchelkovsky) the engine plays already, on rule sets built
from the s_jokerom preset (the preset: test_variants_shchelkovsky). Catalogue:
shared/rules/variants-attack-defend.md, section `shchelkovsky`."""

from __future__ import annotations

from engine_support import Table

from p2p_durak.engine import Reason
from p2p_durak.engine.presets import get_preset
from p2p_durak.engine.rules import RuleSet, pending_knobs

_PARTS = {"deck_size": 52, "jokers_per_deck": 2, "joker_rule": "beats_all_but_two"}


def test_two_or_four_decks_of_52_with_two_jokers_and_one_joker_may_go() -> None:
    """000_0a1bcdd496bc6662.txt: «Количество колод: 2 или 4» and «Для того, чтобы не было
    ничьих, из колоды может удаляться один джокер, так как количество карт становится
    нечетным, то и ничейный исход игры невозможен.»"""
    for count, cards in ((2, 108), (4, 216)):
        rules = RuleSet(deck_count=count, **_PARTS)  # type: ignore[arg-type]
        assert rules.deck().n_cards == cards
        assert rules.with_options(remove_one_joker=True).deck().n_cards == cards - 1
        assert pending_knobs(rules) == []
    pending = get_preset("shchelkovsky").pending
    assert not any(k.startswith(("deck_count=", "jokers_per_deck=", "joker_rule="))
                   for k in pending)


def test_a_joker_beats_all_but_a_two_and_falls_only_to_a_two_or_a_joker() -> None:
    """000_0a1bcdd496bc6662.txt: «Джокер отбивает любую карту кроме двойки. Джокера может отбить
    только двойка или другой джокер.»"""
    t = Table("s_jokerom", ["A♠ 2♣ 7♥ 8♥ 9♥ 10♥", "J*R 7♣ K♦ Q♦ J♦ 10♦"], trump="9♠",
              first_attacker=0, **_PARTS)
    t.setup()
    t.do("0 lead A♠")
    assert [a for a in t.legal(1) if " beat " in a] == ["1 beat J*R on A♠"]
    two = Table("s_jokerom", ["2♣ A♠ 7♥ 8♥ 9♥ 10♥", "J*R 7♣ K♦ Q♦ J♦ 10♦"], trump="9♠",
                first_attacker=0, **_PARTS)
    two.setup()
    two.do("0 lead 2♣")
    assert two.refuse("1 beat J*R on 2♣").reason is Reason.DOES_NOT_BEAT
    led = Table("s_jokerom", ["J*R 7♥ 8♥ 9♥ 10♥ J♥", "2♣ J*B A♠ K♦ Q♦ J♦"], trump="9♠",
                first_attacker=0, **_PARTS)
    led.setup()
    led.do("0 lead J*R")
    assert sorted(a for a in led.legal(1) if " beat " in a) == ["1 beat 2♣ on J*R",
                                                                "1 beat J*B on J*R"]
