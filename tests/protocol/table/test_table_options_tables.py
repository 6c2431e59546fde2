"""Presets played with a table option of theirs (the catalogue's alternatives, presets.
table_choices) over the mental-poker deck: every machine agrees and the audit is clean."""

from __future__ import annotations

from typing import Any

import pytest

from p2p_durak.engine.presets import get_preset
from p2p_durak.engine.rules import DUMMY_BOUT_ATTACKER
from p2p_durak.engine.tables import STOCK_LEAD_FIRST_ONLY

from .test_table_machine import _machines, _play_agreed

OPTIONS: list[tuple[str, dict[str, Any], int]] = [
    # королевский: «только тузом» read as any ace
    ("korolevsky", {"lowest_rank_only_by_ace": "any_ace"}, 2),
    ("korolevsky", {"lowest_rank_only_by_ace": "any_ace"}, 3),
    # дорожный: a throw-in beats any beating card on the table
    ("dorozhny", {"throw_in_match": "beats_any_defence"}, 3),
    # очковый, фигурный: the cards covered before a take score too
    ("ochkovy", {"counter_counts": "every_beat"}, 3),
    ("figurny", {"count_on_take": True}, 2),
    # круглый: the first card laid beside the eight is the ninth
    ("krugly", {"pre_phase_params": (("ninth_card", "first_added"),)}, 3),
    ("krugly", {"pre_phase_params": (("ninth_card", "first_added"),
                                     ("on_stock_empty", "discard_leftovers"))}, 2),
    # с болваном: each bout's attacker plays the dummy
    ("s_bolvanom", {"dummy_hand": DUMMY_BOUT_ATTACKER}, 3),
    # наборный: the card turned after a capture is laid without comparing (reading (a))
    ("naborny", {"pre_phase_params": (("after_capture", "seed_and_end"),)}, 3),
    # армянский: only the game's first lead may come from the stock
    ("armyansky_1", {"extra": (STOCK_LEAD_FIRST_ONLY,)}, 2),
]


@pytest.mark.parametrize(("preset", "changes", "n"), OPTIONS)
def test_a_table_option_agrees_and_audits_clean(preset: str, changes: dict[str, Any],
                                                n: int) -> None:
    machines = _machines(n, get_preset(preset).rules.with_options(**changes), seed=n + 300)
    _play_agreed(machines, seed=n + 300)
