"""«Дурак с болваном» with the agreed variant: 000_0a1bcdd496bc6662.txt, «Болван не имеет права
ходить и отбиваться, но возможен вариант игры, когда по согласованию между игроками болван имеет
право это делать.» The table option `can_attack_defend: true` (the catalogue's sub-knob,
shared/rules/variants-attack-defend.md, `s_bolvanom`): the dummy attacks and defends in its
turn, its controller makes its moves, and it still is never the durak. Seats: 0 deals, 1 is the
dummy, 2 and 3 are players."""

from __future__ import annotations

from engine_support import Table
from test_variants_s_bolvanom import dummy_action_kinds, endgame

from p2p_durak.engine import actions as A
from p2p_durak.engine import legal_actions, to_act
from p2p_durak.engine.playout import random_playout
from p2p_durak.engine.presets import get_preset
from p2p_durak.engine.rules import (
    DUMMY_GAME_FIRST_ATTACKER,
    DUMMY_PLAYS_BOUT_ATTACKER,
    DUMMY_PLAYS_GAME_FIRST_ATTACKER,
)
from p2p_durak.engine.seats import acting_party
from p2p_durak.engine.setup import make_game, new_game
from p2p_durak.engine.state import Phase

# diamonds are trump; the dummy holds the lowest trump (6♦), seat 0 the lowest of the players
HANDS = ["6♣ 7♠ 8♠ 9♠ 10♠ 7♦", "6♦ 6♥ 7♥ 8♣ 9♣ 10♣", "6♠ 8♥ 9♥ 10♥ J♥ 9♦",
         "J♠ Q♠ K♠ J♣ Q♣ 8♦"]
DUMMY = 1


def table(overlay: tuple[tuple[str, str], ...] = DUMMY_PLAYS_GAME_FIRST_ATTACKER) -> Table:
    t = Table("s_bolvanom", HANDS, trump="A♦", dummy_hand=overlay)
    t.setup()
    return t


def pass_all(t: Table) -> None:
    """Every thrower declines until the bout is over."""
    while t.state.phase != Phase.LEAD and t.state.result is None:
        seat = min(s for s in to_act(t.state) if s != t.state.defender)
        t.do(f"{seat} pass")


def test_the_first_attacker_attacks_the_dummy_and_its_controller_defends_it() -> None:
    """«по согласованию между игроками болван имеет право это делать» (ходить и отбиваться):
    the seat on seat 0's left is the dummy, so seat 0 attacks it. The lowest-trump claims still
    leave it out: «картами болвана имеет право распоряжаться только тот игрок, который зашел
    первым» names a player, so the first lead is a player's (docs/rules.md)."""
    t = table()
    claims = [line for line in t.log if "claim" in line or "no_trump" in line]
    assert claims == ["2 claim 9♦", "3 claim 8♦", "0 claim 7♦"]
    assert (t.state.attacker, t.state.defender, t.state.controller) == (0, DUMMY, 0)
    t.do("0 lead 6♣")
    assert acting_party(t.state, DUMMY) == 0
    kinds = {a.kind for a in legal_actions(t.state, DUMMY)}
    assert {A.BEAT, A.TAKE} <= kinds


def test_the_dummy_attacks_after_it_beats_off() -> None:
    """After a defence the defender attacks («Игрок ходит картой к игроку слева от себя»): the
    dummy leads at seat 2, its controller choosing the card."""
    t = table()
    t.do("0 lead 6♣", "1 beat 8♣ on 6♣")
    pass_all(t)
    assert (t.state.attacker, t.state.defender) == (DUMMY, 2)
    assert acting_party(t.state, DUMMY) == 0
    t.do("1 lead 6♥", "2 beat 8♥ on 6♥")
    assert "1 lead 6♥" in t.log


def test_after_the_dummy_takes_the_next_player_attacks() -> None:
    """«Если игрок, который отбивается, не отобьет все выложенные карты, то он забирает все эти
    карты себе»: the dummy takes, and the player on its left leads."""
    t = table()
    t.do("0 lead 6♣", "1 take")
    pass_all(t)
    assert (t.state.attacker, t.state.defender) == (2, 3)


def test_a_dummy_attacking_keeps_its_controller_under_bout_attacker() -> None:
    """With `bout_attacker` each bout's attacker controls the dummy; the dummy is no player
    («Болван не может быть "дураком"»), so in its own bout its cards stay with the controller
    it had."""
    t = table(DUMMY_PLAYS_BOUT_ATTACKER)
    t.do("0 lead 6♣", "1 beat 8♣ on 6♣")
    pass_all(t)
    assert (t.state.attacker, t.state.controller) == (DUMMY, 0)


def test_the_dummy_left_holding_cards_after_defending_makes_the_last_thrower_the_durak() -> None:
    """«Болван не может быть "дураком". Если последним игроком, у которого остались карты
    становится болван, то "дураком" считается игрок, который избавился от всех своих карт перед
    болваном.» The dummy defends the last bout: seat 0 leads his last card, seat 2 throws in his
    last one after it; the dummy is left with cards (beating or taking), so seat 2 is the durak."""
    for last in ("1 beat 7♠ on 6♠", "1 take"):
        t = table()
        endgame(t, ["6♣", "K♣ 7♠ 9♥", "6♠", ""], attacker=0, out=(3,))
        assert t.state.defender == DUMMY
        t.do("0 lead 6♣", "1 beat K♣ on 6♣", "2 throw 6♠", last)
        pass_all(t)
        result = t.state.result
        assert result is not None
        assert result.durak == (2,)
        assert not result.draw


def test_one_player_and_the_dummy_left_the_player_is_the_durak() -> None:
    """«игра идет до тех пор, пока не останется один игрок с картами на руках ... Болван не может
    быть "дураком"»: the dummy beats seat 0's last card; seat 2 and the dummy hold cards and the
    game is over with seat 2 the durak."""
    t = table()
    endgame(t, ["6♣", "K♣ 9♥", "6♠ 7♠", ""], attacker=0, out=(3,))
    t.do("0 lead 6♣", "1 beat K♣ on 6♣")
    pass_all(t)
    result = t.state.result
    assert result is not None
    assert result.durak == (2,)


def test_over_random_games_the_dummy_attacks_and_defends_but_never_loses() -> None:
    """Over random games with the option the dummy leads, beats and takes, and is never the
    durak; without it (the preset's own rules) it only throws in or passes."""
    plays = get_preset("s_bolvanom").rules.with_options(dummy_hand=DUMMY_PLAYS_GAME_FIRST_ATTACKER)
    kinds_seen = set().union(*(kinds for _, kinds in dummy_action_kinds(plays)))
    assert {A.LEAD, A.BEAT, A.TAKE, A.THROW} <= kinds_seen
    own = get_preset("s_bolvanom").rules.with_options(dummy_hand=DUMMY_GAME_FIRST_ATTACKER)
    game = make_game(own, 4, 0)
    log: list[A.Action] = []
    random_playout(new_game(game, list(range(game.n_cards))), 3, log)
    assert {a.kind for a in log if a.seat == game.dummy} <= {A.THROW, A.PASS}
