"""«Дурак щелковский» (shchelkovsky): the deltas from the baseline beyond the decks and jokers
of test_variants_shchelkovsky_parts. Catalogue: shared/rules/variants-attack-defend.md, section
`shchelkovsky`; seed 000_0a1bcdd496bc6662.txt."""

from __future__ import annotations

from engine_support import Table

from p2p_durak.engine import Reason, apply, chance_outcome
from p2p_durak.engine import events as E
from p2p_durak.engine.cards import NO_SUIT
from p2p_durak.engine.rules import RuleSet
from p2p_durak.engine.setup import make_game, new_game
from p2p_durak.engine.state import Phase, State

_TIE = "next_trumps_then_joker_then_lot"
_RULES = {"deck_count": 2, "deck_size": 52, "jokers_per_deck": 2,
          "joker_rule": "beats_all_but_two", "first_attacker_tiebreak": _TIE}



def _table(hands: list[str], trump: str = "9♠#1") -> Table:
    return Table("s_jokerom", hands, trump=trump, **_RULES)


def test_identical_lowest_trumps_compare_the_next_trumps() -> None:
    """000_0a1bcdd496bc6662.txt: «если у обоих игроков 2 одинаковых козыря (игра в 2 колоды),
    то сравниваются следующие козыри»."""
    t = _table(["6♠#0 8♠#0 7♥ 8♥ 9♥ 10♥", "6♠#1 7♠#0 7♣ K♦ Q♦ J♦", "10♠#0 7♦ 8♦ 9♦ 10♦ J♣"])
    t.do("deal", "reveal 9♠#1")
    assert t.legal(1) == ["1 claim 6♠#1"]
    t.do("1 claim 6♠#1", "2 claim 10♠#0", "0 claim 6♠#0")
    assert t.state.phase == 2  # still claiming: the tied seats show their next trumps
    assert t.legal(1) == ["1 claim 7♠#0"]
    assert t.refuse("1 claim 6♠#1").reason is Reason.WRONG_CLAIM
    t.do("1 claim 7♠#0")
    assert t.legal(0) == ["0 claim 8♠#0"]
    t.do("0 claim 8♠#0")
    assert t.state.attacker == 1
    assert t.of(E.FirstAttacker) == [E.FirstAttacker(1, False)]


def test_without_next_trumps_the_joker_holder_leads() -> None:
    """000_0a1bcdd496bc6662.txt: «при их отсутствии, преимущество получает тот игрок, у
    которого джокер»."""
    t = _table(["6♠#0 J*R 7♥ 8♥ 9♥ 10♥", "6♠#1 7♣ 8♣ K♦ Q♦ J♦"])
    t.do("deal", "reveal 9♠#1", "1 claim 6♠#1", "0 claim 6♠#0")
    assert t.legal(1) == ["1 no_trump"]
    t.do("1 no_trump", "0 no_trump")
    assert t.legal(1) == ["1 no_trump"]  # the joker round
    assert t.refuse("1 claim 7♣").reason is Reason.WRONG_CLAIM
    t.do("1 no_trump")
    assert t.refuse("0 no_trump").reason is Reason.WRONG_CLAIM
    t.do("0 claim J*R")
    assert t.state.attacker == 0


def test_a_seat_with_a_next_trump_beats_one_without_and_a_joker_tie_goes_to_the_lot() -> None:
    """The catalogue: «Joker-holder tie-break when both or neither have a joker → seeded
    lot»; a tied seat that shows no next trump drops out (docs/rules.md)."""
    t = _table(["6♠#0 7♥ 8♥ 9♥ 10♥ J♥", "6♠#1 A♠#0 8♣ K♦ Q♦ J♦"])
    t.do("deal", "reveal 9♠#1", "1 claim 6♠#1", "0 claim 6♠#0", "1 claim A♠#0",
         "0 no_trump")
    assert t.state.attacker == 1
    lot = _table(["6♠#0 J*R 8♥ 9♥ 10♥ J♥", "6♠#1 J*B 8♣ K♦ Q♦ J♦"])
    lot.do("deal", "reveal 9♠#1", "1 claim 6♠#1", "0 claim 6♠#0", "1 no_trump", "0 no_trump",
           "1 claim J*B", "0 claim J*R")
    assert lot.state.phase == 3
    assert lot.state.lot_among == (0, 1)
    lot.do("lot 0")
    assert lot.state.attacker == 0


def test_without_the_knob_a_tie_goes_to_the_lot_at_once() -> None:
    t = Table("s_jokerom", ["6♠#0 8♠#0 7♥ 8♥ 9♥ 10♥", "6♠#1 7♠#0 7♣ K♦ Q♦ J♦"], trump="9♠#1",
              **{**_RULES, "first_attacker_tiebreak": "lot"})
    t.do("deal", "reveal 9♠#1", "1 claim 6♠#1", "0 claim 6♠#0")
    assert t.state.phase == 3
    assert t.state.lot_among == (0, 1)


