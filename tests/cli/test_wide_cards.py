"""Cards wider than «10♥» and tables fuller than one row: two-deck games (большой, щелковский)
show a card as it looks — no copy number «#1» — and decks with jokers or the blank («Дж*R»,
«Blank») draw every card in a wider cell, so the hand's key numbers stay over their cards and
nothing is cut; щелковский's more than ten thrown-in cards go on in a second row of pairs."""

from __future__ import annotations

import pytest
from table_states import find_state, snapshot_of

from p2p_durak.cli.canvas import line_width, plain
from p2p_durak.cli.cardtext import CardText, hand_order
from p2p_durak.cli.i18n import Look
from p2p_durak.cli.table_ui import TableUi
from p2p_durak.cli.table_view import render_table_screen
from p2p_durak.engine import State, cards_of
from p2p_durak.engine.cards import Kind
from p2p_durak.engine.state import BOUT, LEAD


def _screen(state: State, preset: str, look: Look) -> str:
    ui = TableUi()
    ui.update(snapshot_of(state, preset=preset))
    lines = render_table_screen(ui, look, 80, 24)
    assert {line_width(line) for line in lines} == {80}
    return plain(lines)


def _special(state: State, card: int) -> bool:
    return state.game.deck.faces[card].kind is not Kind.NORMAL


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_two_deck_game_names_cards_without_copy_numbers(lang: str) -> None:
    state = find_state(lambda s: s.phase == LEAD and s.attacker == 0, preset="bolshoy",
                       players=4)
    text = _screen(state, "bolshoy", Look(lang, False))
    assert "#" not in text
    cards = CardText(state.game, lang, False)
    assert {len(cards(c)) for c in range(state.game.n_cards)} <= {2, 3}


@pytest.mark.parametrize("look", [Look("en", False), Look("ru", False), Look("en", True),
                                  Look("ru", True)])
def test_a_joker_in_the_hand_keeps_every_number_over_its_card(look: Look) -> None:
    state = find_state(lambda s: s.phase == LEAD and s.attacker == 0 and s.hands[0].bit_count()
                       > 3 and any(_special(s, c) for c in cards_of(s.hands[0])),
                       preset="s_jokerom", players=3, seeds=range(400))
    text = _screen(state, "s_jokerom", look)
    lines = text.split("\n")
    at = next(i for i, line in enumerate(lines) if line.startswith((" Your hand", " Ваши")))
    labels, row = lines[at + 1], lines[at + 2]
    cards = CardText(state.game, look.lang, look.ascii_only)
    hand = hand_order(state.game, cards_of(state.hands[0]), state.trump)
    cell = cards.width + 2
    assert cell == (6 if look.lang == "ru" else 5)  # «Дж*R» is 4 wide
    for position, card in enumerate(hand):  # cell k: its number centred over its card
        start = 1 + position * (cell + 1)
        assert labels[start:start + cell].rstrip() == f"{position + 1:^{cell}}".rstrip(), labels
        assert row[start:start + cell] in (cards.face(card), cards.face(card, "[", "]")), row


def test_more_pairs_than_a_row_holds_go_on_in_a_second_row() -> None:
    state = find_state(lambda s: s.phase == BOUT and len(s.table) > 8, preset="shchelkovsky",
                       players=6, seeds=range(300))
    text = _screen(state, "shchelkovsky", Look("en", False))
    table = "\n".join(line.split("│")[0] for line in text.split("\n")[2:17])
    cards = CardText(state.game, "en", False)
    shown = table.split()
    for attack in state.table:
        assert cards(attack) in shown, table
    assert sum(1 for c in state.covers if c >= 0) == sum(
        1 for c in state.covers if c >= 0 and cards(c) in shown)
    assert "Waiting for" in text or "Your move" in text  # the status line still shows
