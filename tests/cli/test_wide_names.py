"""Names that are wider than they are long — CJK characters and emoji take two cells of the
terminal — keep the columns in line: the lobby's list, the seats at the table, the series at
the end of the game, and ASCII mode, where each such character becomes `??`.

The issue (#6, "Language and terminals"): «Works in an 80×24 terminal»; the names come from
other players over the network, so they can be anything.
"""

from __future__ import annotations

import dataclasses

from prompt_toolkit.utils import get_cwidth
from table_states import find_state, snapshot_of
from test_lobby import ad

from p2p_durak.cli.canvas import Line, asciify, line_width, pad_text, plain
from p2p_durak.cli.i18n import Look
from p2p_durak.cli.lobby_ui import LobbyUi
from p2p_durak.cli.lobby_view import render_lobby
from p2p_durak.cli.table_ui import TableUi
from p2p_durak.cli.table_view import render_table_screen
from p2p_durak.engine.state import LEAD, OVER
from p2p_durak.node.api import TableSnapshot
from p2p_durak.node.tableinfo import TableSeen

WIDE_NAMES = ("麻将桌", "Kitchen", "麻将桌子麻将桌子麻将桌子麻将桌子", "🃏 Карты", "Ёлка")


def _cells_before(line: str, part: str) -> int:
    return get_cwidth(line[:line.index(part)])


def _lobby(lang: str) -> list[str]:
    lobby = LobbyUi()
    for n, name in enumerate(WIDE_NAMES):
        lobby.apply(TableSeen(ad(name, taken=1, free=n + 1), ("10.0.0.2",)))
    lines = render_lobby(lobby, Look(lang, False), 80, 24)
    assert {line_width(line) for line in lines} == {80}
    return plain(lines).split("\n")


def test_the_lobbys_columns_line_up_whatever_the_tables_names() -> None:
    for lang, variant in (("en", "Throw-in durak"), ("ru", "Подкидной")):
        rows = [line for line in _lobby(lang) if variant in line]
        assert len(rows) == len(WIDE_NAMES)
        # the preset's name starts, the players' count and the free seats end, in one column
        assert len({_cells_before(row, variant) for row in rows}) == 1, rows
        assert len({_cells_before(row, f"1/{n + 2}") for n, row in enumerate(rows)}) == 1, rows
        assert "麻将桌子麻将桌子麻…  " in rows[2]  # cut to 19 cells, then one blank


SEAT_NAMES = ("我", "麻将桌子麻将桌子麻将桌子麻将桌子", "🃏🃏 Ann")


def screen_with_wide_names(snap: TableSnapshot) -> list[Line]:
    """The 80×24 table screen of `snap` with its three seats named in wide characters."""
    snap = dataclasses.replace(snap, seats=tuple(
        dataclasses.replace(seat, name=name) for seat, name in zip(snap.seats, SEAT_NAMES,
                                                                     strict=True)))
    ui = TableUi()
    ui.update(snap)
    return render_table_screen(ui, Look("en", False), 80, 24)


def test_the_seats_and_the_series_line_up_with_wide_names() -> None:
    state = find_state(lambda s: s.phase == OVER and s.result is not None,
                       players=3, seeds=range(500))
    lines = screen_with_wide_names(snapshot_of(state, duraks=(1, 0, 2)))
    assert {line_width(line) for line in lines} == {80}
    text = plain(lines).split("\n")
    header = next(n for n, line in enumerate(text) if "Series after game" in line)
    rows = text[header + 1:header + 4]
    # each row's count of duraks ends where the header's "duraks" does
    edge = _cells_before(text[header], "duraks") + len("duraks")
    assert [get_cwidth(row.split("│")[0].rstrip()) for row in rows] == [edge] * 3, rows


def test_the_seat_list_at_play_lines_up_with_wide_names() -> None:
    state = find_state(lambda s: s.phase == LEAD, players=3)
    lines = screen_with_wide_names(snapshot_of(state))
    assert {line_width(line) for line in lines} == {80}
    seats = [line for line in plain(lines).split("\n") if " 6 cards " in line]
    assert len(seats) == 3
    # after the marker (2 cells) the name's cell of 22, whose last cell is blank
    assert {_cells_before(line, " 6 cards") for line in seats} == {2 + 22 - 1}, seats


def test_pad_text_counts_cells() -> None:
    assert pad_text("麻将", 6) == "麻将  "
    assert pad_text("麻将", 6, ">") == "  麻将"
    assert pad_text("麻将桌子", 6) == "麻将桌子"  # pads, never cuts (as `f"{x:<6}"`)


def test_ascii_mode_keeps_a_wide_characters_cells() -> None:
    line = [("", "麻将 | x"), ("", "🃏|")]
    shown = asciify([line], transliterate=True)
    assert plain(shown) == "???? | x??|"
    assert line_width(shown[0]) == line_width(line)
