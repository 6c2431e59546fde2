"""The move log names the events of the compendium variants in both languages (an event the
log does not know would otherwise read as the end of the game)."""

from __future__ import annotations

import pytest

from p2p_durak.cli.cardtext import CardText
from p2p_durak.cli.event_text import EventText
from p2p_durak.cli.i18n import Messages
from p2p_durak.engine import events as E
from p2p_durak.engine import make_game
from p2p_durak.engine.presets import get_preset
from p2p_durak.node.api import SeatInfo
from p2p_durak.node.event_lines import line as event_line

GAME = make_game(get_preset("podkidnoy").rules, 2, 0)
C = GAME.deck.parse

CASES = [
    (E.TrumpSwapped(C("8C"), C("6D"), 1), {"en": ("8♣", "6♦"), "ru": ("8♣", "6♦", "козырь")}),
    (E.PersonalTrump(1, C("KD"), 2), {"en": ("Bob", "K♦"), "ru": ("Bob", "К♦", "Личный")}),
    (E.Unlocked(0, 1, (C("9S"),)), {"en": ("9♠",), "ru": ("9♠", "открывает")}),
    (E.Unlocked(1, 1, ()), {"en": ("Bob", "1"), "ru": ("Bob", "1")}),
    (E.Rebounded((C("9C"), C("TC")), 14), {"en": ("2 cards",), "ru": ("2 карты", "колоду")}),
    # верю не верю: a cover the reader cannot see names no card
    (E.Covered(1, 0, C("9S"), -3), {"en": ("Bob", "face down", "9♠"), "ru": ("закрытую",)}),
    (E.Doubted(0, 0, C("9S")), {"en": ("doubt", "9♠"), "ru": ("сомневаюсь",)}),
    (E.DoubtSettled(0, 1, C("6H"), C("9S"), False, 1), {"en": ("does not beat", "Bob"),
                                                        "ru": ("не бьёт", "Bob")}),
]


@pytest.mark.parametrize(("event", "expected"), CASES)
@pytest.mark.parametrize("lang", ["en", "ru"])
def test_variant_events_have_their_own_line(event: E.Event, expected: dict[str, tuple[str, ...]],
                                             lang: str) -> None:
    messages = Messages(lang)
    text = EventText(messages, CardText(GAME, lang, False),
                     [SeatInfo(0, "Ann"), SeatInfo(1, "Bob")], 0)
    line = text(event)
    assert line is not None
    assert line != event_line(lang, "GameOver")
    for part in expected[lang]:
        assert part in line
