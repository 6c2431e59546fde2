"""The pre-game phases that replace the deal (`pre_phase`): the hands are built by turning the
stock's cards face up one by one.

- `capture_row` (Дурак наборный): a seed card is laid face up by the stock; on his turn a
  player turns the top card; if it is of the same suit and higher than a face-up card it takes
  one of them (his choice when several), both into his hand, and he turns again; otherwise it
  is laid face up by the others and the turn passes clockwise. The last card of the stock is
  the trump and its drawer takes every card left face up.
- `capture_circle` (Дурак круглый): eight cards are laid face up and the next, the centre
  card, is the trump. On his turn a player turns the top card; it takes one face-up card it
  beats (his choice among several; by the usual beating, trumps included), both to his hand;
  otherwise it is laid face up; either way the turn passes clockwise. Taking the centre card
  takes every card left on the table; a stock run out before that leaves them to the player
  whose turn it would be; the rest of the stock stays out of play.

Each turned card is a chance action (`reveal(card)` in the phase `TURN_UP`): a full state
knows it (the top of the stock), a partial view accepts any card it does not know to be
elsewhere, and over the mental-poker deck the table machine opens the next stock slot to
everyone before the reveal is applied. A choice between several face-up cards is the drawer's
`capture(seat, card)` in the phase `CAPTURE`. Every card that reaches a hand was face up, so
all hands are public; the ordinary attack/defend game follows with no stock.

During these phases the state's bout fields carry the phase's own facts: `table` the face-up
cards in the order they were laid (крестовый: each pile's top card, the piles in order from the
dealer's left, the cards under them already in their owners' hands), `covers` (phase CAPTURE)
the drawn card that must take one of them, `attacker` the seat whose turn it is.
"""

from __future__ import annotations

from typing import Final

from p2p_durak.engine import actions as A
from p2p_durak.engine import events as E
from p2p_durak.engine.actions import CHANCE, Action
from p2p_durak.engine.cards import SUIT_NAMES, bits
from p2p_durak.engine.errors import IllegalAction, Reason
from p2p_durak.engine.events import EventSink
from p2p_durak.engine.setup import choose_first_attacker, first_attacker_chosen
from p2p_durak.engine.state import (
    CAPTURE,
    NO_CARD,
    OVER,
    TURN_UP,
    Game,
    Result,
    State,
    known_cards,
)
from p2p_durak.engine.tables import PRE_CAPTURE_CIRCLE, PRE_CAPTURE_ROW, PRE_LADDER

__all__ = ["capture_options", "on_capture", "on_turn_up"]


def _pre(state: State, phase: int, hands: tuple[int, ...], stock: tuple[int, ...],
         table: tuple[int, ...], covers: tuple[int, ...], attacker: int,
         seed: bool = False) -> State:
    """The next state of a pre-game phase; `seed` (kept in `taking`): наборный's next card is
    laid without comparing (`after_capture: seed_and_end`)."""
    actors = (CHANCE,) if phase == TURN_UP else state.game.tables.solo[attacker]
    return state._replace(phase=phase, hands=hands, stock=stock, table=table, covers=covers,
                          table_by=(), attacker=attacker, defender=-1, actors=actors,
                          taking=seed)


def on_turn_up(state: State, action: Action, ev: EventSink) -> State:
    if action.target != -1 or len(action.cards) != 1:
        raise IllegalAction(Reason.BAD_CHANCE, "a turned card is one card")
    card = action.cards[0]
    game = state.game
    if not 0 <= card < game.n_cards or not state.stock:
        raise IllegalAction(Reason.BAD_CHANCE)
    top = state.stock[0]
    if top >= 0 and card != top:
        raise IllegalAction(Reason.BAD_CHANCE, "not the top card of the stock")
    if top < 0 and (known_cards(state) >> card) & 1:
        raise IllegalAction(Reason.BAD_CHANCE, "that card is known to be elsewhere")
    stock = state.stock[1:]
    kind = game.tables.pre_phase
    if kind == PRE_CAPTURE_ROW:
        return _row_turned(state, card, stock, ev)
    if kind == PRE_CAPTURE_CIRCLE:
        return _circle_turned(state, card, stock, ev)
    if kind == PRE_LADDER:
        return _ladder_turned(state, card, stock, ev)
    raise IllegalAction(Reason.WRONG_PHASE)  # not reached: validate() allows no other phase