_PROEZD = {**_RULES, "transfer": True, "transfer_by_showing": "backward_proezdnoy",
           "self_throw_in": "after_proezdnoy", "max_players": 10}


def _chain() -> Table:
    t = Table("s_jokerom", ["7♥#0 10♥#0 J♥#0 Q♥#0 K♥#0 A♥#0",
                            "7♣#0 7♦#0 8♥#0 K♣#0 8♦#0 9♦#0",
                            "7♠#0 8♣#0 9♣#0 10♣#0 J♣#0 Q♣#0"], trump="9♠#1",
              first_attacker=0, **_PROEZD)
    t.setup()
    return t


def test_a_shown_trump_sends_the_cards_back_to_the_previous_player_who_must_defend() -> None:
    """000_0a1bcdd496bc6662.txt: «показать козырную карту такого же значения (проездной) и
    карта, с которой зашли, переходит к предыдущему игроку, то есть назад к игроку против
    часовой стрелки. Этот игрок, если ему сделали проездного, обязан отбиваться»."""
    t = _chain()
    t.do("0 lead 7♥#0", "1 transfer 7♣#0")
    assert t.state.defender == 2
    assert "2 show 7♠#0" in t.legal(2)
    t.do("2 show 7♠#0")
    assert t.state.defender == 1  # back, counter-clockwise, with both cards
    assert [text for text, _ in t.table_text()] == ["7♥#0", "7♣#0"]
    assert not [a for a in t.legal(1) if " transfer " in a or " show " in a]
    assert "1 take" in t.legal(1)
    assert t.refuse("1 transfer 7♦#0").reason is Reason.TRANSFER_NOT_ALLOWED
    shown = t.of(E.Transferred)
    assert shown == [E.Transferred(2, t.c("7♠#0"), 1, True)]


def test_after_a_proezdnoy_the_defender_throws_in_its_rank_to_himself() -> None:
    """000_0a1bcdd496bc6662.txt: «В случае показа проездного, игрок может сам себе подкидывать
    карты того же значения, что и проездной, и соответственно отбивать их.»"""
    t = _chain()
    t.do("0 lead 7♥#0", "1 transfer 7♣#0", "2 show 7♠#0", "1 beat 8♥#0 on 7♥#0",
         "1 beat K♣#0 on 7♣#0")
    assert 1 in t.state.actors
    assert t.legal(1) == ["1 throw 7♦#0", "1 pass"]  # only the проездной's rank, not 8♦
    assert t.refuse("1 throw 8♦#0").reason is Reason.RANK_NOT_ON_TABLE
    t.do("1 throw 7♦#0")
    assert t.state.defender == 1
    assert t.legal(1) == ["1 beat 8♦#0 on 7♦#0", "1 beat 9♦#0 on 7♦#0", "1 take"]
    t.do("1 beat 9♦#0 on 7♦#0")
    assert "0 throw K♥#0" in t.legal(0)  # the others keep their throw-ins


def test_in_the_first_bout_the_previous_player_is_the_attacker_himself() -> None:
    """The catalogue: «In bout 1 the "previous player" is the attacker himself, so he must beat
    his own lead (literal; kept)»."""
    t = Table("s_jokerom", ["7♥#0 10♥#0 J♥#0 Q♥#0 K♥#0 A♥#0",
                            "7♠#0 7♠#1 8♥#0 K♣#0 8♦#0 9♦#0",
                            "8♣#0 9♣#0 10♣#0 J♣#0 Q♣#0 K♣#1"], trump="9♠#1",
              first_attacker=0, **_PROEZD)
    t.setup()
    t.do("0 lead 7♥#0")
    assert [a for a in t.legal(1) if " show " in a] == ["1 show 7♠#0", "1 show 7♠#1"]
    t.do("1 show 7♠#0")
    assert t.state.defender == 0
    assert t.legal(0) == ["0 beat 10♥#0 on 7♥#0", "0 beat J♥#0 on 7♥#0",
                          "0 beat Q♥#0 on 7♥#0", "0 beat K♥#0 on 7♥#0",
                          "0 beat A♥#0 on 7♥#0", "0 take"]


# (throw-ins before the defender beats, only so that the defender need not beat them all here)
_CAP = {**_PROEZD, "hand_size": 14, "bout_attack_limit": 10, "first_bout_attack_limit": 10,
        "throw_in_timing": "until_bout_closed",
        "extra": (("bout_limit_counts", "thrown_in_only"),)}
