"""The table screen, drawn from the latest snapshot and what the player points at.

Layout for 80×24 (wider and taller windows give the log more room):

    header: rules · game · trump · stock · discard · timer
    ─────────────────────────────────────────┬────────────
    players (name, cards, role, series)     │ move log
    the table: attack cards over their covers│
    what the table is doing / waiting for    │
    ─────────────────────────────────────────┴────────────
    your hand: numbers over cards, playable ones in [brackets]
    (с болваном, while you play it: the dummy's hand, the same way)
    prompt · notice · keys

Once the game is over, the end-of-game panel takes the place of the players and the table.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable

from p2p_durak.cli.canvas import (
    Line,
    clickable,
    clip_text,
    columns,
    fit,
    line_width,
    pad_lines,
    text_width,
    wrap,
)
from p2p_durak.cli.cardtext import CardText, hand_order, rank_text, suit_symbol
from p2p_durak.cli.end_view import render_end_panel
from p2p_durak.cli.event_text import EventText
from p2p_durak.cli.i18n import Look
from p2p_durak.cli.table_ui import DIGIT_KEYS, TableUi
from p2p_durak.engine import UNKNOWN, State
from p2p_durak.engine import actions as A
from p2p_durak.engine.cards import NO_SUIT, cards_of
from p2p_durak.engine.presets import PRESETS
from p2p_durak.engine.setup import JOKER_ROUND, LOWEST_ROUND, claim_round
from p2p_durak.engine.state import (
    BOUT,
    CAPTURE,
    CLAIM,
    DEAL,
    FACE_DOWN,
    LEAD,
    NAME_TRUMP,
    TURN_UP,
)
from p2p_durak.engine.tables import PRE_LADDER
from p2p_durak.node.api import TableSnapshot
from p2p_durak.node.local_session import EXTRA_TIMEOUT_POLICY
from p2p_durak.protocol.messages import TimeoutPolicy, TurnTimer

Post = Callable[[str], None]

MIN_WIDTH, MIN_HEIGHT = 80, 24
LOG_WIDTH = 23
# the cells of a seat line: the name (with a teammate's ★) shrinks down to NAME_MIN when the
# score and the durak count need the room
NAME_CELL, NAME_MIN, COUNT_CELL, ROLE_CELL = 22, 10, 9, 13
GAP = 1
BOTTOM_LINES = 3  # prompt, notice, keys
AWAY_LINES = 3  # the status lines a player without a link (and why) may take


def preset_name(preset_id: str, lang: str) -> str:
    preset = PRESETS.get(preset_id)
    return preset.name(lang) if preset is not None else preset_id


def clocks_text(timer: TurnTimer, look: Look) -> str:
    """A table's clocks in a few words: "30 s, bot" / "no timer"."""
    m = look.messages
    if not timer.turn_seconds:
        return m("timer.off")
    policy = "lose" if timer.on_timeout is TimeoutPolicy.LOSE else "bot"
    return m(f"timer.short.{policy}", s=timer.turn_seconds)


def clocks_line(timer: TurnTimer, look: Look) -> str:
    """A table's clocks in full: the turn timer, what its expiry does, the grace period."""
    m = look.messages
    return m("clocks.line", timer=clocks_text(timer, look), grace=timer.grace_seconds)


def waited_for(snap: TableSnapshot) -> list[int]:
    """The seats the table waits for, first the one it waits for most; this player's only
    when he has a move (else it waits for his node's part of a deck step, not for him)."""
    return [s for s in snap.waiting_for if s != snap.my_seat or snap.legal]


def timeout_policy(snap: TableSnapshot) -> str:
    """What the turn timer's running out does at this table: "bot", "lose", or "" (no
    timer): a networked table's clocks say it, a practice table's snapshot carries it."""
    if snap.clocks is not None and snap.clocks.turn_seconds:
        return "lose" if snap.clocks.on_timeout is TimeoutPolicy.LOSE else "bot"
    return snap.extra.get(EXTRA_TIMEOUT_POLICY, "")


def time_left(snap: TableSnapshot, look: Look) -> str:
    """The turn timer's whole seconds left ("time 8 s"), rounded up; "" when none runs."""
    if snap.deadline is None:
        return ""
    return look.messages("timer.left", s=max(0, int(snap.deadline + 0.999)))