def capture_targets(state: State, card: int) -> list[int]:
    """The face-up cards `card` may take: наборный, of its suit and lower; круглый, those it
    beats («Отбить можно только старшей картой или козырной картой ...»)."""
    game = state.game
    if game.tables.pre_phase == PRE_CAPTURE_CIRCLE:
        beaters = game.beaters(state.trump)
        return [c for c in state.table if (beaters[c] >> card) & 1]
    suit, rank = game.suit[card], game.rank[card]
    return [c for c in state.table if game.suit[c] == suit and game.rank[c] < rank]


def capture_options(state: State, seat: int) -> list[Action]:
    if seat != state.attacker or state.phase != CAPTURE:
        return []
    return [A.capture(seat, c) for c in sorted(capture_targets(state, state.covers[0]))]


def on_capture(state: State, action: Action, ev: EventSink) -> State:
    seat = action.seat
    if seat != state.attacker:
        raise IllegalAction(Reason.NOT_YOUR_TURN)
    if len(action.cards) != 1 or action.cards[0] not in capture_targets(state, state.covers[0]):
        raise IllegalAction(Reason.BAD_ACTION, "not a face-up card the drawn card can take")
    if state.game.tables.pre_phase == PRE_CAPTURE_CIRCLE:
        return _circle_captured(state, seat, state.covers[0], action.cards[0], state.stock, ev)
    return _captured(state, seat, state.covers[0], action.cards[0], state.stock, ev)


# ---- наборный: the row by the stock ----------------------------------------------------------

def _row_turned(state: State, card: int, stock: tuple[int, ...], ev: EventSink) -> State:
    game = state.game
    seat = state.attacker
    if len(stock) == game.n_cards - 1:
        # «Верхняя карта с колоды снимается и кладется возле колоды в открытом виде»
        if ev is not None:
            ev.append(E.TurnedUp(-1, card))
        return _pre(state, TURN_UP, state.hands, stock, (card,), (), seat)
    if ev is not None:
        ev.append(E.TurnedUp(seat, card))
    if not stock:
        # «Последняя карта является козырем. Она забирает все оставшиеся карты.»
        taken = (card,) + state.table
        if ev is not None:
            ev.append(E.Swept(seat, taken))
            ev.append(E.TrumpRevealed(card, game.suit[card]))
        hands = _with(state.hands, seat, taken)
        return begin_play(state._replace(trump=game.suit[card], trump_card=card, stock=stock),
                          hands, ev)
    targets = [] if state.taking else capture_targets(state, card)
    if not targets:
        # «Если же карта игрока не может побить ... он выкладывает ее рядом с первой и ход
        # переходит к следующему игроку» (seed_and_end: after a capture «берет следующую
        # карту сверху колоды и кладет ее рядом с колодой», compared with nothing)
        if ev is not None:
            ev.append(E.Laid(seat, card))
        return _pre(state, TURN_UP, state.hands, stock, state.table + (card,), (),
                    (seat + 1) % game.n_players)
    if len(targets) == 1:
        return _captured(state, seat, card, targets[0], stock, ev)
    # «при наличии нескольких младших карт той же масти, берут своей картой одну любую по
    # выбору»
    return _pre(state, CAPTURE, state.hands, stock, state.table, (card,), seat)


def _captured(state: State, seat: int, card: int, target: int, stock: tuple[int, ...],
              ev: EventSink) -> State:
    """«игрок забирает лежащую возле колоды карту. Затем он продолжает ходить»: both cards to
    his hand, and he turns the next card."""
    if ev is not None:
        ev.append(E.Captured(seat, card, target))
    hands = _with(state.hands, seat, (card, target))
    table = tuple(c for c in state.table if c != target)
    return _pre(state, TURN_UP, hands, stock, table, (), seat,
                state.game.tables.seed_after_capture)


def _with(hands: tuple[int, ...], seat: int, cards: tuple[int, ...]) -> tuple[int, ...]:
    hand = hands[seat]
    for card in cards:
        hand |= 1 << card
    return hands[:seat] + (hand,) + hands[seat + 1:]


# ---- круглый: the circle round the trump -----------------------------------------------------

