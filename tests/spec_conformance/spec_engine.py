"""docs/protocol.md Appendix B.1–B.2 from the text alone: the action kinds and the card ids."""

from __future__ import annotations

from .cleanroom_canonical import decode
from .recorded_game import RULES

# B.1's table: kind number → name
ACTION_KINDS = {name: number for number, name in enumerate((
    "DEAL", "REVEAL", "LOT", "CLAIM", "NO_TRUMP", "LEAD", "THROW", "BEAT", "TRANSFER", "SHOW",
    "TAKE", "PASS", "SHUFFLE", "NAME_TRUMP", "CONCEDE", "LEAD_STOCK", "LEAVE", "CAPTURE",
    "CHAIN", "COVER", "CHALLENGE", "EXCHANGE", "SEND_BACK"))}

LOWEST_RANK = {24: 9, 32: 7, 36: 6, 52: 2}
SUITS = "SCDH"  # B.2: spades 0, clubs 1, diamonds 2, hearts 3
RANKS = {"J": 11, "Q": 12, "K": 13, "A": 14}
RANK_TEXT = {number: text for text, number in RANKS.items()}

# suit, rank, "normal" / "red joker" / "black joker" / "blank", copy
Face = tuple[int, int, str, int]


def face_text(suit: int, rank: int) -> str:
    return RANK_TEXT.get(rank, str(rank)) + SUITS[suit]


def _face_of_text(text: str) -> tuple[int, int]:
    rank_text, suit = text[:-1], text[-1]
    return SUITS.index(suit), RANKS.get(rank_text) or int(rank_text)


def faces(size: int, count: int, jokers: int, remove_one_joker: bool, blank: bool,
          removed: tuple[str, ...] = ()) -> list[Face]:
    """B.2, steps 1–3."""
    gone = {_face_of_text(text) for text in removed}
    out: list[Face] = []
    for copy in range(count):
        for rank in range(LOWEST_RANK[size], 15):
            for suit in range(4):
                if (suit, rank) not in gone:
                    out.append((suit, rank, "normal", copy))
        if jokers >= 1:
            out.append((-1, -1, "red joker", copy))
        if jokers == 2:
            out.append((-1, -1, "black joker", copy))
    if remove_one_joker:
        del out[max(i for i, face in enumerate(out) if face[2] != "normal")]
    if blank:
        out.append((-1, -1, "blank", 0))
    return out


def knobs(rules: bytes = RULES) -> dict[str, object]:
    value = decode(rules)
    assert isinstance(value, tuple)
    assert isinstance(value[1], tuple)
    return {str(knob[0]): knob[1] for knob in value[1] if isinstance(knob, tuple)}


def faces_of_rules(rules: bytes = RULES) -> list[Face]:
    k = knobs(rules)
    removed = k["deck_remove"]
    assert isinstance(removed, tuple)
    return faces(int(str(k["deck_size"])), int(str(k["deck_count"])),
                 int(str(k["jokers_per_deck"])), k["remove_one_joker"] is True,
                 k["blank_card"] is True, tuple(str(t) for t in removed))
