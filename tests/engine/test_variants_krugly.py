"""«Дурак круглый» (krugly): no deal; eight face-up cards round a central trump card, a capture
phase by beating them, then a durak without a stock with pattern leads, no throw-ins, a take of
the unbeaten cards only and the turn passing left every bout. Catalogue:
shared/rules/variants-attack-defend.md, section `krugly`."""

from __future__ import annotations

import random

from test_variants_naborny import order, through_phase, turn

from p2p_durak.engine import (
    Phase,
    State,
    apply,
    legal_actions,
    make_game,
    new_game,
    random_playout,
    to_act,
)
from p2p_durak.engine import actions as A
from p2p_durak.engine import events as E
from p2p_durak.engine.bout import lead_shape
from p2p_durak.engine.cards import cards_of
from p2p_durak.engine.presets import get_preset

RULES = get_preset("krugly").rules
LAYOUT = "7♠ 8♣ 9♦ 10♠ J♣ Q♦ K♠ 6♣"  # the eight open cards (no hearts), then the centre


def laid_out(n: int, rest: str, centre: str = "6♥", dealer: int = 0) -> tuple[State,
                                                                             list[E.Event]]:
    game = make_game(RULES, n, dealer=dealer)
    state = new_game(game, order(game, f"{LAYOUT} {centre} {rest}"))
    events: list[E.Event] = []
    for _ in range(10):  # the deal, eight open cards, the centre
        state = turn(state, events)
    return state, events


def test_eight_open_cards_and_the_centre_card_is_trump() -> None:
    """000_0a1bcdd496bc6662.txt: «8 карт, обозначенные плюсами, в открытом виде и по центру
    стола кладется верхняя карта с оставшейся колоды это козырь.» and «Первый ход принадлежит
    игроку, который сидит слева от сдатчика.»"""
    state, events = laid_out(3, "")
    game = state.game
    c = game.deck.parse
    assert state.trump == game.suit[c("6♥")]
    assert state.trump_card == c("6♥")
    assert state.table == tuple(c(t) for t in LAYOUT.split()) + (c("6♥"),)
    assert E.TrumpRevealed(c("6♥"), game.suit[c("6♥")]) in events
    assert state.phase == Phase.TURN_UP
    assert state.attacker == 1
    assert state.hands == (0, 0, 0)


def test_a_card_takes_what_it_beats_and_the_turn_passes() -> None:
    """000_0a1bcdd496bc6662.txt: «Отбить можно только старшей картой или козырной картой, если
    карта, которая отбивается не козырная. ... Если игрок отбил карту, то он забирает обе карты
    себе. ... Затем ход переходит к следующем игроку по часовой стрелке.»"""
    state, events = laid_out(3, "8♠ 7♥ 6♠")
    c = state.game.deck.parse
    state = turn(state, events)  # seat 1: 8♠ beats only 7♠
    assert E.Captured(1, c("8♠"), c("7♠")) in events
    assert state.hands[1] == (1 << c("8♠")) | (1 << c("7♠"))
    assert state.attacker == 2  # one card per turn
    state = turn(state, events)  # seat 2: the 7♥ trump beats every plain card: a choice
    assert state.phase == Phase.CAPTURE
    assert to_act(state) == {2}
    options = legal_actions(state, 2)
    assert len(options) == 8  # the seven plain cards left and the lower trump in the centre
    assert A.capture(2, c("6♥")) in options
    state, new = apply(state, A.capture(2, c("Q♦")))
    assert E.Captured(2, c("7♥"), c("Q♦")) in new
    assert state.attacker == 0
    state = turn(state, events)  # seat 0: 6♠ beats nothing
    assert E.Laid(0, c("6♠")) in events
    assert state.table[-1] == c("6♠")
    assert state.attacker == 1