CIRCLE: Final = 8
"""The open cards of the layout («8 карт ... в открытом виде»); the next card is the centre."""


def _circle_turned(state: State, card: int, stock: tuple[int, ...], ev: EventSink) -> State:
    game = state.game
    seat = state.attacker
    turned = game.n_cards - len(stock)
    if turned <= CIRCLE + 1:
        # «8 карт ... в открытом виде и по центру стола кладется верхняя карта с оставшейся
        # колоды это козырь. Оставшаяся колода кладется в сторону.» The centre card joins the
        # face-up cards as the last of the layout (`trump_card` says which it is).
        if ev is not None:
            ev.append(E.TurnedUp(-1, card))
        if turned <= CIRCLE:
            return _pre(state, TURN_UP, state.hands, stock, state.table + (card,), (), seat)
        if ev is not None:
            ev.append(E.TrumpRevealed(card, game.suit[card]))
        return _pre(state._replace(trump=game.suit[card], trump_card=card), TURN_UP,
                    state.hands, stock, state.table + (card,), (), seat)
    if ev is not None:
        ev.append(E.TurnedUp(seat, card))
    targets = capture_targets(state, card)
    if not targets:
        # «Если игрок не может ее отбить, то кладет свою карту открытой рядом с восемью
        # открытыми картами для того, чтобы следующий игрок мог отбить ее. Затем ход переходит
        # к следующем игроку по часовой стрелке.»
        if ev is not None:
            ev.append(E.Laid(seat, card))
        if game.tables.ninth_first_added and not state.shown:
            state = state._replace(shown=1 << card)  # reading (b): the ninth card
        return _circle_next(state, state.hands, stock, state.table + (card,), seat, ev)
    if len(targets) == 1:
        return _circle_captured(state, seat, card, targets[0], stock, ev)
    # «отбивает любую из восьми открытых карт»: the player chooses
    return _pre(state, CAPTURE, state.hands, stock, state.table, (card,), seat)


def _circle_captured(state: State, seat: int, card: int, target: int, stock: tuple[int, ...],
                     ev: EventSink) -> State:
    if ev is not None:
        ev.append(E.Captured(seat, card, target))
    hands = _with(state.hands, seat, (card, target))
    table = tuple(c for c in state.table if c != target)
    ninth = state.shown if state.game.tables.ninth_first_added else 1 << state.trump_card
    if (ninth >> target) & 1:
        # «Игрок, который отбивает девятую карту, забирает все оставшиеся карты на столе»
        if ev is not None and table:
            ev.append(E.Swept(seat, table))
        return begin_play(state._replace(stock=stock), _with(hands, seat, table), ev)
    # «Если игрок отбил карту, то он забирает обе карты себе. ... Затем ход переходит к
    # следующем игроку по часовой стрелке.»
    return _circle_next(state, hands, stock, table, seat, ev)


def _circle_next(state: State, hands: tuple[int, ...], stock: tuple[int, ...],
                 table: tuple[int, ...], seat: int, ev: EventSink) -> State:
    """The turn passes clockwise; with the stock gone the player whose turn it would be takes
    every card left on the table (the catalogue, as in «Ромашка»)."""
    following = (seat + 1) % state.game.n_players
    if stock:
        return _pre(state, TURN_UP, hands, stock, table, (), following)
    if state.game.tables.discard_leftovers:  # the table option: they are out of play
        if ev is not None and table:
            ev.append(E.Discarded(table))
        discard = state.discard
        for card in table:
            discard |= 1 << card
        return begin_play(state._replace(stock=stock, discard=discard), hands, ev)
    if ev is not None and table:
        ev.append(E.Swept(following, table))
    return begin_play(state._replace(stock=stock), _with(hands, following, table), ev)


# ---- крестовый: the ladder deal -------------------------------------------------------------

def pile_seat(game: Game, index: int) -> int:
    """The seat whose pile is `table[index]` (the piles are dealt from the dealer's left)."""
    return (game.dealer + 1 + index) % game.n_players


