"""A game journal whose records pass their checksums but are not what the node writes (a
writer's bug, or damage a CRC-32 missed) is refused naming the file and the record, and
`durak resume` skips that game with a warning instead of failing with a traceback. Found by
the `game_journal` fuzz target (bench/fuzz_targets.py): `codec.decode` raised a
`RemoteProtocolError` naming an "unknown peer", and a record of the wrong shape an
`AssertionError` or `ValueError` later, in `resumable()`."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from p2p_durak.node.journal import Journal
from p2p_durak.node.store import GameJournal, GameJournalCorrupt, unfinished_games
from p2p_durak.protocol import codec


def _journal_with(folder: Path, *records: bytes) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    with Journal.open(folder / "party-0.journal") as journal:
        for record in records:
            journal.append(record, sync=False)


@pytest.mark.parametrize(("record", "reason"), [
    (b"\xc1", "does not decode"),
    (codec.encode(("seed", 7)), "'seed'"),
    (codec.encode(("start",)), "'start'"),
    (codec.encode(("commit", b"entry", (1,))), "ack"),
    (codec.encode(("no such kind",)), "unknown kind"),
    (codec.encode(5), "not a named record"),
])
def test_a_record_off_the_schema_is_refused_naming_the_file(
        tmp_path: Path, record: bytes, reason: str) -> None:
    _journal_with(tmp_path, codec.encode(("series", 3)), record)
    with pytest.raises(GameJournalCorrupt, match=reason) as raised:
        GameJournal(tmp_path, 0)
    assert "party-0.journal: record 1" in str(raised.value)
    GameJournal(tmp_path / "again", 0).close()  # (the refused one left no lock behind)
    _journal_with(tmp_path / "fine", codec.encode(("series", 3)))
    GameJournal(tmp_path / "fine", 0).close()


def test_resume_skips_a_corrupt_game_with_a_warning(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    folder = tmp_path / "games" / "abcd"
    start = ("start", b"not an envelope", (), b"rules", "table", "ann", "Ann", "", "h", 1)
    _journal_with(folder, codec.encode(start))
    with caplog.at_level(logging.WARNING, logger="p2p_durak.node.store"):
        assert unfinished_games(tmp_path) == []
    assert "cannot resume the game in" in caplog.text
    assert "start record does not decode" in caplog.text
