"""The headless commands' graceful leave (`durak join --leave-at-bout K`) over real TCP on
127.0.0.1: the joiner's seat leaves between bouts, the host and its bot play the game to the end,
and the table stops after it although both asked for a series of two."""

from __future__ import annotations

import io
import socket
from pathlib import Path

import trio

from p2p_durak.engine.presets import get_preset
from p2p_durak.node.headless import (
    HostOptions,
    JoinOptions,
    Seat,
    host_and_play,
    join_and_play,
    summary,
)
from p2p_durak.node.lobby import TableConfig
from p2p_durak.node.transport import Endpoint


class _Out(io.StringIO):
    """The printed log; `listening` is set once the host says where its table is."""

    def __init__(self) -> None:
        super().__init__()
        self.listening = trio.Event()

    def write(self, text: str) -> int:
        if "table «leave» at" in text:
            self.listening.set()
        return super().write(text)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


async def test_a_headless_seat_leaves_and_the_others_finish(tmp_path: Path) -> None:
    port = _free_port()
    out = _Out()
    rules = get_preset("app_podkidnoy").rules
    config = TableConfig("leave", "app_podkidnoy", rules, 3, ("easy",))
    host = HostOptions(tmp_path / "host", "Host", config, bind="127.0.0.1", port=port,
                       advertise="127.0.0.1", mdns=False, seed=3, games=2)
    join = JoinOptions(tmp_path / "join", "Joiner", Endpoint("127.0.0.1", port),
                       bind="127.0.0.1", advertise="127.0.0.1", seed=4, games=2,
                       leave_at_bout=1)
    seats: dict[str, list[Seat]] = {}

    async def hosting() -> None:
        seats["host"] = await host_and_play(host, out)

    async def joining() -> None:
        await out.listening.wait()
        seats["join"] = await join_and_play(join, out)

    with trio.fail_after(240):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(hosting)
            nursery.start_soon(joining)
    text = out.getvalue()
    assert "[Joiner] Joiner will leave the table after this bout" in text
    assert "leaves the table; the others play on" in text
    result = summary(seats["host"])
    assert result["finished"] is True, (result, text[-2000:])
    assert result["audit_clean"] is True
    assert result["games"] == 1  # the table stopped after the game its player left
    assert result["halted"] == []
    assert "Joiner" not in result["durak_names"]  # type: ignore[operator]
    left = summary(seats["join"])
    assert left["halted"] == []