def _ladder_turned(state: State, card: int, stock: tuple[int, ...], ev: EventSink) -> State:
    game = state.game
    n = game.n_players
    table = state.table
    if len(table) < n:
        # «каждому игроку сдается по одной карте в открытом виде ... Первым ходит игрок, у
        # которого старшая карта» (equal ranks: the first of them from the dealer's left)
        seat = pile_seat(game, len(table))
        if ev is not None:
            ev.append(E.TurnedUp(-1, card))
            ev.append(E.Placed(-1, card, seat))
        table += (card,)
        first = state.attacker
        if len(table) == n:
            top = max(range(n), key=lambda i: (game.rank[table[i]], -i))
            first = pile_seat(game, top)
        return _ladder_next(state, state.hands, stock, table, first, ev)
    seat = state.attacker
    if ev is not None:
        ev.append(E.TurnedUp(seat, card))
    # «кладет ее только тому игроку, у которого есть карта на одно значение меньше ... Если
    # имеются 2 валета у двоих игроков, то карта кладется на ближайший валет по часовой
    # стрелке. На туза кладется шестерка ... Если игрок никому положить эту карту не может,
    # тогда он ее забирает к себе.»
    rank = game.rank[card]
    below = 14 if rank == game.deck.lowest_rank else rank - 1
    onto = seat
    for step_ in range(1, n):
        other = (seat + step_) % n
        if game.rank[table[_pile_index(game, other)]] == below:
            onto = other
            break
    index = _pile_index(game, onto)
    if ev is not None:
        ev.append(E.Placed(seat, card, onto))
    hands = _with(state.hands, onto, (table[index],))
    table = table[:index] + (card,) + table[index + 1:]
    # «Ход переходит к следующему игроку по часовой стрелке.»
    return _ladder_next(state, hands, stock, table, (seat + 1) % n, ev)


def _pile_index(game: Game, seat: int) -> int:
    return (seat - game.dealer - 1) % game.n_players


def _ladder_next(state: State, hands: tuple[int, ...], stock: tuple[int, ...],
                 table: tuple[int, ...], following: int, ev: EventSink) -> State:
    if stock:
        return _pre(state, TURN_UP, hands, stock, table, (), following)
    # «Таким образом, раскладывается вся колода. После чего игроки берут все свои карты в
    # руки и начинают игру. Козырной мастью считаются бубны.»
    game = state.game
    for index, card in enumerate(table):
        hands = _with(hands, pile_seat(game, index), (card,))
    trump = _fixed_suit(game)
    if ev is not None:
        ev.append(E.TrumpRevealed(NO_CARD, trump))
    return begin_play(state._replace(stock=stock, trump=trump), hands, ev)


def _fixed_suit(game: Game) -> int:
    name = game.rules.trump_rule.split(":", 1)[1]
    return SUIT_NAMES.index(name)


# ---- the game after the phase -----------------------------------------------------------------

def begin_play(state: State, hands: tuple[int, ...], ev: EventSink) -> State:
    """The phase is over and every card is in a hand: a player without cards is out at once;
    with one player left holding cards he is the durak; else the lowest trump leads, which
    everybody sees («Первым ходит игрок, у которого имеется младший козырь»)."""
    game = state.game
    n = game.n_players
    out = 0
    finish: tuple[int, ...] = ()
    for k in range(n):
        seat = (game.dealer + 1 + k) % n
        if not hands[seat]:
            out |= 1 << seat
            finish += (seat,)
            if ev is not None:
                ev.append(E.PlayerOut(seat))
    state = state._replace(hands=hands, table=(), covers=(), table_by=(), out=out,
                           finish=finish, defender=-1, taking=False, shown=0)
    if n - out.bit_count() <= 1:
        durak = tuple(s for s in range(n) if not (out >> s) & 1)
        if ev is not None:
            ev.append(E.GameOver(durak, not durak, 0))
        return state._replace(phase=OVER, actors=(), result=Result(durak, not durak, 0, finish))
    first = game.first_attacker
    if first is not None:
        if (out >> first) & 1:
            first = next(s for s in game.tables.order[first] if not (out >> s) & 1)
        return first_attacker_chosen(state, first, False, ev)
    trumps = game.trump_mask(state.trump)
    lowest = [(game.rank[c], seat) for seat in range(n)
              for c in bits(hands[seat] & trumps)]
    if not lowest or any(state.hidden):
        return choose_first_attacker(state, ev)  # nobody holds a trump: claims, then a lot
    return first_attacker_chosen(state, min(lowest)[1], False, ev)
