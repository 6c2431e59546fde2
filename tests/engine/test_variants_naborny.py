"""«Дурак наборный» (naborny): no deal; the hands are built in a capture phase over a face-up
row by the stock, the last card is the trump and sweeps the row, then throw-in durak without a
stock. Catalogue: shared/rules/variants-attack-defend.md, section `naborny`."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

import pytest

from p2p_durak.engine import (
    CHANCE,
    Action,
    Game,
    Phase,
    RuleError,
    State,
    apply,
    chance_outcome,
    legal_actions,
    make_game,
    new_game,
    next_game,
    private_view,
    public_view,
    random_playout,
    to_act,
)
from p2p_durak.engine import actions as A
from p2p_durak.engine import events as E
from p2p_durak.engine.presets import get_preset, with_base_rules

RULES = get_preset("naborny").rules
_PRE = (Phase.DEAL, Phase.TURN_UP, Phase.CAPTURE)


def order(game: Game, top: str) -> list[int]:
    """The deck order: these cards first (top first), then the rest by id."""
    listed = [game.deck.parse(t) for t in top.split()]
    return listed + [c for c in range(game.n_cards) if c not in listed]


def turn(state: State, events: list[E.Event]) -> State:
    """One chance action (the deal, or the next card turned up)."""
    action = chance_outcome(state)
    assert action is not None
    state, new = apply(state, action)
    events.extend(new)
    return state


def through_phase(state: State, choose: Callable[[Sequence[Action]], Action] = lambda o: o[0]
                  ) -> tuple[State, list[E.Event]]:
    events: list[E.Event] = []
    while state.phase in _PRE:
        if CHANCE in to_act(state):
            state = turn(state, events)
        else:
            (seat,) = to_act(state)
            state, new = apply(state, choose(legal_actions(state, seat)))
            events.extend(new)
    return state, events


def test_a_seed_card_then_turns_from_left_of_the_dealer() -> None:
    """000_0a1bcdd496bc6662.txt: «Верхняя карта с колоды снимается и кладется возле колоды в
    открытом виде. Первый ход принадлежит игроку слева от сдатчика, далее ходят по часовой
    стрелке.» and «Если же карта игрока не может побить карту лежащую около колоды, то он
    выкладывает ее рядом с первой и ход переходит к следующему игроку.»"""
    game = make_game(RULES, 3, dealer=0)
    c = game.deck.parse
    state = new_game(game, order(game, "7♠ 9♥ 6♠"))
    events: list[E.Event] = []
    state = turn(state, events)  # the (empty) deal
    assert state.phase == Phase.TURN_UP
    assert state.attacker == 1
    state = turn(state, events)
    assert state.table == (c("7♠"),)
    assert state.attacker == 1
    state = turn(state, events)  # 9♥ cannot take 7♠: laid, seat 2's turn
    assert state.table == (c("7♠"), c("9♥"))
    assert state.attacker == 2
    state = turn(state, events)  # 6♠ is lower: laid, seat 0's turn
    assert state.table == (c("7♠"), c("9♥"), c("6♠"))
    assert state.attacker == 0
    assert E.Laid(1, c("9♥")) in events
    assert E.TurnedUp(-1, c("7♠")) in events
    assert state.hands == (0, 0, 0)


def test_a_higher_card_of_the_suit_takes_and_the_player_goes_on() -> None:
    """000_0a1bcdd496bc6662.txt: «Если эти карты одной масти и карта, взятая игроком, старше по
    достоинству, то игрок забирает лежащую возле колоды карту. Затем он продолжает ходить»"""
    game = make_game(RULES, 2, dealer=1)
    c = game.deck.parse
    state = new_game(game, order(game, "7♠ 9♠ 8♥"))
    events: list[E.Event] = []
    for _ in range(3):
        state = turn(state, events)
    assert E.Captured(0, c("9♠"), c("7♠")) in events
    assert state.hands[0] == (1 << c("9♠")) | (1 << c("7♠"))
    assert state.table == ()
    assert state.attacker == 0
    state = turn(state, events)  # 8♥ with nothing to take: laid, the turn passes
    assert state.table == (c("8♥"),)
    assert state.attacker == 1


def test_capture_is_by_suit_and_rank_only_and_mandatory() -> None:
    """000_0a1bcdd496bc6662.txt: «Если эти карты одной масти и карта, взятая игроком, старше по
    достоинству» — a higher card of another suit takes nothing (no trump exists yet), and a
    card that can take does so (the catalogue: capture is mandatory)."""
    game = make_game(RULES, 2, dealer=1)
    c = game.deck.parse
    state = new_game(game, order(game, "7♠ A♥ 8♠"))
    events: list[E.Event] = []
    for _ in range(3):
        state = turn(state, events)
    assert E.Laid(0, c("A♥")) in events
    state = turn(state, events)  # seat 1's 8♠ must take the 7♠: no choice is offered
    assert E.Captured(1, c("8♠"), c("7♠")) in events
    assert state.phase == Phase.TURN_UP
    assert state.table == (c("A♥"),)


def test_among_several_lower_cards_the_player_chooses_one() -> None:
    """000_0a1bcdd496bc6662.txt: «Следующие игроки, открывая карту, при наличии нескольких
    младших карт той же масти, берут своей картой одну любую по выбору.»"""
    game = make_game(RULES, 2, dealer=1)
    c = game.deck.parse
    state = new_game(game, order(game, "8♠ 6♠ 7♠ Q♠"))
    events: list[E.Event] = []
    for _ in range(5):
        state = turn(state, events)
    # 8♠ seed; seat 0's 6♠ laid; seat 1's 7♠ takes 6♠ and he goes on: Q♠ sees only 8♠
    assert E.Captured(1, c("7♠"), c("6♠")) in events
    assert state.phase == Phase.TURN_UP
    state = new_game(game, order(game, "8♠ 6♠ 9♥ Q♠"))
    for _ in range(5):
        state = turn(state, events)
    # 8♠ seed; seat 0's 6♠ laid; seat 1's 9♥ laid; seat 0's Q♠ may take 8♠ or 6♠
    assert state.phase == Phase.CAPTURE
    assert to_act(state) == {0}
    options = legal_actions(state, 0)
    assert options == (A.capture(0, c("6♠")), A.capture(0, c("8♠")))
    state, new = apply(state, A.capture(0, c("8♠")))
    assert E.Captured(0, c("Q♠"), c("8♠")) in new
    assert state.table == (c("6♠"), c("9♥"))
    assert state.attacker == 0
    with pytest.raises(Exception, match="WRONG_PHASE"):
        apply(state, A.capture(0, c("6♠")))


def test_the_last_card_is_trump_and_takes_the_rest() -> None:
    """000_0a1bcdd496bc6662.txt: «Последняя карта является козырем. Она забирает все
    оставшиеся карты. После разбора колоды игра продолжается по правилам в подкидного
    (переводного) дурака. Первым ходит игрок, у которого имеется младший козырь.»"""
    game = make_game(RULES, 3, dealer=2)
    deck = list(range(game.n_cards))
    random.Random(7).shuffle(deck)
    state, events = through_phase(new_game(game, deck))
    last = deck[-1]
    swept = [e for e in events if isinstance(e, E.Swept)]
    assert len(swept) == 1
    assert swept[0].cards[0] == last
    assert E.TrumpRevealed(last, game.suit[last]) in events
    assert state.trump == game.suit[last]
    assert state.trump_card == last
    assert (state.hands[swept[0].seat] >> last) & 1
    assert state.stock == ()
    assert state.table == ()
    assert sum(h.bit_count() for h in state.hands) == game.n_cards
    trumps = game.trump_mask(state.trump)
    lowest = min((game.rank[c], s) for s in range(3) for c in range(game.n_cards)
                 if (state.hands[s] >> c) & 1 and (trumps >> c) & 1)
    assert state.phase == Phase.LEAD
    assert state.attacker == lowest[1]
    assert E.FirstAttacker(lowest[1], False) in events


def test_no_stock_to_draw_from_in_the_game() -> None:
    """000_0a1bcdd496bc6662.txt: «После разбора колоды игра продолжается по правилам в
    подкидного (переводного) дурака.» — the deck is used up, so nobody draws after a bout."""
    game = make_game(RULES, 2, dealer=0)
    deck = list(range(game.n_cards))
    random.Random(3).shuffle(deck)
    state, _ = through_phase(new_game(game, deck))
    log: list[Action] = []
    end = random_playout(state, 5, log)
    assert end.phase == Phase.OVER
    replay, drawn = state, 0
    for action in log:
        replay, new = apply(replay, action)
        drawn += sum(1 for e in new if isinstance(e, E.Drew))
    assert drawn == 0
    assert replay.result == end.result


def test_a_player_without_cards_is_out_when_the_game_begins() -> None:
    """000_0a1bcdd496bc6662.txt: «Таким образом, игра идет до тех пор, пока не останется один
    игрок с картами на руках.» — a player who took nothing in the phase holds no cards: he is
    out at once, not the durak (the catalogue)."""
    game = make_game(RULES, 4, dealer=0)
    for seed in range(400):
        deck = list(range(game.n_cards))
        random.Random(seed).shuffle(deck)
        state, events = through_phase(new_game(game, deck))
        empty = [s for s in range(4) if not state.hands[s]]
        if empty:
            break
    else:
        pytest.fail("no deal of 400 leaves a seat without cards")
    assert [E.PlayerOut(s) for s in empty] == [e for e in events if isinstance(e, E.PlayerOut)]
    assert all((state.out >> s) & 1 for s in empty)
    assert state.attacker not in empty
    assert state.defender not in empty


def test_a_partial_view_follows_the_same_phase() -> None:
    """000_0a1bcdd496bc6662.txt: «Игрок берет верхнюю карту с колоды и сравнивает ее с лежащей
    возле колоды.» — every turned card is seen by all, so a view that knows no card follows
    the phase from the reveals alone and ends knowing every hand."""
    game = make_game(RULES, 3, dealer=1)
    deck = list(range(game.n_cards))
    random.Random(11).shuffle(deck)
    full = new_game(game, deck)
    view = new_game(game, None)
    while full.phase in _PRE:
        if CHANCE in to_act(full):
            action = chance_outcome(full)
            assert action is not None
            assert action in legal_actions(view, CHANCE)
        else:
            (seat,) = to_act(full)
            action = legal_actions(full, seat)[-1]
            assert legal_actions(view, seat) == legal_actions(full, seat)
        full, _ = apply(full, action)
        view, _ = apply(view, action)
        assert public_view(view) == public_view(full)
    assert view.hands == full.hands
    assert not any(view.hidden)
    assert private_view(full, 0).hands == full.hands


def test_the_lowest_trump_leads_every_game() -> None:
    """000_0a1bcdd496bc6662.txt: «Первым ходит игрок, у которого имеется младший козырь.» — no
    под/из-под дурака in this section: the next game's lead is found the same way."""
    game = make_game(RULES, 3, dealer=0)
    deck = list(range(game.n_cards))
    random.Random(1).shuffle(deck)
    end = random_playout(new_game(game, deck), 2)
    following = next_game(end)
    assert following.first_attacker is None
    assert following.dealer == end.result.durak[0] if end.result and end.result.durak else True


