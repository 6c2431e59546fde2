"""`durak history` after real games: a networked game between two processes on 127.0.0.1 and a
practice game in the same data folder; then with the database deleted, and damaged — the
games come back from their files (the transcript audited again)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
import trio
import trio.testing
from process_support import (
    DEADLINE,
    DURAK,
    finish,
    free_port,
    processes,
    start_durak,
    summary,
    wait_for,
)

from p2p_durak.cli.backend import LocalLobbyBackend, TableOptions
from p2p_durak.node.history_store import DB_NAME

pytestmark = [pytest.mark.subprocess, pytest.mark.slow]
__all__ = ["processes"]  # the fixture, used by name


def history(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*DURAK, "history", "--home", str(home), *args],
                          capture_output=True, text=True, timeout=DEADLINE, check=False)


def practice_game(home: Path) -> tuple[int, ...]:
    """One practice game through the lobby's backend (a stand-in bot plays each of the
    player's turns when the timer runs out); the series score after it."""
    async def play() -> tuple[int, ...]:
        async with trio.open_nursery() as nursery:
            backend = LocalLobbyBackend(nursery, home=home)
            session = await backend.practice(TableOptions(
                seed=5, bot_delay=0.0, players=2, player_name="Boris", bot_names=("Anna",),
                bot_level="easy", timer=1.0, timer_policy="bot"))
            async for snap in session.snapshots:
                if snap.activity == "over":
                    await session.leave()
                    return snap.duraks
        raise AssertionError("the practice game did not end")

    return trio.run(play, clock=trio.testing.MockClock(autojump_threshold=0))


def test_history_after_a_networked_and_a_practice_game(
        tmp_path: Path, processes: list[subprocess.Popen[bytes]]) -> None:
    port = free_port()
    host = start_durak(["host", "--no-mdns", "--bind", "127.0.0.1", "--port", str(port),
                        "--seats", "3", "--bots", "easy", "--home", str(tmp_path / "a"),
                        "--name", "Kitchen", "--player", "Anna", "--json", "--lang", "en"],
                       tmp_path / "host.out", processes)
    wait_for(tmp_path / "host.out", "table «")
    home = tmp_path / "b"
    joiner = start_durak(["join", f"127.0.0.1:{port}", "--bind", "127.0.0.1", "--home",
                          str(home), "--player", "Boris", "--json", "--lang", "en"],
                         tmp_path / "join.out", processes)
    assert finish(joiner, tmp_path / "join.out") == 0
    assert finish(host, tmp_path / "host.out") == 0
    played = summary(tmp_path / "join.out")
    practice = practice_game(home)

    def check(out: subprocess.CompletedProcess[str]) -> dict[str, object]:
        assert out.returncode == 0, out.stderr
        report = json.loads(out.stdout)
        games = {g["kind"]: g for g in report["games"]}
        assert set(games) == {"network", "practice"}
        net = games["network"]
        assert net["table"] == "Kitchen"
        assert net["variant"] == "app_podkidnoy"
        names = [p["name"] for p in net["players"]]
        assert sorted(names) == ["Anna", "Boris", "bot1-easy"]
        assert [p["name"] for p in net["players"] if p["me"]] == ["Boris"]
        assert [names[i] for i in net["durak"]] == played["durak_names"]
        assert net["transcript"].endswith("transcript.durak")
        assert (home / net["transcript"]).exists()
        assert games["practice"]["series_duraks"] == list(practice)
        assert report["skipped"] == []
        return report

    first = check(history(home, "--json"))
    assert not first["rebuilt"]  # the games were recorded as they ended
    for suffix in ("", "-wal", "-shm"):
        (home / f"{DB_NAME}{suffix}").unlink(missing_ok=True)
    again = check(history(home, "--json"))
    assert again["rebuilt"]
    assert again["scoreboard"] == first["scoreboard"]
    (home / DB_NAME).write_bytes(b"\x00" * 8192)
    damaged = check(history(home, "--json"))
    assert damaged["rebuilt"]
    assert damaged["scoreboard"] == first["scoreboard"]
    text = history(home, "--lang", "en")
    assert text.returncode == 0
    assert "Recent games" in text.stdout
    assert "Kitchen" in text.stdout
    assert "Boris (you)" in text.stdout
    russian = history(home, "--lang", "ru")
    assert "Последние партии" in russian.stdout
    assert "по сети" in russian.stdout
    net = next(g for g in first["games"] if g["kind"] == "network")  # type: ignore[union-attr]
    audit = subprocess.run([*DURAK, "audit", str(home / net["transcript"]), "--lang", "en"],
                           capture_output=True, text=True, timeout=DEADLINE, check=False)
    assert audit.returncode == 0, audit.stdout  # the file the history points at audits
