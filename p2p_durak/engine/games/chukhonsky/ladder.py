"""Дурак чухонский's transitions: who acts, legal moves, apply, chance, the next game.

Pure functions over immutable states. Chance is an input: the deck order is given to
`new_game` (a full state) or not (a partial view, where the deal only gives counts and a seat
`learn`s its own cards). Rules cite 000_0a1bcdd496bc6662.txt, «Дурак чухонский».
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from p2p_durak.engine.cards import bits
from p2p_durak.engine.errors import IllegalAction, Reason
from p2p_durak.engine.games.chukhonsky.rules import ChukhonskyRules, validate
from p2p_durak.engine.games.chukhonsky.state import (
    ACE,
    CHANCE,
    UNKNOWN,
    Cleared,
    Dealt,
    EndReason,
    Event,
    Game,
    GameOver,
    Move,
    MoveKind,
    Phase,
    Played,
    Result,
    State,
    Took,
    WentOut,
    deal,
    play,
    take,
)


def make_game(rules: ChukhonskyRules, n_players: int, dealer: int = 0, first: int | None = None,
              game_index: int = 0) -> Game:
    """A game; the first player is «игрок слева от сдатчика» unless given (a later game of a
    series: под or из-под дурака, `next_game`)."""
    validate(rules, n_players)
    if not 0 <= dealer < n_players:
        raise ValueError(f"dealer {dealer} is not a seat of {n_players}")
    if first is None:
        first = (dealer + 1) % n_players
    if not 0 <= first < n_players:
        raise ValueError(f"first player {first} is not a seat of {n_players}")
    return Game(rules, n_players, dealer, first, game_index)


def new_game(game: Game, deck_order: Sequence[int] | None = None) -> State:
    """The state before the deal: a full state from the deck order (top first), or with
    `None` a partial view in which every card is unknown."""
    n = game.n_cards
    if deck_order is None:
        stock = (UNKNOWN,) * n
    else:
        stock = tuple(deck_order)
        if sorted(stock) != list(range(n)):
            raise ValueError(f"the deck order must be a permutation of the {n} cards")
    zeros = (0,) * game.n_players
    return State(game, Phase.DEAL, stock, zeros, zeros, 0, (), 0, 0, 0, game.first, 0, (), 0)


def to_act(state: State) -> frozenset[int]:
    if state.phase is Phase.DEAL:
        return frozenset((CHANCE,))
    if state.phase is Phase.PLAY:
        return frozenset((state.turn,))
    return frozenset()


def is_over(state: State) -> bool:
    return state.phase is Phase.OVER


def sequencer(state: State) -> int:
    """The seat that orders the next log entry: the one to act, the dealer for the deal."""
    return state.game.dealer if state.phase is Phase.DEAL else state.turn


def chance_outcome(state: State) -> Move | None:
    return deal() if state.phase is Phase.DEAL else None


def legal_actions(state: State, seat: int) -> tuple[Move, ...]:
    """Sorted. A partial view lists only the cards it knows in that seat's hand."""
    if state.phase is Phase.DEAL:
        return (deal(),) if seat == CHANCE else ()
    if state.phase is not Phase.PLAY or seat != state.turn:
        return ()
    hand = state.hands[seat]
    if not state.pile:  # «Первый игрок может сделать первый ход с любой своей карты»
        return tuple(play(seat, c) for c in bits(hand))
    climbing = hand & state.game.climbers(state.top)
    plays = tuple(play(seat, c) for c in bits(climbing))
    if plays and state.game.rules.play_compulsory:
        return plays
    return plays + (take(seat),)


def apply(state: State, move: object) -> tuple[State, tuple[Event, ...]]:
    """The state after `move` and what happened; IllegalAction (the state unchanged) for a
    move the rules refuse or that is malformed."""
    if not isinstance(move, Move) or not isinstance(move.kind, MoveKind) \
            or type(move.seat) is not int or type(move.card) is not int:
        raise IllegalAction(Reason.BAD_ACTION, f"not a move: {move!r}")
    if state.phase is Phase.OVER:
        raise IllegalAction(Reason.GAME_OVER)
    if move.kind is MoveKind.DEAL:
        if state.phase is not Phase.DEAL or move.seat != CHANCE:
            raise IllegalAction(Reason.WRONG_PHASE, "the deck is dealt once, by chance")
        return _deal(state)
    if state.phase is not Phase.PLAY:
        raise IllegalAction(Reason.WRONG_PHASE, "the cards are not dealt yet")
    if move.seat != state.turn:
        raise IllegalAction(Reason.NOT_YOUR_TURN, f"seat {state.turn} moves, not {move.seat}")
    if move.kind is MoveKind.PLAY:
        return _play(state, move.seat, move.card)
    return _take(state, move.seat)


