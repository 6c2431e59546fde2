"""The prompt-toolkit application: one full-screen window drawn by the controller, keys that
post their names, colours, mouse."""

from __future__ import annotations

import math
from typing import Any

import trio
from prompt_toolkit.application import Application, get_app
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.input import Input
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.keys import Keys
from prompt_toolkit.layout import Layout, Window
from prompt_toolkit.layout.controls import FormattedTextControl
from prompt_toolkit.output import Output
from prompt_toolkit.styles import Style

from p2p_durak.cli.canvas import to_formatted
from p2p_durak.cli.controller import Controller
from p2p_durak.cli.guest import IntentSink, run_app
from p2p_durak.cli.table_ui import SHIFT_DIGIT_KEYS

STYLE = Style([
    ("header", "bg:#005f5f #ffffff"),
    ("header.title", "bg:#005f5f #ffffff bold"),
    ("header.timer", "bg:#af0000 #ffffff bold"),
    ("rule", "#5f8787"),
    ("label", "bold"),
    ("dim", "#8a8a8a"),
    # no rule for bare `card`: every `card.*` class also counts as `card`, so such a rule
    # would undo the suit's colour below whenever a modifier (playable, cursor…) is added
    ("card.face", "bg:#bcbcbc #000000"),
    ("card.black", "#000000"),
    ("card.red", "#af0000"),
    ("card.joker", "#5f00af"),
    ("card.playable", "bg:#ffffff bold"),
    ("card.dim", "bg:#8a8a8a"),
    ("card.marked", "bg:#87d7ff"),
    ("card.cursor", "bg:#ffd75f underline"),
    ("card.target", "bg:#ffd75f"),
    ("card.back", "bg:#5f5f87 #ffffff"),  # face down: верю не верю, оборотный's own hand
    ("target.marker", "#ffd75f bold"),
    ("hand.label", "#87afaf"),
    ("waiting", "#ffd75f bold"),
    ("your-turn", "#87ff87 bold"),
    ("activity", "#87afd7"),
    ("player.me", "bold"),
    ("player.count", ""),
    ("role.attack", "#ff875f"),
    ("role.defend", "#5fafff"),
    ("role.out", "#8a8a8a"),
    ("team", "#d7af00"),
    ("log", "#bcbcbc"),
    ("prompt", "bold"),
    ("notice", "#87afd7"),
    ("notice.error", "#ff5f5f bold"),
    ("keys", "bg:#303030 #d0d0d0"),
    ("over.title", "bold #ffd75f"),
    ("over.durak", "bold #ff5f5f"),
    ("over.won", "bold #87ff87"),
    ("over.draw", "bold"),
    ("lobby.row.chosen", "reverse"),
    ("lobby.tonight", "#ffd75f"),
    ("form.focus", "reverse"),
    ("form.label", ""),
])

# Letters by physical key: a Russian layout sends the Cyrillic letter of the same key.
LATIN = "qwertyuiop[]asdfghjkl;'zxcvbnm,."
CYRILLIC = "йцукенгшщзхъфывапролджэячсмитьбю"
LETTER_KEYS = "bcdeghklnpqrstvx"
NAMED_KEYS: dict[str, Any] = {
    "left": Keys.Left, "right": Keys.Right, "up": Keys.Up, "down": Keys.Down,
    "home": Keys.Home, "end": Keys.End, "enter": Keys.ControlM, "tab": Keys.Tab,
    "s-tab": Keys.BackTab, "escape": Keys.Escape, "f1": Keys.F1, "c-c": Keys.ControlC,
    "space": " ",
}


def key_bindings(post: Any) -> KeyBindings:
    """Every key the UI knows posts its name; nothing else happens in a handler."""
    bindings = KeyBindings()

    def bind(key: Any, name: str) -> None:
        def handler(event: KeyPressEvent) -> None:
            post(name)

        bindings.add(key, eager=name == "escape")(handler)

    for name, key in NAMED_KEYS.items():
        bind(key, name)
    for char in "1234567890?" + SHIFT_DIGIT_KEYS:
        bind(char, char)
    for letter in LETTER_KEYS:
        cyrillic = CYRILLIC[LATIN.index(letter)]
        for char in {letter, letter.upper(), cyrillic, cyrillic.upper()}:
            bind(char, letter)
    return bindings


def screen_size() -> tuple[int, int]:
    size = get_app().output.get_size()
    return size.columns, size.rows


def build_app(controller: Controller, sink: IntentSink, *, input: Input | None = None,
              output: Output | None = None) -> Application[None]:
    def text() -> StyleAndTextTuples:
        width, height = screen_size()
        return to_formatted(controller.render(width, height, sink.post))

    control = FormattedTextControl(text, focusable=True, show_cursor=False)
    app: Application[None] = Application(
        layout=Layout(Window(control, wrap_lines=False)), key_bindings=key_bindings(sink.post),
        style=STYLE, full_screen=True, mouse_support=True, input=input, output=output)
    controller.invalidate = app.invalidate
    controller.exit_app = lambda: app.exit() if app.is_running else None
    return app


async def run_ui(app: Application[None], controller: Controller, sink: IntentSink) -> None:
    """From trio: run the controller and the app until the app exits."""
    send, receive = trio.open_memory_channel[str](math.inf)
    sink.attach(send)
    async with trio.open_nursery() as nursery:
        await nursery.start(controller.run, receive)
        await run_app(app)
        nursery.cancel_scope.cancel()