def turn_status(ui: TableUi, look: Look) -> str:
    """"Your move · time 8 s" while the table waits for this player, else "" (for screens that
    hide the table, such as help: the turn timer runs on under them)."""
    if ui.snapshot is None or not ui.waited_for():
        return ""
    left = time_left(ui.snapshot, look)
    return look.messages("your_turn") + (f" · {left}" if left else "")


def hand_label(position: int) -> str:
    """The key label of a hand position: 1…9, 0, then 11…20 (Shift+1…Shift+0)."""
    if position < 10:
        return DIGIT_KEYS[position]
    if position < 20:
        return str(position + 1)
    return ""


def render_table_screen(ui: TableUi, look: Look, width: int, height: int,
                        post: Post | None = None) -> list[Line]:
    snap = ui.snapshot
    m = look.messages
    if snap is None or snap.state is None:
        status = _activity(snap, look, width - 3) if snap is not None else []
        text = "".join(f[1] for f in status) or (m("activity.dealing") if snap is not None
                                                 else m("lobby.starting"))
        style = status[0][0] if status else "class:activity"
        lines: list[Line] = [fit([("class:header", f" {m('app.title')}")], width, "class:header"),
                             [], [(style, f"  {text}")]]
        if ui.notice is not None:  # e.g. the verdict of a table that could not start
            lines += [[], [("class:notice.error", f"  {ui.notice.text(look.lang)}")]]
        if snap is not None and snap.clocks is not None:
            lines += [[], [("class:dim", "  " + clocks_line(snap.clocks, look))]]
        return [fit(line, width) for line in pad_lines(lines, height)]
    state = snap.state
    cards = CardText(state.game, look.lang, look.ascii_only)
    events = EventText(m, cards, snap.seats, snap.my_seat)
    hand_lines = _hand(ui, cards, look, width, post)
    middle = height - 2 - 1 - len(hand_lines) - BOTTOM_LINES
    log_width = max(LOG_WIDTH, width - 57)
    left_width = width - log_width - 1
    if snap.activity == "over":
        left = render_end_panel(snap, look, cards, left_width, middle)
    else:
        left = _players(snap, look, left_width, cards) + [[]] \
            + _table(ui, cards, look, post, left_width) + _status_lines(snap, look, left_width)
        if len(left) > middle:  # many pairs on the table at six seats: the blank line goes
            left.remove([])
    right = _log(snap, events, look, middle, log_width)
    lines = [_header(snap, cards, look, width), [("class:rule", "─" * width)]]
    lines += columns(pad_lines(left, middle), left_width, pad_lines(right, middle), log_width)
    lines.append([("class:rule", "─" * width)])
    lines += hand_lines
    prompt, notice, keys = bottom_lines(ui, look)
    lines += [fit(prompt, width), fit(notice, width), fit(keys, width, "class:keys")]
    return [fit(line, width) for line in pad_lines(lines, height)]


