"""What each party may see of a state, and the hash every node agrees on.

`public_view` is what the whole table knows: hand sizes but not hands, the stock's size and
its face-up trump card, the table, the discard. Every node derives the same public view from
the same committed log, whether it holds a full state or its own partial view, and
`state_hash` hashes exactly that. `private_view` is a seat's partial view of a full state;
`learn` tells a partial view the cards its own seat was privately dealt.
"""

from __future__ import annotations

import hashlib

from p2p_durak.engine.canonical import encode
from p2p_durak.engine.errors import IllegalAction, Reason
from p2p_durak.engine.state import FACE_DOWN, NO_CARD, UNKNOWN, State, known_cards

PublicView = tuple[object, ...]


def public_view(state: State) -> PublicView:
    game = state.game
    n = game.n_players
    stock = state.stock
    turned = stock[-1] if stock and stock[-1] == state.trump_card else NO_CARD
    result: tuple[object, ...] | None = None if state.result is None else (
        state.result.durak, state.result.draw, state.result.pogony, state.result.finish)
    if result is not None and state.result is not None and state.result.scores:
        result += (state.result.scores, state.result.winners)
    hidden_trump = state.hidden_trump if state.hidden_trump >= 0 else (
        UNKNOWN if state.hidden_trump == UNKNOWN else NO_CARD)
    covers = state.covers
    face_down = game.tables.face_down
    if face_down:  # верю не верю: every cover lies face down, its card known to its author
        covers = tuple(UNKNOWN if c == UNKNOWN else FACE_DOWN for c in covers)
    return (
        game.rules_hash, n, game.dealer, game.first_attacker, game.game_index,
        state.phase,
        tuple(state.hand_size(s) for s in range(n)),
        len(stock), turned,
        state.trump, state.trump_card, hidden_trump,
        state.table, covers, state.table_by,
        state.attacker, state.defender, state.taking, state.passed, state.shown,
        state.out, state.finish, state.discard, state.bout, state.claims, state.lot_among,
        result,
    ) + ((state.seat_trumps,) if state.seat_trumps else ()) + (
        (tuple(len(pile) for pile in state.locked),) if state.locked else ()) + (
        (state.otboi,) if state.game.tables.rebound else ()) + (
        (state.tally,) if state.tally else ()) + ((game.titles,) if game.titles else ()) + (
        (game.dummy, state.controller) if game.dummy >= 0 else ()) + (
        (game.personal, game.ladder) if game.personal else ()) + (
        (state.doubt, state.n_buried) if face_down else ()) + (
        (state.swapped,) if game.tables.exchange else ())


def state_hash(state: State) -> bytes:
    """SHA-256 of the canonical public view: identical on every machine and Python version."""
    return hashlib.sha256(encode(("p2p-durak/state/v1", public_view(state)))).digest()


def private_view(state: State, seat: int) -> State:
    """The partial view `seat` holds of `state`: its own hand (оборотный: every hand but its
    own), the public cards, nothing else."""
    n = state.game.n_players
    if state.game.tables.pre_phase:
        # круглый, наборный, крестовый: every card reached its hand face up, seen by all
        return state._replace(stock=(UNKNOWN,) * len(state.stock), reveal_card=UNKNOWN)
    if state.game.tables.blind:
        # оборотный: «игрок не видит своих карт, а соперник их видит»: every hand but his own
        hands = tuple(0 if s == seat else state.hands[s] for s in range(n))
        hidden = tuple(state.hand_size(s) if s == seat else state.hidden[s] for s in range(n))
    else:
        # с болваном: the dummy's controller sees its hand (its own seat's view too)
        dummy = state.game.dummy
        sees = (seat, dummy) if dummy >= 0 and seat == state.controller else (seat,)
        hands = tuple(state.hands[s] if s in sees else 0 for s in range(n))
        hidden = tuple(state.hidden[s] if s in sees else state.hand_size(s) for s in range(n))
    stock = tuple(c if c == state.trump_card and i == len(state.stock) - 1 else UNKNOWN
                  for i, c in enumerate(state.stock))
    locked = tuple((UNKNOWN,) * len(pile) for pile in state.locked)  # nobody sees them
    covers = state.covers
    if state.game.tables.face_down and seat != state.defender:
        # верю не верю: the face-down covers are the defender's (a view forgets what went to
        # the discard face down, even its own)
        covers = tuple(UNKNOWN if c == UNKNOWN else FACE_DOWN for c in covers)
    return state._replace(hands=hands, hidden=hidden, stock=stock, reveal_card=UNKNOWN,
                          locked=locked, covers=covers, buried=0)


def learn(state: State, seat: int, cards: tuple[int, ...]) -> State:
    """A partial view learns that `seat` holds `cards` (its own private deal or draw)."""
    known = known_cards(state)
    hands, hidden = list(state.hands), list(state.hidden)
    for card in cards:
        if (hands[seat] >> card) & 1:
            continue
        if not 0 <= card < state.game.n_cards or (known >> card) & 1 or hidden[seat] <= 0:
            raise IllegalAction(Reason.NOT_IN_HAND, f"seat {seat} cannot hold card {card}")
        hands[seat] |= 1 << card
        hidden[seat] -= 1
        known |= 1 << card
    return state._replace(hands=tuple(hands), hidden=tuple(hidden))
