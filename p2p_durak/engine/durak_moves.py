"""The attack/defend family's card movements, derived from a transition after the fact.

`movements(before, action, events)` says where the cards of one applied action went, in the
generic form of `engine/moves.py`. It is worked out only when a table asks (the networked
table, a cross-check), from the state before, the action and the events `apply` returned:
the playout and the bots never build a movement, so they pay nothing for it.

The stock is the deck's slots in order, top first, with the turned trump card at its bottom
(the card stays in the stock, face up, and is drawn last); the table is the bout's cards in
the order they came; a face-down cover (верю не верю) is labelled with the attack card it
covers, for the doubt's reveal to find.
"""

from __future__ import annotations

from p2p_durak.engine import actions as A
from p2p_durak.engine import events as E
from p2p_durak.engine.actions import Action
from p2p_durak.engine.moves import (
    DISCARD,
    OUT_OF_PLAY,
    SET_ASIDE,
    STOCK,
    TABLE,
    Move,
    Movement,
    Pick,
    Seen,
    Zone,
    at,
    cards,
    every,
    first,
    hand,
    last,
    locked,
    named,
    reshuffle,
)
from p2p_durak.engine.setup import deal_seats
from p2p_durak.engine.state import Game, State


def initial_layout(game: Game, stock_size: int) -> tuple[tuple[Zone, tuple[int, ...]], ...]:
    """Where the shuffled deck's slots lie before the deal: the stock on top, the cards laid
    out before the game (Длинный дурак's ladders) below it, never dealt."""
    n = game.n_cards
    return ((STOCK, tuple(range(stock_size))), (OUT_OF_PLAY, tuple(range(stock_size, n))))


def stock_bottom(state: State) -> int:
    """1 while the turned trump card lies face up at the bottom of the stock, else 0."""
    return 1 if state.stock and state.stock[-1] == state.trump_card >= 0 else 0


def movements(before: State, action: Action, events: tuple[E.Event, ...],
              after: State) -> tuple[Movement, ...]:
    """The card movements of `action` applied to `before` (giving `after` and `events`)."""
    out: list[Movement] = []
    game = before.game
    if action.kind == A.LEAVE:
        # the leaver's hand, opened to all by its leave, goes to the discard (also when the
        # leave counts as a concession: the table shows the hand all the same)
        out.append((every(hand(action.seat), DISCARD, seen=Seen.ALL),))
    for ev in events:
        out += _of_event(before, after, ev)
    dummy = game.dummy
    if dummy >= 0 and after.controller != before.controller and after.phase != 7:  # OVER
        # с болваном: the dummy's new controller is shown its cards (he plays them now)
        out.append((every(hand(dummy), hand(dummy), seen=Seen.OWNER),))
    return tuple(out)


def _shown(game: Game) -> Seen:
    """Who is shown a card dealt or drawn into a hand: its owner, or (оборотный, where a
    player never sees his own cards) everyone but him."""
    return Seen.OTHERS if game.tables.blind else Seen.OWNER


