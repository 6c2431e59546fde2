"""One line of the move log per engine event, in the player's language and notation.

The words come from the one event catalogue (`p2p_durak.node.event_lines`) that the headless
log shares; this adds the screen's card notation and the table's seat names.
"""

from __future__ import annotations

from collections.abc import Sequence

from p2p_durak.cli.cardtext import CardText, suit_symbol
from p2p_durak.cli.i18n import Messages
from p2p_durak.engine import events as E
from p2p_durak.node.api import SeatInfo
from p2p_durak.node.event_lines import EventLines


class EventText:
    def __init__(self, messages: Messages, cards: CardText, seats: Sequence[SeatInfo],
                 me: int) -> None:
        self.seats = seats
        self.dummy_name = messages("dummy")  # с болваном: the dummy's seat, in his language
        self.lines = EventLines(messages.lang, self.who, cards,
                                lambda suit: suit_symbol(suit, cards.ascii_only, cards.lang),
                                me=me)

    def who(self, seat: int) -> str:
        if 0 <= seat < len(self.seats):
            return self.dummy_name if self.seats[seat].is_dummy else self.seats[seat].name
        return "?"

    def __call__(self, event: E.Event) -> str | None:
        """The log line (None is kept for events not worth a line)."""
        return self.lines(event)
