"""щелковский's table option (B) on the screen: past the cap the defender chooses a table card
(↑↓ or a click) and sends it back with G (or Enter); the prompt, the key hint and the help say
so in English and Russian. Seed 000_0a1bcdd496bc6662.txt, «Дурак щелковский»: «выбрать карты,
которые отбивать, а остальные возвратить»."""

from __future__ import annotations

from table_states import find_state, snapshot_of

from p2p_durak.cli.app import LETTER_KEYS
from p2p_durak.cli.canvas import plain
from p2p_durak.cli.controller import TABLE_KEYS
from p2p_durak.cli.help_view import render_help
from p2p_durak.cli.i18n import Look
from p2p_durak.cli.table_ui import TableUi
from p2p_durak.cli.table_view import render_table_screen
from p2p_durak.engine import State, legal_actions
from p2p_durak.engine import actions as A
from p2p_durak.engine.bout import over_limit
from p2p_durak.engine.presets import get_preset

PRESET = "shchelkovsky"
RULES = get_preset(PRESET).rules.with_options(
    over_limit_policy="defender_chooses", bout_attack_limit=2, first_bout_attack_limit=2)


def _past_the_cap(state: State) -> bool:
    return state.defender == 0 and over_limit(state)


def _ui(lang: str = "en") -> tuple[TableUi, State, str]:
    state = find_state(_past_the_cap, preset=PRESET, players=3, rules=RULES)
    ui = TableUi()
    ui.update(snapshot_of(state, preset=PRESET))
    return ui, state, plain(render_table_screen(ui, Look(lang, False), 100, 28))


def test_the_prompt_and_the_key_hint_say_to_send_back() -> None:
    ui, _state, screen = _ui()
    assert "More than 2 thrown in" in screen
    assert "G send back" in screen
    ru = plain(render_table_screen(ui, Look("ru", False), 100, 28))
    assert "Подкинуто больше 2" in ru
    assert "G вернуть" in ru
    assert TABLE_KEYS["g"] == "send_back"
    assert "g" in LETTER_KEYS


def test_arrows_choose_only_sendable_cards_and_g_sends_the_chosen_one_back() -> None:
    ui, state, _ = _ui()
    sendable = [a for a in legal_actions(state, 0) if a.kind == A.SEND_BACK]
    targets = ui.open_targets()
    assert sorted(state.table[i] for i in targets) == sorted(a.cards[0] for a in sendable)
    ui.command("target_next")
    chosen = ui.target
    assert chosen is not None
    assert ui.command("send_back") == A.send_back(0, state.table[chosen])
    ui.command("target_next")
    assert ui.command("play") in sendable  # Enter sends back too


def test_a_card_that_may_not_go_back_gets_a_notice() -> None:
    ui, state, _ = _ui()
    lead = 0  # the lead is never sent back
    assert lead not in ui.open_targets()
    ui.target = lead
    assert ui.command("send_back") is None
    assert ui.notice is not None
    assert A.send_back(0, state.table[lead]) not in legal_actions(state, 0)


def test_the_help_lists_the_key_in_both_languages() -> None:
    for lang, text in (("en", "send the chosen card back"),
                       ("ru", "вернуть выбранную карту")):
        help_screen = plain(render_help(PRESET, RULES, 3, Look(lang, False), 100, 60))
        assert text in help_screen
