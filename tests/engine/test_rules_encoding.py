"""Rule sets travel between nodes as canonical bytes and are agreed on by hash."""

from __future__ import annotations

import pytest

from p2p_durak.engine.presets import PRESETS
from p2p_durak.engine.rules import RuleError, RuleSet


@pytest.mark.parametrize("preset_id", sorted(PRESETS))
def test_every_preset_round_trips_through_its_canonical_bytes(preset_id: str) -> None:
    rules = PRESETS[preset_id].rules
    assert RuleSet.from_canonical(rules.canonical()) == rules
    assert RuleSet.from_canonical(rules.canonical()).rules_hash() == rules.rules_hash()


def test_option_changes_change_the_hash() -> None:
    base = RuleSet()
    assert base.with_options(transfer=True).rules_hash() != base.rules_hash()


@pytest.mark.parametrize("garbage", [b"", b"x", b"l\x00\x00\x00\x02", RuleSet().canonical() + b"N",
                                     RuleSet().canonical()[:-3]])
def test_garbage_is_refused_with_a_reason(garbage: bytes) -> None:
    with pytest.raises(RuleError):
        RuleSet.from_canonical(garbage)


def test_unknown_knob_is_refused() -> None:
    with pytest.raises(RuleError, match="no such rule knob"):
        RuleSet().with_options(flying_cards=True)
