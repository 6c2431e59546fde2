"""A table screen drawn from the game-family interface alone (`engine/family.py`'s
`TableView`): the seats, the zones, the player's own hand and what he may do, in English or
Russian, within 80×24. It knows no game: the zones' shapes say how to draw them. Дурак
чухонский (`engine/games/chukhonsky/family.py`) is its first user.

    Дурак чухонский · 3 players · discard 12
    ▶ Anna        7 cards
      Boris (bot) 9 cards   face up: 9♠ 7♥
      Vera (bot)  out
    Pile: 8♠ 9♠ 10♠
    Your hand:  1:[J♠]  2:6♥  3:Q♦ …
    Lay J♠ (1) — it climbs the pile.          1-9 lay a card · T take · Q quit
"""

from __future__ import annotations

from collections.abc import Sequence

from prompt_toolkit.utils import get_cwidth

from p2p_durak.engine.cards import DeckSpec
from p2p_durak.engine.family import Shape, TableView
from p2p_durak.engine.moves import ZoneKind

_TEXT = {
    "en": {"players": "{n} players", "discard": "discard {n}", "cards": "{n} cards",
           "out": "out", "face_up": "face up: {cards}", "pile": "Pile: {cards}",
           "empty": "Pile: empty — {who} leads any card", "hand": "Your hand:",
           "aside": "out of play {n}", "you": "you", "keys": "1-9 lay a card · T take · Q quit",
           "your_lead": "Your lead: lay any card.", "your_climb": "Lay the card that climbs "
           "the pile.", "climb_or_take": "Lay a card that climbs the pile, or take its top "
           "card (T).", "must_take": "You cannot follow: take the "
           "top card (T).", "waiting": "Waiting for {who}.", "over": "The game is over."},
    "ru": {"players": "игроков: {n}", "discard": "отбой {n}", "cards": "карт: {n}",
           "out": "вышел", "face_up": "открыты: {cards}", "pile": "Стопка: {cards}",
           "empty": "Стопка пуста — ходит {who}, любой картой", "hand": "Ваши карты:",
           "aside": "вне игры {n}", "you": "вы", "keys": "1-9 положить · T взять · Q выход",
           "your_lead": "Ваш ход: положите любую карту.", "your_climb": "Положите карту, "
           "что ложится на стопку.", "climb_or_take": "Положите карту на стопку или "
           "возьмите верхнюю (T).", "must_take": "Класть нечего: "
           "возьмите верхнюю карту (T).", "waiting": "Ходит {who}.", "over": "Партия окончена."},
}


def card_text(deck: DeckSpec, card: int, lang: str, ascii_only: bool) -> str:
    return deck.card_text(card, lang, ascii_only=ascii_only)


def render_family_table(view: TableView, seat: int, hand: Sequence[int],
                        playable: Sequence[int], can_take: bool, names: Sequence[str],
                        title: str, deck: DeckSpec, lang: str, *, ascii_only: bool = False,
                        width: int = 80, height: int = 24) -> list[str]:
    """The screen's lines (at most `height`, each at most `width` cells)."""
    t = _TEXT["ru" if lang == "ru" else "en"]

    def cards(of: Sequence[int]) -> str:
        return " ".join(card_text(deck, c, lang, ascii_only) for c in of)

    header = [title, t["players"].format(n=len(view.seats))]
    lines: list[str] = []
    for zone in view.zones:
        if zone.zone.kind == ZoneKind.DISCARD:
            header.append(t["discard"].format(n=zone.size))
        elif zone.zone.kind == ZoneKind.OUT_OF_PLAY:
            header.append(t["aside"].format(n=zone.size))
    lines.append(" · ".join(header))
    name_width = min(22, max(get_cwidth(n) for n in names) + 1)
    to_act = [s.seat for s in view.seats if "to_act" in s.roles]
    for s in view.seats:
        mark = "▶" if s.seat in to_act else " "
        if ascii_only:
            mark = ">" if s.seat in to_act else " "
        name = _fit(names[s.seat] + (f" ({t['you']})" if s.seat == seat else ""), name_width)
        count = t["out"] if "out" in s.roles else t["cards"].format(n=s.cards)
        extra = "   " + t["face_up"].format(cards=cards(s.face_up)) if s.face_up else ""
        lines.append(_fit(f"{mark} {name} {count}{extra}", width))
    lines.append("")
    who = names[to_act[0]] if to_act else ""
    for zone in view.zones:
        if zone.zone.kind != ZoneKind.TABLE:
            continue
        if zone.shape == Shape.CHAIN and zone.face_up:
            lines += _wrap(t["pile"].format(cards=cards(zone.face_up)), width)
        elif to_act:
            lines.append(_fit(t["empty"].format(who=who), width))
    lines.append("")
    shown = [f"{i + 1}:" + (f"[{card_text(deck, c, lang, ascii_only)}]" if c in playable
                            else card_text(deck, c, lang, ascii_only))
             for i, c in enumerate(hand)]
    lines += _wrap(t["hand"] + "  " + "  ".join(shown), width)
    if not to_act:
        prompt = t["over"]
    elif to_act[0] != seat:
        prompt = t["waiting"].format(who=who)
    elif not any(z.face_up for z in view.zones if z.zone.kind == ZoneKind.TABLE):
        prompt = t["your_lead"]
    else:
        prompt = t["must_take"] if not playable else \
            t["climb_or_take"] if can_take else t["your_climb"]
    body = lines[:height - 3]
    body += [""] * (height - 3 - len(body))
    return [_fit(line, width) for line in body] + ["", _fit(prompt, width),
                                                    _fit(t["keys"], width)]


def _fit(text: str, width: int) -> str:
    """Cut to `width` cells, padded (a wide character counts two)."""
    out, used = [], 0
    for ch in text:
        w = get_cwidth(ch)
        if used + w > width:
            break
        out.append(ch)
        used += w
    return "".join(out) + " " * (width - used)


def _wrap(text: str, width: int) -> list[str]:
    words, lines, line = text.split(" "), [], ""
    for word in words:
        candidate = f"{line} {word}" if line else word
        if get_cwidth(candidate) > width and line:
            lines.append(line)
            line = "   " + word
        else:
            line = candidate
    return lines + [line]
