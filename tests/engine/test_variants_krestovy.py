"""«Дурак крестовый» (krestovy): the whole deck is laid out face up by a rank ladder, diamonds are
trump but cannot beat clubs, one card a bout, and a failed defence passes the attack on round
the table. Catalogue: shared/rules/variants-attack-defend.md, section `krestovy`."""

from __future__ import annotations

import random

import pytest
from test_variants_naborny import order, through_phase, turn

from p2p_durak.engine import IllegalAction, Phase, State, apply, legal_actions, make_game, new_game
from p2p_durak.engine import actions as A
from p2p_durak.engine import events as E
from p2p_durak.engine.prephase import pile_seat
from p2p_durak.engine.presets import get_preset

RULES = get_preset("krestovy").rules


def test_one_card_face_up_each_and_the_highest_starts() -> None:
    """000_0a1bcdd496bc6662.txt: «каждому игроку сдается по одной карте в открытом виде.
    Оставшаяся колода кладется по центру стола в закрытом виде. Первым ходит игрок, у которого
    старшая карта.» — equal ranks: the first of them from the dealer's left (the catalogue)."""
    game = make_game(RULES, 3, dealer=0)
    c = game.deck.parse
    state = new_game(game, order(game, "9♠ K♥ K♣"))
    events: list[E.Event] = []
    for _ in range(4):
        state = turn(state, events)
    assert state.table == (c("9♠"), c("K♥"), c("K♣"))
    assert [e for e in events if isinstance(e, E.Placed)] == [
        E.Placed(-1, c("9♠"), 1), E.Placed(-1, c("K♥"), 2), E.Placed(-1, c("K♣"), 0)]
    assert state.phase == Phase.TURN_UP
    assert state.attacker == 2  # the first king from the dealer's left


def test_a_card_goes_on_the_nearest_pile_one_rank_lower() -> None:
    """000_0a1bcdd496bc6662.txt: «Игрок берет верхнюю карту с колоды и кладет ее только тому
    игроку, у которого есть карта на одно значение меньше, чем та карта, которую он взял.
    Например, игрок взял даму, а у игрока напротив лежит валет, тогда он даму кладет на валета.
    Если имеются 2 валета у двоих игроков, то карта кладется на ближайший валет по часовой
    стрелке.» and «Ход переходит к следующему игроку по часовой стрелке.»"""
    game = make_game(RULES, 4, dealer=3)
    c = game.deck.parse
    # piles: seat 0 J♠, seat 1 A♦, seat 2 J♥, seat 3 7♣; seat 1 starts (the ace)
    state = new_game(game, order(game, "J♠ A♦ J♥ 7♣ Q♣"))
    events: list[E.Event] = []
    for _ in range(5):
        state = turn(state, events)
    state = turn(state, events)  # seat 1 turns Q♣: the jacks of seats 2 and 0, seat 2 nearer
    assert E.Placed(1, c("Q♣"), 2) in events
    assert state.table[[pile_seat(game, i) for i in range(4)].index(2)] == c("Q♣")
    assert state.hands[2] == 1 << c("J♥")  # the covered card is his
    assert state.attacker == 2


def test_the_lowest_rank_goes_on_an_ace_and_else_on_ones_own_pile() -> None:
    """000_0a1bcdd496bc6662.txt: «На туза кладется шестерка, если играют колодой в 36 карт» and
    «Если игрок никому положить эту карту не может, тогда он ее забирает к себе.» — onto his own
    pile (the catalogue: piles are taken up only at the end)."""
    game = make_game(RULES, 2, dealer=1)
    c = game.deck.parse
    # piles: seat 0 A♠, seat 1 9♥; seat 0 starts
    state = new_game(game, order(game, "A♠ 9♥ 8♣ 6♦"))
    events: list[E.Event] = []
    for _ in range(5):
        state = turn(state, events)
    assert E.Placed(0, c("8♣"), 0) in events  # nobody has a 7: his own pile
    state = turn(state, events)  # seat 1's 6♦: seat 0's pile shows 8♣ now, so his own
    assert E.Placed(1, c("6♦"), 1) in events
    game = make_game(RULES, 2, dealer=1)
    state = new_game(game, order(game, "A♠ 9♥ 10♣ 6♦"))
    for _ in range(5):
        state = turn(state, events)
    state = turn(state, events)  # seat 1's 6♦ goes on seat 0's ace
    assert E.Placed(1, c("6♦"), 0) in events


def test_the_whole_deck_is_laid_out_and_the_lowest_diamond_leads() -> None:
    """000_0a1bcdd496bc6662.txt: «Таким образом, раскладывается вся колода. После чего игроки
    берут все свои карты в руки и начинают игру. Козырной мастью считаются бубны. ... В первой
    игре первый ход принадлежит игроку, у которого младшая козырная карта.»"""
    game = make_game(RULES, 4, dealer=2)
    deck = list(range(game.n_cards))
    random.Random(8).shuffle(deck)
    state, events = through_phase(new_game(game, deck))
    diamonds = game.suit[game.deck.parse("6♦")]
    assert state.stock == ()
    assert state.table == ()
    assert sum(h.bit_count() for h in state.hands) == game.n_cards
    assert state.trump == diamonds
    assert E.TrumpRevealed(-2, diamonds) in events
    lowest = min((game.rank[c], s) for s in range(4) for c in range(game.n_cards)
                 if (state.hands[s] >> c) & 1 and game.suit[c] == diamonds)
    assert state.phase == Phase.LEAD
    assert state.attacker == lowest[1]


