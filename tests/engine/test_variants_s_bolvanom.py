"""«Дурак с болваном» (s_bolvanom): podkidnoy with a dummy hand — six cards dealt to nobody,
thrown in and drawn by its controller, never attacking, defending or losing. Catalogue:
shared/rules/variants-attack-defend.md, section `s_bolvanom`. Seats here: 0 deals, 1 is the
dummy (the seat after the dealer), 2 and 3 are players."""

from __future__ import annotations

import pytest
from engine_support import Table

from p2p_durak.engine import (
    RuleError,
    apply,
    legal_actions,
    private_view,
    to_act,
)
from p2p_durak.engine import actions as A
from p2p_durak.engine import events as E
from p2p_durak.engine.playout import random_playout
from p2p_durak.engine.rules import DUMMY_BOUT_ATTACKER, RuleSet, validate
from p2p_durak.engine.seats import acting_party, defender_for
from p2p_durak.engine.setup import make_game, new_game, next_game
from p2p_durak.engine.state import Phase, State

# diamonds are trump; the dummy holds the lowest trump (6♦), seat 0 the lowest of the players
HANDS = ["6♣ 7♠ 8♠ 9♠ 10♠ 7♦", "6♦ 6♥ 7♥ 8♣ 9♣ 10♣", "6♠ 8♥ 9♥ 10♥ J♥ 9♦",
         "J♠ Q♠ K♠ J♣ Q♣ 8♦"]
DUMMY = 1


def table(**knobs: object) -> Table:
    t = Table("s_bolvanom", HANDS, trump="A♦", **knobs)
    t.setup()
    return t


def endgame(t: Table, hands: list[str], *, attacker: int, out: tuple[int, ...] = ()) -> None:
    """The table with an empty stock, these hands, every other card in the discard and
    `attacker` to lead (the others out)."""
    g = t.game
    masks = tuple(sum(1 << c for c in t.cs(h)) if h else 0 for h in hands)
    held = 0
    for mask in masks:
        held |= mask
    out_mask = sum(1 << s for s in out)
    t.state = t.state._replace(
        hands=masks, stock=(), discard=g.all_cards & ~held, out=out_mask, finish=out,
        attacker=attacker, defender=defender_for(g.tables, out_mask, attacker),
        actors=g.tables.solo[attacker])


def test_the_dummy_is_dealt_six_cards_at_the_seat_after_the_dealer() -> None:
    """000_0a1bcdd496bc6662.txt: «каждому игроку сдается по 6 карт, дополнительно сдается 6 карт
    болвану.» Its seat is not given: the catalogue's default, next after the dealer in dealing
    order (SP3)."""
    t = Table("s_bolvanom", HANDS, trump="A♦")
    assert t.game.dummy == DUMMY
    t.setup()
    assert t.hand(DUMMY) == "8♣ 9♣ 10♣ 6♦ 6♥ 7♥"
    assert all(t.state.hand_size(s) == 6 for s in range(4))
    # a series keeps the dummy where it sat, whoever deals next
    assert make_game(t.game.rules, 4, 3).dummy == 0
    assert make_game(t.game.rules, 4, 3, dummy=DUMMY).dummy == DUMMY


def test_the_dealer_controls_the_dummy_until_the_first_attacker_takes_over() -> None:
    """000_0a1bcdd496bc6662.txt: «Первоначально при определении козыря, картами болвана
    распоряжается сдатчик. Далее по ходу игры картами болвана имеет право распоряжаться только
    тот игрок, который зашел первым.»"""
    t = Table("s_bolvanom", HANDS, trump="A♦", dealer=3)
    assert new_game(t.game).controller == 3
    t = table()
    assert t.state.controller == t.state.attacker


def test_the_dummy_claims_no_trump_and_never_attacks_or_defends() -> None:
    """000_0a1bcdd496bc6662.txt: «Болван не имеет права ходить и отбиваться». The dummy holds
    the lowest trump (6♦) but makes no claim (the catalogue: it cannot attack, so its hand is
    left out of the search); seat 0's 7♦ leads, and the seat he attacks is past the dummy."""
    t = table()
    claims = [line for line in t.log if "claim" in line or "no_trump" in line]
    assert claims == ["2 claim 9♦", "3 claim 8♦", "0 claim 7♦"]
    assert (t.state.attacker, t.state.defender) == (0, 2)
    assert t.state.controller == 0


