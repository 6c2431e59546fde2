"""Every engine event has its line, in both languages, for every reader: the headless log and
the table screen tell events through one catalogue (p2p_durak/node/event_lines.py)."""

from __future__ import annotations

import typing

import pytest

from p2p_durak.cli.cardtext import CardText
from p2p_durak.cli.event_text import EventText
from p2p_durak.cli.i18n import Messages
from p2p_durak.engine import events as E
from p2p_durak.engine import make_game
from p2p_durak.engine.presets import get_preset
from p2p_durak.node.api import SeatInfo
from p2p_durak.node.event_lines import LINES, cards_word
from p2p_durak.node.narrate import Narrator

GAME = make_game(get_preset("podkidnoy").rules, 2, 0)
C = GAME.deck.parse
SAMPLE: dict[object, object] = {int: 1, bool: True, tuple: (C("9S"), C("TH"))}


def _sample(kind: type) -> E.Event:
    """An instance with every field filled in by its type (a new field type fails here). The
    compiled engine's events say only `tuple` where the sources say `tuple[int, ...]`."""
    fields = typing.get_type_hints(kind)
    event: E.Event = kind(**{name: SAMPLE[typing.get_origin(hint) or hint]
                             for name, hint in fields.items()})
    return event


EVENT_KINDS = typing.get_args(E.Event)


@pytest.mark.parametrize("kind", EVENT_KINDS, ids=lambda k: k.__name__)
@pytest.mark.parametrize("lang", ["en", "ru"])
def test_every_event_reads_on_the_screen_and_in_the_headless_log(kind: type, lang: str) -> None:
    event = _sample(kind)
    screen = EventText(Messages(lang), CardText(GAME, lang, False),
                       [SeatInfo(0, "Ann"), SeatInfo(1, "Bob")], 0)(event)
    headless = Narrator(GAME, ["Ann", "Bob"], lang).engine_event(event)
    for text in (screen, headless):
        assert text, kind.__name__
        assert "{" not in text
        assert "}" not in text


def test_the_readers_share_the_words() -> None:
    beat = E.Beat(1, C("TS"), C("9S"))
    screen = EventText(Messages("ru"), CardText(GAME, "ru", False),
                       [SeatInfo(0, "Ann"), SeatInfo(1, "Bob")], 0)(beat)
    assert screen == Narrator(GAME, ["Ann", "Bob"], "ru").engine_event(beat)
    assert screen == "Bob: 10♠ на 9♠"


def test_the_headless_log_lists_taken_cards_the_screen_counts_them() -> None:
    took = E.Took(0, (C("9S"), C("TH")))
    screen = EventText(Messages("en"), CardText(GAME, "en", False),
                       [SeatInfo(0, "Ann"), SeatInfo(1, "Bob")], 1)(took)
    assert screen == "Ann takes 2 cards"
    assert Narrator(GAME, ["Ann", "Bob"], "en").engine_event(took) == "Ann takes 9♠ 10♥"


def test_game_over_names_the_durak_and_the_scores() -> None:
    over = E.GameOver((1,), False, 0, scores=(3, 1))
    assert Narrator(GAME, ["Ann", "Bob"], "en").engine_event(over) == \
        "The durak: Bob (scores: Ann 3, Bob 1)"
    assert Narrator(GAME, ["Ann", "Bob"], "ru").engine_event(E.GameOver((), True, 0)) == "Ничья"


@pytest.mark.parametrize(("n", "word"), [(1, "карта"), (2, "карты"), (5, "карт"), (11, "карт"),
                                         (21, "карта"), (22, "карты"), (112, "карт")])
def test_russian_counts_agree_with_the_number(n: int, word: str) -> None:
    assert cards_word("ru", n) == word


def test_every_line_exists_in_both_languages() -> None:
    for key, texts in LINES.items():
        assert len(texts) == 2, key
        assert all(texts), key


@pytest.mark.parametrize(("n", "said"), [(1, "1 карту"), (2, "2 карты"), (5, "5 карт"),
                                         (21, "21 карту"), (11, "11 карт")])
def test_a_count_of_cards_taken_is_the_verbs_object(n: int, said: str) -> None:
    # «Вера берёт 1 карту», not «1 карта»: the count after берёт / забирает is accusative
    taken = tuple(range(n))
    screen = EventText(Messages("ru"), CardText(GAME, "ru", False),
                       [SeatInfo(0, "Аня"), SeatInfo(1, "Вера")], 0)
    assert screen(E.Took(1, taken)) == f"Вера берёт {said}"
    assert screen(E.Swept(1, taken)) == f"Вера забирает остальные: {said}"
    assert screen(E.Discarded(taken)) == "Бито: " + said.replace("карту", "карта")
