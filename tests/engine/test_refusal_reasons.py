"""A refused action says what exactly is wrong, in the player's terms (issue #6: «An action the
engine refuses shows its reason and changes nothing»): `IllegalAction.why`, narrowed by
`engine/refusals.py` on refusal only, with the numbers of the situation; the general `reason`
(the wire's code) stays. Each case is a fixed deal; `Table.refuse` checks the state is
unchanged and that both languages have a text."""

from __future__ import annotations

import random
import string

import pytest
from engine_support import Table

from p2p_durak.engine import (
    Action,
    IllegalAction,
    Reason,
    State,
    apply,
    is_over,
    legal_actions,
    make_game,
    new_game,
    step,
    to_act,
)
from p2p_durak.engine import actions as A
from p2p_durak.engine.errors import Why
from p2p_durak.engine.presets import get_preset

THREE = ["6♠ 6♣ 9♠ 10♥ Q♦ K♣", "7♠ 8♥ 10♠ J♣ 7♦ A♠", "6♥ 9♣ Q♠ K♥ 8♦ A♣"]


def refused(t: Table, line: str, why: Why, **fields: int) -> IllegalAction:
    error = t.refuse(line)
    assert error.why is why, (line, error.why, error.reason)
    assert error.fields == fields
    assert error.message("en") == why.en.format(**fields)
    assert error.message("ru") == why.ru.format(**fields)
    return error


def podkidnoy(**knobs: object) -> Table:
    t = Table("app_podkidnoy", THREE, trump="A♦", first_attacker=0, **knobs)
    t.setup()
    return t


def test_every_why_has_both_languages_with_the_same_numbers() -> None:
    for why in Why:
        assert why.en != why.ru
        assert any("а" <= ch <= "я" for ch in why.ru.lower()), why
        fields_en = {f for _, f, _, _ in string.Formatter().parse(why.en) if f}
        fields_ru = {f for _, f, _, _ in string.Formatter().parse(why.ru) if f}
        assert fields_en == fields_ru, why
    assert len({w.en for w in Why}) == len(Why)
    assert len({w.ru for w in Why}) == len(Why)


def test_before_the_lead_nothing_to_take_or_pass_and_not_your_move() -> None:
    """001_c746c7bb87124419.txt: «Ходящий кладёт карту — или сразу несколько одного
    достоинства.» The bout starts with the attacker's card: before it nobody takes or passes,
    and nobody else leads."""
    t = podkidnoy()
    assert refused(t, "0 take", Why.NOTHING_LED).reason is Reason.WRONG_PHASE
    refused(t, "0 pass", Why.PASS_BEFORE_LEAD)
    refused(t, "2 lead 6♥", Why.NOT_YOUR_LEAD)
    refused(t, "1 take", Why.NOT_YOUR_LEAD)


def test_take_while_attacking_and_pass_while_defending() -> None:
    """001_c746c7bb87124419.txt: «Если отбиться нечем …, отбивающийся говорит «беру».» Only
    the defender takes; he does not say «бито»: «Когда всё покрыто и никто ничего не
    подкинул, карты уходят в бито»."""
    t = podkidnoy()
    t.do("0 lead 9♠")
    assert refused(t, "0 take", Why.TAKE_NOT_DEFENDER).reason is Reason.NOT_YOUR_TURN
    refused(t, "2 take", Why.TAKE_NOT_DEFENDER)
    refused(t, "1 pass", Why.PASS_DEFENDING)
    refused(t, "2 beat Q♠ on 9♠", Why.BEAT_NOT_DEFENDER)


def test_a_card_that_does_not_beat_says_whether_suit_rank_or_trump() -> None:
    """001_c746c7bb87124419.txt: «Отбивающийся кроет каждую старшей картой той же масти или
    козырем (козырь — только старшим козырем).»"""
    t = podkidnoy()
    t.do("0 lead 9♠")
    assert refused(t, "1 beat 7♠ on 9♠", Why.BEAT_LOWER).reason is Reason.DOES_NOT_BEAT
    refused(t, "1 beat 8♥ on 9♠", Why.BEAT_WRONG_SUIT)
    trump_lead = podkidnoy()
    trump_lead.do("0 lead Q♦")
    refused(trump_lead, "1 beat A♠ on Q♦", Why.BEAT_NEEDS_TRUMP)
    refused(trump_lead, "1 beat 7♦ on Q♦", Why.BEAT_LOWER_TRUMP)


def test_a_special_beating_rule_keeps_the_general_reason() -> None:
    """японский: «пику можно побить только старшей пикой, даже козырь её не берёт» — the plain
    explanation ("beat with a higher card of its suit or a trump") would be untrue, so the
    engine says only that the card does not beat."""
    t = Table("app_yaponsky", THREE, trump="A♦", first_attacker=0)
    t.setup()
    t.do("0 lead 9♠")
    error = t.refuse("1 beat 7♦ on 9♠")
    assert error.reason is Reason.DOES_NOT_BEAT
    assert error.why is None
    assert error.message("en") == Reason.DOES_NOT_BEAT.en