def step(state: State, move: object) -> State:
    return apply(state, move)[0]


def known_cards(state: State) -> int:
    """Every card this state knows the place of."""
    known = state.discard | state.set_aside_cards
    for hand in state.hands:
        known |= hand
    for card in state.pile:
        known |= 1 << card
    return known


def holds(state: State, seat: int, card: int) -> bool:
    """Whether `seat` may hold `card`: known in its hand, or (a partial view) among its
    hidden cards because the view knows it nowhere else."""
    if (state.hands[seat] >> card) & 1:
        return True
    return state.hidden[seat] > 0 and not (known_cards(state) >> card) & 1


def learn(state: State, seat: int, cards: Sequence[int]) -> State:
    """A partial view learns cards of `seat`'s hidden hand (its own deal)."""
    hands, hidden = list(state.hands), list(state.hidden)
    known = known_cards(state)
    for card in cards:
        if (hands[seat] >> card) & 1:
            continue
        if not 0 <= card < state.game.n_cards or (known >> card) & 1 or hidden[seat] < 1:
            raise IllegalAction(Reason.NOT_IN_HAND, f"seat {seat} cannot hold card {card}")
        hands[seat] |= 1 << card
        known |= 1 << card
        hidden[seat] -= 1
    return replace(state, hands=tuple(hands), hidden=tuple(hidden))


def next_game(final: State) -> Game:
    """«в следующей игре сдает карты игрок, который проиграл в предыдущей игре», and the first
    player «под дурака» (his right neighbour) or «из-под дурака» (his left); after a draw the
    dealer deals again and his left neighbour leads."""
    game = final.game
    if final.result is None:
        raise ValueError("the game is not over")
    n = game.n_players
    if final.result.draw or not final.result.durak:
        return make_game(game.rules, n, game.dealer, None, game.game_index + 1)
    durak = final.result.durak[0]
    step_ = -1 if game.rules.first_player_next_game == "pod_durak" else 1
    return make_game(game.rules, n, durak, (durak + step_) % n, game.game_index + 1)


# ---- the transitions -------------------------------------------------------------------------


def _deal(state: State) -> tuple[State, tuple[Event, ...]]:
    """«все карты сдаются поровну между всеми игроками»: one at a time clockwise from the
    dealer's left; with `out_of_play` the cards that do not divide evenly lie face down."""
    game = state.game
    n = game.n_players
    shares = game.shares()
    dealt = sum(shares)
    set_aside = game.n_cards - dealt
    if UNKNOWN in state.stock:
        hands, hidden = (0,) * n, shares
        aside_cards = 0
    else:
        masks = [0] * n
        for k, card in enumerate(state.stock[:dealt]):
            masks[(game.dealer + 1 + k) % n] |= 1 << card
        hands, hidden = tuple(masks), (0,) * n
        aside_cards = 0
        for card in state.stock[dealt:]:
            aside_cards |= 1 << card
    after = replace(state, phase=Phase.PLAY, stock=(), hands=hands, hidden=hidden,
                    set_aside=set_aside, set_aside_cards=aside_cards, turn=game.first)
    return after, (Dealt(shares, set_aside),)


def _play(state: State, seat: int, card: int) -> tuple[State, tuple[Event, ...]]:
    game = state.game
    if not 0 <= card < game.n_cards or not holds(state, seat, card):
        raise IllegalAction(Reason.NOT_IN_HAND, f"seat {seat}, card {card}")
    if state.pile and not (game.climbers(state.top) >> card) & 1:
        # «должен положить на нее карту той же масти, но старшего достоинства … следующую по
        # старшинству карту»
        raise IllegalAction(Reason.DOES_NOT_CLIMB, f"card {card} on {state.top}")
    hands, hidden = list(state.hands), list(state.hidden)
    if (hands[seat] >> card) & 1:
        hands[seat] &= ~(1 << card)
    else:
        hidden[seat] -= 1
    events: list[Event] = [Played(seat, card, not state.pile)]
    pile = state.pile + (card,)
    discard, idle = state.discard, state.idle
    ace = game.rank(card) == ACE
    if ace:  # «Тот игрок, который положит туза, скидывает в отбой всю колоду и вновь ходит первым»
        events.append(Cleared(seat, pile))
        for c in pile:
            discard |= 1 << c
        pile, idle = (), 0
    out, finish = state.out, state.finish
    emptied = not hands[seat] and not hidden[seat]
    if emptied:  # «пока не останется один игрок с картами на руках»: he is out
        out |= 1 << seat
        finish += (seat,)
        events.append(WentOut(seat))
    turn = seat if ace and not emptied else next_active(game.n_players, out, seat)
    after = replace(state, hands=tuple(hands), hidden=tuple(hidden), pile=pile,
                    discard=discard, out=out, finish=finish, idle=idle, turn=turn,
                    shown=state.shown & ~(1 << card))
    return _maybe_over(after, events, check_dead=ace)


