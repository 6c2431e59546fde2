"""The lobby screen (tables on the network) and the new-table form."""

from __future__ import annotations

import functools
from collections.abc import Callable

from p2p_durak.cli.backend import TableOptions
from p2p_durak.cli.canvas import Line, clickable, clip_text, fit, pad_lines, pad_text, wrap
from p2p_durak.cli.engine_build import EngineStrength, Strength
from p2p_durak.cli.history_text import tonight_lines
from p2p_durak.cli.i18n import Look
from p2p_durak.cli.lobby_ui import FIELDS, GRACES, TIMERS, CreateForm, LobbyUi
from p2p_durak.cli.table_view import Post, clocks_text, preset_name
from p2p_durak.engine.presets import PRESETS


def _frame(title: str, body: list[Line], bottom: list[Line], width: int,
           height: int) -> list[Line]:
    top = [fit([("class:header.title", f" {title}")], width, "class:header"),
           [("class:rule", "─" * width)]]
    middle = height - len(top) - len(bottom)
    return [fit(line, width) for line in top + pad_lines(body, middle) + bottom]


TOP = ("title", "rule")
BOTTOM_LINES = 3  # status, notice, keys
UNDER_THE_LIST = 5  # a blank, your name, the host's and your fingerprint, the * note
CHANGED_MARK = "*"
LOBBY_COLUMNS = {"name": ("<", 20), "variant": ("<", 20), "players": (">", 7), "free": (">", 5)}
"""How wide each column of the lobby's list is, in cells (the timer's, the last, is free)."""


def _columns(look: Look, **values: str) -> str:
    """One row of the lobby's list: each value padded to its column's cells (the names are
    cut to them first)."""
    return look.messages("lobby.columns", **{
        key: pad_text(value, LOBBY_COLUMNS[key][1], LOBBY_COLUMNS[key][0])
        if key in LOBBY_COLUMNS else value for key, value in values.items()})


@functools.lru_cache(maxsize=512)  # (hashes come from the network: bounded)
def changes_its_preset(variant: str, rules_hash: str) -> bool:
    """Whether a table plays other rules than its preset's own (an option of the form, a rule
    choice): the advertisement carries the rules' hash only, so the lobby can tell that much."""
    preset = PRESETS.get(variant)
    return preset is not None and preset.rules.rules_hash() != rules_hash


def engine_text(engine: EngineStrength, look: Look, now: float) -> str:
    """The lobby's line on the bots' strength: the compiled engine makes them stronger."""
    key = f"lobby.engine.{engine.strength.value}"
    if engine.strength is Strength.COMPILING:
        seconds = max(0, int(now - (engine.since or now)))
        return look.messages(key, elapsed=f"{seconds // 60}:{seconds % 60:02d}")
    if engine.strength is Strength.FAILED:
        return look.messages(key, reason=clip_text(engine.reason, 40))
    return look.messages(key)


