"""The rule model: presets, validation, the canonical rule bytes every node agrees on."""

from __future__ import annotations

import pytest
from engine_support import Table

from p2p_durak.engine import RuleError, RuleSet, make_game, validate
from p2p_durak.engine.presets import (
    DEFAULT_PRESET,
    PRESETS,
    Preset,
    get_preset,
    working_presets,
)


def test_the_default_is_the_app_rules() -> None:
    assert DEFAULT_PRESET == "app_podkidnoy"
    preset = get_preset(DEFAULT_PRESET)
    assert preset.works
    assert preset.rules == RuleSet()
    assert preset.source.startswith("001_c746c7bb87124419.txt")


@pytest.mark.parametrize("preset", list(PRESETS.values()), ids=lambda p: p.id)
def test_a_preset_works_exactly_when_no_knob_is_pending(preset: Preset) -> None:
    assert preset.works == (not preset.pending)
    assert preset.name_ru
    assert preset.name_en
    assert preset.summary_ru
    assert preset.summary_en
    assert preset.source.split(":")[0] in ("001_c746c7bb87124419.txt",
                                           "000_0a1bcdd496bc6662.txt")
    if preset.works:
        for n in preset.players:
            validate(preset.rules, n)
            assert make_game(preset.rules, n, 0).n_players == n
    else:
        with pytest.raises(RuleError) as caught:
            validate(preset.rules)
        assert caught.value.message_en
        assert caught.value.message_ru
        assert caught.value.knob in " ".join(preset.pending)


def test_player_counts_outside_a_preset_are_refused_in_both_languages() -> None:
    for preset_id, n in [("app_podkidnoy", 7), ("app_podkidnoy", 1), ("app_komandy", 5),
                         ("app_potayny", 6), ("app_komandy_3v3", 4)]:
        with pytest.raises(RuleError) as caught:
            make_game(get_preset(preset_id).rules, n, 0)
        assert caught.value.message_ru != caught.value.message_en


def test_rule_hashes_are_canonical_and_tell_presets_apart() -> None:
    hashes = {p.id: p.rules.rules_hash() for p in PRESETS.values()}
    distinct_rules = {p.rules for p in PRESETS.values()}
    assert len(set(hashes.values())) == len(distinct_rules)
    rules = get_preset("app_perevodnoy").rules
    assert RuleSet.from_dict(rules.as_dict()) == rules
    assert RuleSet.from_dict(rules.as_dict()).rules_hash() == rules.rules_hash()
    assert rules.canonical().startswith(b"l")
    with pytest.raises(RuleError):
        rules.with_options(no_such_knob=1)
    with pytest.raises(RuleError):
        RuleSet.from_dict({"no_such_knob": 1})


def test_working_presets_cover_every_app_option_the_engine_plays() -> None:
    ids = {p.id for p in working_presets()}
    assert {"app_podkidnoy", "app_prostoy", "app_perevodnoy", "app_perevod_pokazom",
            "app_komandy", "app_komandy_3v3", "app_pogony", "app_seriya", "app_yaponsky",
            "app_potayny", "app_korol_govno", "app_dlinny"} <= ids


def test_a_knob_value_the_engine_ignores_is_refused() -> None:
    rules = get_preset("app_perevod_pokazom").rules.with_options(
        show_once_per_card_per_bout=False)
    try:
        validate(rules, 2)
    except RuleError:
        return  # refused as pending: fine
    t = Table("app_perevod_pokazom", ["7♠ 7♣ 8♥ 9♥ 10♥ J♥", "7♦ 8♠ 9♠ 10♠ K♥ A♥"],
              trump="6♦", first_attacker=0, show_once_per_card_per_bout=False)
    t.setup()
    t.do("0 lead 7♠", "1 show 7♦", "0 transfer 7♣")
    assert "1 show 7♦" in t.legal(1)  # played: the trump may be shown again