def _bout(n: int, attacker_cards: str, defender_cards: str, third: str = "",
          seed: int = 3) -> State:
    """A game after its ladder deal, with the hands replaced: the attacker, his left neighbour
    and (3+ players) the next one; a fourth player holds A♣; the rest is discarded."""
    game = make_game(RULES, n, dealer=0)
    deck = list(range(game.n_cards))
    random.Random(seed).shuffle(deck)
    state, _ = through_phase(new_game(game, deck))
    c = game.deck.parse
    a = state.attacker
    seats = [(a + k) % n for k in range(n)]
    given = [sum(1 << c(t) for t in text.split()) for text in (attacker_cards, defender_cards,
                                                              third)]
    hands = [0] * n
    for seat, mask in zip(seats, given, strict=False):
        hands[seat] = mask
    for seat in seats[3:]:
        hands[seat] = 1 << c("A♣")
    held = 0
    for hand in hands:
        held |= hand
    return state._replace(hands=tuple(hands), defender=seats[1],
                          discard=game.all_cards & ~held)


def test_diamonds_do_not_beat_clubs_and_nothing_is_thrown_in() -> None:
    """000_0a1bcdd496bc6662.txt: «Бубновой картой можно отбить карту любой масти, кроме треф.»
    and «Если игрок отбивает эту карту, то карты откладываются в сторону в отбой» — no
    throw-in sentence."""
    state = _bout(3, "7♣ 7♠", "A♦ 8♠", "9♥")
    c = state.game.deck.parse
    a, d = state.attacker, state.defender
    led, _ = apply(state, A.lead(a, c("7♣")))
    assert not any(x.kind == A.BEAT for x in legal_actions(led, d))
    led, _ = apply(state, A.lead(a, c("7♠")))
    assert legal_actions(led, d)[:2] == (A.beat(d, c("8♠"), 0), A.beat(d, c("A♦"), 0))
    done, events = apply(led, A.beat(d, c("8♠"), 0))
    assert E.Discarded(tuple(sorted((c("7♠"), c("8♠"))))) in events
    assert done.phase == Phase.LEAD  # nobody threw in: the bout is over
    assert done.attacker == d


def test_a_failed_defence_passes_the_attack_on() -> None:
    """000_0a1bcdd496bc6662.txt: «Если игрок не может отбить карту, то он берет первую карту
    хода, а остальные карты переходят к следующему игроку по кругу, который отбивает последнюю
    карту. Если игрок отобьет ее, то карты также идут в отбой» — the catalogue's reading (A): he
    lays a card of his own for the next player and takes the led card."""
    state = _bout(4, "K♠ 7♣", "8♥ 9♣", "10♥ 6♠")
    c = state.game.deck.parse
    a, d = state.attacker, state.defender
    nxt = (d + 1) % 4
    state, _ = apply(state, A.lead(a, c("K♠")))
    options = legal_actions(state, d)
    assert options == (A.chain(d, c("9♣")), A.chain(d, c("8♥"))) or set(options) == {
        A.chain(d, c("9♣")), A.chain(d, c("8♥"))}
    with pytest.raises(IllegalAction, match="MUST_PASS_ON"):
        apply(state, A.take(d))
    state, events = apply(state, A.chain(d, c("8♥")))
    assert E.ChainPassed(d, c("8♥"), c("K♠"), nxt) in events
    assert state.hands[d] == (1 << c("9♣")) | (1 << c("K♠"))
    assert state.table == (c("8♥"),)
    assert state.defender == nxt
    state, events = apply(state, A.beat(nxt, c("10♥"), 0))
    assert E.Discarded(tuple(sorted((c("8♥"), c("10♥"))))) in events
    assert state.phase == Phase.LEAD
    assert state.attacker == nxt  # the player who beat attacks next (SP7)


def test_the_chain_stops_before_the_attacker() -> None:
    """000_0a1bcdd496bc6662.txt: «а если нет, то первую карту забирает себе, а остальные карты
    передает дальше по кругу для отбивания следующим игроком.» — the catalogue's guard (not in
    the source): when the next would be the player who led, the defender takes."""
    state = _bout(3, "K♠ 7♣", "8♥ 9♣", "6♠ 6♥")
    c = state.game.deck.parse
    a, d = state.attacker, state.defender
    last = (d + 1) % 3
    state, _ = apply(state, A.lead(a, c("K♠")))
    state, _ = apply(state, A.chain(d, c("9♣")))
    assert state.defender == last
    options = legal_actions(state, last)
    assert options == (A.take(last),)
    with pytest.raises(IllegalAction):
        apply(state, A.chain(last, c("6♠")))
    state, events = apply(state, A.take(last))
    assert E.Took(last, (c("9♣"),)) in events
    assert state.attacker == a  # the taker's left neighbour (SP7)


def test_two_players_take_plainly() -> None:
    """000_0a1bcdd496bc6662.txt: «Если игрок не может отбить карту, то он берет первую карту
    хода» — with two players the next is always the attacker, so the defender takes."""
    state = _bout(2, "K♠ 7♣", "8♥ 9♣")
    c = state.game.deck.parse
    a, d = state.attacker, state.defender
    state, _ = apply(state, A.lead(a, c("K♠")))
    assert legal_actions(state, d) == (A.take(d),)