def test_a_throw_in_of_a_rank_not_on_the_table() -> None:
    """001_c746c7bb87124419.txt: «можно подкидывать карты того же достоинства, что уже лежат
    на столе»."""
    t = podkidnoy()
    t.do("0 lead 9♠")
    error = t.refuse("2 throw 6♥")
    assert error.reason is Reason.RANK_NOT_ON_TABLE
    assert error.message("en") == "only ranks already on the table can be thrown in"


def test_a_throw_in_past_the_bout_limit_names_the_limit() -> None:
    """001_c746c7bb87124419.txt: «Всего за кон — не больше шести карт … В первом коне партии —
    не больше пяти.» (here the table's limit is two)."""
    t = podkidnoy(first_bout_attack_limit=2)
    t.do("0 lead 6♠ 6♣")
    error = refused(t, "2 throw 6♥", Why.THROW_LIMIT, limit=2)
    assert error.reason is Reason.THROW_IN_NOT_ALLOWED
    assert "2" in error.message("ru")
    refused(t, "2 pass", Why.THROW_LIMIT, limit=2)  # nothing to pass either


def test_a_throw_in_past_the_defenders_cards_names_them() -> None:
    """001_c746c7bb87124419.txt: «… и не больше, чем у отбивающегося на руках.»"""
    t = Table("app_podkidnoy", ["6♠ 6♣ 9♠", "7♠ 8♥ 10♠", "6♥ 6♦ A♣"], trump="A♦",
              first_attacker=0, hand_size=3)
    t.setup()
    t.do("0 lead 6♠ 6♣", "2 throw 6♥")
    refused(t, "2 throw 6♦", Why.THROW_DEFENDER_CARDS, n=3, m=3)


def test_only_the_neighbours_throw_in_where_the_table_says_so() -> None:
    """Issue #6: a table's options include «throw-in by all or neighbours»; with
    `throw_in_by: neighbours_of_defender` the seat across the table does not throw in."""
    hands = ["6♠ 7♣ 9♠ 10♥ Q♦ K♣", "7♠ 8♥ 10♠ J♣ 7♦ A♠", "9♣ Q♠ K♥ 8♦ A♣ J♠",
             "6♥ 6♣ 8♠ 10♣ J♥ Q♥"]
    t = Table("app_podkidnoy", hands, trump="A♦", first_attacker=0,
              throw_in_by="neighbours_of_defender")
    t.setup()
    t.do("0 lead 6♠")
    assert refused(t, "3 throw 6♥", Why.THROW_NEIGHBOURS_ONLY).reason \
        is Reason.THROW_IN_NOT_ALLOWED
    refused(t, "3 pass", Why.THROW_NEIGHBOURS_ONLY)


def test_a_teammate_does_not_throw_in_to_his_partner() -> None:
    """001_c746c7bb87124419.txt: «Подкидывают только соперники отбивающегося — на напарника не
    подкидывают.»"""
    hands = ["6♠ 7♣ 9♠ 10♥ Q♦ K♣", "7♠ 8♥ 10♠ J♣ 7♦ A♠", "9♣ Q♠ K♥ 8♦ A♣ J♠",
             "6♥ 6♣ 8♠ 10♣ J♥ Q♥"]
    t = Table("app_komandy", hands, trump="A♦", first_attacker=0)
    t.setup()
    t.do("0 lead 6♠")
    refused(t, "3 throw 6♥", Why.THROW_OPPONENTS_ONLY)


def test_no_transfer_in_rules_without_one() -> None:
    """001_c746c7bb87124419.txt: «В переводном … он может перевести» — in подкидной there is
    no transfer at all."""
    t = podkidnoy()
    t.do("0 lead 9♠")
    assert refused(t, "1 transfer 10♠", Why.TRANSFER_OFF).reason \
        is Reason.TRANSFER_NOT_ALLOWED
    refused(t, "0 transfer 9♠", Why.TRANSFER_OFF)  # not even the attacker's question


TRANSFER = ["7♠ 7♦ 8♠ 9♠ 10♠ J♠", "7♣ 8♣ 9♣ 10♣ J♣ Q♣", "7♥ 8♥ 9♥ 10♥ J♥ Q♥"]


