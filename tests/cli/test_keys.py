"""Key bindings: what each key (either keyboard layout) posts, read from a real pipe input."""

from __future__ import annotations

import asyncio

from prompt_toolkit.application import Application
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.layout import Layout, Window
from prompt_toolkit.output import DummyOutput

from p2p_durak.cli.app import key_bindings


def posted_for(text: str) -> list[str]:
    """Type `text` (then Ctrl-C) into an app with the UI's bindings; the names posted."""
    posted: list[str] = []

    async def main() -> None:
        with create_pipe_input() as pipe:
            def post(name: str) -> None:
                posted.append(name)
                if name == "c-c":
                    app.exit()

            app: Application[None] = Application(
                layout=Layout(Window()), key_bindings=key_bindings(post), input=pipe,
                output=DummyOutput())
            pipe.send_text(text + "\x03")
            await app.run_async()

    asyncio.run(main())
    assert posted[-1] == "c-c"
    return posted[:-1]


def test_digits_and_shifted_digits_pick_cards() -> None:
    assert posted_for("1290!)") == ["1", "2", "9", "0", "!", ")"]


def test_commands_by_latin_or_russian_layout_and_either_case() -> None:
    # t/е take, p/з pass, r/к transfer, s/ы show, b/и beat, n/т next, q/й leave, l/д language
    assert posted_for("tеTЕ") == ["t"] * 4
    assert posted_for("pзrкsыbиnтqйlд") == ["p", "p", "r", "r", "s", "s", "b", "b", "n", "n",
                                             "q", "q", "l", "l"]


def test_arrows_enter_space_tab_and_help() -> None:
    text = "\x1b[D\x1b[C\x1b[A\x1b[B\r \t\x1b[Z?"
    assert posted_for(text) == ["left", "right", "up", "down", "enter", "space", "tab",
                                "s-tab", "?"]


def test_unbound_keys_post_nothing() -> None:
    from p2p_durak.cli.app import LETTER_KEYS

    unbound = "ajwyz"
    assert not set(unbound) & set(LETTER_KEYS)  # x is pokerny's exchange since 8aa98ac
    assert posted_for(unbound) == []
