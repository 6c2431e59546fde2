"""с болваном (s_bolvanom) is played by the engine only so far: the networked table and the
practice table refuse it (docs/rules.md, s_bolvanom)."""

from __future__ import annotations

import pytest

from p2p_durak.engine import RuleError
from p2p_durak.engine.presets import get_preset
from p2p_durak.node.local_session import PracticeSetup
from p2p_durak.protocol.table import TableMachine


def test_a_table_refuses_the_dummy_until_it_is_played_there() -> None:
    """The networked table and the practice table do not play the dummy yet (docs/rules.md):
    they refuse its rules by name instead of seating a player at its seat."""
    rules = get_preset("s_bolvanom").rules
    with pytest.raises(RuleError) as caught:
        TableMachine(b"g" * 32, 0, 3, rules, lambda n: b"\x01" * n)
    assert caught.value.knob == "dummy_hand"
    with pytest.raises(RuleError) as caught:
        PracticeSetup(rules, 4, preset_id="s_bolvanom").check()
    assert caught.value.knob == "dummy_hand"
