"""The end-of-game panel: the durak (or the draw, or a scored game's winner), epaulettes, the
scores of a scored game, and the series so far."""

from __future__ import annotations

from p2p_durak.cli.canvas import Line, clip_text, fit, pad_text, wrap
from p2p_durak.cli.cardtext import CardText
from p2p_durak.cli.i18n import Look
from p2p_durak.engine.setup import ladder_after, long_durak, next_titles
from p2p_durak.engine.state import LADDER_SIZES, State
from p2p_durak.node.api import TableSnapshot
from p2p_durak.node.local_session import EXTRA_POGONY, EXTRA_SCORES, EXTRA_TIMEOUT_LOSER


def _teams(snap: TableSnapshot) -> bool:
    return snap.state is not None and snap.state.game.rules.teams != "none"


def _name(snap: TableSnapshot, seat: int, look: Look) -> str:
    if snap.seats[seat].is_dummy:  # с болваном (never a durak, never in the finish order)
        return look.messages("dummy")
    name = snap.seats[seat].name
    if snap.state is not None and snap.state.game.titles:  # Король-говно: titles, not names
        name = f"{look.messages(f'title.{snap.state.game.titles[seat]}')} {name}"
    return f"{name} ({look.messages('you')})" if seat == snap.my_seat else name


def _ladder_lines(snap: TableSnapshot, state: State, look: Look, cards: CardText,
                  width: int) -> list[Line]:
    """Длинный дурак: the card the durak lays out, his smaller hand from the ten on, and the
    long durak when the ladder reaches the ace."""
    m = look.messages
    result = state.result
    if result is None or not result.durak:
        return []
    durak = result.durak[0]
    top = ladder_after(state)[durak]
    game = state.game
    card = (game.rank_mask[top] & game.suit_mask[state.seat_trumps[durak]]).bit_length() - 1
    who = _name(snap, durak, look)
    texts = [m("over.ladder", who=who, card=cards(card), top=cards.rank_text(top))]
    if long_durak(state) is not None:
        texts.append(m("over.long_durak", who=who))
    elif top in LADDER_SIZES:
        texts.append(m("over.ladder_hand", who=who, n=LADDER_SIZES[top]))
    return [[("class:over.durak", " " + text)] for t in texts for text in wrap(t, width - 2)]


def render_end_panel(snap: TableSnapshot, look: Look, cards: CardText,
                     width: int, height: int | None = None) -> list[Line]:
    """The panel, `width` wide; taller than `height` (six players, a long finish order and a
    hand of two rows at 80×24), it gives up its blank lines first, so the series stays."""
    m = look.messages
    state = snap.state
    lines: list[Line] = [[("class:over.title", " " + m("over.title"))], []]
    result = state.result if state is not None else None
    loser = snap.extra.get(EXTRA_TIMEOUT_LOSER)
    timed_out = loser is not None and loser.isdigit() and int(loser) < len(snap.seats)
    if timed_out and loser is not None:
        lines.append([("class:over.durak", " " + m("over.timeout",
                                                   who=_name(snap, int(loser), look)))])
    elif result is not None and result.winners:
        who = ", ".join(_name(snap, s, look) for s in result.winners)
        style = "class:over.won" if snap.my_seat in result.winners else "class:over.durak"
        lines.append([(style, " " + m("over.winners", who=who))])
    elif result is not None:
        if result.draw:
            lines.append([("class:over.draw", " " + m("over.draw"))])
        elif snap.my_seat in result.durak and len(result.durak) == 1:
            lines.append([("class:over.durak", " " + m("over.durak_you"))])
        else:
            who = ", ".join(_name(snap, s, look) for s in result.durak)
            lines.append([("class:over.durak", " " + m("over.durak", who=who))])
            if snap.my_seat not in result.durak and not _teams(snap):
                lines.append([("class:over.won", " " + m("over.won"))])
        if _teams(snap) and result.durak and state is not None:
            # 2 на 2: «a team whose players are all out wins» — a partner's durak is yours too
            game = state.game
            mine = game.team[snap.my_seat]
            team = ", ".join(_name(snap, s, look) for s in range(game.n_players)
                             if game.team[s] == mine)
            lost = mine == game.team[result.durak[0]]
            key, style = ("over.team_lost", "class:over.durak") if lost \
                else ("over.team_won", "class:over.won")
            for text in wrap(m(key, who=team), width - 2):
                lines.append([(style, " " + text)])
        if result.pogony:
            lines.append([("class:over.durak", "   " + m("over.pogony", n=result.pogony))])
    if result is not None and result.scores and state is not None and not timed_out:
        scores = ", ".join(f"{_name(snap, s, look)} {n}" for s, n in enumerate(result.scores))
        for text in wrap(m(f"over.scores.{state.game.rules.counter}", scores=scores), width - 2):
            lines.append([("class:over", " " + text)])
    if result is not None and state is not None and state.game.rules.series_state == "titles":
        titles = next_titles(state)
        named = ", ".join(f"{m(f'title.{t}')}: {snap.seats[s].name}"
                          for t, s in sorted((t, s) for s, t in enumerate(titles)))
        for text in wrap(m("over.titles", titles=named), width - 2):
            lines.append([("class:over", " " + text)])
        king = snap.seats[titles.index(0)].name
        lines.append([("class:over.won", " " + m("over.king", who=king))])
    if result is not None and state is not None and state.game.rules.series_state == "ladder" \
            and not timed_out:
        lines += _ladder_lines(snap, state, look, cards, width)
    if result is not None and not timed_out and result.finish:
        if snap.rules.winner_rule == "first_out":
            # с пар: «Выигрывает тот игрок, который первым остался без карт»
            lines.append([("class:over.won", " " + m("over.winner",
                                                     who=_name(snap, result.finish[0], look)))])
        order = ", ".join(_name(snap, s, look) for s in result.finish)
        for text in wrap(m("over.finish", order=order), width - 2):
            lines.append([("class:over", " " + text)])
    lines.append([])
    pogony = [int(x) for x in snap.extra.get(EXTRA_POGONY, "").split(",") if x.isdigit()]
    show_pogony = any(pogony)
    points = [int(x) for x in snap.extra.get(EXTRA_SCORES, "").split(",") if x.isdigit()]
    header = f" {pad_text(m('over.series', n=snap.game_number), 28)} " \
        + pad_text(m("over.col.duraks"), 8, ">")
    if show_pogony:
        header += " " + pad_text(m("over.col.pogony"), 8, ">")
    if points:
        header += " " + pad_text(m("over.col.points"), 8, ">")
    lines.append([("class:label", header)])
    for seat in range(len(snap.seats)):
        if snap.seats[seat].is_dummy:
            continue  # с болваном: the series counts players only
        name = _name(snap, seat, look)
        duraks = snap.duraks[seat] if seat < len(snap.duraks) else 0
        partner = _teams(snap) and state is not None and seat != snap.my_seat and \
            state.game.team[seat] == state.game.team[snap.my_seat]
        mark = "★" if partner else " "  # as at the table
        row = f" {mark} {pad_text(clip_text(name, 26), 26)} {duraks:>8}"
        if show_pogony and seat < len(pogony):
            row += f" {pogony[seat]:>8}"
        if seat < len(points):
            row += f" {points[seat]:>8}"
        lines.append([("class:player.me" if seat == snap.my_seat else "class:over", row)])
    if height is not None and len(lines) > height:
        lines = [line for line in lines if line]
    return [fit(line, width) for line in lines]