_BIG = ["7♥#0 7♥#1 7♦#0 7♦#1 7♣#0 7♣#1 7♠#0 8♦#0 8♦#1 8♣#0 8♣#1 8♥#1 K♦#0 8♠#0",
        "8♥#0 2♣#0 2♦#0 3♣#0 3♦#0 4♣#0 4♦#0 5♣#0 5♦#0 6♣#0 6♦#0 2♥#0 3♥#0 4♥#0",
        "9♥#0 10♥#0 J♥#0 Q♥#0 K♥#0 A♥#0 9♣#0 10♣#0 J♣#0 Q♣#0 K♣#0 A♣#0 9♦#0 10♦#0"]
_THROWS = ("7♥#1", "7♦#0", "7♦#1", "7♣#0", "7♣#1", "7♠#0", "8♦#0", "8♦#1", "8♣#0", "8♣#1")


def test_the_cap_of_ten_counts_only_the_thrown_in_cards() -> None:
    """000_0a1bcdd496bc6662.txt: «Максимальное число подкидываемых карт 10.» The catalogue's
    resolution (A): a hard cap of ten thrown-in cards, the lead and transfer cards not
    counted."""
    t = Table("s_jokerom", _BIG, trump="9♠#1", first_attacker=0, **_CAP)
    t.setup()
    t.do("0 lead 7♥#0", "1 beat 8♥#0 on 7♥#0")
    t.do(*(f"0 throw {card}" for card in _THROWS))
    assert len(t.state.table) == 11  # one led, ten thrown in
    assert 0 not in t.state.actors
    assert t.refuse("0 throw 8♥#1").reason is Reason.THROW_IN_NOT_ALLOWED
    every = Table("s_jokerom", _BIG, trump="9♠#1", first_attacker=0,
                  **{**_CAP, "extra": ()})
    every.setup()
    every.do("0 lead 7♥#0", "1 beat 8♥#0 on 7♥#0")
    every.do(*(f"0 throw {card}" for card in _THROWS[:9]))
    assert 0 not in every.state.actors  # the plain limit counts the lead too


def _turn_until_trump(stock_tail: str) -> tuple[list[E.Event], State]:
    """Deal two hands of 52 from two decks (so four cards are left) with the given stock, and
    turn the trump: the events of the turning, and the state after it."""
    rules = RuleSet(**{**_RULES, "hand_size": 52, "trump_indicator_special": "reinsert_middle"})
    game = make_game(rules, 2, 0, 0)
    tail = [game.deck.parse(text) for text in stock_tail.split()]
    order = [c for c in range(game.n_cards) if c not in tail] + tail
    state = new_game(game, order)
    events: list[E.Event] = []
    for _ in range(40):  # a bound: the turning must end
        if state.phase != Phase.DEAL and state.phase != Phase.REVEAL_TRUMP:
            break
        action = chance_outcome(state)
        assert action is not None
        state, new = apply(state, action)
        events.extend(new)
    assert state.phase not in (Phase.DEAL, Phase.REVEAL_TRUMP)
    return events, state


def test_jokers_turned_again_go_to_the_bottom_so_the_turning_ends() -> None:
    """000_0a1bcdd496bc6662.txt: «Если эта карта джокер, то он убирается в середину колоды и
    открывается снова верхняя карта колоды.» Three jokers in a stock of four came up in turn
    for ever; a joker turned a second time goes to the bottom (docs/rules.md)."""
    events, state = _turn_until_trump("J*B#0 J*R#1 J*B#1 9♠#0")
    moved = [(e.card, e.position) for e in events if isinstance(e, E.TrumpReinserted)]
    assert [p for _, p in moved] == [2, 2, 2, 3, 3, 3]
    assert state.trump == state.game.suit[state.game.deck.parse("9♠#0")]
    _, none = _turn_until_trump("J*R#0 J*B#0 J*R#1 J*B#1")
    assert none.trump == NO_SUIT  # only jokers, each turned: no trump


def test_taking_back_ones_own_cards_for_ever_ends_in_a_draw() -> None:
    """The recipient of a проездной may take (the catalogue: «"обязан отбиваться" → the
    recipient cannot transfer or show, but may still take»); heads-up that is the attacker
    himself, so two players can hand the same cards back and forth for ever. Like занудный's,
    the game is a draw after three bouts per card (docs/rules.md)."""
    t = Table("shchelkovsky", ["7♥#0 8♠#0 10♥#0 J♥#0 Q♥#0 K♥#0",
                               "8♥#0 7♠#0 10♦#0 J♦#0 Q♦#0 K♦#0"], trump="9♠#1",
              first_attacker=0)
    t.setup()
    cycle = ("0 lead 7♥#0", "1 show 7♠#0", "0 take", "1 lead 8♥#0", "0 show 8♠#0", "1 take")
    while t.state.result is None:
        assert t.state.bout < 3 * t.game.n_cards
        t.do(*cycle[:3] if t.state.attacker == 0 else cycle[3:])
    assert t.state.result.draw
    assert t.state.bout == 3 * 108