def _of_event(before: State, after: State, ev: E.Event) -> list[Movement]:
    game = before.game
    if isinstance(ev, E.Dealt):
        to = deal_seats(game)
        n = game.n_players
        lock = game.rules.locked_cards
        seen = _shown(game)
        # magaданский: the first rounds of locked cards lie face down, their owner unshown
        deal = tuple(at(STOCK, locked(seat), k) if k // n < lock
                     else at(STOCK, hand(seat), k, seen=seen) for k, seat in enumerate(to))
        return [deal] if deal else []
    if isinstance(ev, E.Unlocked):
        # in front: the dealer's last dealt card stays the last of his hand (SP2)
        return [(first(locked(ev.seat), hand(ev.seat), ev.n, into=0, seen=Seen.OWNER),)]
    if isinstance(ev, E.TrumpReinserted):
        return [(first(STOCK, STOCK, into=ev.position),)]
    if isinstance(ev, (E.TurnedUp, E.StockLed)):
        return [(first(STOCK, TABLE, seen=Seen.ALL),)]
    if isinstance(ev, E.Placed):
        return [(cards(TABLE, hand(ev.onto), (ev.card,)),)]
    if isinstance(ev, E.ChainPassed):
        return [(cards(TABLE, hand(ev.seat), (ev.took,)),
                 cards(hand(ev.seat), TABLE, (ev.card,), seen=Seen.ALL))]
    if isinstance(ev, E.Captured):
        return [(cards(TABLE, hand(ev.seat), (ev.card,)),
                 cards(TABLE, hand(ev.seat), (ev.target,)))]
    if isinstance(ev, E.Swept):
        return [tuple(cards(TABLE, hand(ev.seat), (c,)) for c in ev.cards)]
    if isinstance(ev, E.TrumpRevealed):
        if ev.card < 0 or game.tables.pre_phase or not before.stock:
            return []
        # the turned card goes under the stock, face up
        out: list[Movement] = [(first(STOCK, STOCK, seen=Seen.ALL),)]
        if game.rules.trump_change == "hidden_second":
            out.append((first(STOCK, SET_ASIDE),))  # потайной: the next one, face down, apart
        return out
    if isinstance(ev, E.PersonalTrump):
        return [(first(STOCK, DISCARD, seen=Seen.ALL),)]
    if isinstance(ev, E.TrumpSwapped):
        # козырной: the bout's last card under the stock as the trump card; the old one to the
        # table (the discard next)
        return [(last(STOCK, TABLE), cards(TABLE, STOCK, (ev.card,)))]
    if isinstance(ev, E.Drew):
        return [(first(STOCK, hand(ev.seat), ev.n, seen=_shown(game)),)] if ev.n else []
    if isinstance(ev, E.Exchanged):
        # покерный: the stock's top cards to the defender (shown to him), the two he gave into
        # the stock, face down: on top, or above the turned card at its bottom
        where = game.tables.exchange_return
        into = len(before.stock) - ev.n - stock_bottom(after) if where == 2 else 0
        return [(first(STOCK, hand(ev.seat), ev.n, seen=Seen.OWNER),
                 named(hand(ev.seat), STOCK, ev.n, ev.given, into=into))]
    if isinstance(ev, E.Covered):
        known = (ev.card,) if ev.card >= 0 else ()
        return [(named(hand(ev.seat), TABLE, 1, known, label=ev.target),)]
    if isinstance(ev, E.Led):
        return [tuple(cards(hand(ev.seat), TABLE, (c,), seen=Seen.ALL) for c in ev.cards)]
    if isinstance(ev, (E.ThrewIn, E.Beat, E.Misplayed)):
        return [(cards(hand(ev.seat), TABLE, (ev.card,), seen=Seen.ALL),)]
    if isinstance(ev, E.Transferred):
        return [] if ev.shown else [(cards(hand(ev.seat), TABLE, (ev.card,), seen=Seen.ALL),)]
    if isinstance(ev, E.SentBack):
        return [(cards(TABLE, hand(ev.owner), (ev.card,)),)]
    if isinstance(ev, E.HandsRotated):
        seats = ev.seats
        return [tuple(every(hand(seats[i - 1]), hand(seat), seen=Seen.OWNER)
                      for i, seat in enumerate(seats))]
    if isinstance(ev, E.Took):
        if game.tables.take_unbeaten:
            # круглый: only the unbeaten cards; the beaten pairs are discarded next
            return [(cards(TABLE, hand(ev.seat), ev.cards),)]
        # верю не верю: face-down covers taken are shown to the taker
        return [(every(TABLE, hand(ev.seat), seen=Seen.OWNER),)]
    if isinstance(ev, E.Discarded):
        return [(every(TABLE, DISCARD),)]  # (face-down covers too, unseen)
    if isinstance(ev, E.Rebounded):
        # отбойный: the bout's cards and the stock's face-down part shuffled together by
        # every seat; the turned card stays at the bottom
        face_down = len(before.stock) - stock_bottom(before)
        return [(every(TABLE, STOCK, into=0),),
                (reshuffle(STOCK, face_down + len(ev.cards)),)]
    if isinstance(ev, E.StockShuffled):
        # покерный: the stock's face-down part (the given cards in it) shuffled by every seat
        return [(reshuffle(STOCK, len(before.stock) - stock_bottom(before)),)]
    return []


__all__ = ["Move", "Pick", "initial_layout", "movements", "stock_bottom"]