def test_a_trump_is_beaten_only_by_a_higher_trump() -> None:
    """000_0a1bcdd496bc6662.txt: «Если отбиваемая карта козырь, то необходимо отбивать старшей
    козырной картой.»"""
    state, events = laid_out(2, "A♠ 7♥", centre="8♥")
    c = state.game.deck.parse
    state = turn(state, events)  # seat 1: A♠ beats the three lower spades, not the 8♥
    assert state.phase == Phase.CAPTURE
    assert sorted(a.cards[0] for a in legal_actions(state, 1)) == sorted(
        [c("7♠"), c("10♠"), c("K♠")])
    state, _ = apply(state, A.capture(1, c("K♠")))
    state = turn(state, events)  # seat 0: 7♥ cannot take the 8♥ centre
    assert A.capture(0, c("8♥")) not in legal_actions(state, 0)


def test_beating_the_ninth_card_takes_the_whole_table() -> None:
    """000_0a1bcdd496bc6662.txt: «Игрок, который отбивает девятую карту, забирает все
    оставшиеся карты на столе. После того, как карты на столе будут разобраны, игроки начинают
    играть по другим правилам.»"""
    state, events = laid_out(2, "7♥ 10♣")
    c = state.game.deck.parse
    state = turn(state, events)  # seat 1: 7♥ may take any plain card or the 6♥ centre
    state, new = apply(state, A.capture(1, c("6♥")))
    swept = [e for e in new if isinstance(e, E.Swept)]
    assert swept == [E.Swept(1, tuple(c(t) for t in LAYOUT.split()))]
    assert state.phase == Phase.OVER
    assert state.hand_size(1) == 10
    assert state.hand_size(0) == 0
    assert state.result is not None  # one player holds every card: he is the durak at once
    assert state.result.durak == (1,)


def test_a_stock_run_out_leaves_the_table_to_the_next_player() -> None:
    """000_0a1bcdd496bc6662.txt: «После того, как карты на столе будут разобраны, игроки
    начинают играть по другим правилам.» — with the trump ace in the centre nobody can beat
    it; when the stock is gone the player whose turn it would be takes the rest (the
    catalogue's "Ромашка" rule)."""
    game = make_game(RULES, 3, dealer=2)
    c = game.deck.parse
    deck = order(game, f"{LAYOUT} A♥")
    rest = deck[9:]
    random.Random(4).shuffle(rest)
    state, events = through_phase(new_game(game, deck[:9] + rest))
    swept = [e for e in events if isinstance(e, E.Swept)]
    last = [e for e in events if isinstance(e, E.TurnedUp)][-1]
    assert len(swept) == 1
    assert swept[0].seat == (last.seat + 1) % 3
    assert c("A♥") in swept[0].cards
    assert state.stock == ()
    assert sum(h.bit_count() for h in state.hands) == game.n_cards
    assert state.phase == Phase.LEAD


def test_the_leads_are_one_card_a_pair_and_a_card_or_two_pairs_and_a_card() -> None:
    """000_0a1bcdd496bc6662.txt: «Ходить можно с любой одной карты или с трех карт из одной
    пары и одной любой карты, или с пяти карт, где две пары карт и одна любая карта.»"""
    game = make_game(RULES, 2, dealer=0)
    deck = list(range(game.n_cards))
    random.Random(5).shuffle(deck)
    state, _ = through_phase(new_game(game, deck))
    c = game.deck.parse
    hand = sum(1 << c(t) for t in ["7♠", "7♦", "9♠", "9♣", "J♥", "6♦"])
    rest = game.all_cards & ~hand
    seat = state.attacker
    hands = tuple(hand if s == seat else rest for s in range(2))
    state = state._replace(hands=hands)
    shapes = {lead_shape(game.rank, a.cards) for a in legal_actions(state, seat)}
    assert shapes == {(1,), (2, 1), (2, 2, 1)}
    with_trips = hand | (1 << c("7♣"))
    state = state._replace(hands=tuple(with_trips if s == seat else rest & ~with_trips
                                       for s in range(2)))
    shapes = {lead_shape(game.rank, a.cards) for a in legal_actions(state, seat)}
    assert shapes == {(1,), (2, 1), (3,), (2, 2, 1), (3, 2)}


