"""One party's game over the mental-poker deck, for any game family: the engine's card
movements (`engine/moves.py`) say which deck step each transition needs.

Sans-IO, and it knows no game: it keeps the party's partial view of the family's state and a
`Layout` of deck slots, and turns what it is told into deck operations (`protocol/mental/
ops.py`) the caller runs at every party in the shared order:

- a card that arrives seen by its zone's seat (`Seen.OWNER`: a deal, a draw) is shown to
  that seat (`ShowOp`), to every other seat for `Seen.OTHERS`; one that must be seen by all
  and is still closed is opened to all (`RevealOp`); `Seen.NOBODY` is a re-mask (`ShuffleOp`);
  `KEEP` needs nothing;
- a card a player lays from his hand is named in his intent by its slot: `reveal_for(move,
  slots)` checks the slots lie in that hand, the caller opens them with his tokens
  (`RevealOp(by=seat)`), and `apply(move, opened)` checks each opened card is the card the
  move names before the family applies it;
- after the game, `audit(cards)` (every slot's card, from the published keys) replays the
  moves on the full deal: a move a partial view had to take on trust (Дурак чухонский: «I
  cannot follow» while holding the card) is refused there, naming the seat.

This is the deck half of a networked table that follows movements; the signed log around it
is `protocol/log.py`'s, as for the attack/defend table (`protocol/table.py`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from p2p_durak.engine.errors import IllegalAction
from p2p_durak.engine.family import Audit, GameFamily, ShuffleDeck
from p2p_durak.engine.layout import Arrival, Layout
from p2p_durak.engine.moves import Pick, Seen, ZoneKind, hand
from p2p_durak.protocol.mental.ops import AuditOp, KeysOp, Op, RevealOp, ShowOp, ShuffleOp

StateT = TypeVar("StateT")
ActionT = TypeVar("ActionT")


class FollowError(Exception):
    """A peer's move does not fit the deck: it names slots that are not in its hand, or its
    opened card is not the card it names. `seat` is the peer, `reason` says what."""

    def __init__(self, seat: int, reason: str) -> None:
        super().__init__(f"seat {seat}: {reason}")
        self.seat = seat
        self.reason = reason


@dataclass(frozen=True)
class AuditFinding:
    """A move the full deal refuses: its index in the game, the seat, and the rules' reason."""

    index: int
    seat: int
    reason: str