def test_the_dummys_cards_are_thrown_in_at_its_turn_by_its_controller() -> None:
    """000_0a1bcdd496bc6662.txt: «Игрок имеет право подкидывать карты болвана и добирать их
    после отбоя.» and «Право подкидывать первым принадлежит игроку, который сделал первый ход,
    далее право подкидывать переходит к другим игрокам по часовой стрелке, а также болвану при
    его очереди.»"""
    t = table()
    t.do("0 lead 6♣", "2 beat 9♦ on 6♣")
    # clockwise from the lead attacker: seat 0, the dummy, seat 3
    assert t.state.actors == (0, DUMMY, 3)
    assert to_act(t.state) == frozenset({0, DUMMY, 3})
    assert acting_party(t.state, DUMMY) == 0
    assert acting_party(t.state, 3) == 3
    dummy = {t.act(line) for line in ("1 throw 6♦", "1 throw 6♥", "1 throw 9♣", "1 pass")}
    assert set(legal_actions(t.state, DUMMY)) == dummy  # the controller may decline too
    t.do("1 throw 6♥", "2 beat 8♥ on 6♥")
    assert "1 throw 6♥" in t.log


def test_the_dummy_draws_at_its_place_after_the_bout() -> None:
    """000_0a1bcdd496bc6662.txt: «После чего все игроки, у которых карт менее шести добирают
    карты из колоды до шести, первым берет игрок, который делал первый ход, затем берут все
    остальные игроки по часовой стрелке.» The dummy draws too («добирать их после отбоя»)."""
    t = table()
    t.do("0 lead 6♣", "2 beat 9♦ on 6♣", "1 throw 6♥", "2 beat 8♥ on 6♥", "0 pass", "1 pass",
         "3 pass")
    drew = [e.seat for e in t.events if isinstance(e, E.Drew)]
    assert drew == [0, DUMMY, 2]
    assert t.state.hand_size(DUMMY) == 6
    # after a defence the defender attacks; he attacks seat 3
    assert (t.state.attacker, t.state.defender) == (2, 3)
    assert t.state.controller == 0  # the game's first attacker keeps the dummy


def test_after_a_take_the_next_attacker_is_past_the_dummy() -> None:
    """000_0a1bcdd496bc6662.txt: «Болван не имеет права ходить»: after seat 0 takes, his left
    neighbour would lead, but that is the dummy; the next player leads."""
    t = table()
    endgame(t, ["6♣ 7♣", "K♥", "6♠ 7♠", "9♠ 10♠"], attacker=3)
    assert t.state.defender == 0
    t.do("3 lead 9♠", "0 take")
    assert (t.state.attacker, t.state.defender) == (2, 3)


def test_control_passes_on_when_the_controller_goes_out() -> None:
    """The text is silent on a controller who goes out while the dummy still holds cards: the
    catalogue's resolution, the next player still in clockwise takes it over."""
    t = table()
    endgame(t, ["6♣", "K♥ Q♥", "9♦ 10♦", "J♠"], attacker=0)
    t.do("0 lead 6♣", "2 beat 9♦ on 6♣", "3 pass", "1 pass")
    assert (t.state.out >> 0) & 1
    assert t.state.phase == Phase.LEAD
    assert t.state.controller == 2
    assert private_view(t.state, 2).hands[DUMMY] == t.state.hands[DUMMY]
    assert private_view(t.state, 3).hands[DUMMY] == 0


def test_the_controller_alone_sees_the_dummy() -> None:
    """The text is silent on who sees the dummy's cards: the catalogue's resolution, its
    controller only."""
    t = table()
    for seat in range(4):
        view = private_view(t.state, seat)
        sees = seat in (0, DUMMY)
        assert (view.hands[DUMMY] == t.state.hands[DUMMY]) == sees
        assert view.hidden[DUMMY] == (0 if sees else 6)


def test_each_bout_attacker_controls_the_dummy_by_the_table_option() -> None:
    """«тот игрок, который зашел первым» read as the attacker of each bout (the catalogue's
    `bout_attacker`, a table option)."""
    t = table(dummy_hand=DUMMY_BOUT_ATTACKER)
    assert t.state.controller == 0
    t.do("0 lead 6♣", "2 beat 9♦ on 6♣", "0 pass", "1 pass", "3 pass")
    assert t.state.attacker == 2
    assert t.state.controller == 2


def test_one_player_left_with_cards_is_the_durak_whatever_the_dummy_holds() -> None:
    """000_0a1bcdd496bc6662.txt: «игра идет до тех пор, пока не останется один игрок с картами
    на руках. Этот игрок считается проигравшим ... Болван не может быть "дураком".»"""
    t = table()
    endgame(t, ["6♣", "K♥ Q♥", "9♥ 10♥", ""], attacker=0, out=(3,))
    t.do("0 lead 6♣", "2 take")
    result = t.state.result
    assert result is not None
    assert result.durak == (2,)
    assert not result.draw
    assert result.finish == (3, 0)


