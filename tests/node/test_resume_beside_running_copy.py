"""`durak resume` beside a running copy of the same game (issue #20): the running copy holds
the game's journal locked (one writer per seat), and the second process says in one line, in
the chosen language, that the game is already running, and exits 1 — it used to die with a
`JournalLocked` traceback (and later said "no unfinished game here", which is untrue)."""

from __future__ import annotations

from pathlib import Path

import pytest

from p2p_durak.cli.main import main
from p2p_durak.node.journal import Journal
from p2p_durak.node.store import scan_unfinished
from p2p_durak.protocol import codec

GAME = "ab12cd34" * 8


def _running_copy(home: Path) -> Journal:
    """What a running `durak` holds: the game's journal, open for writing (locked)."""
    folder = home / "games" / GAME
    folder.mkdir(parents=True)
    journal = Journal.open(folder / "party-0.journal")
    journal.append(codec.encode(("series", 1)), sync=False)
    return journal


@pytest.mark.parametrize(("lang", "words"), [
    ("en", "this game is already running (game ab12cd34, in another durak process)"),
    ("ru", "эта игра уже идёт (игра ab12cd34, в другом процессе durak)"),
])
def test_resume_beside_a_running_copy_says_the_game_is_running(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], lang: str, words: str) -> None:
    with _running_copy(tmp_path):
        assert main(["resume", "--home", str(tmp_path), "--lang", lang]) == 1
    captured = capsys.readouterr()
    assert captured.err == f"durak resume: {words}\n"
    assert captured.out == ""


def test_the_scan_tells_a_running_game_from_a_resumable_one(tmp_path: Path) -> None:
    with _running_copy(tmp_path):
        found = scan_unfinished(tmp_path)
    assert found.running == (tmp_path / "games" / GAME,)
    assert found.resumable == ()
    assert scan_unfinished(tmp_path).running == ()  # the lock went with the running copy


def test_nothing_to_resume_is_still_said(tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["resume", "--home", str(tmp_path), "--lang", "en"]) == 1
    assert capsys.readouterr().err == "durak resume: no unfinished game here\n"
