"""The shuffle and the deal at a networked table show how far they are and whom they wait for
(issue #6: "progress of the shuffle and deal, and whom the table is waiting for"): a player
whose node never sends its part of the deck step is named — in both languages, within the
80 columns (the name is cut, never the count) — and a player without a link is still named
with the reason, in its place."""

from __future__ import annotations

from dataclasses import replace

from table_states import find_state, snapshot_of

from p2p_durak.cli.canvas import plain, text_width
from p2p_durak.cli.i18n import Look
from p2p_durak.cli.table_ui import TableUi
from p2p_durak.cli.table_view import render_table_screen
from p2p_durak.engine.presets import get_preset
from p2p_durak.engine.state import DEAL
from p2p_durak.node.api import SeatInfo, TableSnapshot

NAMES = ("me", "Boris", "Vera")
LONG = "Konstantin Konstantinopolsky-Dostoevsky of the Far Eastern Kitchen Table"
AWAY = "waiting for Boris, not connected: cannot connect to 127.0.0.1:41235: Connection refused"


def shuffling(**changes: object) -> TableSnapshot:
    base = TableSnapshot(
        table_name="Kitchen", preset_id="app_podkidnoy",
        rules=get_preset("app_podkidnoy").rules,
        seats=tuple(SeatInfo(i, name) for i, name in enumerate(NAMES)), my_seat=0, state=None,
        waiting_for=(1, 2), activity="shuffling", progress=(1, 3),
        deck_waits_for=("Boris", "Vera"))
    return replace(base, **changes)  # type: ignore[arg-type]


def screen(snapshot: TableSnapshot, lang: str = "en", width: int = 80) -> str:
    ui = TableUi()
    ui.update(snapshot)
    return plain(render_table_screen(ui, Look(lang, False), width, 24))


def test_the_shuffle_says_how_far_it_is_and_whom_it_waits_for() -> None:
    assert "Shuffling the deck: 1/3 · waiting for Boris, Vera" in screen(shuffling())
    assert "Тасуем колоду: 1/3 · ждём: Boris, Vera" in screen(shuffling(), "ru")
    text = screen(shuffling(progress=(2, 3), deck_waits_for=("Vera",)))
    assert "Shuffling the deck: 2/3 · waiting for Vera" in text
    assert "Boris" not in text


def test_the_key_exchange_names_whom_it_waits_for_too() -> None:
    text = screen(shuffling(activity="keys", progress=None, deck_waits_for=("Vera",)))
    assert "Exchanging keys… · waiting for Vera" in text


def test_a_long_name_is_cut_and_the_count_is_kept_within_80_columns() -> None:
    for lang, count in (("en", "Shuffling the deck: 1/3 · waiting for Kon"),
                        ("ru", "Тасуем колоду: 1/3 · ждём: Kon")):
        text = screen(shuffling(deck_waits_for=(LONG,)), lang)
        line = next(row for row in text.split("\n") if "1/3" in row)
        assert count in line
        assert line.rstrip().endswith("…")
        assert text_width(line.rstrip()) <= 80


def test_during_the_deal_the_table_column_names_whom_it_waits_for() -> None:
    """The deal goes on with the table drawn: the status line is in the 56-cell column."""
    state = find_state(lambda s: s.phase == DEAL)
    text = screen(snapshot_of(state, activity="dealing", progress=(3, 6),
                              deck_waits_for=(LONG,)))
    line = next(row for row in text.split("\n") if "3/6" in row)
    column = line.split("│")[0]
    assert "Dealing the cards: 3/6 · waiting for Kon" in column
    assert column.rstrip().endswith("…")
    ru = screen(snapshot_of(state, activity="dealing", progress=(3, 6),
                            deck_waits_for=("Boris",)), "ru")
    assert "Раздача карт: 3/6 · ждём: Boris" in ru


def test_a_player_without_a_link_is_named_with_the_reason_instead() -> None:
    text = screen(shuffling(away=AWAY), width=100)
    assert AWAY in text
    assert "Shuffling the deck" not in text


def test_nobody_is_named_when_the_table_waits_only_for_this_node() -> None:
    text = screen(shuffling(progress=(2, 3), deck_waits_for=()))
    assert "Shuffling the deck: 2/3" in text
    assert "waiting for" not in text.lower()