def _bout_state(seed: int = 5) -> State:
    game = make_game(RULES, 3, dealer=0)
    deck = list(range(game.n_cards))
    random.Random(seed).shuffle(deck)
    state, _ = through_phase(new_game(game, deck))
    return state


def _lead_three(state: State) -> tuple[State, tuple[int, ...]]:
    """Give the attacker a lead of three (7♠ 7♦ 9♠) and the defender 8♠ (beats only 7♠)."""
    game = state.game
    c = game.deck.parse
    attacker, defender = state.attacker, state.defender
    lead = tuple(sorted(c(t) for t in ["7♠", "7♦", "9♠"]))
    mine = sum(1 << x for x in lead) | (1 << c("A♣"))
    his = (1 << c("8♠")) | (1 << c("6♣")) | (1 << c("6♦")) | (1 << c("10♣"))
    others = game.all_cards & ~mine & ~his
    third = 3 - attacker - defender
    hands = [0, 0, 0]
    hands[attacker], hands[defender], hands[third] = mine, his, others
    state = state._replace(hands=tuple(hands), trump=game.suit[c("6♥")])
    return state, lead


def test_no_throw_ins_and_the_defender_takes_only_what_he_did_not_beat() -> None:
    """000_0a1bcdd496bc6662.txt: «Игрок, к которому походили с этих карт, должен отбить их.
    Карты, которые игрок отбивает, идут в отбой, а те, которые он не смог побить, он забирает
    себе»"""
    state, lead = _lead_three(_bout_state())
    c = state.game.deck.parse
    attacker, defender = state.attacker, state.defender
    state, _ = apply(state, A.lead(attacker, *lead))
    assert to_act(state) == {defender}  # nobody throws in
    state, _ = apply(state, A.beat(defender, c("8♠"), lead.index(c("7♠"))))
    state, events = apply(state, A.take(defender))
    took = next(e for e in events if isinstance(e, E.Took))
    discarded = next(e for e in events if isinstance(e, E.Discarded))
    assert sorted(took.cards) == sorted([c("7♦"), c("9♠")])
    assert sorted(discarded.cards) == sorted([c("7♠"), c("8♠")])
    assert (state.discard >> c("8♠")) & 1
    assert not (state.hands[defender] >> c("7♠")) & 1


def test_the_turn_passes_left_after_a_take_and_after_a_defence() -> None:
    """000_0a1bcdd496bc6662.txt: «а те, которые он не смог побить, он забирает себе, а ход
    переходит к следующему игроку по часовой стрелке.» — the next attacker is the attacker's
    left neighbour (the defender), also when he took."""
    state, lead = _lead_three(_bout_state())
    attacker, defender = state.attacker, state.defender
    state, _ = apply(state, A.lead(attacker, *lead))
    state, _ = apply(state, A.take(defender))
    assert state.phase == Phase.LEAD
    assert state.attacker == defender
    assert state.defender == (defender + 1) % 3
    lone = cards_of(state.hands[state.attacker])[0]
    state, _ = apply(state, A.lead(state.attacker, lone))
    options = legal_actions(state, state.defender)
    beats = [a for a in options if a.kind == A.BEAT]
    if beats:
        before = state.attacker
        state, _ = apply(state, beats[0])
        assert state.attacker == (before + 1) % 3


def test_two_players_out_at_once_is_a_draw() -> None:
    """000_0a1bcdd496bc6662.txt: «В игре возможна ничья если играют 2 игрока и у обоих
    заканчиваются карты.»"""
    state = _bout_state()
    game = state.game
    c = game.deck.parse
    attacker, defender = state.attacker, state.defender
    hands = [0, 0, 0]
    hands[attacker], hands[defender] = 1 << c("7♠"), 1 << c("8♠")
    third = 3 - attacker - defender
    out = 1 << third
    state = state._replace(hands=tuple(hands), out=out, finish=(third,))
    state, _ = apply(state, A.lead(attacker, c("7♠")))
    state, _ = apply(state, A.beat(defender, c("8♠"), 0))
    assert state.phase == Phase.OVER
    assert state.result is not None
    assert state.result.draw