def test_only_the_dummy_left_with_cards_the_last_player_to_empty_his_hand_loses() -> None:
    """000_0a1bcdd496bc6662.txt: «Если последним игроком, у которого остались карты становится
    болван, то "дураком" считается игрок, который избавился от всех своих карт перед
    болваном.» Seat 0 leads his last card, seat 2 beats it with his last: seat 2's hand empties
    after seat 0's (the catalogue's "several at once: a draw" would leave this sentence without
    a case; docs/rules.md)."""
    t = table()
    endgame(t, ["6♣", "K♥ Q♥", "9♦", ""], attacker=0, out=(3,))
    t.do("0 lead 6♣", "2 beat 9♦ on 6♣")
    result = t.state.result
    assert result is not None
    assert result.durak == (2,)
    assert not result.draw
    assert DUMMY not in result.finish


def test_everybody_out_with_the_dummy_is_a_draw() -> None:
    """SP16: nobody, the dummy included, holds cards at the end: no durak."""
    t = table()
    endgame(t, ["6♣", "6♥", "9♦ 10♦", ""], attacker=0, out=(3,))
    t.do("0 lead 6♣", "2 beat 9♦ on 6♣", "1 throw 6♥", "2 beat 10♦ on 6♥")
    result = t.state.result
    assert result is not None
    assert result.draw
    assert result.durak == ()


def test_the_next_game_skips_the_dummy_for_the_first_lead() -> None:
    """000_0a1bcdd496bc6662.txt: «под дурака, то есть первым ходит игрок, который сидит справа
    от дурака»: the dummy is no player, so the next player on the durak's right leads; «в
    следующей игре сдает карты игрок, который проиграл в предыдущей игре»."""
    t = table()
    endgame(t, ["6♣", "K♥ Q♥", "9♥ 10♥", ""], attacker=0, out=(3,))
    state: State = t.do("0 lead 6♣", "2 take")
    game = next_game(state)
    assert (game.dealer, game.dummy, game.first_attacker) == (2, DUMMY, 0)


def test_the_dummy_and_the_players_must_fit_the_deck() -> None:
    """The catalogue (SP1): (n + 1) × 6 cards plus the trump card, at most 4 players with 36
    cards; the seats count the dummy."""
    rules = table().game.rules
    validate(rules, 5)
    with pytest.raises(RuleError):
        validate(rules, 6)
    with pytest.raises(RuleError):
        validate(rules, 2)  # one player and the dummy
    with pytest.raises(RuleError) as caught:
        validate(rules.with_options(hand_rotation="left_after_refill"))
    assert caught.value.knob == "dummy_hand"


def test_a_dummy_seat_acts_only_as_a_thrower() -> None:
    """000_0a1bcdd496bc6662.txt: «Болван не имеет права ходить и отбиваться»: over random games
    the dummy's every action is a throw-in or a pass, and it is never the durak."""
    for n, kinds in dummy_action_kinds(table().game.rules):
        assert kinds <= {A.THROW, A.PASS}
        assert A.THROW in kinds or n == 3


def dummy_action_kinds(rules: RuleSet) -> list[tuple[int, set[str]]]:
    """The seat count and the kinds of the dummy's actions of each of 18 random games of 3-5
    seats, each checked to end with the dummy never the durak («Болван не может быть
    "дураком"»)."""
    games: list[tuple[int, set[str]]] = []
    for n in (3, 4, 5):
        for seed in range(6):
            game = make_game(rules, n, seed % n)
            order = [(c * 7 + seed) % game.n_cards for c in range(game.n_cards)]
            log: list[A.Action] = []
            end = random_playout(new_game(game, order), seed, log)
            assert end.result is not None
            assert game.dummy not in end.result.durak
            games.append((n, {a.kind for a in log if a.seat == game.dummy}))
    return games


def test_the_dummy_neither_concedes_nor_leaves_and_a_leaving_controller_hands_it_on() -> None:
    """«Болван не может быть "дураком"»: a concession or a leave under the dummy's seat is
    refused; the controller who leaves between bouts hands the dummy to the next player in
    (the catalogue's resolution for a controller who goes out)."""
    t = table()
    t.refuse(A.concede(DUMMY))
    t.refuse(A.leave(DUMMY, t.cs(t.hand(DUMMY))))
    t.do("0 lead 6♣", "2 beat 9♦ on 6♣", "0 pass", "1 pass", "3 pass")
    assert (t.state.phase, t.state.controller) == (Phase.LEAD, 0)
    state, _ = apply(t.state, A.leave(0, t.cs(t.hand(0))))
    assert state.controller == 2
    assert DUMMY not in (state.attacker, state.defender)