class FamilyDeckGame(Generic[StateT, ActionT]):
    """The party's view of one game of `family` over the deck."""

    def __init__(self, family: GameFamily[Any, StateT, ActionT], view: StateT, seat: int,
                 *, step_prefix: str = "g") -> None:
        self.family = family
        self.view = view
        self.seat = seat
        self.layout = Layout.of(family.initial_layout(view))
        self.opened: dict[int, int] = {}  # slot -> card, open to everyone
        self.mine: dict[int, int] = {}  # slot -> card this party has seen privately
        self.moves: list[ActionT] = []
        self.prefix = step_prefix
        self.steps = 0

    # ---- deck steps ------------------------------------------------------------------------

    def _step(self, name: str) -> str:
        self.steps += 1
        return f"{self.prefix}/{self.steps}:{name}"

    def opening(self) -> list[Op]:
        """The keys and the shuffle of every slot the family lays out (its `ShuffleDeck`)."""
        request = self.family.chance(self.view)
        if not isinstance(request, ShuffleDeck):
            raise ValueError(f"the game does not start with a shuffle ({request!r})")
        slots = tuple(s for _, zone in self.family.initial_layout(self.view) for s in zone)
        return [KeysOp(self._step("keys")),
                ShuffleOp(self._step("shuffle"), slots, request.blocks, request.initial)]

    def deal(self) -> list[Op]:
        """Apply the family's chance action after the shuffle; the deck steps its movements
        need (the private deal)."""
        request = self.family.chance(self.view)
        assert request is not None
        ops: list[Op] = []
        for action in self.family.chance_actions(self.view, request, 0):
            ops += self._transition(action)
        return ops

    def closing(self) -> Op:
        if not isinstance(self.family.chance(self.view), Audit):
            raise ValueError("the game is not over")
        return AuditOp(self._step("audit"))

    def saw(self, slot: int, card: int) -> None:
        """The deck showed this party a slot privately (its `CardSeen`)."""
        self.mine[slot] = card

    def learn_own(self) -> None:
        """Tell the partial view the cards of its own hand the deck showed it."""
        own = self.family.plays_for(self.view, self.seat)
        in_hand = [self.mine[s] for s in self.layout.slots(hand(own)) if s in self.mine]
        self.view = self.family.learn(self.view, own, tuple(in_hand))

    # ---- moves -----------------------------------------------------------------------------

    def slots_for(self, cards: Sequence[int]) -> tuple[int, ...]:
        """The slots this party's own hand holds `cards` in (for its intent)."""
        own = self.family.plays_for(self.view, self.seat)
        by_card = {self.mine.get(s, self.opened.get(s)): s for s in self.layout.slots(hand(own))}
        return tuple(by_card[c] for c in cards)

    def reveal_for(self, seat: int, slots: Sequence[int]) -> Op | None:
        """The deck step that opens the slots a move by `seat` names; FollowError when one is
        not in that seat's hand."""
        hand_slots = set(self.layout.slots(hand(seat)))
        for slot in slots:
            if slot not in hand_slots:
                raise FollowError(seat, f"slot {slot} is not in its hand")
        closed = tuple(s for s in slots if s not in self.opened)
        return RevealOp(self._step("play"), closed, by=seat) if closed else None

    def apply(self, move: ActionT, seat: int, slots: Sequence[int],
              revealed: dict[int, int]) -> list[Op]:
        """A committed move of `seat` whose slots the deck opened (`revealed`: slot -> card):
        check, apply, follow; the deck steps it needs next. FollowError or IllegalAction
        (the state unchanged) when the move does not fit."""
        self.opened.update(revealed)
        before = self.view
        after, events = self.family.apply(before, move)
        laid = [card for mv in _moves(self.family.movements(before, move, events, after))
                if mv.pick == Pick.CARDS and mv.source.kind == ZoneKind.HAND
                for card in mv.cards]
        cards_opened = sorted(self.opened.get(s, -1) for s in slots)
        if sorted(laid) != cards_opened:
            raise FollowError(seat, f"the opened cards {cards_opened} are not the cards laid "
                                    f"{sorted(laid)}")
        return self._follow(move, before, after, events)

    def _transition(self, action: ActionT) -> list[Op]:
        before = self.view
        after, events = self.family.apply(before, action)
        return self._follow(action, before, after, events)

    def _follow(self, action: ActionT, before: StateT, after: StateT,
                events: tuple[object, ...]) -> list[Op]:
        ops: list[Op] = []
        for movement in self.family.movements(before, action, events, after):
            for arrival in self.layout.follow(movement, self.opened.get):
                ops += self._ops_for(arrival, after)
        self.view = after
        self.moves.append(action)
        return ops

    def _ops_for(self, arrival: Arrival, state: StateT) -> list[Op]:
        seats = range(len(self.family.table_view(state, self.seat).seats))
        if arrival.seen == Seen.OWNER:
            owner = self.family.plays_for(state, arrival.zone.seat)
            return [ShowOp(self._step("show"), tuple((s, (owner,)) for s in arrival.slots))]
        if arrival.seen == Seen.OTHERS:
            others = tuple(s for s in seats if s != arrival.zone.seat)
            return [ShowOp(self._step("show"), tuple((s, others) for s in arrival.slots))]
        if arrival.seen == Seen.ALL:
            closed = tuple(s for s in arrival.slots if s not in self.opened)
            return [RevealOp(self._step("open"), closed)] if closed else []
        if arrival.seen == Seen.NOBODY:
            by = None if arrival.by < 0 else arrival.by
            for slot in arrival.slots:
                self.opened.pop(slot, None)
                self.mine.pop(slot, None)
            return [ShuffleOp(self._step("remask"), arrival.slots, by=by)]
        return []

    # ---- the audit -------------------------------------------------------------------------

    def audit(self, first: StateT) -> list[AuditFinding]:
        """Replay this game's moves on the full deal: `first` is the game's first full state,
        built from the deck order the published keys open (`AuditDone`). The first move the
        full state refuses is a finding (nothing after it is checked)."""
        findings: list[AuditFinding] = []
        state = first
        for index, move in enumerate(self.moves):
            try:
                state = self.family.step(state, move)
            except IllegalAction as refused:
                findings.append(AuditFinding(index, getattr(move, "seat", -1), refused.reason.en))
                return findings
        return findings


def _moves(movements: Sequence[Sequence[Any]]) -> list[Any]:
    return [mv for movement in movements for mv in movement]
