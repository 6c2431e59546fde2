"""One line of the move log per engine event, in the player's language and notation."""

from __future__ import annotations

from collections.abc import Sequence

from p2p_durak.cli.cardtext import CardText, suit_symbol
from p2p_durak.cli.i18n import Messages
from p2p_durak.engine import events as E
from p2p_durak.engine.cards import NO_SUIT
from p2p_durak.node.api import SeatInfo


class EventText:
    def __init__(self, messages: Messages, cards: CardText, seats: Sequence[SeatInfo],
                 me: int) -> None:
        self.m = messages
        self.cards = cards
        self.seats = seats
        self.me = me

    def who(self, seat: int) -> str:
        if 0 <= seat < len(self.seats):
            return self.seats[seat].name
        return "?"

    def __call__(self, event: E.Event) -> str | None:
        """The log line (None is kept for events not worth a line)."""
        m, c, who = self.m.event, self.cards, self.who
        if isinstance(event, E.Dealt):
            return m("Dealt", who=who(event.dealer))
        if isinstance(event, E.TrumpRevealed):
            if event.card >= 0 and event.suit >= 0 and c.game.suit[event.card] < 0:
                # a joker turned as trump: its colour's two suits are trump
                return m("TrumpPair", card=c(event.card),
                         suit=suit_symbol(event.suit, c.ascii_only))
            if event.card >= 0:
                return m("TrumpRevealed", card=c(event.card))
            if event.suit == NO_SUIT:
                return m("NoTrump")
            return m("TrumpSuit", suit=suit_symbol(event.suit, c.ascii_only))
        if isinstance(event, E.TrumpReinserted):
            return m("TrumpReinserted", card=c(event.card))
        if isinstance(event, E.TrumpNamed):
            return m("TrumpNamed", who=who(event.seat),
                     suit=suit_symbol(event.suit, c.ascii_only))
        if isinstance(event, E.HiddenTrumpRevealed):
            return m("HiddenTrumpRevealed", card=c(event.card))
        if isinstance(event, E.PersonalTrump):
            return m("PersonalTrump", who=who(event.seat), card=c(event.card))
        if isinstance(event, E.TrumpSwapped):
            return m("TrumpSwapped", card=c(event.card), old=c(event.old_card))
        if isinstance(event, E.Claimed):
            if event.card < 0:
                return m("ClaimedNone", who=who(event.seat))
            return m("Claimed", who=who(event.seat), card=c(event.card))
        if isinstance(event, E.FirstAttacker):
            return m("FirstAttackerLot" if event.by_lot else "FirstAttacker",
                     who=who(event.seat))
        if isinstance(event, E.BoutStarted):
            return m("BoutStarted", who=who(event.attacker), whom=who(event.defender))
        if isinstance(event, E.Led):
            return m("Led", who=who(event.seat), cards=c.many(event.cards))
        if isinstance(event, E.ThrewIn):
            return m("ThrewIn", who=who(event.seat), card=c(event.card))
        if isinstance(event, E.Beat):
            return m("Beat", who=who(event.seat), card=c(event.card), attack=c(event.attack_card))
        if isinstance(event, E.Transferred):
            return m("TransferredShown" if event.shown else "Transferred", who=who(event.seat),
                     card=c(event.card), whom=who(event.new_defender))
        if isinstance(event, E.TakeDeclared):
            return m("TakeDeclared", who=who(event.seat))
        if isinstance(event, E.Passed):
            return m("Passed", who=who(event.seat))
        if isinstance(event, E.Discarded):
            return m("Discarded", n=len(event.cards))
        if isinstance(event, E.Took):
            return m("Took", who=who(event.seat), n=len(event.cards))
        if isinstance(event, E.Drew):
            if event.cards and event.seat == self.me:
                return m("DrewCards", who=who(event.seat), cards=c.many(event.cards))
            return m("Drew", who=who(event.seat), n=event.n)
        if isinstance(event, E.Rebounded):
            return m("Rebounded", n=len(event.cards))
        if isinstance(event, E.Unlocked):
            if event.cards and event.seat == self.me:
                return m("UnlockedCards", who=who(event.seat), cards=c.many(event.cards))
            return m("Unlocked", who=who(event.seat), n=event.n)
        if isinstance(event, E.PlayerOut):
            return m("PlayerOut", who=who(event.seat))
        if isinstance(event, E.HandsRotated):
            return m("HandsRotated")
        if isinstance(event, E.Conceded):
            return m("Conceded", who=who(event.seat))
        return m("GameOver")
