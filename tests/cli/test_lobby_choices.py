"""Every rule option of every preset on the new-table form (`table_choices`, docs/ui.md "New
table"): the table's rules validate with it, and its line fits 80 columns in both languages —
с болваном's `bout_attacker`, наборный's `after_capture`, армянский's first-lead scope among
them (docs/rules.md)."""

from __future__ import annotations

import pytest

from p2p_durak.cli.backend import TableOptions
from p2p_durak.cli.canvas import plain
from p2p_durak.cli.i18n import Look
from p2p_durak.cli.lobby_ui import FIELDS, CreateForm
from p2p_durak.cli.lobby_view import render_create
from p2p_durak.engine.presets import get_preset, table_choices, table_presets
from p2p_durak.engine.rules import DUMMY_BOUT_ATTACKER
from p2p_durak.engine.tables import STOCK_LEAD_FIRST_ONLY

WIDE = 200  # wide enough that nothing is clipped: the line's own length is measured


def _options() -> TableOptions:
    return TableOptions(seed=1, bot_delay=0.0, player_name="Tester",
                        bot_names=("Anna", "Boris", "Vera", "Gleb", "Dasha"))


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_every_choice_validates_and_fits_80_columns(lang: str) -> None:
    look = Look(lang, False)
    offered = 0
    for preset in table_presets():
        form = CreateForm()  # the form's own player count for the preset
        form.focus = FIELDS.index("choice")  # the focused line is the longer one (◀ … ▶)
        form.select_preset(preset.id)
        for index, choice in enumerate(table_choices(preset.id)):
            form.choice_index = index
            error = form.check(_options())
            assert error is None, (preset.id, choice.name_en, error)
            name = choice.name(lang)
            lines = [line for line in plain(render_create(form, _options(), look, WIDE, 60))
                     .split("\n") if f"◀ {name} ▶" in line]
            assert len(lines) == 1, (preset.id, name)
            assert len(lines[0]) <= 80, f"{preset.id}: {lines[0]!r} is {len(lines[0])} wide"
            offered += 1
    assert offered > 80


def test_the_new_options_are_offered_where_the_rules_have_them() -> None:
    def changes(preset_id: str) -> list[dict[str, object]]:
        return [dict(c.changes) for c in table_choices(preset_id)]

    assert {"dummy_hand": DUMMY_BOUT_ATTACKER} in changes("s_bolvanom")
    assert {"pre_phase_params": (("after_capture", "seed_and_end"),)} in changes("naborny")
    assert {"extra": (STOCK_LEAD_FIRST_ONLY,)} in changes("armyansky_1")
    for preset_id in ("s_bolvanom", "naborny", "armyansky_1"):
        assert changes(preset_id)[0] == {}  # the preset's own rules first
        rules = {get_preset(preset_id).rules.with_options(**c) for c in changes(preset_id)}
        assert len(rules) == len(changes(preset_id))  # each choice is a rule set of its own


def test_sp17_and_sp2_are_offered_alone_over_the_presets_rules() -> None:
    """docs/rules.md SP17: «`iz_pod_durak` and `same_as_first_game` are table options»; SP2:
    «`forbid` is the table option» — a 36-card table of six is then refused with the engine's
    reason, five play."""
    choices = table_choices("podkidnoy")
    assert [c.changes for c in choices[2:]] == [
        (("first_attacker_next_game", "iz_pod_durak"),), (("trump_when_no_stock", "forbid"),)]
    form = CreateForm()
    form.select_preset("podkidnoy")
    form.choice_index = 3
    form.players = 6
    error = form.check(_options())
    assert error is not None
    assert error.knob == "trump_when_no_stock"
    form.players = 5
    assert form.check(_options()) is None
    assert form.options(_options()).rules().trump_when_no_stock == "forbid"
    # only where a count leaves no stock and another does: 6 × 6 of 36 cards, not 52 of
    # щелковский, nor the six-seat teams preset that has no other count
    assert all(("trump_when_no_stock", "forbid") not in c.changes
               for preset_id in ("shchelkovsky", "app_komandy_3v3", "s_bolvanom")
               for c in table_choices(preset_id))
    # under под дурака only (a preset already из-под дурака offers nothing of SP17)
    assert table_choices("app_dlinny") == ()