def _take(state: State, seat: int) -> tuple[State, tuple[Event, ...]]:
    game = state.game
    if not state.pile:
        raise IllegalAction(Reason.NOTHING_TO_TAKE, "the pile is empty: lead a card")
    if game.rules.play_compulsory and state.hands[seat] & game.climbers(state.top):
        # «Тот игрок, у которого нет необходимой карты, забирает…»: who has it must play it
        raise IllegalAction(Reason.MUST_PLAY, f"seat {seat} holds a card that climbs")
    top, rest = state.pile[-1], state.pile[:-1]
    hands = list(state.hands)
    hands[seat] |= 1 << top
    discard = state.discard
    for c in rest:
        discard |= 1 << c
    idle = state.idle + 1 if not rest else 0
    # «а ход передается следующему игроку по часовой стрелке»: he starts a new ladder
    turn = next_active(game.n_players, state.out, seat)
    after = replace(state, hands=tuple(hands), shown=state.shown | (1 << top), pile=(),
                    discard=discard, idle=idle, turn=turn)
    events: list[Event] = [Took(seat, top, rest)]
    if idle >= game.rules.stall_limit:
        return _by_most_cards(after, events, EndReason.STALLED)
    return _maybe_over(after, events, check_dead=True)


def _maybe_over(state: State, events: list[Event], *, check_dead: bool = False,
                ) -> tuple[State, tuple[Event, ...]]:
    active = state.active
    if len(active) > 1:
        if check_dead and dead(state):
            return _forced(state, events)
        return state, tuple(events)
    # «Этот игрок считается проигравшим и зовется "чухонским дураком"»
    return _over(state, events, Result(active, False, state.finish))


def _over(state: State, events: list[Event], result: Result,
          ) -> tuple[State, tuple[Event, ...]]:
    events.append(GameOver(result))
    return replace(state, phase=Phase.OVER, result=result), tuple(events)


def dead(state: State) -> bool:
    """Whether no card can ever go on another: no ace is left and every card's climbers are
    in the discard. Read from public facts only (the discard and the pile), so every partial
    view agrees: a card set aside face down (`out_of_play`) counts as possibly in a hand."""
    game = state.game
    pile = 0
    for card in state.pile:
        pile |= 1 << card
    remaining = ((1 << game.n_cards) - 1) & ~state.discard & ~pile
    for card in bits(remaining):
        if game.rank(card) == ACE or game.climbers(card) & remaining:
            return False
    return True


def _forced(state: State, events: list[Event]) -> tuple[State, tuple[Event, ...]]:
    """A dead position (`dead`): whatever card a player leads, the next one cannot follow
    and takes it, and the one after leads. The engine plays that on the counts: the game ends
    as it would (`FORCED`), or, when the counts come round again, the player holding the
    most cards now is the durak, several with the most draw (`CYCLE`; not in the source)."""
    n = state.n_players
    counts = [state.hand_size(s) for s in range(n)]
    out, finish, leader = state.out, state.finish, state.turn
    seen: set[tuple[object, ...]] = set()
    while True:
        position = (tuple(counts), leader, out)
        if position in seen:
            return _by_most_cards(state, events, EndReason.CYCLE)
        seen.add(position)
        counts[leader] -= 1
        if not counts[leader]:
            out |= 1 << leader
            finish += (leader,)
        taker = next_active(n, out, leader)
        active = [s for s in range(n) if not (out >> s) & 1]
        if len(active) <= 1:
            result = Result(tuple(active), False, finish, EndReason.FORCED)
            return _over(state, events, result)
        counts[taker] += 1
        leader = next_active(n, out, taker)


def _by_most_cards(state: State, events: list[Event], reason: EndReason,
                   ) -> tuple[State, tuple[Event, ...]]:
    """Not in the source: a game whose cards only go round ends; the player holding the most
    cards is the durak, several with the most draw (`cycle_result: draw`: always a draw)."""
    active = state.active
    most = max(state.hand_size(s) for s in active)
    holders = tuple(s for s in active if state.hand_size(s) == most)
    draw = len(holders) > 1 or state.game.rules.cycle_result == "draw"
    return _over(state, events, Result(() if draw else holders, draw, state.finish, reason))


def next_active(n: int, out: int, seat: int) -> int:
    """The next seat clockwise (to the left) not in the `out` mask."""
    for k in range(1, n + 1):
        other = (seat + k) % n
        if not (out >> other) & 1:
            return other
    return seat
