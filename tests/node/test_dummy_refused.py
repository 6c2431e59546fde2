"""с болваном (s_bolvanom) is not played at a node's table yet (docs/rules.md, s_bolvanom):
the practice table refuses it by name rather than seat a player at the dummy's seat."""

from __future__ import annotations

import pytest

from p2p_durak.engine import RuleError
from p2p_durak.engine.presets import get_preset
from p2p_durak.node.local_session import PracticeSetup


def test_the_practice_table_refuses_the_dummy_until_it_is_played_there() -> None:
    rules = get_preset("s_bolvanom").rules
    with pytest.raises(RuleError) as caught:
        PracticeSetup(rules, 4, preset_id="s_bolvanom").check()
    assert caught.value.knob == "dummy_hand"