def test_a_transfer_needs_the_attack_rank_before_the_first_beat() -> None:
    """001_c746c7bb87124419.txt: «В переводном, пока отбивающийся не покрыл ни одной карты, он
    может перевести: положить к атакующим карту того же достоинства»."""
    t = Table("app_perevodnoy", TRANSFER, trump="A♦", first_attacker=0)
    t.setup()
    t.do("0 lead 7♠")
    refused(t, "1 transfer 8♣", Why.TRANSFER_RANK)
    refused(t, "0 transfer 7♦", Why.TRANSFER_NOT_DEFENDER)
    refused(t, "1 show 7♣", Why.SHOW_OFF)


def test_no_transfer_once_a_card_is_beaten_or_after_beru() -> None:
    """001_c746c7bb87124419.txt: «пока отбивающийся не покрыл ни одной карты»."""
    hands = ["7♠ 7♥ 8♠ 9♠ 10♠ J♠", "7♣ 8♥ 9♣ 10♣ J♣ Q♣", "6♥ 6♣ 9♥ 10♥ J♥ Q♥"]
    t = Table("app_perevodnoy", hands, trump="A♦", first_attacker=0)
    t.setup()
    t.do("0 lead 7♠ 7♥", "1 beat 8♥ on 7♥")
    refused(t, "1 transfer 7♣", Why.TRANSFER_AFTER_BEAT)
    taking = Table("app_perevodnoy", hands, trump="A♦", first_attacker=0)
    taking.setup()
    taking.do("0 lead 7♠", "1 take")
    refused(taking, "1 transfer 7♣", Why.TRANSFER_AFTER_TAKE)


def test_a_transfer_the_next_defender_cannot_take_names_his_cards() -> None:
    """001_c746c7bb87124419.txt: «Перевести можно, только если у следующего хватает карт на все
    переведённые.»"""
    t = Table("app_perevodnoy", ["7♠ 7♦", "7♣ 8♣", "9♥ 10♥"], trump="A♥",
              first_attacker=0, hand_size=2)
    t.setup()
    t.do("0 lead 7♠ 7♦")
    error = refused(t, "1 transfer 7♣", Why.TRANSFER_NEXT_TOO_FEW, n=2, m=3)
    assert error.reason is Reason.TRANSFER_CAPACITY


def test_a_transfer_past_the_bout_limit_names_the_limit() -> None:
    """001_c746c7bb87124419.txt: «Всего за кон — не больше шести карт …» (the table's first
    bout here: two) — a transfer lays one more attack card."""
    t = Table("app_perevodnoy", TRANSFER, trump="A♦", first_attacker=0,
              first_bout_attack_limit=2)
    t.setup()
    t.do("0 lead 7♠ 7♦")
    refused(t, "1 transfer 7♣", Why.TRANSFER_LIMIT, limit=2)


def _refusal(state: State, action: Action) -> tuple[str, str, bool] | None:
    """Both texts of the refusal of `action`, and whether it is narrowed; None if accepted
    (a non-canonical form of a legal move)."""
    try:
        apply(state, action)
    except IllegalAction as error:
        return error.message("en"), error.message("ru"), error.why is not None
    return None


@pytest.mark.parametrize("preset_id", ["app_podkidnoy", "app_perevodnoy", "app_komandy",
                                       "app_perevod_pokazom", "app_yaponsky", "shchelkovsky",
                                       "s_jokerom", "krestovy", "app_dlinny", "oborotny",
                                       "veryu_ne_veryu", "s_bolvanom", "pokerny", "beskozyrny"])
def test_any_refusal_in_random_play_is_explained_or_left_general_never_crashed(
        preset_id: str) -> None:
    """Refused tries of every kind by every seat, over seeded random games: each is an
    `IllegalAction` whose message formats in both languages (the explanation never breaks a
    refusal), and the state is unchanged."""
    rules = get_preset(preset_id).rules
    rng = random.Random(preset_id)
    n = max(rules.min_players, min(4, rules.max_players))
    kinds = (A.LEAD, A.THROW, A.BEAT, A.TAKE, A.PASS, A.TRANSFER, A.SHOW, A.CHAIN)
    explained = 0
    for _ in range(3):
        game = make_game(rules, n, rng.randrange(n))
        deck = list(range(game.n_cards))
        rng.shuffle(deck)
        state = new_game(game, deck)
        for _ in range(400):
            if is_over(state):
                break
            seat = rng.randrange(n)
            kind = rng.choice(kinds)
            cards = () if kind in (A.TAKE, A.PASS) else (rng.randrange(game.n_cards),)
            target = rng.randrange(max(1, len(state.table))) if kind == A.BEAT else -1
            action = Action(kind, seat, cards, target)
            if action not in legal_actions(state, seat):
                messages = _refusal(state, action)
                if messages is not None:
                    assert all(messages[:2])
                    explained += messages[2]
            actors = sorted(to_act(state))
            mover = actors[rng.randrange(len(actors))]
            options = legal_actions(state, mover)
            state = step(state, options[rng.randrange(len(options))])
    assert explained, preset_id
