"""The table screen's header and seat lines at 80×24 with six players and long names: the
turn timer, the trump, the stock and the discard always whole (only the rules' name gives
way), and every seat's role, the defender's already while the lead is awaited."""

from __future__ import annotations

import dataclasses

import pytest
from table_states import find_state, snapshot_of

from p2p_durak.cli.canvas import line_width, plain
from p2p_durak.cli.i18n import Look
from p2p_durak.cli.table_ui import TableUi
from p2p_durak.cli.table_view import render_table_screen
from p2p_durak.engine.state import BOUT, LEAD
from p2p_durak.protocol.messages import TimeoutPolicy, TurnTimer


def _screen(snapshot: object, lang: str, width: int = 80) -> tuple[str, list]:  # type: ignore[type-arg]
    ui = TableUi()
    ui.update(snapshot)  # type: ignore[arg-type]
    lines = render_table_screen(ui, Look(lang, False), width, 24)
    assert len(lines) == 24
    assert {line_width(line) for line in lines} == {width}
    return plain(lines), lines


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_running_timer_stands_apart_in_the_header_and_is_never_cut(lang: str) -> None:
    state = find_state(lambda s: s.phase == LEAD and s.attacker == 0, preset="app_komandy_3v3",
                       players=6)
    snap = snapshot_of(state, preset="app_komandy_3v3", deadline=7.2,
                       clocks=TurnTimer(30, TimeoutPolicy.BOT, 60))
    text, lines = _screen(snap, lang)
    header = text.split("\n")[0]
    left = "время 8 с" if lang == "ru" else "time 8 s"
    discard = "бито 0" if lang == "ru" else "discard 0"
    assert f"{discard} · {left}" in header, header
    assert header.rstrip().endswith("? помощь" if lang == "ru" else "? help")
    # the seconds are the header's only alarm-coloured text
    timer = [f for f in lines[0] if f[0] == "class:header.timer"]
    assert [f[1].strip() for f in timer] == [left]


def test_the_tables_timer_shows_while_no_turn_runs() -> None:
    state = find_state(lambda s: s.phase == LEAD and s.attacker == 1)
    snap = snapshot_of(state, clocks=TurnTimer(45, TimeoutPolicy.LOSE, 60))
    text, _ = _screen(snap, "en")
    assert "· timer 45 s" in text.split("\n")[0]


def test_six_seats_with_long_names_keep_their_count_and_role_columns() -> None:
    state = find_state(lambda s: s.phase == LEAD and s.attacker == 0 and s.defender == 1,
                       players=6)
    snap = snapshot_of(state)
    long_names = tuple(dataclasses.replace(seat, name=f"{seat.name}-with-a-very-long-name")
                       for seat in snap.seats)
    snap = dataclasses.replace(snap, seats=long_names)
    for lang in ("en", "ru"):
        text, _ = _screen(snap, lang)
        seat_lines = text.split("\n")[2:8]
        assert len({line.index("│") for line in seat_lines}) == 1
        word = "card" if lang == "en" else "карт"
        for seat, line in zip([1, 2, 3, 4, 5, 0], seat_lines, strict=True):
            assert line[24:33].split()[0] == str(state.hands[seat].bit_count()), line
            assert word in line[24:33], line
        assert ("defending" if lang == "en" else "отбивается") in seat_lines[0]


def test_the_defender_is_named_while_the_lead_is_awaited() -> None:
    # the bout is announced («Anna → Boris») before the lead: who will defend is public
    state = find_state(lambda s: s.phase == LEAD and s.attacker == 1 and s.defender == 2)
    text, _ = _screen(snapshot_of(state), "en")
    boris = next(line for line in text.split("\n") if "Boris" in line)
    anna = next(line for line in text.split("\n") if "Anna" in line)
    assert "defending" in boris
    assert "attacking" in anna
    russian, _ = _screen(snapshot_of(state), "ru")
    assert "отбивается" in next(line for line in russian.split("\n") if "Boris" in line)



def test_a_transfer_come_round_to_the_first_attacker_makes_him_the_defender() -> None:
    # переводной: Boris led, the cards were transferred on until they reached him again
    state = find_state(lambda s: s.phase == BOUT and s.defender == s.attacker == 2,
                       preset="app_perevodnoy", seeds=range(400))
    text, _ = _screen(snapshot_of(state, preset="app_perevodnoy"), "en")
    boris = next(line for line in text.split("\n") if "Boris" in line)
    assert "defending" in boris or "takes" in boris, boris
    assert "attacking" not in boris


def test_a_seat_whose_node_owes_a_deck_step_is_not_marked_as_waited_for() -> None:
    # a networked table waits for every node's share of a draw; the person has no move then
    state = find_state(lambda s: s.phase == LEAD and s.attacker == 1)
    snap = dataclasses.replace(snapshot_of(state), waiting_for=(0, 1), legal=())
    text, _ = _screen(snap, "en")
    tester = next(line for line in text.split("\n") if "Tester (you)" in line)
    anna = next(line for line in text.split("\n") if "Anna" in line)
    assert not tester.startswith(("▶", "·")), tester
    assert anna.startswith("▶"), anna
    assert "Waiting for Anna" in text
