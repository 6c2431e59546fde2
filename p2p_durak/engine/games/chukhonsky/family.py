"""Дурак чухонский as a game family (`engine/family.py`): the interface the node, the deck,
the bots and the screen use, over this game's own engine, with its card movements in the
generic form (`engine/moves.py`).

The movements (docs/decisions/0010, the `chukhonsky` row):
- the deal: the whole stock, slot k to the hand of the k-th seat from the dealer's left
  (`AT`, seen by the `OWNER`); with `out_of_play` the last slots to `OUT_OF_PLAY`, unseen;
- a card laid: `CARDS` from the hand to the `TABLE`, opened to `ALL` (the move opens it);
- an ace: then `ALL` of the `TABLE` to the `DISCARD`;
- a take: the pile's top (`LAST` 1) to the taker's hand, `KEEP` (face up already), then the
  rest of the pile to the `DISCARD`.
"""

from __future__ import annotations

from collections.abc import Sequence

from p2p_durak.engine.cards import cards_of
from p2p_durak.engine.errors import IllegalAction, Reason
from p2p_durak.engine.family import (
    Audit,
    Capabilities,
    ChanceRequest,
    Outcome,
    SeatView,
    Shape,
    ShuffleDeck,
    TableView,
    ZoneView,
)
from p2p_durak.engine.games.chukhonsky import ladder as P
from p2p_durak.engine.games.chukhonsky import views as V
from p2p_durak.engine.games.chukhonsky.rules import ENGINE_ID, ChukhonskyRules
from p2p_durak.engine.games.chukhonsky.state import (
    Cleared,
    Dealt,
    Event,
    Move,
    MoveKind,
    Phase,
    Played,
    State,
    Took,
    deal,
)
from p2p_durak.engine.moves import (
    DISCARD,
    OUT_OF_PLAY,
    STOCK,
    TABLE,
    Movement,
    Seen,
    Zone,
    at,
    cards,
    every,
    hand,
    last,
)


def movements(before: State, move: Move, events: tuple[object, ...],
              after: State) -> tuple[Movement, ...]:
    """Where the cards of one transition went, from its events."""
    out: list[Movement] = []
    game = before.game
    for event in events:
        if isinstance(event, Dealt):
            n = game.n_players
            dealt = sum(event.counts)
            deal_moves = [at(STOCK, hand((game.dealer + 1 + k) % n), k, seen=Seen.OWNER)
                          for k in range(dealt)]
            if event.set_aside:
                deal_moves.append(at(STOCK, OUT_OF_PLAY, dealt, event.set_aside))
            out.append(tuple(deal_moves))
        elif isinstance(event, Played):
            out.append((cards(hand(event.seat), TABLE, (event.card,), seen=Seen.ALL),))
        elif isinstance(event, Cleared):
            out.append((every(TABLE, DISCARD),))
        elif isinstance(event, Took):
            out.append((last(TABLE, hand(event.seat)),))
            if event.discarded:
                out.append((every(TABLE, DISCARD),))
    return tuple(out)


def capabilities(rules: ChukhonskyRules) -> Capabilities:
    return Capabilities(family=ENGINE_ID, commands=frozenset(), has_trump=False,
                        has_stock=False, teams=0, scored=False, blind_hands=False,
                        remask_open_hands=False)


def table_view(state: State, seat: int) -> TableView:
    """One seat's screen: the ladder (its cards in the order laid), the discard, the cards
    out of play, and every seat with its hand's size and roles."""
    zones = [ZoneView(TABLE, Shape.CHAIN, len(state.pile), state.pile),
             ZoneView(DISCARD, Shape.PILE, state.discard.bit_count(), ())]
    if state.set_aside:
        zones.append(ZoneView(OUT_OF_PLAY, Shape.PILE, state.set_aside, ()))
    actors = P.to_act(state)
    seats = []
    for s in range(state.n_players):
        roles = [name for name, on in (
            ("to_act", s in actors), ("out", bool((state.out >> s) & 1)),
            ("dealer", s == state.game.dealer), ("you", s == seat)) if on]
        seats.append(SeatView(s, state.hand_size(s), tuple(roles),
                              tuple(cards_of(state.hands[s] & state.shown))))
    return TableView(tuple(zones), tuple(seats), -1, -1)