def test_transfer_base_rules_are_a_table_choice() -> None:
    """000_0a1bcdd496bc6662.txt: «игра продолжается по правилам в подкидного (переводного)
    дурака»"""
    rules = with_base_rules("naborny", "perevodnoy")
    assert rules.transfer
    assert rules.pre_phase == "capture_row"
    game = make_game(rules, 4, dealer=0)
    end = random_playout(new_game(game, list(range(game.n_cards))), 9)
    assert end.phase == Phase.OVER


def test_after_a_capture_the_next_card_may_be_laid_unseen_as_a_table_option() -> None:
    """000_0a1bcdd496bc6662.txt: «Затем он продолжает ходить - берет следующую карту сверху
    колоды и кладет ее рядом с колодой.» — the catalogue's literal reading (a), a table option
    (`after_capture: seed_and_end`): that card is laid without comparing and the turn ends."""
    rules = RULES.with_options(pre_phase_params=(("after_capture", "seed_and_end"),))
    game = make_game(rules, 2, dealer=1)
    c = game.deck.parse
    state = new_game(game, order(game, "7♠ 9♠ 8♥ 10♥"))
    events: list[E.Event] = []
    for _ in range(4):
        state = turn(state, events)
    assert E.Captured(0, c("9♠"), c("7♠")) in events
    assert E.Laid(0, c("8♥")) in events
    assert state.attacker == 1  # his turn ended with the laid card
    state = turn(state, events)  # seat 1's 10♥ takes the 8♥ as usual
    assert E.Captured(1, c("10♥"), c("8♥")) in events
    with pytest.raises(RuleError):
        make_game(RULES.with_options(pre_phase_params=(("on_stock_empty",
                                                        "discard_leftovers"),)), 2)
