"""The colours a terminal really shows for cards: the issue's «suits coloured (♥♦ red, ♠♣
dark)» under every highlight (playable, dimmed, cursor, chosen attack card, marked).

The views only name style classes; prompt-toolkit resolves them with the app's `STYLE`, and
a dotted class (`card.playable`) also counts as its prefix (`card`). These tests resolve the
fragments exactly as the renderer does, so a rule that resets the suit's colour fails here.
"""

from __future__ import annotations

from table_states import find_state, snapshot_of

from p2p_durak.cli.app import STYLE
from p2p_durak.cli.cardtext import RED_SUITS, CardText
from p2p_durak.cli.i18n import Look
from p2p_durak.cli.table_ui import TableUi
from p2p_durak.cli.table_view import render_table_screen
from p2p_durak.engine import State, cards_of
from p2p_durak.engine.state import BOUT, LEAD

RED, DARK = "af0000", "000000"


def _card_fragments(state: State, *, marked: bool = False,
                    ) -> tuple[CardText, list[tuple[str, str, str, str]]]:
    """(style, text, resolved colour, background) of every card drawn on the screen."""
    ui = TableUi()
    ui.update(snapshot_of(state))
    if marked:
        ui.marked = {ui.hand()[0]}
    cards = CardText(state.game, "en", False)
    names = {cards(c) for c in range(state.game.n_cards)}
    out = []
    for line in render_table_screen(ui, Look("en", False), 80, 24):
        for fragment in line:
            style, text = fragment[0], fragment[1].strip(" []")
            if text in names:  # a card drawn on its own: the header's trump, table, hand
                attrs = STYLE.get_attrs_for_style_str(style)
                out.append((style, text, attrs.color or "", attrs.bgcolor or ""))
    return cards, out


def _colour_of(state: State, card: int) -> str:
    return RED if state.game.suit[card] in RED_SUITS else DARK


def _check(state: State, **kwargs: bool) -> set[str]:
    cards, fragments = _card_fragments(state, **kwargs)
    by_text = {cards(c): c for c in range(state.game.n_cards)}
    seen_modifiers: set[str] = set()
    assert fragments
    for style, text, colour, _background in fragments:
        card = by_text[text]
        assert colour == _colour_of(state, card), (text, style, colour)
        seen_modifiers |= set(style.split())
    return seen_modifiers


def test_hand_cards_keep_their_suit_colour_when_playable_dimmed_or_under_the_cursor() -> None:
    # my lead with both colours in hand: every card is playable, the first under the cursor
    state = find_state(lambda s: s.phase == LEAD and s.attacker == 0 and len(
        {s.game.suit[c] in RED_SUITS for c in cards_of(s.hands[0])}) == 2)
    seen = _check(state)
    assert {"class:card.playable", "class:card.cursor"} <= seen


def test_dimmed_cards_and_the_chosen_attack_card_keep_their_suit_colour() -> None:
    # I defend: the cards that beat nothing are dimmed, the attack card to beat is chosen
    state = find_state(lambda s: s.phase == BOUT and s.defender == 0 and len(
        {s.game.suit[c] in RED_SUITS for c in cards_of(s.hands[0])}) == 2
        and any(s.game.suit[c] in RED_SUITS for c in s.table))
    seen = _check(state)
    assert {"class:card.dim", "class:card.target"} <= seen


def test_marked_cards_keep_their_suit_colour() -> None:
    state = find_state(lambda s: s.phase == LEAD and s.attacker == 0)
    assert "class:card.marked" in _check(state, marked=True)


def test_highlights_differ_by_background() -> None:
    state = find_state(lambda s: s.phase == BOUT and s.defender == 0 and s.hands[0].bit_count() > 2)
    _, fragments = _card_fragments(state)
    backgrounds = {next(c for c in ("playable", "dim", "cursor") if f"card.{c}" in style): bg
                   for style, _, _, bg in fragments
                   if any(f"card.{c}" in style for c in ("playable", "dim", "cursor"))}
    assert len(set(backgrounds.values())) == len(backgrounds) >= 2, backgrounds
