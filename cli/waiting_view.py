"""The waiting room: a networked table before its game starts.

Who is seated so far and how many seats are free (the host's list changes as players join and
leave), the table's rules in short and its clocks, why joining failed when it did, and the way
back to the lobby. Drawn from the `TableSnapshot` a `HumanPlayer` publishes before the deal
(`activity == "lobby"`, `state is None`).
"""

from __future__ import annotations

from p2p_durak.cli.canvas import Line, fit, pad_lines, wrap
from p2p_durak.cli.help_view import rules_summary
from p2p_durak.cli.i18n import Look
from p2p_durak.cli.table_view import clocks_line, preset_name
from p2p_durak.engine.presets import PRESETS
from p2p_durak.node.api import TableSnapshot

UNKNOWN_NAME = "…"  # a joiner knows how many sit at the table, not who


def is_waiting_room(snap: TableSnapshot | None) -> bool:
    return snap is not None and snap.state is None and snap.activity == "lobby"


def _seat_line(snap: TableSnapshot, seat: int, look: Look) -> Line:
    m = look.messages
    if seat >= len(snap.seats):
        return [("class:dim", f"   {seat + 1}  {m('waiting.free_seat')}")]
    info = snap.seats[seat]
    name = m("waiting.someone") if info.name == UNKNOWN_NAME else info.name
    if seat == snap.my_seat:
        name += f" ({m('you')})"
    if info.is_bot:
        level = m(f"level.{info.bot_level}") if info.bot_level else ""
        name += f" ({m('bot')}{', ' + level if level else ''})"
    style = "class:player.me" if seat == snap.my_seat else "class:player"
    return [("", f"   {seat + 1}  "), (style, name)]


def render_waiting(snap: TableSnapshot, look: Look, width: int, height: int, *,
                   can_fill: bool = False) -> list[Line]:
    """`can_fill`: the host may fill the free seats with bots (B) and start at once."""
    m = look.messages
    variant = preset_name(snap.preset_id, look.lang)
    seated, seats = snap.progress or (len(snap.seats), len(snap.seats))
    title = f" {snap.table_name} · {variant}" if snap.table_name else f" {variant}"
    body: list[Line] = [
        [("class:label", " " + m("waiting.seated", n=seated, seats=seats))], []]
    body += [_seat_line(snap, seat, look) for seat in range(seats)]
    body += [[], [("class:label", " " + m("help.rules"))]]
    preset = PRESETS.get(snap.preset_id)
    if preset is not None:
        body += [[("", "   " + text)] for text in wrap(preset.description(look.lang),
                                                       width - 4, 3)]
    deck = snap.rules.deck()
    body.append([("", "   " + m("help.deck", size=deck.n_cards, hand=snap.rules.hand_size,
                                    players=seats))])
    body += [[("class:dim", "   " + text)] for text in wrap(rules_summary(snap.rules, look),
                                                            width - 4, 2)]
    if snap.clocks is not None:
        body.append([("class:dim", "   " + clocks_line(snap.clocks, look))])
    if snap.notice:
        reason = snap.notice_ru if look.lang == "ru" and snap.notice_ru else snap.notice
        status: Line = [("class:notice.error", " " + m("waiting.failed", reason=reason))]
    else:
        status = [("class:waiting", " " + m("waiting.starts"))]
    top = [fit([("class:header.title", title)], width, "class:header"),
           [("class:rule", "─" * width)]]
    keys = m("waiting.keys_host" if can_fill else "waiting.keys")
    bottom = [status, fit([("class:keys", " " + keys)], width, "class:keys")]
    lines = top + pad_lines(body, height - len(top) - len(bottom)) + bottom
    return [fit(line, width) for line in lines]
