"""`durak history`'s words: Russian counts of games, an empty history, a report in both
languages (run in-process through `durak`'s own entry point)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from p2p_durak.cli.history_text import games_word
from p2p_durak.cli.main import main
from p2p_durak.node.history import PRACTICE, GameRecord, PlayerRecord
from p2p_durak.node.history_store import record_practice


@pytest.mark.parametrize(("n", "plain", "after_of"), [
    (1, "1 партия", "1 партии"), (2, "2 партии", "2 партий"), (5, "5 партий", "5 партий"),
    (11, "11 партий", "11 партий"), (12, "12 партий", "12 партий"),
    (21, "21 партия", "21 партии"), (22, "22 партии", "22 партий"),
    (111, "111 партий", "111 партий")])
def test_russian_counts_of_games(n: int, plain: str, after_of: str) -> None:
    assert games_word("ru", n) == plain
    assert games_word("ru", n, of=True) == after_of


def test_english_counts_of_games() -> None:
    assert [games_word("en", n) for n in (1, 2)] == ["1 game", "2 games"]


def test_an_empty_history_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["history", "--home", str(tmp_path), "--lang", "en"]) == 0
    assert "No finished games yet" in capsys.readouterr().out
    assert main(["history", "--home", str(tmp_path), "--lang", "ru"]) == 0
    assert "Сыгранных партий пока нет" in capsys.readouterr().out


def test_the_report_in_both_languages(tmp_path: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    players = (PlayerRecord("Olga", me=True), PlayerRecord("Anna", bot="easy"))
    for n, durak in ((1, 1), (2, 1), (3, 0)):
        record_practice(tmp_path, GameRecord("t", n, PRACTICE, 1_800_000_000.0 + n, "Kitchen",
                                             "app_podkidnoy", False, players, (durak,), False,
                                             (0, 0)))
    assert main(["history", "--home", str(tmp_path), "--lang", "en"]) == 0
    out = capsys.readouterr().out
    assert "Scoreboard: 3 games · the durak how often:" in out
    assert "  Anna (bot): 2 of 3 games" in out
    assert "  Olga (you): 1 of 3 games" in out
    assert "  Anna: 3 games together; Anna the durak 2, you 1" in out
    assert "  Throw-in durak (app rules): 3 games; the durak: Anna 2, Olga 1" in out
    assert main(["history", "--home", str(tmp_path), "--lang", "ru"]) == 0
    out = capsys.readouterr().out
    assert "Итог: 3 партии · кто сколько раз был дураком:" in out
    assert "  Olga (вы): 1 из 3 партий" in out
    assert main(["history", "--home", str(tmp_path), "--json", "--limit", "1"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert [g["number"] for g in report["games"]] == [3]
    assert report["scoreboard"]["games"] == 3  # the scoreboard counts every game
