"""Which addresses a headless host's mDNS advertisement names (`reachable_at`): where players
can dial it. A host bound to 127.0.0.1 advertised the machine's LAN addresses, where nothing
listened, and every join failed with "cannot reach 192.0.2.2:…"."""

from __future__ import annotations

from pathlib import Path

import pytest

from p2p_durak.engine.presets import get_preset
from p2p_durak.node.headless import HostOptions, reachable_at
from p2p_durak.node.lobby import TableConfig

CONFIG = TableConfig("t", "app_podkidnoy", get_preset("app_podkidnoy").rules, 2)


@pytest.mark.parametrize(("bind", "advertise", "named"), [
    ("0.0.0.0", None, None),  # every interface: discovery names the machine's addresses
    ("127.0.0.1", None, ["127.0.0.1"]),  # bound to one address: only it
    ("192.0.2.7", None, ["192.0.2.7"]),
    ("0.0.0.0", "192.0.2.9", ["192.0.2.9"]),  # --advertise: the address players dial
    ("127.0.0.1", "192.0.2.9", ["192.0.2.9"]),
    ("0.0.0.0", "durak.lan", None),  # a host name is no mDNS address record
    ("127.0.0.1", "durak.lan", ["127.0.0.1"]),
])
def test_a_host_advertises_where_it_can_be_dialled(
        bind: str, advertise: str | None, named: list[str] | None) -> None:
    opts = HostOptions(Path("unused"), "Anna", CONFIG, bind=bind, advertise=advertise)
    assert reachable_at(opts) == named
