"""The mouse at the table, through the real application (pipe input, dummy output): a click on
an attack card chooses it (the ▼ moves, nothing is sent), a click on a hand card then beats
that one; a click on a card the rules refuse shows the engine's reason and changes nothing.

The session is a fixed engine situation (I defend against several uncovered attack cards), so
the test does not depend on where a bot game happens to go."""

from __future__ import annotations

import pytest
import trio
from fixed_session import FixedBackend, FixedSession
from table_states import find_state
from ui_support import running_ui

from p2p_durak.cli.guest import run_guest
from p2p_durak.engine import UNKNOWN, State, cards_of, legal_actions
from p2p_durak.engine import actions as A
from p2p_durak.engine.state import BOUT

guest = pytest.mark.trio(run=run_guest)


def _beats(state: State, card: int, attack: int) -> bool:
    """`card` may beat the table's `attack` card (as the engine says)."""
    index = state.table.index(attack)
    return any(a.kind == A.BEAT and a.cards == (card,) and a.target == index
               for a in legal_actions(state, 0))


def _situation(state: State) -> bool:
    """I defend; two attack cards are open; some card of mine beats the second but not the
    first, and some card beats neither."""
    if state.phase != BOUT or state.defender != 0 or state.taking:
        return False
    open_ = [i for i, c in enumerate(state.covers) if c == UNKNOWN]
    if len(open_) < 2:
        return False
    first, second = (state.table[i] for i in open_[:2])
    hand = cards_of(state.hands[0])
    return (any(_beats(state, c, second) and not _beats(state, c, first) for c in hand)
            and any(not _beats(state, c, a) for c in hand for a in (first, second)))


def _click(ui, row: int, column: int) -> None:  # type: ignore[no-untyped-def]
    ui.pipe.send_text(f"\x1b[<0;{column + 1};{row + 1}M\x1b[<0;{column + 1};{row + 1}m")


@guest
async def test_clicking_an_attack_card_chooses_it_and_a_hand_card_beats_it() -> None:
    state = find_state(_situation, seeds=range(400))
    open_ = [i for i, c in enumerate(state.covers) if c == UNKNOWN]
    target = open_[1]
    attack = state.table[target]
    session = FixedSession(state)
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery, \
                running_ui(backend=FixedBackend(nursery, session), autostart=True) as ui:
            await ui.until(lambda: ui.controller.table.snapshot is not None and ui.settled())
            table = ui.controller.table
            assert table.target == open_[0]  # the first open attack card is chosen at first
            await ui.rendered()
            lines = ui.screen(80, 40).split("\n")  # the dummy output's size
            label = next(i for i, line in enumerate(lines) if line.startswith("Table"))
            assert lines[label][7:7 + 5 * (open_[0] + 1) + open_[0]].count("▼") == 1
            column = 7 + target * 6 + 2  # label, then a 5-cell card and a gap each
            assert lines[label + 1][column - 1:column + 3].strip()  # the card is there
            _click(ui, label + 1, column)
            await ui.until(lambda: table.target == target)
            await ui.rendered()
            marks = ui.screen(80, 40).split("\n")[label]
            assert marks.index("▼") == column, marks  # the marker moved over it
            assert session.acted == []  # choosing is not a move

            # a card that beats nothing open: the engine's reason, and nothing changes
            hand = table.hand()
            before = table.snapshot
            bad = next(p for p, c in enumerate(hand) if not _beats(state, c, attack))
            hand_row = next(i for i, line in enumerate(lines)
                            if line.startswith(" Your hand:")) + 2
            _click(ui, hand_row, 1 + bad * 6 + 2)
            await ui.until(lambda: ui.settled() and table.notice is not None)
            assert "Not allowed: " in ui.screen(80, 40)
            assert table.snapshot is before
            assert session.acted == []
            assert table.target == target

            # a card that beats the chosen one (but not the first): it goes on the chosen one
            good = next(p for p, c in enumerate(hand)
                        if _beats(state, c, attack) and not _beats(state, c, state.table[open_[0]]))
            _click(ui, hand_row, 1 + good * 6 + 2)
            await ui.until(lambda: bool(session.acted))
            assert session.acted[0].cards == (hand[good],)
            assert session.acted[0].target == target


