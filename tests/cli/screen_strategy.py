"""A simple player that reads the screen as text: what the in-process and the tmux tests do.

It plays the first card shown in [brackets] (the playable ones) by pressing its number, and
otherwise takes, passes or says it has no trump, as the key line offers.
"""

from __future__ import annotations

SHIFT_DIGITS = "!@#$%^&*()"
CELL, GAP = 5, 1


def is_over(screen: str) -> bool:
    return "Game over" in screen or "Партия окончена" in screen


def my_move(screen: str) -> bool:
    return "Your move" in screen or "Ваш ход" in screen


def hand_rows(screen: str) -> list[tuple[str, str]]:
    """(label line, card line) pairs of the hand."""
    lines = screen.split("\n")
    start = next(i for i, line in enumerate(lines)
                 if line.startswith((" Your hand:", " Ваши карты:")))
    rows = []
    at = start + 1
    while at + 1 < len(lines) and lines[at].strip() and lines[at + 1].startswith(" "):
        labels, cards = lines[at], lines[at + 1]
        if not any(ch.isdigit() for ch in labels):
            break
        rows.append((labels, cards))
        at += 2
    return rows


def first_playable_key(screen: str) -> str | None:
    for labels, cards in hand_rows(screen):
        column = cards.find("[")
        if column >= 0:
            label = labels[column:column + CELL].strip().lstrip("*")
            if len(label) == 1:
                return label
            return SHIFT_DIGITS[int(label) - 11]
    return None


def choose_key(screen: str) -> str | None:
    """The key to press now, or None when it is not this player's move."""
    if is_over(screen) or not my_move(screen):
        return None
    key = first_playable_key(screen)
    if key is not None:
        return key
    keys_line = screen.rstrip("\n").split("\n")[-1]
    # a pre-game capture: Enter takes the chosen face-up card
    for hint, key in (("Enter take", "\r"), ("Enter забрать", "\r"), ("T take", "t"),
                      ("T беру", "t"), ("P ", "p"), ("S show", "s"), ("S показать", "s")):
        if hint in keys_line:
            return key
    return None
