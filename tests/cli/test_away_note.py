"""A networked table that cannot go on because a player has no link says whom it waits for and
why — before the deal (it said "Dealing the cards…" and nothing else until the grace period
ended the game) and during play — and, once the grace period ends it, the verdict too. The
charter: a peer that vanishes or cannot be reached gets a clear error naming the peer and the
reason."""

from __future__ import annotations

from table_states import find_state, snapshot_of

from p2p_durak.cli.canvas import plain
from p2p_durak.cli.i18n import Look
from p2p_durak.cli.table_ui import TableUi
from p2p_durak.cli.table_view import render_table_screen
from p2p_durak.engine.presets import get_preset
from p2p_durak.engine.state import BOUT
from p2p_durak.node.api import TableSnapshot

AWAY = "waiting for Boris, not connected: cannot connect to 127.0.0.1:41235: Connection refused"
AWAY_RU = "ждём Boris, нет связи: cannot connect to 127.0.0.1:41235: Connection refused"
VERDICT = "abandoned: party 1 (ABCD-EFGH-IJKL-MNOP) did not return within 60 s at position 0"


def before_the_deal(**changes: object) -> TableSnapshot:
    return TableSnapshot(table_name="Kitchen", preset_id="app_podkidnoy",
                         rules=get_preset("app_podkidnoy").rules, seats=(), my_seat=0,
                         state=None, activity="keys", away=AWAY, away_ru=AWAY_RU,
                         **changes)  # type: ignore[arg-type]


def screen(snapshot: TableSnapshot, lang: str = "en", width: int = 100) -> str:
    ui = TableUi()
    ui.update(snapshot)
    return plain(render_table_screen(ui, Look(lang, False), width, 24))


def test_before_the_deal_the_screen_names_whom_it_waits_for_and_why() -> None:
    text = screen(before_the_deal())
    assert AWAY in text
    assert "Exchanging keys" not in text
    assert "Dealing the cards" not in text
    assert AWAY_RU in screen(before_the_deal(), "ru")


def test_once_the_grace_period_ends_the_game_the_verdict_shows_too() -> None:
    text = screen(before_the_deal(notice=VERDICT))
    assert AWAY in text
    assert VERDICT in text


def test_during_play_the_status_names_the_player_without_a_link_whole() -> None:
    """At 80 columns the table's column is 56 wide: the reason goes on over the next lines
    (cut, it lost what the player needs to know)."""
    state = find_state(lambda s: s.phase == BOUT and s.defender == 0)
    text = screen(snapshot_of(state, away=AWAY), width=80)
    column = " ".join(line.split("│")[0].strip() for line in text.split("\n") if "│" in line)
    assert AWAY in column