def _header(snap: TableSnapshot, cards: CardText, look: Look, width: int) -> Line:
    m, state = look.messages, snap.state
    assert state is not None
    parts: Line = [("class:header.title", f" {preset_name(snap.preset_id, look.lang)}"),
                   ("class:header", f" · {m('game_no', n=snap.game_number)} · {m('trump')} ")]
    trump_suit = suit_symbol(state.trump, look.ascii_only, look.lang) \
        if state.trump != NO_SUIT else m("trump.none")
    if state.trump_card >= 0:
        trump_card = state.trump_card
        parts.append((cards.style(trump_card), f" {cards(trump_card)} "))
        if state.game.suit[trump_card] == NO_SUIT:  # a joker or the blank turned as trump
            parts.append(("class:header", " " + trump_suit))
    elif state.trump != NO_SUIT:
        parts.append(("class:header", trump_suit))
    elif (state.phase > CLAIM and state.phase not in (NAME_TRUMP, TURN_UP, CAPTURE)) \
            or state.game.rules.trump_rule == "none":
        parts.append(("class:header", m("trump.none")))
    else:
        parts.append(("class:header", "—"))
    if state.hidden_trump == UNKNOWN:
        parts.append(("class:header", " " + m("trump.hidden")))
    elif state.hidden_trump >= 0:
        parts.append(("class:header", " + "))
        parts.append((cards.style(state.hidden_trump),
                      f" {cards(state.hidden_trump)} "))
    discarded = state.discard.bit_count() + state.n_buried  # верю не верю: face down too
    parts.append(("class:header", f" · {m('stock', n=len(state.stock))}"
                                  f" · {m('discard', n=discarded)}"))
    if snap.deadline is not None:  # the turn timer is a fact too: after a dot, never cut
        parts += [("class:header", " ·"), ("class:header.timer", f" {time_left(snap, look)} ")]
    elif snap.clocks is not None and snap.clocks.turn_seconds:
        parts.append(("class:header", " · " + m("timer.table", s=snap.clocks.turn_seconds)))
    right = m("key.help") + " "
    used = sum(text_width(f[1]) for f in parts)
    gap = width - used - text_width(right)
    if gap < 1:  # shorten the rules' name, never the facts
        title = parts[0][1]
        parts[0] = (parts[0][0], clip_text(title, max(4, text_width(title) + gap - 1)))
        gap = width - sum(text_width(f[1]) for f in parts) - text_width(right)
    parts.append(("class:header", " " * max(1, gap)))
    parts.append(("class:header", right))
    return fit(parts, width, "class:header")


def _role(state: State, seat: int, snap: TableSnapshot, look: Look) -> tuple[str, str]:
    m = look.messages
    if (state.out >> seat) & 1:
        return m("role.out"), "class:role.out"
    if state.phase in (TURN_UP, CAPTURE) and seat == state.attacker:
        return m("role.turning"), "class:role.attack"
    if state.phase in (LEAD, BOUT):
        # a lead: the one it goes to; a bout: the defender, also the first attacker himself
        # once a перевод has come round to him
        if seat == state.defender and (state.phase == BOUT or seat != state.attacker):
            if state.taking and state.phase == BOUT:
                return m("role.taking"), "class:role.defend"
            return m("role.defending"), "class:role.defend"
        if seat == state.attacker:
            return m("role.attacking"), "class:role.attack"
        if state.phase == BOUT and seat in state.actors:
            return m("role.throwing"), "class:role.attack"
    return "", ""


def _players(snap: TableSnapshot, look: Look, width: int, cards: CardText) -> list[Line]:
    state = snap.state
    assert state is not None
    m = look.messages
    n = len(snap.seats)
    order = [(snap.my_seat + k) % n for k in range(1, n)] + [snap.my_seat]
    game = state.game
    lines: list[Line] = []
    waiting = waited_for(snap)
    first = waiting[0] if waiting else None
    for seat in order:
        info = snap.seats[seat]
        mine = seat == snap.my_seat
        marker = "▶ " if seat == first else ("· " if seat in waiting else "  ")
        # Король-говно: «Называть друг друга по именам нельзя — только по званиям»
        name = (m(f"title.{game.titles[seat]}") if game.titles else info.name) \
            + (f" ({m('you')})" if mine else "")
        if info.is_dummy:  # с болваном: no player's; its controller plays its cards
            name = m("dummy.seat", who=_controller(snap, look))
        if seat < len(state.seat_trumps):  # двухкозырной: each player's own trump suit
            name = f"{suit_symbol(state.seat_trumps[seat], look.ascii_only, look.lang)} {name}"
        if game.ladder and game.ladder[seat]:  # Длинный дурак: the ladder laid out so far
            name += " · " + m("seat.ladder", top=rank_text(game.ladder[seat], look.lang,
                                                             look.ascii_only))
        level = m(f"level.{info.bot_level}") if info.is_bot and info.bot_level else ""
        bot = f" ({m('bot')}{', ' + level if level else ''})" if info.is_bot else ""
        team = game.team[seat] == game.team[snap.my_seat] and not mine and \
            game.rules.teams != "none"
        role, role_style = _role(state, seat, snap, look)
        duraks = snap.duraks[seat] if seat < len(snap.duraks) else 0
        # a scored game (очковый, погонный, фигурный): the public count so far
        tally = m("score_n", n=state.tally[seat]) + " " if state.tally else ""
        style = "class:player.me" if mine else "class:player"
        tail: Line = [*_pile(state, seat, cards),
                      # магаданский: the locked cards lying face down before the player
                      ("class:player.count", m("locked_n", n=len(state.locked[seat])) + " "
                       if state.locked and state.locked[seat] else ""),
                      ("class:player.count", tally),
                      ("class:player.duraks", m("duraks_n", n=duraks) if duraks else "")]
        # the name gives way to what comes after it (the score and the durak count share
        # the line in a scored series: at 80 columns they were cut off the end)
        named = max(NAME_MIN, min(NAME_CELL, width - len(marker) - COUNT_CELL - ROLE_CELL
                                  - line_width(tail)))
        room = named - (2 if team else 0) - 1
        if bot and text_width(name + bot) > room:  # the bot's level gives way first
            bot = f" ({m('bot')})"
        name += bot
        line: Line = [("class:waiting", marker),
                      ("class:team", "★ " if team else ""),
                      (style, _cell(name, room + 1)),
                      ("class:player.count",
                       _cell(m("cards_n", n=state.hand_size(seat)), COUNT_CELL)),
                      (role_style, _cell(role, ROLE_CELL)),
                      *tail]
        lines.append(fit(line, width))
        if game.tables.blind and not mine and state.hands[seat]:
            # оборотный: his cards face this player, who sees every hand but his own
            held = hand_order(game, cards_of(state.hands[seat]), state.trump)
            lines.append(fit([("", "    ")] + [(cards.style(c), f"{cards(c)} ")
                                               for c in held], width))
    if game.rules.teams != "none":
        lines.append([("class:team", "  ★ "), ("class:dim", m("teammate"))])
    return lines


