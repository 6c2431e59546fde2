"""Screens as lists of lines of prompt-toolkit fragments, laid out by width.

A fragment is `(style, text)` or `(style, text, mouse_handler)`. The views build whole
screens from these lines, so a screen is a pure function of what it shows, is tested as
plain text, and becomes the `FormattedTextControl`'s content unchanged.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.utils import get_cwidth

Fragment = tuple[Any, ...]
Line = list[Fragment]


def text_width(text: str) -> int:
    return get_cwidth(text)


def line_width(line: Sequence[Fragment]) -> int:
    return sum(get_cwidth(fragment[1]) for fragment in line)


def clip_text(text: str, width: int) -> str:
    """`text` cut to at most `width` cells (an ellipsis marks the cut)."""
    if get_cwidth(text) <= width:
        return text
    out, used = [], 0
    for char in text:
        w = get_cwidth(char)
        if used + w > width - 1:
            break
        out.append(char)
        used += w
    return "".join(out) + "…" if width > 0 else ""


def pad_text(text: str, width: int, align: str = "<") -> str:
    """`text` padded to at least `width` cells, left (`<`) or right (`>`) aligned: a column of
    a table (`clip_text` first where the column must not grow). `f"{name:<20}"` counts
    characters, and a CJK character or an emoji is two cells wide, so such a name would push
    the next columns out of line."""
    blanks = " " * max(0, width - get_cwidth(text))
    return blanks + text if align == ">" else text + blanks


def fit(line: Sequence[Fragment], width: int, style: str = "") -> Line:
    """The line cut or padded with spaces to exactly `width` cells."""
    out: Line = []
    used = 0
    for fragment in line:
        text = fragment[1]
        w = get_cwidth(text)
        if used + w > width:
            room = width - used
            kept = text.rstrip(" ")  # cutting off only blanks is no cut: no ellipsis
            text = kept if get_cwidth(kept) <= room else clip_text(text, room)
            w = get_cwidth(text)
            out.append((fragment[0], text, *fragment[2:]))
            used += w
            break
        out.append(fragment)
        used += w
    if used < width:
        out.append((style, " " * (width - used)))
    return out


def pad_lines(lines: Sequence[Line], height: int) -> list[Line]:
    """The first `height` lines, with empty lines added to reach it."""
    out = list(lines[:height])
    out.extend([] for _ in range(height - len(out)))
    return out


def columns(left: Sequence[Line], left_width: int, right: Sequence[Line], right_width: int,
            separator: Fragment = ("class:rule", "│")) -> list[Line]:
    """Two blocks side by side, as tall as the taller one."""
    height = max(len(left), len(right))
    lines = []
    for a, b in zip(pad_lines(left, height), pad_lines(right, height), strict=True):
        lines.append(fit(a, left_width) + [separator] + fit(b, right_width))
    return lines


def wrap(text: str, width: int, max_lines: int | None = None) -> list[str]:
    """Words wrapped to `width` cells (a word longer than a line is cut); with `max_lines`,
    an ellipsis ends the last line kept when the text is longer."""
    lines: list[str] = []
    for paragraph in text.split("\n"):
        current = ""
        for word in paragraph.split(" "):
            candidate = f"{current} {word}" if current else word
            if get_cwidth(candidate) <= width:
                current = candidate
            else:
                if current:
                    lines.append(current)
                current = clip_text(word, width)
        lines.append(current)
    if max_lines is not None and len(lines) > max_lines:
        lines = lines[:max_lines]
        last = lines[-1]
        lines[-1] = clip_text(last + "  ", width) if get_cwidth(last) >= width else last + "…"
    return lines


ASCII_FALLBACK = str.maketrans({
    "─": "-", "│": "|", "▶": ">", "◀": "<", "·": ".", "★": "*", "▼": "v", "…": ".",
    "—": "-", "–": "-", "×": "x", "«": '"', "»": '"', "↑": "^", "↓": "v", "←": "<", "→": ">",
    "♠": "S", "♣": "C", "♦": "D", "♥": "H", "▒": "#",
})
"""Symbols a terminal without suit symbols probably lacks too, each to one ASCII cell."""


_CYRILLIC = "абвгдеёжзийклмнопрстуфхцчшщъыьэюя"
_LATIN = ("a", "b", "v", "g", "d", "e", "e", "zh", "z", "i", "y", "k", "l", "m", "n", "o", "p",
          "r", "s", "t", "u", "f", "kh", "ts", "ch", "sh", "shch", "", "y", "", "e", "yu", "ya")
_RUSSIAN_LETTERS = frozenset(_CYRILLIC + _CYRILLIC.upper())
TRANSLITERATION = str.maketrans(
    {**dict(zip(_CYRILLIC, _LATIN, strict=True)),
     **{c.upper(): t.capitalize() for c, t in zip(_CYRILLIC, _LATIN, strict=True)}})
"""Russian words in English text (бито, перевод), for terminals without Cyrillic."""


def asciify(lines: Iterable[Line], *, transliterate: bool = False) -> list[Line]:
    """Lines with one-cell ASCII stand-ins for symbols (and Latin for Cyrillic words); what
    has no stand-in (a `№` or an emoji in a table's name) becomes `?` (`??` where it was two
    cells wide). Without
    `transliterate` Russian letters stay (a KOI8-R terminal shows them).

    Transliteration changes widths, so only fragments that end a line or hold prose may
    contain Cyrillic; the English UI's few Russian words are in such places."""
    def convert(text: str) -> str:
        text = text.translate(ASCII_FALLBACK)
        if transliterate:
            text = text.translate(TRANSLITERATION)
        if text.isascii():
            return text
        # a wide character (CJK, emoji) becomes as many `?` as it took cells: columns keep
        return "".join(ch if ch.isascii() or ch in _RUSSIAN_LETTERS else "?" * get_cwidth(ch)
                       for ch in text)

    return [[(f[0], convert(f[1]), *f[2:]) for f in line] for line in lines]


def to_formatted(lines: Iterable[Line]) -> StyleAndTextTuples:
    out: StyleAndTextTuples = []
    for i, line in enumerate(lines):
        if i:
            out.append(("", "\n"))
        out.extend(line)
    return out


def plain(lines: Iterable[Line]) -> str:
    """The screen as plain text, trailing blanks trimmed (for tests and docs)."""
    return "\n".join("".join(f[1] for f in line).rstrip() for line in lines)


def clickable(style: str, text: str, on_click: Callable[[], None] | None) -> Fragment:
    """A fragment that calls `on_click` when the mouse button is released on it."""
    if on_click is None:
        return (style, text)
    from prompt_toolkit.mouse_events import MouseEventType

    def handler(event: Any) -> Any:
        if event.event_type == MouseEventType.MOUSE_UP:
            on_click()
            return None
        return NotImplemented

    return (style, text, handler)