def render_lobby(lobby: LobbyUi, look: Look, width: int, height: int,
                 post: Post | None = None, you: str = "", now: float = 0.0) -> list[Line]:
    """`you`: the name this player sits down with (said once, with how to change it);
    `now`: the wall clock (time.time()), for how long the engine has been compiling."""
    m = look.messages
    body: list[Line] = []
    header = _columns(look, name=m("lobby.col.name"), variant=m("lobby.col.variant"),
                      players=m("lobby.col.players"), free=m("lobby.col.free"),
                      timer=m("lobby.col.timer"))
    body.append([("class:label", "   " + header)])
    listed = lobby.listed()
    if not listed:
        body.append([])
        body.append([("class:dim", "   " + m("lobby.empty"))])
    # the rows that fit (the frame, the bottom, the header and the lines under the list take
    # the rest): a longer list scrolls with the cursor
    tonight = tonight_lines(lobby.tonight, m)
    engine_lines = int(lobby.engine is not None)  # the bots' strength
    room = max(1, height - len(TOP) - BOTTOM_LINES - 1 - UNDER_THE_LIST - len(tonight)
               - engine_lines)
    first = min(max(0, lobby.cursor - room // 2), max(0, len(listed) - room))
    shown = listed[first:first + room]
    for index, seen in enumerate(shown, start=first):
        table = seen.table
        chosen = index == lobby.cursor
        variant = preset_name(table.variant, look.lang) if table.variant in PRESETS \
            else table.variant
        if changes_its_preset(table.variant, table.rules_hash):
            variant = clip_text(variant, 19) + CHANGED_MARK
        row = _columns(look, name=clip_text(table.name, 20), variant=clip_text(variant, 20),
                       players=f"{table.seats_taken}/{table.seats}", free=str(table.seats_free),
                       timer=clocks_text(table.timer, look) if table.compatible
                       else m("lobby.other_version", version=table.protocol_version))
        style = "class:lobby.row.chosen" if chosen else (
            "class:lobby.row" if table.seats_free and table.compatible else "class:dim")
        on_click = None if post is None else (lambda i=index: post(f"click:row:{i}"))
        body.append([("class:waiting", " ▶ " if chosen else "   "),
                     clickable(style, row, on_click)])
    # Fingerprints are how people tell tables and players apart for sure (docs/protocol.md §2):
    # joining checks that the host proves the one shown here.
    chosen_table = lobby.selected()
    if (chosen_table is not None or lobby.own_fingerprint is not None or you or tonight
            or lobby.engine is not None):
        body.append([])
    for text in tonight:  # the history of the evening: who was the durak how often
        body.append([("class:lobby.tonight", "   " + clip_text(text, width - 4))])
    if you:
        body.append([("class:dim", "   " + m("lobby.you", name=clip_text(you, 24)))])
    if lobby.engine is not None:
        body.append([("class:dim", "   " + clip_text(engine_text(lobby.engine, look, now),
                                                       width - 4))])
    if chosen_table is not None:
        body.append([("class:dim", "   " + m("lobby.host_fingerprint",
                                               name=clip_text(chosen_table.table.name, 24),
                                               fp=chosen_table.table.fingerprint))])
    if lobby.own_fingerprint is not None:
        body.append([("class:dim", "   " + m("lobby.own_fingerprint",
                                               fp=lobby.own_fingerprint))])
    if any(changes_its_preset(seen.table.variant, seen.table.rules_hash) for seen in listed):
        body.append([("class:dim", "   " + m("lobby.changed_rules", mark=CHANGED_MARK))])
    status: Line = []
    if lobby.discovery is not None:
        status = [("class:dim", " " + lobby.discovery.text(look.lang))]
    elif not listed:
        status = [("class:dim", " " + m("lobby.searching"))]
    elif len(shown) < len(listed):
        status = [("class:dim", " " + m("lobby.scrolled", first=first + 1,
                                         last=first + len(shown), count=len(listed)))]
    notice: Line = []
    if lobby.notice is not None:
        notice = [("class:notice.error" if lobby.notice.error else "class:notice",
                   " " + lobby.notice.text(look.lang))]
    bottom = [status, notice, fit([("class:keys", " " + m("lobby.keys"))], width, "class:keys")]
    return _frame(m("lobby.title"), body, bottom, width, height)


def _value(form: CreateForm, name: str, look: Look) -> str:
    m = look.messages
    if name == "preset":
        return form.preset.name(look.lang)
    if name == "choice":  # the preset's rule choices; a dash when it offers none
        choices = form.choices
        return choices[form.choice_index].name(look.lang) if choices else "—"
    if name == "players":
        return str(form.players)
    if name == "deck":
        return m("create.deck_cards", n=form.deck_size)
    if name == "network_bots":
        return str(form.network_bots)
    if name in ("transfer", "teams", "pogony"):
        return m("on") if getattr(form, name) else m("off")
    if name == "throw_in_by":
        return m(f"throw_in_by.{form.throw_in_by}")
    if name == "timer":
        seconds = TIMERS[form.timer_index]
        return m("timer.off") if seconds is None else m("timer.seconds", s=int(seconds))
    if name == "timer_policy":
        return m(f"timer_policy.{form.timer_policy}")
    if name == "grace":
        return m("timer.seconds", s=GRACES[form.grace_index])
    return m(f"level.{form.bot_level}")


def render_create(form: CreateForm, base: TableOptions, look: Look, width: int,
                  height: int, post: Post | None = None) -> list[Line]:
    """`post`: where clicks go — on a field's name it takes the focus, on its value it
    changes it (as →), on a button it starts (as Enter)."""
    m = look.messages
    body: list[Line] = []
    arrows = ("◀ ", " ▶")

    def click(what: str, index: int) -> Callable[[], None] | None:
        return None if post is None else (lambda: post(f"click:{what}:{index}"))

    for index, name in enumerate(FIELDS):
        focused = index == form.focus
        style = "class:form.focus" if focused else "class:form"
        if name in ("practice", "network"):
            if name == "practice":
                body.append([])
            body.append([("", "   "), clickable(style, f" {m('create.' + name)} ",
                                                 click("button", index))])
            continue
        label = m("create.bots" if name == "bots" else f"create.{name}")
        value = _value(form, name, look)
        body.append([("class:waiting", " ▶ " if focused else "   "),
                     clickable("class:form.label", pad_text(label, 24), click("field", index)),
                     clickable(style, f"{arrows[0]}{value}{arrows[1]}" if focused
                               else f"  {value}", click("value", index))])
        if name == "preset":
            for text in wrap(form.preset.description(look.lang), width - 8, 3):
                body.append([("class:dim", "      " + text)])
    pending = len(PRESETS) - len(form.presets)
    if pending:
        body.append([])
        body.append([("class:dim", "   " + m("create.pending", count=pending))])
    error = form.check(base)
    notice: Line = []
    if form.notice is not None:
        notice = [("class:notice.error", " " + form.notice.text(look.lang))]
    elif error is not None:
        reason = error.message_ru if look.lang == "ru" else error.message_en
        notice = [("class:notice.error", " " + m("rules_refused", reason=reason))]
    bottom = [notice, fit([("class:keys", " " + m("create.keys"))], width, "class:keys")]
    return _frame(m("create.title"), body, bottom, width, height)
