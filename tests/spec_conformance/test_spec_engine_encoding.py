"""docs/protocol.md Appendix B: the engine encodings the wire carries, checked on the recorded
game — the rules bytes (`Start.rules_hash`) and the engine's state hash inside the table's
(§10.12), both re-derived with a codec written from the appendix."""

from __future__ import annotations

from p2p_durak import engine
from p2p_durak.engine.rules import RuleSet

from .cleanroom_canonical import decode, encode
from .cleanroom_crypto import sha256
from .cleanroom_schema import DIRECT, SIGNED, identify
from .recorded_game import RULES, clean_report, parts


def test_the_rules_bytes_are_the_sorted_knobs_under_the_rules_label() -> None:
    value = decode(RULES)
    assert isinstance(value, tuple)
    label, knobs = value
    assert label == "p2p-durak/rules/v1"
    assert isinstance(knobs, tuple)
    names = [knob[0] for knob in knobs if isinstance(knob, tuple) and isinstance(knob[0], str)]
    assert names == sorted(names)
    assert len(names) == len(knobs)
    start = identify(identify(parts()[0], DIRECT).blob("payload"), SIGNED)
    assert start.blob("rules_hash") == sha256(RULES)
    assert RuleSet.from_canonical(encode(value)) == RuleSet.from_canonical(RULES)


def test_the_engine_state_hash_is_the_labelled_public_view() -> None:
    state = clean_report().state.state
    assert state is not None
    view = engine.public_view(state)
    assert sha256(encode(("p2p-durak/state/v1", view))) == engine.state_hash(state)