def _controller(snap: TableSnapshot, look: Look) -> str:
    """с болваном: who plays the dummy's cards now, in a few words."""
    state = snap.state
    assert state is not None
    seat, m = state.controller, look.messages
    if seat == snap.my_seat:
        return m("dummy.yours")
    return m("dummy.by", who=snap.seats[seat].name if 0 <= seat < len(snap.seats) else "?")


def _pile(state: State, seat: int, cards: CardText) -> Line:
    """крестовый's ladder deal: the top card of the seat's face-up pile."""
    if state.phase != TURN_UP or state.game.tables.pre_phase != PRE_LADDER:
        return []
    index = (seat - state.game.dealer - 1) % state.game.n_players
    if index >= len(state.table):
        return []
    card = state.table[index]
    return [(cards.style(card), cards.face(card)), ("", " ")]


def _cell(text: str, width: int) -> str:
    """`text` cut or padded to `width` cells, the last one always blank."""
    return "".join(f[1] for f in fit([("", text)], width - 1)) + " "


def _table(ui: TableUi, cards: CardText, look: Look, post: Post | None,
           width: int) -> list[Line]:
    """The attack cards over their covers, `width` wide: pairs that do not fit in one row
    (щелковский throws in more than ten) go on in another below."""
    state = ui.state
    assert state is not None
    m = look.messages
    label = _cell(m("table"), 7)
    if state.phase in (TURN_UP, CAPTURE):
        if state.game.tables.pre_phase == PRE_LADDER:  # the piles are shown by their players
            return [[("class:label", label), ("class:dim", m("table.piles"))], [], []]
        return _face_up(ui, cards, label, m("table.empty"), post, width)
    if not state.table:
        return [[("class:label", label), ("class:dim", m("table.empty"))], [], []]
    cell = cards.width + 2
    per_row = max(1, (width - 7) // (cell + GAP))
    lines: list[Line] = []
    for start in range(0, len(state.table), per_row):
        marks: Line = [("class:label", label if not lines else " " * 7)]
        attacks: Line = [("", " " * 7)]
        covers: Line = [("", " " * 7)]
        for index in range(start, min(start + per_row, len(state.table))):
            attack = state.table[index]
            chosen = index == ui.target and state.phase == BOUT and ui.me == state.defender
            marks.append(("class:target.marker", f"{'▼' if chosen else '':^{cell}}"))
            style = cards.style(attack) + (" class:card.target" if chosen else "")
            on_click = None if post is None else (lambda i=index: post(f"click:target:{i}"))
            attacks.append(clickable(style, cards.face(attack), on_click))
            cover = state.covers[index]
            if cover >= 0 and state.game.tables.face_down:
                # верю не верю: face down; its author sees which card he laid, in brackets
                covers.append(("class:card.back", cards.face(cover, "[", "]")))
            elif cover >= 0:
                covers.append((cards.style(cover), cards.face(cover)))
            elif cover == FACE_DOWN:
                covers.append(("class:card.back", f" {'▒' * cards.width} "))
            else:
                covers.append(("class:dim", f"{'·':^{cell}}"))
            for line in (marks, attacks, covers):
                line.append(("", " " * GAP))
        lines += [marks, attacks, covers]
    return lines


def _face_up(ui: TableUi, cards: CardText, label: str, empty: str,
             post: Post | None, width: int) -> list[Line]:
    """A pre-game phase: the face-up cards, three rows at most (a count for the rest); the
    card this seat's drawn card may take is marked, the chosen one highlighted."""
    state = ui.state
    assert state is not None
    per_row = max(1, min(8, (width - 7) // (cards.width + 2 + GAP)))
    targets = set(ui.open_targets())
    rows: list[Line] = []
    for start in range(0, len(state.table), per_row):
        line: Line = [("class:label" if not rows else "", label if not rows else " " * 7)]
        for index in range(start, min(start + per_row, len(state.table))):
            card = state.table[index]
            style = cards.style(card)
            left = right = " "
            if index in targets:
                left, right = "[", "]"
                style += " class:card.playable"
                if index == ui.target:
                    style += " class:card.target"
            on_click = None if post is None else (lambda i=index: post(f"click:target:{i}"))
            line.append(clickable(style, cards.face(card, left, right), on_click))
            line.append(("", " " * GAP))
        rows.append(line)
    if len(rows) > 3:
        hidden = len(state.table) - 2 * per_row
        rows = rows[:2] + [[("", " " * 7), ("class:dim", f"+{hidden}")]]
    if not rows:
        rows = [[("class:label", label), ("class:dim", empty)]]
    return pad_lines(rows, 3)


def _status_lines(snap: TableSnapshot, look: Look, width: int) -> list[Line]:
    """The status under the table: one line, or a player without a link and why, wrapped
    (the reason is what the player needs: it must not be cut off)."""
    status = _activity(snap, look, width - 1)
    if snap.away is None or not status:
        return [status]
    style, text = status[0][0], "".join(f[1] for f in status)
    return [[(style, line)] for line in textwrap.wrap(text, max(20, width - 1))[:AWAY_LINES]]


def _deck_waits(text: str, snap: TableSnapshot, look: Look, width: int) -> str:
    """`text` (what the deck is doing, and how far along) and the players whose part of the
    step the table still waits for: "Dealing the cards: 3/6 · waiting for Boris". Within
    `width` cells the names are cut, never the count (a player who never sends his part is
    who the player at the screen needs to know about)."""
    if not snap.deck_waits_for:
        return text
    head = text + " · "
    room = width - text_width(head) - text_width(look.messages("activity.waiting_for", who=""))
    if room < 1:
        return text
    who = clip_text(", ".join(snap.deck_waits_for), room)
    return head + look.messages("activity.waiting_for", who=who)


def _activity(snap: TableSnapshot, look: Look, width: int) -> Line:
    """What the table is doing: a networked table's deck steps — the shuffle and the deal with
    their progress (k of n parties done) — and whose part they wait for, else whose move it
    waits for; first of all, a player it has no link to, and why (it cannot go on without
    them). `width`: the cells the status line has."""
    m = look.messages
    state = snap.state
    activity = snap.activity
    if activity == "halted" and snap.away is None:  # it ended: nobody is waited for now
        return [("class:notice.error", m("activity.halted"))]
    if snap.away is not None:  # the table cannot go on without them: say whom and why
        return [("class:notice.error", snap.away_ru or snap.away if look.lang == "ru"
                 else snap.away)]
    if activity in ("shuffling", "dealing") and snap.progress is not None:
        done, total = snap.progress
        key = "activity.shuffling_n" if activity == "shuffling" else "activity.dealing_n"
        return [("class:activity", _deck_waits(m(key, done=done, total=total), snap, look,
                                               width))]
    if activity in ("keys", "audit", "lobby", "seating") or (state is not None
                                                            and state.phase == DEAL):
        key = "activity.dealing" if activity in ("dealing", "playing") else f"activity.{activity}"
        return [("class:activity", _deck_waits(m(key), snap, look, width))]
    if activity == "dealing":
        return [("class:activity", _deck_waits(m("activity.dealing"), snap, look, width))]
    waiting = waited_for(snap)
    if waiting:
        if waiting[0] == snap.my_seat:
            return [("class:your-turn", m("your_turn"))]
        seat = waiting[0]
        who = snap.seats[seat].name if 0 <= seat < len(snap.seats) else "?"
        return [("class:activity", m("waiting_for", who=who))]
    return []


def _log(snap: TableSnapshot, events: EventText, look: Look, height: int,
         width: int) -> list[Line]:
    """The latest moves that fit, oldest first; a line too long for the column goes on,
    indented, on the next (cut, it lost its end: whom a card was transferred to)."""
    rows: list[str] = []
    texts = [text for line in snap.log if (text := events(line.event)) is not None]
    for text in texts[-(height - 1):]:
        first, *rest = wrap(text, width - 1)
        rows.append(" " + first)
        if rest:
            rows += ["   " + part for part in wrap(" ".join(rest), width - 3)]
    return [[("class:label", " " + look.messages("log"))]] + \
        [[("class:log", row)] for row in rows[-(height - 1):]]


def _hand(ui: TableUi, cards: CardText, look: Look, width: int,
          post: Post | None) -> list[Line]:
    hand = ui.hand()
    snap = ui.snapshot
    assert snap is not None
    m = look.messages
    per_row = max(1, (width - 1) // (cards.width + 2 + GAP))
    playable = ui.playable()
    my_turn = ui.my_turn()
    over = snap.activity == "over"
    title: Line = [("class:label", f" {m('hand')}: {m('cards_n', n=len(hand))}")]
    if hand and hand[0] >= A.BLIND_BASE:  # оборотный: held backwards, a key picks blind
        title.append(("class:dim", "  " + m("hand.blind")))
    if ui.waited_for():
        title.append(("class:your-turn", "  " + m("your_turn")))
        policy = timeout_policy(snap)
        if snap.deadline is not None and policy:  # what the red seconds in the header mean
            title.append(("class:notice.error" if policy == "lose" else "class:dim",
                          "  " + m(f"hand.timeout.{policy}")))
    elif my_turn:
        title.append(("class:activity", "  " + m("you_may")))
    if ui.dummy_seat() >= 0 and not over:
        # с болваном: the keys act on one hand at a time; the other shows no numbers
        title.append(("class:hand.label", "" if ui.dummy_focus else "  " + m("dummy.keys_here")))
    lines: list[Line] = [title]
    focus = not ui.dummy_focus
    lines += _card_rows(hand, per_row, cards, playable if my_turn else None, ui.marked,
                        ui.cursor if focus and not over else -1, focus and not over, "card", post)
    if ui.dummy_seat() >= 0 and not over:
        lines += _dummy_rows(ui, cards, look, per_row, post)
    return lines


def _dummy_rows(ui: TableUi, cards: CardText, look: Look, per_row: int,
                post: Post | None) -> list[Line]:
    """с болваном: the dummy's hand, for the player who plays it now."""
    m = look.messages
    hand = ui.dummy_hand()
    playable = ui.dummy_playable()
    title: Line = [("class:label", f" {m('dummy.hand')}: {m('cards_n', n=len(hand))}"),
                   ("class:dim", " · " + m("dummy.yours"))]
    if ui.dummy_focus:
        title.append(("class:hand.label", "  " + m("dummy.keys_here")))
    return [title] + _card_rows(hand, per_row, cards, playable if playable else None, set(),
                                ui.dummy_cursor if ui.dummy_focus else -1, ui.dummy_focus,
                                "dummy_card", post)


def _card_rows(hand: list[int], per_row: int, cards: CardText, playable: set[int] | None,
               marked: set[int], cursor: int, numbered: bool, click: str,
               post: Post | None) -> list[Line]:
    """A hand as rows of cards under their key numbers (`numbered`: the keys act on it);
    `playable` (None: not this hand's turn) marks the cards a move plays in [brackets] and
    dims the others."""
    lines: list[Line] = []
    for start in range(0, max(1, len(hand)), per_row):
        labels: Line = [("", " ")]
        row: Line = [("", " ")]
        for position in range(start, min(start + per_row, len(hand))):
            card = hand[position]
            mark = "*" if card in marked else ""
            label = mark + hand_label(position) if numbered else ""
            labels.append(("class:hand.label", f"{label:^{cards.width + 2}}"))
            labels.append(("", " " * GAP))
            can = playable is not None and card in playable
            left, right = ("[", "]") if can else (" ", " ")
            style = cards.style(card)
            if can:
                style += " class:card.playable"
            elif playable is not None:
                style += " class:card.dim"
            if card in marked:
                style += " class:card.marked"
            if position == cursor:
                style += " class:card.cursor"
            on_click = None if post is None else (
                lambda p=position: post(f"click:{click}:{p}"))
            row.append(clickable(style, cards.face(card, left, right), on_click))
            row.append(("", " " * GAP))
        lines += [labels, row]
    return lines


def bottom_lines(ui: TableUi, look: Look) -> tuple[Line, Line, Line]:
    """The prompt, the notice and the key line, before they are fitted to the width."""
    m = look.messages
    snap = ui.snapshot
    assert snap is not None
    prompt: Line
    if ui.leave_armed:
        prompt = [("class:prompt", m("prompt.leave_confirm"))]
    elif snap.activity == "over":
        prompt = [("class:prompt", m("prompt.over"))]
    elif snap.activity == "halted":  # the game ended without a result: only leaving is left
        prompt = [("class:prompt", m("prompt.halted"))]
    else:
        prompt = [("class:prompt", _prompt(ui, look))]
    if ui.pending:
        notice: Line = [("class:notice", m("sending"))]
    elif ui.notice is not None:
        notice = [("class:notice.error" if ui.notice.error else "class:notice",
                   ui.notice.text(look.lang))]
    else:
        notice = []
    return prompt, notice, _keys(ui, look)


def _prompt(ui: TableUi, look: Look) -> str:
    m = look.messages
    kinds = ui.legal_kinds()
    state = ui.state
    if not kinds or state is None:
        return ""
    if ui.dummy_focus:  # с болваном: the keys act on the dummy's hand
        if A.LEAD in kinds:  # (can_attack_defend: it leads and defends too)
            return m("prompt.dummy_lead")
        if A.BEAT in kinds or A.TAKE in kinds:
            return m("prompt.dummy_defend")
        return m("prompt.dummy")
    if A.NAME_TRUMP in kinds:
        return m("prompt.name_trump")
    if A.CAPTURE in kinds:
        drawn = CardText(state.game, look.lang, look.ascii_only)(state.covers[0])
        return m("prompt.capture", card=drawn)
    if kinds & {A.CLAIM, A.NO_TRUMP} and len(state.claims) >= len(state.game.claim_seats):
        # щелковский: the lowest trumps were equal; the next trumps, then the jokers decide;
        # SP5's table option: nobody showed a trump, so the lowest cards decide
        round_ = claim_round(state).round
        if round_ == LOWEST_ROUND:
            return m("prompt.lowest_card")
        return m("prompt.tie_joker" if round_ == JOKER_ROUND else "prompt.tie_next_trump")
    claims = [a for a in ui.snapshot.legal if a.kind in (A.CLAIM, A.NO_TRUMP)] \
        if ui.snapshot is not None else []
    if claims and claims[0].seat != ui.me:  # оборотный: a claim for the seat on his right
        who = ui.snapshot.seats[claims[0].seat].name if ui.snapshot is not None else "?"
        return m("prompt.claim_for" if claims[0].kind == A.CLAIM else "prompt.no_trump_for",
                 who=who)
    if A.CLAIM in kinds:
        return m("prompt.claim")
    if A.NO_TRUMP in kinds:
        return m("prompt.no_trump")
    if A.LEAD in kinds:
        t = state.game.tables
        # трешка, с пар: leads of several ranks are marked with Space first
        if A.LEAD_STOCK in kinds:
            return m("prompt.lead_stock")
        return m("prompt.lead_pattern" if t.lead_exact or t.lead_shapes else "prompt.lead")
    if state.phase == BOUT and ui.me == state.defender:
        if A.SEND_BACK in kinds:  # щелковский (B): past the cap, he chooses first
            t = state.game.tables
            return m("prompt.send_back", limit=t.first_limit if state.bout == 0
                     else t.later_limit)
        if A.CHAIN in kinds:  # крестовый: a defender who does not beat passes the card on
            return m("prompt.defend_chain")
        if A.COVER in kinds:
            return m("prompt.cover")
        if A.EXCHANGE in kinds:
            return m("prompt.defend_exchange")
        return m("prompt.defend_transfer" if kinds & {A.TRANSFER, A.SHOW} else "prompt.defend")
    if A.CHALLENGE in kinds:
        return m("prompt.doubt")
    if state.taking:
        return m("prompt.throw_after_take")
    return m("prompt.throw")


def _keys(ui: TableUi, look: Look) -> Line:
    m = look.messages
    snap = ui.snapshot
    assert snap is not None
    kinds = ui.legal_kinds()
    if snap.activity == "over":
        hints = [m("key.next"), m("key.help"), m("key.leave")]
    elif snap.activity == "halted":
        hints = [m("key.help"), m("key.leave")]
    elif ui.dummy_focus and kinds & {A.LEAD, A.BEAT, A.TAKE}:  # (can_attack_defend)
        hints = [m("key.play"), m("key.beat") if A.BEAT in kinds else "",
                 m("key.take") if A.TAKE in kinds else "", m("key.own_hand"), m("key.help"),
                 m("key.leave")]
        hints = [hint for hint in hints if hint]
    elif ui.dummy_focus:  # с болваном: the keys act on the dummy's hand
        hints = [m("key.dummy_throw"), m("key.dummy_pass"), m("key.own_hand"), m("key.help"),
                 m("key.leave")]
    else:
        hints = []
        if any(a.seat == ui.dummy_seat() for a in snap.legal):
            hints.append(m("key.dummy"))
        if kinds & {A.LEAD, A.THROW, A.BEAT, A.CLAIM}:
            hints.append(m("key.play"))
        if A.NAME_TRUMP in kinds:
            hints.append(m("key.name_trump"))
        if A.CAPTURE in kinds:
            hints.append(m("key.capture"))
        if A.CHAIN in kinds:
            hints.append(m("key.chain"))
        if any(a.kind == A.THROW and len(a.cards) > 1 for a in snap.legal):
            hints.append(m("key.mark"))  # погонный: mark a pair, Enter throws it in at once
        if A.COVER in kinds:
            hints.append(m("key.play"))  # верю не верю: a card laid face down
            if len(ui.open_targets()) > 1:
                hints.append(m("key.cover"))
        if A.CHALLENGE in kinds:
            hints.append(m("key.doubt"))
        if A.EXCHANGE in kinds:
            hints.append(m("key.exchange"))
        if A.SEND_BACK in kinds:
            hints.append(m("key.send_back"))
        if A.BEAT in kinds and len(ui.open_targets()) > 1:
            hints.append(m("key.beat"))
        if A.TAKE in kinds:
            hints.append(m("key.take"))
        if A.PASS in kinds:
            hints.append(m("key.pass_take" if ui.state is not None and ui.state.taking
                           else "key.pass"))
        if A.LEAD_STOCK in kinds:
            hints.append(m("key.lead_stock"))
        if A.TRANSFER in kinds:
            hints.append(m("key.transfer"))
        if A.SHOW in kinds:
            backward = ui.state is not None and ui.state.game.tables.show_backward
            hints.append(m("key.proezdnoy" if backward else "key.show"))
        if A.CLAIM in kinds:
            hints.append(m("key.claim"))
        if A.NO_TRUMP in kinds:
            hints.append(m("key.no_trump"))
        hints += [m("key.help"), m("key.leave")]
    return [("class:keys", " " + " · ".join(hints))]

