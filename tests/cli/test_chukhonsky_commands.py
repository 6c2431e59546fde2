"""`durak rules`, `durak simulate` and `durak arena` with Дурак чухонский (`chukhonsky`)."""

from __future__ import annotations

import json

import pytest

from p2p_durak.bots.arena import run_arena
from p2p_durak.cli.main import main


def test_rules_lists_chukhonsky_with_its_state(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "--lang", "en"]) == 0
    out = capsys.readouterr().out
    block = out[out.index("  chukhonsky"):].splitlines()[:4]
    assert "Дурак чухонский" in block[0]
    assert block[3].split(":", 1)[1].strip().startswith("engine only")
    assert "polsky" in out
    assert "pending: game_engine='cover_chain'" in out
    assert main(["rules", "--json"]) == 0
    records = {r["id"]: r for r in json.loads(capsys.readouterr().out)}
    assert records["chukhonsky"]["works"] is True
    assert records["kitaysky"]["works"] is False


@pytest.mark.parametrize(("lang", "words"), [
    ("en", ["Who lays an ace discards the whole pile", "climb_rule = strict_successor"]),
    ("ru", ["Кто положит туза, скидывает всю стопку", "варианты (по умолчанию)"])])
def test_rules_of_chukhonsky_in_both_languages(
        lang: str, words: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "chukhonsky", "--lang", lang]) == 0
    out = capsys.readouterr().out
    for text in words:
        assert text in out.replace("\n", " ")
    assert all(len(line) <= 80 for line in out.splitlines())


def test_rules_of_an_unknown_preset_is_refused_by_name(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "chukhonski", "--lang", "en"]) == 2
    assert "no preset 'chukhonski'" in capsys.readouterr().err


def test_simulate_chukhonsky_adds_up_and_repeats(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--preset", "chukhonsky", "--players", "3", "--games", "12",
                 "--seed", "5", "--json"]) == 0
    first = json.loads(capsys.readouterr().out.splitlines()[-1])
    assert first["games"] == 12
    assert sum(first["duraks"]) + first["draws"] == 12
    assert all(w + d == 12 - first["draws"] for w, d in
               zip(first["wins"], first["duraks"], strict=True))
    assert main(["simulate", "--preset", "chukhonsky", "--players", "3", "--games", "12",
                 "--seed", "5", "--json"]) == 0
    assert json.loads(capsys.readouterr().out.splitlines()[-1]) == first


def test_simulate_refuses_a_game_without_an_engine_and_a_bad_count(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--preset", "skitgubbe"]) == 2
    assert "skitgubbe is not playable yet" in capsys.readouterr().err
    assert main(["simulate", "--preset", "chukhonsky", "--players", "7"]) == 2
    assert "2 to 6" in capsys.readouterr().err


def test_the_arena_plays_chukhonsky_levels() -> None:
    report = run_arena(["random", "medium"], 8, 1, preset="chukhonsky", players=2, workers=1)
    (pair,) = report.pairs
    assert pair.games == 8
    assert pair.wins_a + pair.wins_b + pair.draws + pair.aborted == 8
    assert pair.aborted == 0
    with pytest.raises(ValueError, match="not playable"):
        run_arena(["random", "medium"], 2, 1, preset="polsky", workers=1)


def test_a_table_of_chukhonsky_is_refused_saying_where_it_plays(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["host", "--preset", "chukhonsky", "--seats", "2", "--bots", "easy",
                 "--lang", "en"]) == 2
    assert "chukhonsky has its own engine: only `durak simulate`" in capsys.readouterr().err
