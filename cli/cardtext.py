"""Cards as the terminal shows them: text in either notation, colour class, hand order.

The notation comes from the engine's `DeckSpec.card_text` (Russian В Д К Т or English J Q K
A; suit symbols, or letters with `ascii_only`). Red suits (♥ ♦) and dark suits (♠ ♣) get
their own style classes. A hand is shown grouped by suit, plain suits first in alternating
colours, trumps last, each suit from its lowest card up.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cached_property

from prompt_toolkit.utils import get_cwidth

from p2p_durak.engine import Game, Suit
from p2p_durak.engine.actions import BLIND_BASE
from p2p_durak.engine.cards import (
    NO_SUIT,
    RANK_EN,
    RANK_RU,
    SUIT_ASCII,
    SUIT_SYMBOLS,
    Kind,
)
from p2p_durak.engine.state import trump_suits

RED_SUITS = frozenset({int(Suit.DIAMONDS), int(Suit.HEARTS)})
SUIT_ORDER = (int(Suit.SPADES), int(Suit.HEARTS), int(Suit.CLUBS), int(Suit.DIAMONDS))
"""Plain suits alternate colours, so neighbouring groups are easy to tell apart."""
SUIT_LETTERS_RU = ("п", "т", "б", "ч")
"""пики, трефы, бубны, черви: the Russian UI's suits where ♠ cannot be shown (`Дб`, `10ч`).
Its ranks stay Russian: the ASCII ten "T" would read as туз there; so do the jokers and the
blank (`Дж*R`, `Пуст`)."""


class CardText:
    """How one game's cards read on this terminal, in this language."""

    def __init__(self, game: Game, lang: str, ascii_only: bool) -> None:
        self.game = game
        self.lang = lang
        self.ascii_only = ascii_only

    def __call__(self, card: int) -> str:
        if card >= BLIND_BASE:  # оборотный: a card of his own hand, which he does not see
            return "##" if self.ascii_only else "▒▒"
        face = self.game.deck.faces[card]
        # two decks (большой, щелковский): the copies look alike, as on a real table; the
        # engine's «A♦#1» is for logs and tests
        if self.ascii_only and self.lang == "ru":
            if face.kind is Kind.NORMAL:
                return RANK_RU[face.rank] + SUIT_LETTERS_RU[face.suit]
            # «Дж*R», «Пуст» hold no symbol: Russian as the ranks beside them (the engine's
            # ASCII «J*R», «BL» would be the only Latin card names on a Russian screen)
            return face.text(self.lang)
        return face.text(self.lang, ascii_only=self.ascii_only)

    @cached_property
    def width(self) -> int:
        """The widest card name of this deck in this look, at least 3 («10♥»; «Дж*R» 4,
        «Blank» 5): every card on screen is drawn this wide, so columns line up."""
        return max(3, *(get_cwidth(self(c)) for c in range(self.game.n_cards)))

    def face(self, card: int, left: str = " ", right: str = " ") -> str:
        """The card as drawn in its cell: markers around the name, right-aligned."""
        return f"{left}{self(card):>{self.width}}{right}"

    def rank_text(self, rank: int) -> str:
        """A rank alone (Длинный дурак's ladder: "7–10", "7–В")."""
        return rank_text(rank, self.lang, self.ascii_only)

    def many(self, cards: Iterable[int]) -> str:
        return " ".join(self(card) for card in cards)

    def style(self, card: int) -> str:
        """The card's style classes: the face and its suit's colour. Modifiers (playable,
        cursor, …) are added after it; they are `card.*` classes, which prompt-toolkit also
        reads as `card`, so the face is `card.face` (a rule for bare `card` would reset
        the suit's colour under every modifier)."""
        if card >= BLIND_BASE:
            return "class:card.face class:card.back"  # face down, like верю не верю's
        suit = self.game.suit[card]
        if suit == NO_SUIT:
            return "class:card.face class:card.joker"
        return "class:card.face " + ("class:card.red" if suit in RED_SUITS
                                     else "class:card.black")


def rank_text(rank: int, lang: str, ascii_only: bool) -> str:
    return (RANK_RU if lang == "ru" else RANK_EN)[rank]


def suit_symbol(suit: int, ascii_only: bool, lang: str = "en") -> str:
    """A trump value's symbol: one suit, or both suits of a colour (a joker turned as trump)."""
    letters = (SUIT_LETTERS_RU if lang == "ru" else SUIT_ASCII) if ascii_only else SUIT_SYMBOLS
    return "".join(letters[s] for s in sorted(trump_suits(suit)))


def hand_order(game: Game, cards: Iterable[int], trump: int) -> list[int]:
    """The hand as shown: plain suits in `SUIT_ORDER`, trumps last, low to high in a suit."""

    def key(card: int) -> tuple[int, int, int, int]:
        suit = game.suit[card]
        if suit == NO_SUIT:
            return (2, 0, 0, card)
        group = 1 if suit in trump_suits(trump) else 0
        return (group, SUIT_ORDER.index(suit), game.rank[card], card)

    return sorted(cards, key=key)
