"""The table screen's own state (cursor, marks, chosen attack card) and what a key asks for.

`TableUi` holds only what the player is pointing at; the game itself is the latest
`TableSnapshot`, read, never changed. `TableUi.command(name)` turns a key into either a
change of what is pointed at, or an `Action` for the session to try. When the player asks for
something the rules do not allow, the natural action is still built and sent, so the engine
refuses it and its reason is shown: the UI never guesses the rules on its own.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from p2p_durak.cli.cardtext import hand_order
from p2p_durak.cli.i18n import Messages
from p2p_durak.engine import UNKNOWN, Action, State
from p2p_durak.engine import actions as A
from p2p_durak.engine.cards import cards_of
from p2p_durak.engine.state import BOUT, CAPTURE, CLAIM, LEAD, NAME_TRUMP
from p2p_durak.node.api import TableSnapshot

DIGIT_KEYS = "1234567890"
SHIFT_DIGIT_KEYS = "!@#$%^&*()"
"""Keys that pick hand cards 1…10 and 11…20."""

# What a kind of action is worth to a card pressed without saying what to do with it.
_PREFERENCE = (A.CLAIM, A.LEAD, A.THROW, A.BEAT, A.COVER, A.TRANSFER, A.SHOW, A.CHAIN)
_BEATS = (A.BEAT, A.COVER)  # верю не верю: a cover is laid face down
# с болваном: the keys that act on the dummy's hand while it has the focus (and `card:N`)
# (beat and take: with the table option `can_attack_defend` it also defends)
_DUMMY_COMMANDS = ("left", "right", "home", "end", "play", "pass", "beat", "take")


@dataclass
class Notice:
    """A message for the status line, kept in both languages so a switch re-renders it."""

    en: str
    ru: str
    error: bool = True

    def text(self, lang: str) -> str:
        return self.ru if lang == "ru" else self.en


@dataclass
class TableUi:
    snapshot: TableSnapshot | None = None
    cursor: int = 0  # index into the shown hand
    cursor_card: int | None = None  # the card under the cursor, followed as the hand changes
    marked: set[int] = field(default_factory=set)  # cards marked for a lead of several
    target: int | None = None  # table index of the attack card chosen to beat
    notice: Notice | None = None
    help: bool = False
    leave_armed: bool = False
    pending: bool = False  # an action is on its way to the session
    last_session_notice: str | None = None
    # с болваном: the keys act on the dummy's hand (its controller's second row) while set
    dummy_focus: bool = False
    dummy_cursor: int = 0
    dummy_cursor_card: int | None = None

    # ---- what the snapshot says -----------------------------------------------------------

    @property
    def state(self) -> State | None:
        return None if self.snapshot is None else self.snapshot.state

    @property
    def me(self) -> int:
        return -1 if self.snapshot is None else self.snapshot.my_seat

    def hand(self) -> list[int]:
        state = self.state
        if state is None:
            return []
        if state.game.tables.blind and state.hidden[self.me]:
            # оборотный: he cannot see his cards; his hand is its positions, face down, and a
            # key picks the card at a position (the legal actions are such picks)
            return [A.BLIND_BASE + p for p in range(state.hand_size(self.me))]
        # двухкозырной: one's own trump suit goes last, as the common trump does
        trump = state.seat_trumps[self.me] if state.seat_trumps else state.trump
        return hand_order(state.game, cards_of(state.hands[self.me]), trump)

    def dummy_seat(self) -> int:
        """с болваном: the dummy's seat while this seat controls it (plays its cards), else
        -1."""
        state = self.state
        if state is None or state.game.dummy < 0 or state.controller != self.me:
            return -1
        return state.game.dummy

    def dummy_hand(self) -> list[int]:
        """The dummy's cards, shown to its controller (none to anyone else)."""
        state, dummy = self.state, self.dummy_seat()
        if state is None or dummy < 0:
            return []
        return hand_order(state.game, cards_of(state.hands[dummy]), state.trump)

    def dummy_playable(self) -> set[int]:
        """The dummy's cards some legal throw-in of it plays now."""
        dummy = self.dummy_seat()
        if self.snapshot is None or dummy < 0:
            return set()
        return {c for a in self.snapshot.legal if a.seat == dummy for c in a.cards}

    def playable(self) -> set[int]:
        """Cards that some legal action of this seat plays (or shows)."""
        if self.snapshot is None:
            return set()
        if any(a.kind == A.NAME_TRUMP for a in self.snapshot.legal):
            return set(self.hand())  # Король-говно: any card names its suit
        return {card for action in self.snapshot.legal for card in action.cards}

    def legal_kinds(self) -> set[int]:
        if self.snapshot is None:
            return set()
        # с болваном: the moves of the hand the keys act on (the dummy's, or all the others)
        dummy = self.dummy_seat()
        return {a.kind for a in self.snapshot.legal if (a.seat == dummy) == self.dummy_focus}

    def open_targets(self) -> list[int]:
        """Table indices of the uncovered attack cards (a pre-game capture: of the face-up
        cards this seat's drawn card may take)."""
        state = self.state
        if state is not None and state.phase == CAPTURE and self.snapshot is not None:
            takes = {a.cards[0] for a in self.snapshot.legal if a.kind == A.CAPTURE}
            return [i for i, card in enumerate(state.table) if card in takes]
        if state is None or state.phase != BOUT:
            return []
        sendable = {a.cards[0] for a in self._legal_of(A.SEND_BACK)}
        if sendable:  # щелковский (B), past the cap: the cards he may send back
            return [i for i, card in enumerate(state.table) if card in sendable]
        return [i for i, cover in enumerate(state.covers) if cover == UNKNOWN]

    def _capture(self, index: int | None) -> Action | None:
        """A pre-game phase: take the face-up card at table `index` (None: the chosen one)."""
        state = self.state
        assert state is not None
        index = self.target if index is None else index
        if index is None or not 0 <= index < len(state.table):
            self.notice = notice_of("no_target")
            return None
        return Action(A.CAPTURE, self.me, (state.table[index],))

    def my_turn(self) -> bool:
        """This seat may act now (perhaps alongside others, as a thrower while a bot defends)."""
        snap = self.snapshot
        return bool(snap and snap.legal and snap.activity != "over")

    def waited_for(self) -> bool:
        """The table waits for this seat: it is first in `waiting_for`."""
        snap = self.snapshot
        return self.my_turn() and snap is not None and snap.waiting_for[:1] == (snap.my_seat,)

    # ---- following the table --------------------------------------------------------------

    def update(self, snapshot: TableSnapshot) -> None:
        """A new snapshot: keep pointing at the same card and a still-open attack card."""
        self.snapshot = snapshot
        hand = self.hand()
        if self.cursor_card in hand:
            self.cursor = hand.index(self.cursor_card)
        self.cursor = max(0, min(self.cursor, len(hand) - 1))
        self.cursor_card = hand[self.cursor] if hand else None
        self.marked &= set(hand)
        targets = self.open_targets()
        if self.target not in targets:
            self.target = targets[0] if targets else None
        self._follow_dummy(snapshot)
        if snapshot.notice != self.last_session_notice:
            self.last_session_notice = snapshot.notice
            if snapshot.notice:
                self.notice = Notice(Messages("en")(snapshot.notice),
                                     snapshot.notice_ru or Messages("ru")(snapshot.notice))

    def _follow_dummy(self, snapshot: TableSnapshot) -> None:
        """с болваном: keep the dummy's cursor on its card; the keys go to the dummy's hand
        when only the dummy may move, and back to his own when the dummy may not (or is no
        longer his to play)."""
        dummy = self.dummy_seat()
        hand = self.dummy_hand()
        if self.dummy_cursor_card in hand:
            self.dummy_cursor = hand.index(self.dummy_cursor_card)
        self.dummy_cursor = max(0, min(self.dummy_cursor, len(hand) - 1))
        self.dummy_cursor_card = hand[self.dummy_cursor] if hand else None
        seats = {a.seat for a in snapshot.legal}
        if dummy < 0 or dummy not in seats:
            self.dummy_focus = False
        elif self.me not in seats:
            self.dummy_focus = True

    # ---- keys -----------------------------------------------------------------------------

    def command(self, name: str) -> Action | None:
        """Apply a table command; the action to submit, if the command asks for one."""
        if name != "leave":
            self.leave_armed = False
        for_other = [a for a in self._legal_of(A.CLAIM) + self._legal_of(A.NO_TRUMP)
                     if a.seat != self.me]
        if for_other and (name in ("show", "pass", "play") or name.startswith("card:")):
            # оборотный: he shows the lowest trump of the seat on his right, who cannot see
            # his own cards; whatever he presses, that claim (or «no trump») is the move
            return for_other[0]
        if name == "dummy":
            if self.dummy_seat() < 0:
                self.dummy_focus = False
                self.notice = notice_of("no_dummy")
            else:
                self.dummy_focus = not self.dummy_focus
                self.marked.clear()
            return None
        if name.startswith("dummy_card:") and self.dummy_seat() >= 0:  # a click on its row
            self.dummy_focus = True
            name = "card:" + name.split(":", 1)[1]
        if self.dummy_focus and self.dummy_seat() >= 0 and (
                name in _DUMMY_COMMANDS or name.startswith("card:")):
            return self._dummy_command(name)
        hand = self.hand()
        if name in ("left", "right", "home", "end"):
            self._move_cursor(name, len(hand))
            return None
        if name in ("target_next", "target_prev"):
            self._cycle_target(1 if name == "target_next" else -1)
            return None
        capturing = self.state is not None and self.state.phase == CAPTURE
        if name.startswith("target:"):
            index = int(name.split(":", 1)[1])
            if capturing:  # a click on a face-up card takes it
                return self._capture(index)
            if index in self.open_targets():
                self.target = index
            return None
        if name == "mark":
            if hand:
                self.marked ^= {hand[self.cursor]}
            return None
        if name.startswith("card:"):
            position = int(name.split(":", 1)[1])
            if not 0 <= position < len(hand):
                self.notice = notice_of("no_card")
                return None
            self._point_at(position, hand)
            self.marked.clear()
            return self._play(hand[position])
        if name == "play" and capturing:
            return self._capture(None)
        if name == "send_back" or (name == "play" and A.SEND_BACK in self.legal_kinds()):
            return self._send_back()
        if name == "play":
            if self.marked:
                cards = sorted(self.marked)
                self.marked.clear()
                # several marked cards: a lead, or (погонный) a throw-in of one rank at once
                state = self.state
                kind = A.THROW if state is not None and state.phase == BOUT else A.LEAD
                return Action(kind, self.me, tuple(cards))
            if not hand:
                return self._simple(A.PASS)
            return self._play(hand[self.cursor])
        if name == "beat":
            card = self._cursor_card(hand)
            if card is None:
                return None
            target = self.target if self.target is not None else self._first_target()
            if target is None:
                self.notice = notice_of("no_target")
                return None
            return Action(self._beat_kind(), self.me, (card,), target)
        if name == "doubt":
            return self._doubt()
        if name == "exchange":
            # покерный: the two marked cards (Space) go back to the stock for its top two
            if len(self.marked) != 2:
                self.notice = notice_of("mark_two")
                return None
            given = tuple(sorted(self.marked))
            self.marked.clear()
            return Action(A.EXCHANGE, self.me, given)
        if name == "take":
            return self._simple(A.TAKE)
        if name == "lead_stock":  # армянский: lead the top stock card unseen
            return self._simple(A.LEAD_STOCK)
        if name == "pass":
            state = self.state
            if state is not None and state.phase == CLAIM:
                return self._simple(A.NO_TRUMP)
            return self._simple(A.PASS)
        if name == "transfer":
            if A.CHAIN in self.legal_kinds():  # крестовый: pass the cursor card on
                return self._with_card(A.CHAIN, hand)
            return self._with_card(A.TRANSFER, hand)
        if name == "show":
            state = self.state
            if state is not None and state.phase == CLAIM:
                claims = self._legal_of(A.CLAIM)
                if claims:
                    return claims[0]
                card = self._cursor_card(hand)
                return None if card is None else Action(A.CLAIM, self.me, (card,))
            return self._with_card(A.SHOW, hand)
        return None

    def _send_back(self) -> Action | None:
        """щелковский (B), past the cap: send the chosen table card back to its thrower."""
        state = self.state
        target = self.target if self.target is not None else self._first_target()
        if state is None or target is None or target >= len(state.table):
            self.notice = notice_of("not_sendable")
            return None
        action = Action(A.SEND_BACK, self.me, (state.table[target],))
        if action not in self._legal_of(A.SEND_BACK):
            self.notice = notice_of("not_sendable")
            return None
        self.target = None
        return action

    def _dummy_command(self, name: str) -> Action | None:
        """с болваном: a key on the dummy's hand — move its cursor, throw a card of it in, or
        pass for it; with the table option `can_attack_defend` («по согласованию между игроками
        болван имеет право» ходить и отбиваться) also lead with it, beat the chosen attack card
        with it (B, or its card when it defends) or take for it (T)."""
        dummy = self.dummy_seat()
        hand = self.dummy_hand()
        if name in ("left", "right", "home", "end"):
            if hand:
                steps = {"left": self.dummy_cursor - 1, "right": self.dummy_cursor + 1,
                         "home": 0, "end": len(hand) - 1}
                self.dummy_cursor = steps[name] % len(hand)
                self.dummy_cursor_card = hand[self.dummy_cursor]
            return None
        if name == "pass":
            return Action(A.PASS, dummy)
        if name == "take":
            return Action(A.TAKE, dummy)
        position = int(name.split(":", 1)[1]) if name.startswith("card:") else self.dummy_cursor
        if not 0 <= position < len(hand):
            self.notice = notice_of("no_card")
            return None
        self.dummy_cursor, self.dummy_cursor_card = position, hand[position]
        card = hand[position]
        state = self.state
        # the engine says why, if the move cannot be made
        if state is not None and state.phase == BOUT and (
                name == "beat" or state.defender == dummy):
            beats = [a for a in self._legal_of(A.BEAT) if a.seat == dummy and a.cards == (card,)]
            chosen = [a for a in beats if a.target == self.target]
            if chosen or (beats and name != "beat"):
                return (chosen or beats)[0]
            target = self.target if self.target is not None else self._first_target()
            return Action(A.BEAT, dummy, (card,), 0 if target is None else target)
        if state is not None and state.phase == LEAD:
            return Action(A.LEAD, dummy, (card,))
        return Action(A.THROW, dummy, (card,))

    def _beat_kind(self) -> int:
        state = self.state
        return A.COVER if state is not None and state.game.tables.face_down else A.BEAT

    def _doubt(self) -> Action | None:
        """верю не верю: «сомневаюсь» about the latest face-down cover (the rightmost)."""
        doubts = self._legal_of(A.CHALLENGE)
        if doubts:
            return max(doubts, key=lambda a: a.target)
        state = self.state
        covered = [] if state is None else [i for i, c in enumerate(state.covers)
                                            if c != UNKNOWN]
        if not covered:
            self.notice = notice_of("no_face_down")
            return None
        return Action(A.CHALLENGE, self.me, (), covered[-1])  # the engine says why not

    def _point_at(self, position: int, hand: list[int]) -> None:
        self.cursor = position
        self.cursor_card = hand[position]

    def _move_cursor(self, name: str, size: int) -> None:
        if not size:
            return
        if name == "left":
            self.cursor = (self.cursor - 1) % size
        elif name == "right":
            self.cursor = (self.cursor + 1) % size
        elif name == "home":
            self.cursor = 0
        else:
            self.cursor = size - 1
        self.cursor_card = self.hand()[self.cursor]

    def _cycle_target(self, step: int) -> None:
        targets = self.open_targets()
        if not targets:
            return
        at = targets.index(self.target) if self.target in targets else -step
        self.target = targets[(at + step) % len(targets)]

    def _first_target(self) -> int | None:
        targets = self.open_targets()
        return targets[0] if targets else None

    def _cursor_card(self, hand: list[int]) -> int | None:
        if not hand:
            self.notice = notice_of("no_card")
            return None
        return hand[self.cursor]

    def _legal_of(self, kind: int) -> list[Action]:
        return [] if self.snapshot is None else [a for a in self.snapshot.legal if a.kind == kind]

    def _simple(self, kind: int) -> Action | None:
        if self.snapshot is None or self.snapshot.state is None:
            self.notice = notice_of("not_now")
            return None
        return Action(kind, self.me)

    def _with_card(self, kind: int, hand: list[int]) -> Action | None:
        """The cursor card for `kind`; or the only card that can do it, when the cursor
        card cannot."""
        card = self._cursor_card(hand)
        if card is None:
            return None
        options = self._legal_of(kind)
        if any(a.cards == (card,) for a in options) or len(options) != 1:
            return Action(kind, self.me, (card,))
        return options[0]

    def _play(self, card: int) -> Action | None:
        """What pressing a card means: its best legal use, else the natural try."""
        state = self.state
        if state is None or self.snapshot is None or self.snapshot.activity == "over":
            self.notice = notice_of("not_now")
            return None
        if state.phase == NAME_TRUMP:  # the King names the suit of the card he presses
            return Action(A.NAME_TRUMP, self.me, (), state.game.suit[card])
        uses = [a for a in self.snapshot.legal if card in a.cards
                and not (a.kind in (A.LEAD, A.THROW) and len(a.cards) > 1)]
        if uses:
            best = min(uses, key=lambda a: _PREFERENCE.index(a.kind))  # beats: leftmost first
            if best.kind in _BEATS:
                chosen = [a for a in uses if a.kind == best.kind and a.target == self.target]
                return chosen[0] if chosen else best
            return best
        # nothing legal: try the natural move, so the engine says why not
        if state.phase == LEAD:
            return Action(A.LEAD, self.me, (card,))
        if state.phase == CLAIM:
            return Action(A.CLAIM, self.me, (card,))
        if state.phase == BOUT:
            if self.me == state.defender:
                target = self.target if self.target is not None else self._first_target()
                return Action(self._beat_kind(), self.me, (card,),
                              0 if target is None else target)
            return Action(A.THROW, self.me, (card,))
        self.notice = notice_of("not_now")
        return None


def notice_of(key: str, **fields: object) -> Notice:
    """A catalogue message as a notice, in both languages."""
    return Notice(Messages("en")(key, **fields), Messages("ru")(key, **fields))


def refusal(reason_en: str, reason_ru: str) -> Notice:
    """The engine's (or the lobby's) reason for refusing, in both languages."""
    return Notice(Messages("en")("refused", reason=reason_en),
                  Messages("ru")("refused", reason=reason_ru))
