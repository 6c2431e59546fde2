"""SP5's table option `first_attacker_fallback: lowest_card` on the screen: nobody holds a
trump, so the prompt asks for the lowest card and S shows it. baseline.md SP5: «"если козыря
нет, то либо по жребию или же определяют по младшей карте"»."""

from __future__ import annotations

from table_states import find_state, snapshot_of

from p2p_durak.cli.canvas import plain
from p2p_durak.cli.i18n import Look
from p2p_durak.cli.table_ui import TableUi
from p2p_durak.cli.table_view import render_table_screen
from p2p_durak.engine import State, legal_actions
from p2p_durak.engine import actions as A
from p2p_durak.engine.presets import get_preset
from p2p_durak.engine.setup import LOWEST_ROUND, claim_round
from p2p_durak.engine.state import CLAIM

RULES = get_preset("app_podkidnoy").rules.with_options(
    deck_size=24, hand_size=2, first_attacker_fallback="lowest_card")


def _my_lowest_card_claim(state: State) -> bool:
    return (state.phase == CLAIM and 0 in state.actors
            and len(state.claims) >= len(state.game.claim_seats)
            and claim_round(state).round == LOWEST_ROUND)


def test_the_prompt_asks_for_the_lowest_card_and_s_shows_it() -> None:
    state = find_state(_my_lowest_card_claim, preset="app_podkidnoy", players=2, rules=RULES)
    ui = TableUi()
    ui.update(snapshot_of(state, preset="app_podkidnoy"))
    assert "show your lowest card" in plain(render_table_screen(ui, Look("en", False), 90, 26))
    assert "младшую карту" in plain(render_table_screen(ui, Look("ru", False), 90, 26))
    (claim,) = legal_actions(state, 0)
    assert claim.kind == A.CLAIM
    assert ui.command("show") == claim
