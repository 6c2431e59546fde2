"""Before the first bout: the deal, the trump, the lowest-trump claims, the lot; and the
next game of a series."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final, NamedTuple

from p2p_durak.engine import actions as A
from p2p_durak.engine import events as E
from p2p_durak.engine.actions import CHANCE, Action
from p2p_durak.engine.bout import unlock
from p2p_durak.engine.cards import NO_SUIT, SUIT_NAMES, Kind, bits
from p2p_durak.engine.errors import IllegalAction, Reason
from p2p_durak.engine.events import EventSink
from p2p_durak.engine.hands import check_card, holds
from p2p_durak.engine.rules import RuleSet, validate
from p2p_durak.engine.seats import claimant, defender_for, next_active_of
from p2p_durak.engine.state import (
    BLACK_PAIR,
    CLAIM,
    DEAL,
    DEAL_SIXES,
    LEAD,
    LOT,
    NAME_TRUMP,
    NO_CARD,
    OVER,
    RED_PAIR,
    RESHUFFLE,
    REVEAL_HIDDEN,
    REVEAL_STOCK,
    REVEAL_TRUMP,
    TURN_UP,
    UNKNOWN,
    Game,
    State,
    known_cards,
)
from p2p_durak.engine.tables import NO_LIMIT

# the trump rules that turn a card after the deal: the top of the stock, or the last dealt
# card when no stock is left
JOKERS = (Kind.JOKER_RED, Kind.JOKER_BLACK)
_TURNED = frozenset({"turned_under_stock", "last_dealt_card", "shown_then_set_aside",
                     "per_player_turned"})


def evolve(state: State, *, phase: int | None = None, hands: tuple[int, ...] | None = None,
           hidden: tuple[int, ...] | None = None, stock: tuple[int, ...] | None = None,
           trump: int | None = None, trump_card: int | None = None,
           hidden_trump: int | None = None, reveal_card: int | None = None,
           attacker: int | None = None, defender: int | None = None,
           claims: tuple[int, ...] | None = None,
           lot_among: tuple[int, ...] | None = None, discard: int | None = None,
           seat_trumps: tuple[int, ...] | None = None,
           locked: tuple[tuple[int, ...], ...] | None = None, shown: int = 0) -> State:
    """`state` with the given fields changed (None: unchanged) and who acts worked out for its
    phase, in one build (NamedTuple's `_replace` is slow). Only for the phases outside a bout,
    where the table is empty and nobody is taking or has passed; `shown` there holds only the
    jokers turned as trump so far (see on_reveal)."""
    game = state.game
    phase = state.phase if phase is None else phase
    attacker = state.attacker if attacker is None else attacker
    claims = state.claims if claims is None else claims
    actors: tuple[int, ...]
    if phase == LEAD:
        actors = game.tables.solo[attacker]
    elif phase == CLAIM:
        if len(claims) < len(game.claim_seats):
            actors = game.tables.solo[claim_actor(game, game.claim_seats[len(claims)])]
        else:  # щелковский's tie-break rounds
            round_ = claim_round_of(game, claims)
            actors = game.tables.solo[round_.seats[round_.done]]
    elif phase == OVER:
        actors = ()
    elif phase == NAME_TRUMP:
        actors = game.tables.solo[game.titles.index(KING)]
    else:
        actors = (CHANCE,)
    new: State = tuple.__new__(State, (
        game, phase, state.hands if hands is None else hands,
        state.hidden if hidden is None else hidden, state.stock if stock is None else stock,
        state.trump if trump is None else trump,
        state.trump_card if trump_card is None else trump_card,
        state.hidden_trump if hidden_trump is None else hidden_trump,
        state.reveal_card if reveal_card is None else reveal_card,
        (), (), (), attacker, state.defender if defender is None else defender, False, 0, shown,
        state.out, state.finish, state.discard if discard is None else discard, state.bout,
        claims, state.lot_among if lot_among is None else lot_among, state.result, actors, 0,
        state.seat_trumps if seat_trumps is None else seat_trumps,
        state.locked if locked is None else locked, state.otboi, state.tally, state.controller,
        state.doubt, state.buried, state.n_buried, 0))
    return new


_GAMES: dict[tuple[RuleSet, int, int, int | None, int, tuple[int, ...], int | None,
                   tuple[int, ...], tuple[int, ...]], Game] = {}

# Король-говно's titles, by index: «Король, Принц, в середине — Палач, Солдат, Вор, Шут,
# последний — Говно»
KING: Final = 0
GOVNO: Final = 6


def make_game(rules: RuleSet, n_players: int, dealer: int = 0,
              first_attacker: int | None = None, game_index: int = 0,
              titles: tuple[int, ...] = (), dummy: int | None = None,
              personal: tuple[int, ...] = (), ladder: tuple[int, ...] = ()) -> Game:
    """The fixed part of a game; cached, since simulations start thousands of games.
    `n_players` counts every seat, с болваном the dummy's too; `dummy` is its seat (by default
    the seat after the dealer, SP3; a series keeps the first game's). `personal` and `ladder`
    (Длинный дурак): the seats' sixes and ladders so far."""
    key = (rules, n_players, dealer, first_attacker, game_index, titles, dummy, personal,
           ladder)
    game = _GAMES.get(key)
    if game is None:
        validate(rules, n_players)
        if not 0 <= dealer < n_players:
            raise ValueError(f"dealer {dealer} is not a seat of {n_players}")
        if first_attacker is not None and not 0 <= first_attacker < n_players:
            raise ValueError(f"first attacker {first_attacker} is not a seat of {n_players}")
        if titles and sorted(titles) != sorted(_title_ladder(n_players)):
            raise ValueError(f"titles {titles} are not one of each title for {n_players}")
        if not rules.dummy_hand:
            dummy = -1
        elif dummy is None:
            dummy = (dealer + 1) % n_players
        elif not 0 <= dummy < n_players or dummy in (dealer, first_attacker):
            raise ValueError(f"the dummy's seat {dummy} is not a seat of {n_players} other "
                             "than the dealer's and the first attacker's")
        _check_ladder(rules, n_players, personal, ladder)
        game = Game(rules, n_players, dealer, first_attacker, game_index, titles, dummy,
                    personal, ladder)
        if len(_GAMES) > 4096:
            _GAMES.clear()
        _GAMES[key] = game
    return game


def _check_ladder(rules: RuleSet, n: int, personal: tuple[int, ...],
                  ladder: tuple[int, ...]) -> None:
    if not (personal or ladder):
        return
    if rules.trump_rule != "personal_six":
        raise ValueError("personal sixes and ladders belong to Длинный дурак")
    if len(personal) != n or len(set(personal)) != n or not all(0 <= s < 4 for s in personal):
        raise ValueError(f"personal suits {personal} are not one different suit per seat")
    if ladder and (len(ladder) != n or not all(t == 0 or 7 <= t <= 13 for t in ladder)):
        raise ValueError(f"ladders {ladder} are not a rank 7..K (or 0) per seat")


def new_game(game: Game, deck_order: Iterable[int] | None = None) -> State:
    """The state before the deal. `deck_order` (top card first) makes a full state;
    without it the state is a partial view in which every card is unknown."""
    n = game.n_players
    if deck_order is None:
        stock = (UNKNOWN,) * game.n_cards
    else:
        stock = tuple(deck_order)
        if sorted(stock) != list(range(game.n_cards)):
            raise ValueError("the deck order must be a permutation of the deck's card ids")
        if game.rules.deck_presort == "rank_desc":
            stock = presorted(game, stock)
    hidden_trump = UNKNOWN if game.rules.trump_change == "hidden_second" else NO_CARD
    tally = (0,) * n if game.tables.counter else ()
    # с болваном: «Первоначально при определении козыря, картами болвана распоряжается сдатчик»
    controller = game.dealer if game.dummy >= 0 else -1
    phase, discard = DEAL, 0
    seat_trumps: tuple[int, ...] = ()
    if game.rules.trump_rule == "personal_six":
        # Длинный дурак: the ladders laid out so far are out of play, face up (the deck layer
        # keeps their slots below the stock, never dealt); the sixes are dealt once a match
        discard = game.laid_out()
        if discard:
            stock = tuple(c for c in stock if c < 0 or not (discard >> c) & 1)
            stock = stock[:game.n_cards - discard.bit_count()]
        seat_trumps = game.personal or (NO_SUIT,) * n
        phase = DEAL if game.personal else DEAL_SIXES
    return State(game, phase, (0,) * n, (0,) * n, stock, NO_SUIT, NO_CARD, hidden_trump,
                 UNKNOWN, (), (), (), -1, -1, False, 0, 0, 0, (), discard, 0, (), (), None,
                 (CHANCE,), tally=tally, seat_trumps=seat_trumps,
                 controller=controller)


def presorted(game: Game, order: Iterable[int]) -> tuple[int, ...]:
    """албанский: «Перед игрой карты в колоде раскладываются по убыванию значений ... Тузы
    являются верхними картами в колоде»; with the shuffle within ranks, a shuffled order keeps
    its order within each rank (a stable sort), so a uniform shuffle of the whole deck gives a
    uniform shuffle of each rank block."""
    rank = game.rank
    return tuple(sorted(order, key=lambda card: -rank[card]))


def presort_layout(game: Game) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """албанский over the deck: the pre-sorted deck (top first, each rank's cards in id order)
    and the sizes of its rank blocks, for the partitioned first shuffle."""
    cards = presorted(game, range(game.n_cards))
    blocks: list[int] = []
    for index, card in enumerate(cards):
        if index and game.rank[cards[index - 1]] == game.rank[card]:
            blocks[-1] += 1
        else:
            blocks.append(1)
    return cards, tuple(blocks)


def claim_suit(state: State, seat: int) -> int:
    """The suit whose lowest card `seat` claims: the common trump, or (двухкозырной) his own."""
    return state.seat_trumps[seat] if state.seat_trumps else state.trump


def claim_pool(state: State, hand: int, seat: int) -> int:
    """The cards of `seat`'s `hand` a claim chooses among: its trumps (двухкозырной: of his own
    trump suit), or every card when the first attacker is the holder of the lowest card (a game
    without trumps)."""
    game = state.game
    if game.rules.first_attacker_first_game == "lowest_card":
        return hand
    return hand & game.trump_mask(claim_suit(state, seat))


class ClaimRound(NamedTuple):
    """Where the claims stand (щелковский's tie-break replays them): the seats of the current
    round in claim order, how many of them have claimed, the round (0: the lowest trumps; 1..:
    the next trumps of the tied seats; JOKER_ROUND: who holds a joker) and each seat's cards
    shown so far."""

    seats: tuple[int, ...]
    done: int
    round: int
    shown: dict[int, tuple[int, ...]]


JOKER_ROUND: Final = 1 << 10
LOWEST_ROUND: Final = 1 << 11
"""SP5 with `first_attacker_fallback: lowest_card`: nobody showed a trump, so every seat shows
its lowest card (a joker or the blank is no low card: a hand of nothing else says "none")."""


def claim_round(state: State) -> ClaimRound:
    """Replay the claims: the first round is every seat from the dealer's left; with
    `next_trumps_then_joker_then_lot`, the seats tied on the lowest rank show their next trump
    (those who show none drop out), and when none of them shows one, who holds a joker."""
    return claim_round_of(state.game, state.claims)


def claim_round_of(game: Game, claims: tuple[int, ...]) -> ClaimRound:
    """`claim_round` of a state of `game` whose claims are `claims` (no State to build)."""
    seats = game.claim_seats
    shown: dict[int, tuple[int, ...]] = {}
    start, number = 0, 0
    while len(claims) - start >= len(seats):
        outcome = round_outcome(game, seats, claims[start:start + len(seats)], number)
        for seat, card in zip(seats, claims[start:start + len(seats)], strict=True):
            if card >= 0:
                shown[seat] = shown.get(seat, ()) + (card,)
        start += len(seats)
        if not isinstance(outcome, tuple):  # only a pending round is replayed further
            break
        seats, number = outcome
    return ClaimRound(seats, len(claims) - start, number, shown)


def round_outcome(game: Game, seats: tuple[int, ...], cards: tuple[int, ...],
                  number: int) -> tuple[tuple[int, ...], int] | int | None:
    """A finished claim round: the next round (its seats and number), the first attacker, or
    None for a lot among `seats`... (see `claims_done`)."""
    tiebreak = game.rules.first_attacker_tiebreak == "next_trumps_then_joker_then_lot"
    shown = [(game.rank[c], s) for s, c in zip(seats, cards, strict=True) if c >= 0]
    if number == JOKER_ROUND:
        holders = [s for _, s in shown]
        return holders[0] if len(holders) == 1 else None
    if number == LOWEST_ROUND:  # ties by lot (SP5)
        low = min((rank for rank, _ in shown), default=0)
        tied = tuple(s for rank, s in shown if rank == low)
        return tied[0] if len(tied) == 1 else None
    if not shown:
        if number and tiebreak:
            return seats, JOKER_ROUND
        if game.rules.first_attacker_fallback == "lowest_card":
            return seats, LOWEST_ROUND  # SP5: «или же определяют по младшей карте»
        return None
    low = min(rank for rank, _ in shown)
    tied = tuple(s for rank, s in shown if rank == low)
    if len(tied) == 1:
        return tied[0]
    if tiebreak:
        return tied, number + 1
    return None


def claim_actor(game: Game, claimant: int) -> int:
    """The seat that shows `claimant`'s lowest trump: himself, or (оборотный, where nobody sees
    his own cards) the seat on his left, who sees them; the end-of-game audit checks it."""
    return (claimant + 1) % game.n_players if game.tables.blind else claimant


def claims_for(state: State, seat: int) -> list[Action]:
    game = state.game
    if len(state.claims) >= len(game.claim_seats):  # a round after the first
        return tiebreak_claims_for(state, seat)
    trumps = claim_pool(state, state.hands[seat], seat)
    if state.hidden[seat] == 0:
        if not trumps:
            return [A.Action(A.NO_TRUMP, seat)]
        lowest = min(bits(trumps), key=lambda c: (game.rank[c], c))
        return [A.Action(A.CLAIM, seat, (lowest,))]
    # A partial view of another seat cannot tell its lowest trump (see docs/rules.md); every
    # seat holds a card, so a lowest-card claim is never "none".
    none = [] if game.rules.first_attacker_first_game == "lowest_card" \
        else [A.Action(A.NO_TRUMP, seat)]
    return none + [A.Action(A.CLAIM, seat, (c,)) for c in bits(trumps)]


def tiebreak_pool(state: State, seat: int, round_: ClaimRound) -> int:
    """щелковский: the cards `seat` chooses among in a tie-break round: his trumps not shown
    yet, or (the last round) his jokers."""
    game = state.game
    hand = state.hands[seat]
    if round_.round == JOKER_ROUND:
        return sum(1 << c for c in bits(hand) if game.deck.faces[c].kind in JOKERS)
    if round_.round == LOWEST_ROUND:  # SP5: the lowest card of any suit
        return sum(1 << c for c in bits(hand) if game.rank[c] >= 0)
    pool = claim_pool(state, hand, seat)
    for card in round_.shown.get(seat, ()):
        pool &= ~(1 << card)
    return pool


def tiebreak_claims_for(state: State, seat: int) -> list[Action]:
    """щелковский: «если у обоих игроков 2 одинаковых козыря (игра в 2 колоды), то
    сравниваются следующие козыри, при их отсутствии, преимущество получает тот игрок, у
    которого джокер»: a tied seat shows his next trump (or says he has none), then his joker."""
    round_ = claim_round(state)
    pool = tiebreak_pool(state, seat, round_)
    if state.hidden[seat] == 0:
        if not pool:
            return [A.Action(A.NO_TRUMP, seat)]
        lowest = min(bits(pool), key=lambda c: (state.game.rank[c], c))
        return [A.Action(A.CLAIM, seat, (lowest,))]
    return [A.Action(A.NO_TRUMP, seat)] + [A.Action(A.CLAIM, seat, (c,)) for c in bits(pool)]


def chance_outcomes(state: State) -> list[Action]:
    phase = state.phase
    if phase == DEAL:
        return [A.Action(A.DEAL, CHANCE)]
    if phase == DEAL_SIXES:
        return [A.announce_suit(s) for s in range(4) if s not in state.seat_trumps]
    if phase == LOT:
        return [A.Action(A.LOT, CHANCE, (), s) for s in state.lot_among]
    if phase == RESHUFFLE:
        return [A.shuffle(k) for k in range(64)]
    if phase == TURN_UP:  # a pre-game phase turns the top stock card (engine/prephase.py)
        if state.stock[0] >= 0:
            return [A.reveal(state.stock[0])]
        return [A.reveal(c) for c in bits(state.game.all_cards & ~known_cards(state))]
    if phase == REVEAL_TRUMP and state.game.rules.trump_rule == "bottom_suit_announced":
        if state.reveal_card >= 0:
            return [A.announce_suit(state.game.suit[state.reveal_card])]
        unknown = state.game.all_cards & ~known_cards(state)
        return [A.announce_suit(s) for s in range(4) if unknown & state.game.suit_mask[s]]
    if phase in (REVEAL_TRUMP, REVEAL_HIDDEN, REVEAL_STOCK):
        if state.reveal_card >= 0:
            return [A.Action(A.REVEAL, CHANCE, (state.reveal_card,))]
        unknown = state.game.all_cards & ~known_cards(state)
        return [A.Action(A.REVEAL, CHANCE, (c,)) for c in bits(unknown)]
    return []


def on_six(state: State, action: Action, ev: EventSink) -> State:
    """Длинный дурак: «Перед первой партией из колоды вынимают шестёрки и раздают по одной:
    масть шестёрки — личный козырь игрока» — chance deals a six to the next seat from the
    dealer's left (an announcement of its suit: the sixes are not cards of the game's deck);
    with fewer than four players the other sixes stay out."""
    suit = action.target
    if action.cards or not 0 <= suit < 4 or suit in state.seat_trumps:
        raise IllegalAction(Reason.BAD_CHANCE, "a six of a suit nobody has yet")
    game = state.game
    n = game.n_players
    dealt = sum(1 for s in state.seat_trumps if s != NO_SUIT)
    seat = (game.dealer + 1 + dealt) % n
    if ev is not None:
        ev.append(E.SixDealt(seat, suit))
    seat_trumps = state.seat_trumps[:seat] + (suit,) + state.seat_trumps[seat + 1:]
    return evolve(state, phase=DEAL if dealt + 1 == n else DEAL_SIXES, seat_trumps=seat_trumps)


def deal_seats(game: Game) -> tuple[int, ...]:
    """The seat each dealt card goes to, in deal order: one at a time clockwise from the
    dealer's left (SP3); Длинный дурак's shorter hands are skipped once full."""
    n = game.n_players
    sizes = game.tables.seat_sizes
    if game.rules.deal_mode == "none":
        return ()  # a pre-game phase hands the cards out (engine/prephase.py)
    if not sizes:
        count = game.n_cards if game.rules.deal_mode == "whole_deck" \
            else n * game.rules.hand_size
        return tuple((game.dealer + 1 + k) % n for k in range(count))
    left = list(sizes)
    seats: list[int] = []
    seat = game.dealer
    while any(left):
        seat = (seat + 1) % n
        if left[seat]:
            left[seat] -= 1
            seats.append(seat)
    return tuple(seats)


def on_deal(state: State, ev: EventSink) -> State:
    game = state.game
    n = game.n_players
    rules = game.rules
    if rules.deal_mode == "none":
        # a pre-game phase hands the cards out (engine/prephase.py); the player left of the
        # dealer has the first turn («Первый ход принадлежит игроку слева от сдатчика»)
        if ev is not None:
            ev.append(E.Dealt(game.dealer, (0,) * n))
        return evolve(state, phase=TURN_UP, attacker=(game.dealer + 1) % n)
    to = deal_seats(game)
    count = len(to)
    dealt, stock = state.stock[:count], state.stock[count:]
    hands, hidden = [0] * n, [0] * n
    # магаданский: of each hand the first cards dealt are locked face down before the player
    lock = rules.locked_cards
    piles: list[tuple[int, ...]] = [() for _ in range(n)]
    for k, card in enumerate(dealt):
        seat = to[k]
        if k // n < lock:
            piles[seat] += (card,)
        elif card >= 0:
            hands[seat] |= 1 << card
        else:
            hidden[seat] += 1
    if ev is not None:
        ev.append(E.Dealt(game.dealer, tuple(h.bit_count() + c + len(p) for h, c, p in zip(
            hands, hidden, piles, strict=True))))
    if lock:
        if not stock:  # no stock at all (SP2): every card is usable at once
            for seat in range(n):
                unlock(hands, hidden, piles, seat, lock, ev)
        state = evolve(state, locked=tuple(piles))
    trump_rule = rules.trump_rule
    if trump_rule == "personal_six":  # the sixes are the trumps: no card is turned
        return choose_first_attacker(evolve(state, hands=tuple(hands), hidden=tuple(hidden),
                                            stock=stock), ev)
    if trump_rule == "named_by_king":
        if game.titles:  # the King looks at his hand and names the trump; no card is turned
            return evolve(state, phase=NAME_TRUMP, hands=tuple(hands), hidden=tuple(hidden),
                          stock=stock)
        trump_rule = "turned_under_stock"  # the first game, before anybody has a title
    if trump_rule == "bottom_suit_announced":
        # невидимый: the bottom card of the stock stays face down; only its suit is announced
        return evolve(state, phase=REVEAL_TRUMP, hands=tuple(hands), hidden=tuple(hidden),
                      stock=stock, reveal_card=stock[-1])
    if trump_rule in _TURNED:
        reveal = stock[0] if stock else dealt[-1]
        return evolve(state, phase=REVEAL_TRUMP, hands=tuple(hands), hidden=tuple(hidden),
                      stock=stock, reveal_card=reveal)
    trump = SUIT_NAMES.index(trump_rule.split(":", 1)[1]) if trump_rule.startswith("fixed_suit:") \
        else NO_SUIT
    if ev is not None:
        ev.append(E.TrumpRevealed(NO_CARD, trump))
    return choose_first_attacker(evolve(state, hands=tuple(hands), hidden=tuple(hidden),
                                        stock=stock, trump=trump), ev)


def on_reveal(state: State, action: Action, ev: EventSink) -> State:
    if state.game.rules.trump_rule == "bottom_suit_announced" and state.phase == REVEAL_TRUMP:
        return on_suit_announced(state, action, ev)
    if action.target != -1:
        raise IllegalAction(Reason.BAD_CHANCE, "only the невидимый trump is announced by suit")
    if len(action.cards) != 1:
        raise IllegalAction(Reason.BAD_CHANCE, "a reveal shows one card")
    card = action.cards[0]
    game = state.game
    if not 0 <= card < game.n_cards:
        raise IllegalAction(Reason.BAD_CHANCE)
    if state.reveal_card >= 0:
        if card != state.reveal_card:
            raise IllegalAction(Reason.BAD_CHANCE, "not the card in that place")
    elif state.phase == REVEAL_TRUMP and not state.stock:
        # The last dealt card, in the dealer's hand (with a whole-deck remainder, the hand of
        # the seat it fell to): it may be known there or still hidden.
        if not holds(state, last_dealt_seat(game), card):
            raise IllegalAction(Reason.BAD_CHANCE, "the dealer cannot hold that card")
    elif (known_cards(state) >> card) & 1:
        raise IllegalAction(Reason.BAD_CHANCE, "that card is known to be elsewhere")
    suit = game.suit[card]
    if game.rules.trump_rule == "per_player_turned":
        return personal_trump_turned(state, card, suit, ev)
    if state.phase == REVEAL_HIDDEN:
        if ev is not None:
            ev.append(E.HiddenTrumpRevealed(card, suit))
        return evolve(state, phase=LEAD, hidden_trump=card, reveal_card=UNKNOWN,
                      trump=suit if suit >= 0 else state.trump)
    if game.suit[card] == NO_SUIT and state.phase == REVEAL_TRUMP:
        special = game.rules.trump_indicator_special
        if special == "colour_pair" and game.deck.faces[card].kind in JOKERS:
            # «при черном джокере козырными являются все карты пиковой и трефовой масти»
            suit = BLACK_PAIR if game.deck.faces[card].kind is Kind.JOKER_BLACK else RED_PAIR
        elif special == "reinsert_middle" and len(state.stock) > 1 and not all(
                c >= 0 and (state.shown >> c) & 1 for c in state.stock):
            # «он убирается в середину колоды и открывается снова верхняя карта колоды». A
            # joker turned a second time goes to the bottom instead: jokers put back into the
            # middle in turn could come up again for ever (docs/rules.md). `shown` holds the
            # jokers turned so far (a bout's field, free before the first bout); when every
            # card left is such a joker the game has no trump, as below.
            rest = state.stock[1:]
            position = len(rest) if (state.shown >> card) & 1 else len(state.stock) // 2
            stock = rest[:position] + (card,) + rest[position:]
            if ev is not None:
                ev.append(E.TrumpReinserted(card, position))
            return evolve(state, stock=stock, reveal_card=stock[0],
                          shown=state.shown | (1 << card))
        # else a special card shows no suit: the game has no trump (пустышка; a joker that
        # is the only card left to turn)
    if ev is not None:
        ev.append(E.TrumpRevealed(card, suit))
    if state.stock:
        stock = state.stock[1:] + (card,)  # turned face up and put under the stock
        pending = UNKNOWN
        if state.hidden_trump == UNKNOWN:
            # потайной: the next card lies face down under the trump card, out of play. A full
            # state keeps its identity in `reveal_card`, which only the chance reveal reads.
            pending, stock = stock[0], stock[1:]
        state = evolve(state, stock=stock, trump=suit, trump_card=card, reveal_card=pending)
    else:
        hands, hidden = state.hands, state.hidden
        dealer = last_dealt_seat(game)
        if not (hands[dealer] >> card) & 1:
            hands = hands[:dealer] + (hands[dealer] | (1 << card),) + hands[dealer + 1:]
            hidden = hidden[:dealer] + (hidden[dealer] - 1,) + hidden[dealer + 1:]
        state = evolve(state, hands=hands, hidden=hidden, trump=suit, trump_card=card,
                       reveal_card=UNKNOWN)
    return choose_first_attacker(state, ev)


def on_suit_announced(state: State, action: Action, ev: EventSink) -> State:
    """невидимый: «сдатчик смотрит нижнюю карту колоды и объявляет всем игрокам масть этой
    карты. Эта масть козырная.» The card stays the face-down bottom of the stock, drawn last.
    A full state checks the suit; a partial view cannot (over the deck, the announcer proves
    it: see protocol/table.py)."""
    suit = action.target
    if action.cards or not 0 <= suit < 4:
        raise IllegalAction(Reason.BAD_CHANCE, "a suit announcement names a suit and no card")
    game = state.game
    if state.reveal_card >= 0 and game.suit[state.reveal_card] != suit:
        raise IllegalAction(Reason.BAD_CHANCE, "the bottom card is not of that suit")
    if not (game.all_cards & ~known_cards(state) & game.suit_mask[suit]) \
            and state.reveal_card < 0:
        raise IllegalAction(Reason.BAD_CHANCE, "no unseen card is of that suit")
    if ev is not None:
        ev.append(E.TrumpRevealed(NO_CARD, suit))
    return choose_first_attacker(evolve(state, trump=suit, reveal_card=UNKNOWN), ev)


def personal_trump_turned(state: State, card: int, suit: int, ev: EventSink) -> State:
    """двухкозырной: «С верха колоды снимают то количество карт, сколько игроков принимает
    участие в игре. Эти карты открываются и кладутся ... в стороны тех игроков, для которых они
    будут служить козырными мастями» — the top card, for the next seat from the dealer's left;
    it stays face up out of play (kept with the discard, so every view knows where it is)."""
    game = state.game
    turned = personal_trumps_turned(state)
    seat = (game.dealer + 1 + turned) % game.n_players
    if ev is not None:
        ev.append(E.PersonalTrump(seat, card, suit))
    stock = state.stock[1:]
    seat_trumps = state.seat_trumps or (NO_SUIT,) * game.n_players
    seat_trumps = seat_trumps[:seat] + (suit,) + seat_trumps[seat + 1:]
    discard = state.discard | (1 << card)
    if turned + 1 < game.n_players:
        return evolve(state, stock=stock, discard=discard, seat_trumps=seat_trumps,
                      reveal_card=stock[0])
    return choose_first_attacker(evolve(state, stock=stock, discard=discard,
                                        seat_trumps=seat_trumps, reveal_card=UNKNOWN), ev)


def personal_trumps_turned(state: State) -> int:
    """двухкозырной: how many seats have their trump card turned so far."""
    return sum(1 for suit in state.seat_trumps if suit != NO_SUIT)


def last_dealt_seat(game: Game) -> int:
    """The seat the last dealt card went to: the dealer, unless a whole-deck deal leaves a
    remainder (round robin from the dealer's left), which moves it further round."""
    rules = game.rules
    count = game.n_cards if rules.deal_mode == "whole_deck" else \
        game.n_players * rules.hand_size
    return (game.dealer + count) % game.n_players


def choose_first_attacker(state: State, ev: EventSink) -> State:
    game = state.game
    if game.first_attacker is not None:
        return first_attacker_chosen(state, game.first_attacker, False, ev)
    if game.rules.trump_rule == "personal_six":
        # «Первым ходит тот, у кого шестёрка пик»; with fewer players nobody may hold it:
        # the first six in the order ♠, ♣, ♦, ♥ (the catalogue's reading)
        seat = min(range(game.n_players), key=lambda s: state.seat_trumps[s])
        return first_attacker_chosen(state, seat, False, ev)
    if game.rules.first_attacker_first_game == "left_of_dealer":
        # «Первый ход принадлежит игроку слева от сдатчика» (с пар): no claims
        return first_attacker_chosen(state, (game.dealer + 1) % game.n_players, False, ev)
    if state.trump == NO_SUIT and not state.seat_trumps \
            and game.rules.first_attacker_first_game != "lowest_card" \
            and game.rules.first_attacker_fallback != "lowest_card":
        return evolve(state, phase=LOT, lot_among=tuple(sorted(game.claim_seats)))
    return evolve(state, phase=CLAIM, claims=())


def on_claim(state: State, action: Action, ev: EventSink) -> State:
    seat = action.seat
    if seat != claimant(state):
        raise IllegalAction(Reason.NOT_YOUR_TURN)
    game = state.game
    hands, hidden = state.hands, state.hidden
    tiebreak = len(state.claims) >= len(game.claim_seats)
    round_ = claim_round(state) if tiebreak else None
    if action.kind == A.CLAIM:
        if len(action.cards) != 1:
            raise IllegalAction(Reason.BAD_ACTION)
        card = action.cards[0]
        check_card(state, seat, card)
        if round_ is not None:
            jokers = round_.round == JOKER_ROUND
            pool = tiebreak_pool(state, seat, round_)
            fits = game.deck.faces[card].kind in JOKERS if jokers \
                else game.rank[card] >= 0 if round_.round == LOWEST_ROUND \
                else bool(claim_pool(state, 1 << card, seat))
            if not fits or card in round_.shown.get(seat, ()):
                raise IllegalAction(Reason.WRONG_CLAIM, "not a joker" if jokers
                                    else "not a card of rank" if round_.round == LOWEST_ROUND
                                    else "not a trump shown for the first time")
        elif not (claim_pool(state, 1 << card, seat)):
            raise IllegalAction(Reason.WRONG_CLAIM, "not a trump")
        else:
            pool = claim_pool(state, hands[seat], seat)
        if hidden[seat] == 0:
            if not (pool >> card) & 1 or min(game.rank[c] for c in bits(pool)) \
                    != game.rank[card]:
                raise IllegalAction(Reason.WRONG_CLAIM)
        elif not (hands[seat] >> card) & 1:  # shown: this view learns the card
            hands = hands[:seat] + (hands[seat] | (1 << card),) + hands[seat + 1:]
            hidden = hidden[:seat] + (hidden[seat] - 1,) + hidden[seat + 1:]
    else:
        card = UNKNOWN
        if game.rules.first_attacker_first_game == "lowest_card":
            raise IllegalAction(Reason.WRONG_CLAIM, "every player shows his lowest card")
        pool = claim_pool(state, hands[seat], seat) if round_ is None \
            else tiebreak_pool(state, seat, round_)
        if hidden[seat] == 0 and pool:
            raise IllegalAction(Reason.WRONG_CLAIM, "the player holds a joker"
                                if round_ is not None and round_.round == JOKER_ROUND
                                else "every player shows his lowest card"
                                if round_ is not None and round_.round == LOWEST_ROUND
                                else "the player holds a trump")
    if ev is not None:
        ev.append(E.Claimed(seat, card))
    claims = state.claims + (card,)
    state = evolve(state, hands=hands, hidden=hidden, claims=claims)
    return claims_done(state, ev)


def claims_done(state: State, ev: EventSink) -> State:
    """After a claim: the next claimant, or the first attacker, or a lot."""
    game = state.game
    seats = game.claim_seats
    n = len(seats)
    claims = state.claims
    if len(claims) < n:
        return state
    if len(claims) == n:
        round_ = ClaimRound(seats, n, 0, {})
        rest = claims
    else:
        round_ = claim_round_of(game, claims[:-1])
        if round_.done + 1 < len(round_.seats):
            return state
        rest = claims[len(claims) - len(round_.seats):]
    outcome = round_outcome(game, round_.seats, rest, round_.round)
    if isinstance(outcome, tuple):
        return state  # evolve worked out the next round's first claimant
    if isinstance(outcome, int):
        return first_attacker_chosen(state, outcome, False, ev)
    # a lot among the seats tied on the lowest rank (first round, SP4; SP5's lowest cards),
    # or among every seat of the round when nobody showed a card
    shown = any(c >= 0 for c in rest)
    tied = shown and round_.round in (0, LOWEST_ROUND)
    return evolve(state, phase=LOT, lot_among=tuple(sorted(
        _lowest(game, round_.seats, rest) if tied else round_.seats)))


def _lowest(game: Game, seats: tuple[int, ...], cards: tuple[int, ...]) -> tuple[int, ...]:
    shown = [(game.rank[c], s) for s, c in zip(seats, cards, strict=True) if c >= 0]
    low = min(rank for rank, _ in shown)
    return tuple(s for rank, s in shown if rank == low)


def on_name_trump(state: State, action: Action, ev: EventSink) -> State:
    """Король-говно: «козырь назначает Король, посмотрев свои карты»."""
    if action.seat not in state.actors:
        raise IllegalAction(Reason.NOT_YOUR_TURN, "the King names the trump")
    if not 0 <= action.target < 4:
        raise IllegalAction(Reason.BAD_ACTION, "a trump is one of the four suits")
    if ev is not None:
        ev.append(E.TrumpNamed(action.seat, action.target))
    return choose_first_attacker(evolve(state, trump=action.target), ev)


def on_lot(state: State, action: Action, ev: EventSink) -> State:
    if action.target not in state.lot_among:
        raise IllegalAction(Reason.BAD_CHANCE, "not among the seats drawn for")
    return first_attacker_chosen(evolve(state, lot_among=()), action.target, True, ev)


def first_attacker_chosen(state: State, seat: int, by_lot: bool, ev: EventSink) -> State:
    t = state.game.tables
    defender = defender_for(t, state.out, seat)
    if ev is not None:
        limit = t.first_limit if state.bout == 0 else t.later_limit
        ev.append(E.FirstAttacker(seat, by_lot))
        ev.append(E.BoutStarted(seat, defender, -1 if limit == NO_LIMIT else limit))
    # двухкозырной: the defender's own trump is the trump of his bout
    trump = state.seat_trumps[defender] if state.seat_trumps else None
    if t.dummy >= 0:
        # с болваном: «Далее по ходу игры картами болвана имеет право распоряжаться только тот
        # игрок, который зашел первым»
        state = state._replace(controller=seat)
    return evolve(state, phase=LEAD, attacker=seat, defender=defender, trump=trump)


def next_game(state: State) -> Game:
    """The next game of a series: the durak deals; под дурака his right neighbour leads,
    из-под дурака his left one; after a draw the same dealer deals and the lowest trump leads."""
    game = state.game
    if state.result is None:
        raise ValueError("the game is not over")
    n = game.n_players
    rules = game.rules
    if rules.series_state == "ladder":
        return next_ladder_game(state)
    if rules.series_state == "titles":
        titles = next_titles(state)
        govno = titles.index(GOVNO)  # «сдаёт и первым ходит Говно»
        return make_game(rules, n, govno, govno, game.game_index + 1, titles)
    if state.result.draw:
        return make_game(rules, n, game.dealer, None, game.game_index + 1,
                         dummy=game.dummy if game.dummy >= 0 else None)
    durak = state.result.durak[0]
    choice = rules.first_attacker_next_game
    first: int | None
    # с болваном: the dummy keeps its seat and is no player: «справа от дурака» is the next
    # player on his right (or left), past the dummy
    skip = game.tables.dummy_bit
    if choice == "pod_durak":
        first = next_active_of(n, skip, durak, -1)
    elif choice in ("iz_pod_durak", "left_of_dealer"):  # the durak deals: his left neighbour
        first = next_active_of(n, skip, durak, 1)
    else:
        first = None
    # невидимый: an outsider deals every game; in software the shared deal protocol, which
    # keeps dealing from the same place
    dealer = game.dealer if rules.dealer_next_game == "outsider" else durak
    return make_game(rules, n, dealer, first, game.game_index + 1,
                     dummy=game.dummy if game.dummy >= 0 else None)


def ladder_after(state: State) -> tuple[int, ...]:
    """Длинный дурак, each seat's ladder after this game: «Дурак выкладывает перед собой
    следующую карту своей масти: семёрку, потом восьмёрку…» — the durak's ladder grows by one
    rank (7 first); a draw lays out nothing."""
    game = state.game
    result = state.result
    if result is None:
        raise ValueError("the game is not over")
    ladder = game.ladder or (0,) * game.n_players
    if result.draw or not result.durak:
        return ladder
    durak = result.durak[0]
    top = ladder[durak]
    return ladder[:durak] + (7 if top == 0 else top + 1,) + ladder[durak + 1:]


def long_durak(state: State) -> int | None:
    """Длинный дурак: «Выложил туза — длинный дурак, игра окончена»: the seat whose ladder
    reached the ace in this game (the match is over), else None."""
    if state.game.rules.match_end != "ladder_reaches_A" or state.result is None:
        return None
    ladder = ladder_after(state)
    return next((s for s, top in enumerate(ladder) if top == 14), None)


def next_ladder_game(state: State) -> Game:
    """Длинный дурак, the next game: the same sixes, the new ladders (each durak's hand
    shrinks from the ten on); the durak deals and «дальше — из-под дурака» his left neighbour
    leads. Once a ladder reaches the ace the match is over and the next game starts a new
    match (the sixes dealt afresh), dealt by the long durak."""
    game = state.game
    result = state.result
    assert result is not None
    n = game.n_players
    ladder = ladder_after(state)
    if long_durak(state) is not None:
        return make_game(game.rules, n, result.durak[0], None, game.game_index + 1)
    personal = game.personal or state.seat_trumps
    if result.draw or not result.durak:
        return make_game(game.rules, n, game.dealer, None, game.game_index + 1,
                         personal=personal, ladder=game.ladder)
    durak = result.durak[0]
    return make_game(game.rules, n, durak, (durak + 1) % n, game.game_index + 1,
                     personal=personal, ladder=ladder)


def _title_ladder(n: int) -> tuple[int, ...]:
    """The titles of n players, best first: King, Prince, the middle ones in the listed order,
    Говно last (two players: King and Говно)."""
    return tuple(range(n - 1)) + (GOVNO,) if n > 1 else (KING,)


def next_titles(state: State) -> tuple[int, ...]:
    """Король-говно, the titles for the next game. «После первой партии звания раздают по
    порядку выхода»: the first out is King and the durak (last) Говно. Later «Кто остался
    дураком — меняется местами с Говном (если сам не Говно)»: only the two titles swap; after a
    draw nothing changes."""
    game = state.game
    result = state.result
    if result is None:
        raise ValueError("the game is not over")
    n = game.n_players
    if not game.titles:
        order = result.finish + tuple(s for s in range(n) if s not in result.finish)
        ladder = _title_ladder(n)
        titles = [0] * n
        for place, seat in enumerate(order):
            titles[seat] = ladder[place]
        return tuple(titles)
    titles = list(game.titles)
    if not result.draw:
        durak = result.durak[0]
        govno = titles.index(GOVNO)
        titles[durak], titles[govno] = titles[govno], titles[durak]
    return tuple(titles)
