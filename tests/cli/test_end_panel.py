"""The end-of-game panel at 80×24: in team play («2 на 2», «3 на 3»: a team whose players are
all out wins) the player's team is named as winner or loser — a partner's durak is his loss
too — and partners carry the ★ of the table; with six long names and a hand of two rows the
panel gives up blank lines, never the series."""

from __future__ import annotations

import dataclasses

from table_states import find_state, snapshot_of

from p2p_durak.cli.canvas import line_width, plain
from p2p_durak.cli.i18n import Look
from p2p_durak.cli.table_ui import TableUi
from p2p_durak.cli.table_view import render_table_screen
from p2p_durak.engine import State
from p2p_durak.engine.state import OVER
from p2p_durak.node.api import TableSnapshot

TEAMS = "app_komandy_3v3"


def _screen(snap: TableSnapshot, lang: str = "en") -> str:
    ui = TableUi()
    ui.update(snap)
    lines = render_table_screen(ui, Look(lang, False), 80, 24)
    assert len(lines) == 24
    assert {line_width(line) for line in lines} == {80}
    return plain(lines)


def _team_game_over(partner_is_durak: bool) -> State:
    def wanted(s: State) -> bool:
        r = s.result
        if s.phase != OVER or r is None or not r.durak or 0 in r.durak:
            return False
        return (s.game.team[r.durak[0]] == s.game.team[0]) == partner_is_durak

    return find_state(wanted, preset=TEAMS, players=6, seeds=range(400))


def test_a_partners_durak_is_the_players_loss_too() -> None:
    state = _team_game_over(partner_is_durak=True)
    text = _screen(snapshot_of(state, preset=TEAMS))
    assert "Your team lost: Tester (you), Boris, Gleb." in text  # seats 0, 2, 4
    assert "Well played" not in text
    russian = _screen(snapshot_of(state, preset=TEAMS), "ru")
    assert "Ваша команда проиграла: Tester (вы), Boris, Gleb." in russian
    assert "Браво" not in russian


def test_the_winning_team_is_named_and_partners_are_starred_in_the_series() -> None:
    state = _team_game_over(partner_is_durak=False)
    text = _screen(snapshot_of(state, preset=TEAMS))
    assert "Your team wins: Tester (you), Boris, Gleb." in text
    starred = {line.split()[1] for line in text.split("\n") if line.startswith(" ★ ")}
    assert starred == {"Boris", "Gleb"}, text


def test_six_long_names_and_a_big_hand_keep_the_whole_series_on_screen() -> None:
    state = find_state(lambda s: s.phase == OVER and s.hands[0].bit_count() > 13
                       and s.result is not None and s.result.durak == (0,),
                       players=6, seeds=range(2000))
    snap = snapshot_of(state, duraks=(1, 0, 0, 0, 0, 0))
    snap = dataclasses.replace(snap, seats=tuple(
        dataclasses.replace(seat, name=f"{seat.name} Longname-{seat.seat}")
        for seat in snap.seats))
    text = _screen(snap)
    assert "You are the durak." in text
    for seat in snap.seats:
        assert any(line.startswith(f"   {seat.name}") for line in text.split("\n")), seat.name


def test_epaulettes_are_named_at_the_end_and_counted_in_the_series() -> None:
    # «Погоны»: the durak left holding cards after a bout whose last beaten card was a six
    state = find_state(lambda s: s.phase == OVER and s.result is not None
                       and s.result.durak == (1,) and s.result.pogony > 0,
                       preset="app_pogony", players=3, seeds=range(3000))
    pogony = state.result.pogony  # type: ignore[union-attr]
    snap = snapshot_of(state, preset="app_pogony", duraks=(0, 1, 0),
                       extra={"pogony": f"0,{pogony},0"})
    text = _screen(snap)
    assert f"with epaulettes (погоны): {pogony}" in text
    header = next(line for line in text.split("\n") if "Series after game" in line)
    assert "duraks" in header
    assert "epaulettes" in header
    anna = next(line for line in text.split("\n") if line.startswith("   Anna"))
    assert anna.split("│")[0].split()[-2:] == ["1", str(pogony)], anna
    russian = _screen(snap, "ru")
    assert f"с погонами: {pogony}" in russian
    assert "погон" in next(line for line in russian.split("\n") if "Счёт серии" in line)


def test_the_hand_left_at_the_end_carries_no_key_numbers() -> None:
    # once the game is over no key plays a card: the numbers over the durak's cards go
    state = find_state(lambda s: s.phase == OVER and s.hands[0].bit_count() > 2)
    text = _screen(snapshot_of(state))
    lines = text.split("\n")
    at = next(i for i, line in enumerate(lines) if line.startswith(" Your hand:"))
    assert not any(ch.isdigit() for ch in lines[at + 1]), lines[at + 1]
    assert lines[at + 2].strip(), "the cards are still shown"
