"""Cards, decks and their notation.

A physical card is a small integer id, an index into a `DeckSpec`'s card list, so that
hands, the table and the discard are bit masks over ids. Several decks mixed keep every
physical copy distinct (same face, different id). Jokers and the blank card have no suit
and no rank.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from enum import IntEnum
from functools import cached_property
from typing import Final


class Suit(IntEnum):
    SPADES = 0
    CLUBS = 1
    DIAMONDS = 2
    HEARTS = 3


NO_SUIT: Final = -1
NO_RANK: Final = -1

SUIT_NAMES = ("spades", "clubs", "diamonds", "hearts")
"""The suits by value: also how the rules name them (`fixed_suit:spades`, untrumpable_suits)."""
SUIT_NAMES_RU = ("пики", "трефы", "бубны", "черви")
"""The suits' Russian names, as the card notation's (`RANK_RU`): the one list the UI and the
game log use."""
SUIT_SYMBOLS = ("♠", "♣", "♦", "♥")
SUIT_ASCII = ("S", "C", "D", "H")

RANK_EN = {2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9", 10: "10",
           11: "J", 12: "Q", 13: "K", 14: "A"}
RANK_RU = {2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9", 10: "10",
           11: "В", 12: "Д", 13: "К", 14: "Т"}
# Latin "T" is the ASCII ten (as in "TD"); Cyrillic "Т" is the Russian ace (туз).
_RANK_PARSE = {**{v: k for k, v in RANK_EN.items()}, **{v: k for k, v in RANK_RU.items()},
               "T": 10}
_SUIT_PARSE = {"♠": 0, "♣": 1, "♦": 2, "♥": 3, "♤": 0, "♧": 1, "♢": 2, "♡": 3,
               "S": 0, "C": 1, "D": 2, "H": 3, "П": 0, "Т": 1, "Б": 2, "Ч": 3}

DECK_SIZES = {24: 9, 32: 7, 36: 6, 52: 2}
"""Cards per deck -> its lowest rank (ranks run up to the ace, 14)."""


class Kind(IntEnum):
    NORMAL = 0
    JOKER_BLACK = 1
    JOKER_RED = 2
    BLANK = 3


# the texts of the special cards (upper case, as `DeckSpec.parse` compares them)
_SPECIAL_PARSE = {"J*R": Kind.JOKER_RED, "J*B": Kind.JOKER_BLACK, "ДЖ*R": Kind.JOKER_RED,
                  "ДЖ*B": Kind.JOKER_BLACK, "BL": Kind.BLANK, "BLANK": Kind.BLANK,
                  "ПУСТ": Kind.BLANK}


@dataclass(frozen=True, slots=True)
class CardFace:
    suit: int  # Suit value or NO_SUIT
    rank: int  # 2..14 or NO_RANK
    kind: Kind = Kind.NORMAL
    copy: int = 0  # which physical deck this copy comes from

    def text(self, lang: str = "en", *, ascii_only: bool = False, with_copy: bool = False) -> str:
        if self.kind is Kind.BLANK:
            base = "BL" if ascii_only else ("Пуст" if lang == "ru" else "Blank")
        elif self.kind in (Kind.JOKER_BLACK, Kind.JOKER_RED):
            colour = "B" if self.kind is Kind.JOKER_BLACK else "R"
            base = (("Дж" if lang == "ru" and not ascii_only else "J") + "*" + colour)
        else:
            ranks = RANK_RU if lang == "ru" and not ascii_only else RANK_EN
            rank = ranks[self.rank]
            if ascii_only and rank == "10":
                rank = "T"
            suit = SUIT_ASCII[self.suit] if ascii_only else SUIT_SYMBOLS[self.suit]
            base = rank + suit
        return f"{base}#{self.copy}" if with_copy else base


@dataclass(frozen=True)
class DeckSpec:
    """What goes into the deck: `count` decks of `size` cards, plus jokers and a blank."""

    size: int = 36
    count: int = 1
    jokers_per_deck: int = 0
    remove_one_joker: bool = False
    blank: bool = False
    removed: tuple[tuple[int, int], ...] = ()  # (suit, rank) faces taken out, all copies

    def __post_init__(self) -> None:
        if self.size not in DECK_SIZES:
            raise ValueError(f"deck size must be one of {sorted(DECK_SIZES)}, not {self.size}")
        if self.count not in (1, 2, 4):
            raise ValueError(f"deck count must be 1, 2 or 4, not {self.count}")
        if self.jokers_per_deck not in (0, 1, 2):
            raise ValueError("jokers per deck must be 0, 1 or 2")
        if self.remove_one_joker and self.jokers_per_deck == 0:
            raise ValueError("cannot remove a joker from a deck without jokers")

    @cached_property
    def faces(self) -> tuple[CardFace, ...]:
        low = DECK_SIZES[self.size]
        removed = set(self.removed)
        faces: list[CardFace] = []
        for copy in range(self.count):
            for rank in range(low, 15):
                for suit in Suit:
                    if (int(suit), rank) not in removed:
                        faces.append(CardFace(int(suit), rank, Kind.NORMAL, copy))
            if self.jokers_per_deck >= 1:
                faces.append(CardFace(NO_SUIT, NO_RANK, Kind.JOKER_RED, copy))
            if self.jokers_per_deck == 2:
                faces.append(CardFace(NO_SUIT, NO_RANK, Kind.JOKER_BLACK, copy))
        if self.remove_one_joker:
            last_joker = max(i for i, f in enumerate(faces) if f.kind is not Kind.NORMAL)
            del faces[last_joker]
        if self.blank:
            faces.append(CardFace(NO_SUIT, NO_RANK, Kind.BLANK, 0))
        return tuple(faces)

    @property
    def n_cards(self) -> int:
        return len(self.faces)

    @property
    def lowest_rank(self) -> int:
        return DECK_SIZES[self.size]

    def card_text(self, card: int, lang: str = "en", *, ascii_only: bool = False) -> str:
        return self.faces[card].text(lang, ascii_only=ascii_only, with_copy=self.count > 1)

    def parse(self, text: str) -> int:
        """Parse `6♠`, `10♥`, `Д♦`, `Q♦`, `Т♣`, `A♣`, `QD`, `TD` (and `#k` for a copy), the
        jokers `J*R`, `J*B` (`Дж*R`) and the blank `Blank` (`BL`, `Пуст`)."""
        raw = text.strip().upper().replace("Ё", "Е")
        copy = 0
        if "#" in raw:
            raw, _, copy_text = raw.partition("#")
            if not copy_text.isdigit():
                raise ValueError(f"bad copy number in card {text!r}")
            copy = int(copy_text)
        special = _SPECIAL_PARSE.get(raw)
        if special is not None:
            face = CardFace(NO_SUIT, NO_RANK, special, 0 if special is Kind.BLANK else copy)
            try:
                return self.faces.index(face)
            except ValueError:
                raise ValueError(f"{text!r} is not in this deck") from None
        if len(raw) < 2:
            raise ValueError(f"not a card: {text!r}")
        rank_text, suit_text = raw[:-1], raw[-1]
        suit = _SUIT_PARSE.get(suit_text)
        rank = _RANK_PARSE.get(rank_text)
        if suit is None or rank is None:
            raise ValueError(f"not a card: {text!r}")
        face = CardFace(suit, rank, Kind.NORMAL, copy)
        try:
            return self.faces.index(face)
        except ValueError:
            raise ValueError(f"{text!r} is not in this deck") from None


def mask_of(cards: tuple[int, ...] | list[int]) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def cards_of(mask: int) -> tuple[int, ...]:
    """Card ids in a mask, ascending."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return tuple(out)


def bits(mask: int) -> Iterator[int]:
    """Card ids in a mask, ascending, lazily."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low
