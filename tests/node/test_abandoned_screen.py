"""Issue #6: when a player vanishes mid-game and the grace period ends the game, the others'
table screen says so in the player's own words and language — the player by name (the verdict
names "party 1 (fingerprint)", for the log), what happened, that the game is over — the status
line stops saying "Waiting for …", and the keys offer what is left: leaving. It showed the raw
English verdict, on a Russian screen too, under "Waiting for Masha".

The charter: a peer that vanishes gets a clear error naming the peer and the reason."""

from __future__ import annotations

import contextlib
from pathlib import Path

import trio
import trio.testing
from node_support import make_nodes, seat_everyone

from p2p_durak.cli.canvas import plain
from p2p_durak.cli.i18n import Look
from p2p_durak.cli.table_ui import TableUi
from p2p_durak.cli.table_view import render_table_screen
from p2p_durak.engine.errors import IllegalAction
from p2p_durak.engine.presets import get_preset
from p2p_durak.node.api import TableSnapshot
from p2p_durak.node.lobby import TableConfig
from p2p_durak.node.memnet import MemoryNetwork
from p2p_durak.node.players import BotPlayer
from p2p_durak.node.session import HumanPlayer

GRACE = 60


async def masha_vanishes_mid_game(tmp_path: Path) -> tuple[list[TableSnapshot], TableSnapshot]:
    """Anna (a person) and Masha (a bot) play; once the table waits for Masha's move, the
    network loses her for good. Returns what Anna's screen was sent: before and after."""
    network = MemoryNetwork()
    nodes = make_nodes(network, tmp_path, 2, seed=3)
    config = TableConfig("t", "app_podkidnoy", get_preset("app_podkidnoy").rules, 2,
                         grace_seconds=GRACE)
    anna = HumanPlayer(table_name="t", preset_id="app_podkidnoy", names=["Anna"])
    seen: list[TableSnapshot] = []
    gone = trio.Event()

    async def play_anna() -> None:
        async for snapshot in anna.snapshots:
            seen.append(snapshot)
            if snapshot.legal and not gone.is_set():
                with contextlib.suppress(IllegalAction):  # a turn already taken
                    await anna.act(snapshot.legal[0])
            elif (not gone.is_set() and snapshot.state is not None
                  and snapshot.activity == "playing"
                  and snapshot.waiting_for[:1] == (1 - snapshot.my_seat,)):
                network.partition("p0", "p1")  # no new link, and the ones there break
                network.cut("p0", "p1")
                gone.set()

    with trio.fail_after(3600):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(play_anna)
            for node in nodes:
                await nursery.start(node.serve)
            starts = await seat_everyone(nodes, config)
            anna.seated(["Anna", "Masha"], {})
            nursery.start_soon(nodes[1].play, starts[1], BotPlayer(seed=1))
            await nodes[0].play(starts[0], anna)
            await trio.sleep(1)  # the last snapshots reach `seen`
            nursery.cancel_scope.cancel()
    runner = nodes[0].runner
    assert runner is not None
    assert runner.verdict is not None
    assert gone.is_set()
    assert "did not return" in runner.verdict  # (the log keeps the verdict as it was)
    return seen, seen[-1]


def screen(snapshot: TableSnapshot, lang: str) -> str:
    ui = TableUi()
    ui.update(snapshot)
    return plain(render_table_screen(ui, Look(lang, False), 100, 24))


async def test_the_screen_says_who_left_and_that_the_game_is_over_in_both_languages(
        tmp_path: Path, autojump_clock: trio.testing.MockClock) -> None:
    seen, last = await masha_vanishes_mid_game(tmp_path)
    before = [s for s in seen if s.state is not None and s.activity == "playing"
              and s.away is None]
    assert before
    assert "Waiting for Masha" in screen(before[-1], "en")
    assert last.activity == "halted"
    assert last.waiting_for == ()
    assert last.legal == ()
    english, russian = screen(last, "en"), screen(last, "ru")
    assert ("Masha left the game (did not come back within 60 s). The game is over."
            in english)
    assert "Игрок Masha вышел из игры (не вернулся за 60 с). Игра окончена." in russian
    for text in (english, russian):
        assert "party 1" not in text
        assert "abandoned" not in text
        assert "Waiting for" not in text
        assert "Ждём" not in text
        assert "ждём" not in text
    # the status line tells why Masha is gone, without waiting for her any more
    assert "Masha, not connected:" in english
    assert "Masha, нет связи:" in russian
    assert "Q — back to the lobby" in english
    assert "Q leave" in english
    assert "Q — в лобби" in russian
    assert "Q выйти" in russian
    assert "Вы ходите" not in russian
    assert "Your turn" not in english