def encode_move(move: Move) -> list[int]:
    return move.encode()


def decode_move(raw: object) -> Move:
    """The wire form `[kind, seat, card]`; IllegalAction(BAD_ACTION) for anything else."""
    if not isinstance(raw, (list, tuple)) or len(raw) != 3 \
            or not all(type(x) is int for x in raw):
        raise IllegalAction(Reason.BAD_ACTION, f"not a chukhonsky move: {raw!r}")
    kind, seat, card = raw
    if kind not in MoveKind._value2member_map_:
        raise IllegalAction(Reason.BAD_ACTION, f"no move kind {kind}")
    return Move(MoveKind(kind), seat, card)


class SuitLadder:
    """`GameFamily[ChukhonskyRules, State, Move]` for Дурак чухонский."""

    name = ENGINE_ID

    def new_game(self, rules: ChukhonskyRules, n_players: int, dealer: int,
                 deck_order: Sequence[int] | None = None,
                 previous: State | None = None) -> State:
        game = P.next_game(previous) if previous is not None \
            else P.make_game(rules, n_players, dealer)
        return P.new_game(game, deck_order)

    def to_act(self, state: State) -> frozenset[int]:
        return P.to_act(state)

    def legal_actions(self, state: State, seat: int) -> tuple[Move, ...]:
        return P.legal_actions(state, seat)

    def apply(self, state: State, action: Move) -> tuple[State, tuple[Event, ...]]:
        return P.apply(state, action)

    def step(self, state: State, action: Move) -> State:
        return P.step(state, action)

    def movements(self, before: State, action: Move, events: tuple[object, ...],
                  after: State) -> tuple[Movement, ...]:
        return movements(before, action, events, after)

    def initial_layout(self, state: State) -> tuple[tuple[Zone, tuple[int, ...]], ...]:
        return ((STOCK, tuple(range(state.game.n_cards))),)

    def chance(self, state: State) -> ChanceRequest | None:
        if state.phase is Phase.DEAL:
            return ShuffleDeck()
        if state.phase is Phase.OVER:
            return Audit()
        return None

    def chance_actions(self, state: State, request: ChanceRequest,
                       value: int | tuple[int, ...]) -> tuple[Move, ...]:
        return (deal(),) if isinstance(request, ShuffleDeck) else ()

    def sequencer(self, state: State) -> int:
        return P.sequencer(state)

    def plays_for(self, state: State, seat: int) -> int:
        return seat

    def result(self, state: State) -> Outcome | None:
        r = state.result
        if r is None:
            return None
        winners = () if r.draw else tuple(s for s in range(state.n_players)
                                          if s not in r.durak)
        return Outcome(r.durak, winners, r.draw)

    def public_view(self, state: State) -> object:
        return V.public_view(state)

    def private_view(self, state: State, seat: int) -> State:
        return V.private_view(state, seat)

    def learn(self, state: State, seat: int, cards: tuple[int, ...]) -> State:
        return P.learn(state, seat, cards)

    def state_hash(self, state: State) -> bytes:
        return V.state_hash(state)

    def capabilities(self, rules: ChukhonskyRules) -> Capabilities:
        return capabilities(rules)

    def table_view(self, state: State, seat: int) -> TableView:
        return table_view(state, seat)

    def encode_action(self, action: Move) -> object:
        return encode_move(action)

    def decode_action(self, raw: object) -> Move:
        return decode_move(raw)


SUIT_LADDER = SuitLadder()
"""The one instance (the family is stateless)."""