def test_games_end_and_cards_nobody_can_beat_end_in_a_draw() -> None:
    """000_0a1bcdd496bc6662.txt: «Таким образом, игра идет до тех пор, пока не останется одного
    игрока с картами.» — a take passes the turn to the taker, so two players holding cards
    neither can beat would hand them back and forth for ever; a game reaching 3 × the deck's
    bouts is a draw (docs/rules.md)."""
    game = make_game(RULES, 5, dealer=4)
    deck = list(range(game.n_cards))
    random.Random(14).shuffle(deck)
    end = random_playout(new_game(game, deck), 14)
    assert end.phase == Phase.OVER
    assert end.result is not None
    if end.result.draw and end.result.durak == ():
        assert end.bout <= 3 * game.n_cards


def test_a_table_option_leaves_the_cards_out_of_play_when_the_stock_runs_out() -> None:
    """000_0a1bcdd496bc6662.txt: «Оставшаяся колода кладется в сторону.» — the catalogue's
    alternative (`on_stock_empty: discard_leftovers`): the cards left on the table go out of
    play instead of to the next player."""
    rules = RULES.with_options(pre_phase_params=(("on_stock_empty", "discard_leftovers"),))
    game = make_game(rules, 3, dealer=2)
    c = game.deck.parse
    deck = order(game, f"{LAYOUT} A♥")
    rest = deck[9:]
    random.Random(4).shuffle(rest)
    state, events = through_phase(new_game(game, deck[:9] + rest))
    assert not [e for e in events if isinstance(e, E.Swept)]
    discarded = next(e for e in events if isinstance(e, E.Discarded))
    assert c("A♥") in discarded.cards
    assert (state.discard >> c("A♥")) & 1
    assert sum(h.bit_count() for h in state.hands) + state.discard.bit_count() == game.n_cards


def test_a_table_option_makes_the_first_card_laid_beside_the_eight_the_ninth() -> None:
    """000_0a1bcdd496bc6662.txt: «кладет свою карту открытой рядом с восемью открытыми картами
    ... Игрок, который отбивает девятую карту, забирает все оставшиеся карты на столе.» The
    catalogue's reading (b), `ninth_card: first_added` (a table option): the ninth card is the
    first one laid beside the eight; the centre card is then taken like any other."""
    rules = RULES.with_options(pre_phase_params=(("ninth_card", "first_added"),))
    game = make_game(rules, 2, dealer=0)
    c = game.deck.parse
    state = new_game(game, order(game, f"{LAYOUT} 6♥ 6♠ 7♥ 6♦ 8♥"))
    events: list[E.Event] = []
    for _ in range(11):  # the deal, the layout, the centre; seat 1's 6♠ beats nothing
        state = turn(state, events)
    assert E.Laid(1, c("6♠")) in events
    state = turn(state, events)  # seat 0: the 7♥ trump may take the 6♥ centre
    state, new = apply(state, A.capture(0, c("6♥")))
    assert not [e for e in new if isinstance(e, E.Swept)]
    assert state.phase == Phase.TURN_UP  # only the centre card was taken
    assert state.hands[0] == (1 << c("7♥")) | (1 << c("6♥"))
    state = turn(state, events)  # seat 1: 6♦ beats nothing and is laid, not the ninth
    state = turn(state, events)  # seat 0: 8♥ takes the 6♠, the ninth: the whole table
    state, new = apply(state, A.capture(0, c("6♠")))
    swept = [e for e in new if isinstance(e, E.Swept)]
    assert swept == [E.Swept(0, tuple(c(t) for t in LAYOUT.split()) + (c("6♦"),))]
    assert state.phase in (Phase.LEAD, Phase.OVER)
    assert state.shown == 0
