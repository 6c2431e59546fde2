"""The game state: one immutable record per moment of a game, plus the game's fixed tables.

`Game` holds what never changes during a game (rules, seats, card tables); `State` holds the
rest. Hands are bit masks over card ids. The same record serves a full state (every card
known: simulation, bots' determinizations, tests) and one node's partial view (other hands
and the stock are unknown until revealed): a hand is then the mask of the cards this view
knows plus a count of hidden ones, and unknown stock cards are `UNKNOWN`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum
from typing import Final, NamedTuple

from p2p_durak.engine.cards import NO_SUIT, SUIT_NAMES, DeckSpec, Kind
from p2p_durak.engine.rules import RuleSet
from p2p_durak.engine.tables import GameTables

UNKNOWN: Final = -1
NO_CARD: Final = -2
FACE_DOWN: Final = -3
"""A cover this state does not know: the attack card is covered by a face-down card (верю не
верю) whose face only its author (and a full state) knows."""
BLACK_PAIR: Final = 4
"""A trump value: spades and clubs are both trump (a black joker turned, s_dvumya_jokerami)."""
RED_PAIR: Final = 5
"""A trump value: diamonds and hearts are both trump (a red joker turned)."""
_JOKERS = (Kind.JOKER_RED, Kind.JOKER_BLACK)


def trump_suits(trump: int) -> frozenset[int]:
    """The suits a trump value makes trump: none, one suit, or the pair of one colour."""
    if trump == NO_SUIT:
        return frozenset()
    if trump >= BLACK_PAIR:
        first = 2 * (trump - BLACK_PAIR)
        return frozenset((first, first + 1))
    return frozenset((trump,))


class Phase(IntEnum):
    DEAL = 0
    REVEAL_TRUMP = 1
    CLAIM = 2
    LOT = 3
    LEAD = 4
    BOUT = 5
    REVEAL_HIDDEN = 6
    OVER = 7
    RESHUFFLE = 8  # отбойный: a defended bout waits on the table to be shuffled into the stock
    NAME_TRUMP = 9  # Король-говно: the King names the trump after the deal
    REVEAL_STOCK = 10  # армянский: a blind lead from the stock waits for its card's reveal
    DEAL_SIXES = 11  # Длинный дурак: before the match's first deal each seat gets a six
    TURN_UP = 12  # a pre-game phase (pre_phase): chance turns the top stock card face up
    CAPTURE = 13  # a pre-game phase: the drawer chooses the face-up card his card takes
    CHALLENGE = 14  # верю не верю: a face-down cover was doubted and waits to be opened
    EXCHANGE = 15  # покерный: two cards given back wait to be shuffled into the stock


DEAL: Final = 0
REVEAL_TRUMP: Final = 1
CLAIM: Final = 2
LOT: Final = 3
LEAD: Final = 4
BOUT: Final = 5
REVEAL_HIDDEN: Final = 6
OVER: Final = 7
RESHUFFLE: Final = 8
NAME_TRUMP: Final = 9
REVEAL_STOCK: Final = 10
DEAL_SIXES: Final = 11
TURN_UP: Final = 12
CAPTURE: Final = 13
CHALLENGE: Final = 14
EXCHANGE: Final = 15


class Result(NamedTuple):
    durak: tuple[int, ...]  # empty on a draw
    draw: bool
    pogony: int
    finish: tuple[int, ...]  # seats in the order they went out
    scores: tuple[int, ...] = ()  # per seat, in a scored game (очковый, погонный, фигурный)
    winners: tuple[int, ...] = ()  # фигурный: the top scorers; everyone else lost


@dataclass(frozen=True, eq=False)
class Game:
    """The fixed part of one game: rules, seats, dealer and precomputed card tables."""

    rules: RuleSet
    n_players: int
    dealer: int
    first_attacker: int | None = None  # set in later games of a series (под / из-под дурака)
    game_index: int = 0
    # Король-говно: each seat's title from the second game on (0 King, 1 Prince, 2 Палач,
    # 3 Солдат, 4 Вор, 5 Шут, 6 Говно), empty before titles are given
    titles: tuple[int, ...] = ()
    # с болваном: the dummy's seat (a hand without a player), -1 in other games
    dummy: int = -1
    # Длинный дурак: each seat's personal trump suit for the match (its six), empty before the
    # sixes are dealt; and each seat's ladder, the highest rank laid out so far (0: none)
    personal: tuple[int, ...] = ()
    ladder: tuple[int, ...] = ()
    deck: DeckSpec = field(init=False)
    n_cards: int = field(init=False)
    suit: tuple[int, ...] = field(init=False)
    rank: tuple[int, ...] = field(init=False)
    rank_mask: dict[int, int] = field(init=False)
    suit_mask: tuple[int, ...] = field(init=False)
    team: tuple[int, ...] = field(init=False)  # team id per seat; each seat its own without teams
    rules_hash: str = field(init=False)
    # the seats that claim the lowest trump, in claim order: from the dealer's left, the
    # dummy left out (с болваном: it never attacks, so its trumps decide nothing)
    claim_seats: tuple[int, ...] = field(init=False)
    tables: GameTables = field(init=False, repr=False)  # the hot paths' lookup tables
    _beaters: dict[int, tuple[int, ...]] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        deck = self.rules.deck()
        faces = deck.faces
        set_ = object.__setattr__
        set_(self, "deck", deck)
        set_(self, "n_cards", len(faces))
        set_(self, "suit", tuple(f.suit for f in faces))
        set_(self, "rank", tuple(f.rank for f in faces))
        rank_mask: dict[int, int] = {}
        suit_mask = [0, 0, 0, 0]
        for card, face in enumerate(faces):
            if face.kind is Kind.NORMAL:
                rank_mask[face.rank] = rank_mask.get(face.rank, 0) | (1 << card)
                suit_mask[face.suit] |= 1 << card
        set_(self, "rank_mask", rank_mask)
        set_(self, "suit_mask", tuple(suit_mask))
        teams = {"none": 0, "2v2": 2, "3v3": 2}[self.rules.teams]
        set_(self, "team", tuple(s % teams if teams else s for s in range(self.n_players)))
        set_(self, "rules_hash", self.rules.rules_hash())
        set_(self, "claim_seats", tuple(seat for seat in (
            (self.dealer + 1 + i) % self.n_players for i in range(self.n_players))
            if seat != self.dummy))
        # trumps 4 and 5: a coloured joker turned as trump makes both black or both red
        # suits trump (s_dvumya_jokerami); other games never reach them
        pairs = (BLACK_PAIR, RED_PAIR) if self.rules.trump_indicator_special == "colour_pair" \
            else ()
        beaters = {trump: self._build_beaters(trump) for trump in (NO_SUIT, 0, 1, 2, 3, *pairs)}
        for trump in (BLACK_PAIR, RED_PAIR):
            beaters.setdefault(trump, beaters[NO_SUIT])
        set_(self, "_beaters", beaters)
        set_(self, "tables", GameTables(self.rules, self.n_players, self.suit, self.rank,
                                        rank_mask, self.suit_mask,
                                        tuple(beaters[t] for t in range(-1, 6)),
                                        self.team, self.dummy,
                                        ladder_hand_sizes(self.rules.hand_size, self.ladder)))

    @property
    def all_cards(self) -> int:
        return (1 << self.n_cards) - 1

    def beaters(self, trump: int) -> tuple[int, ...]:
        """For each card, the mask of cards that beat it under `trump` (a suit, NO_SUIT, or a
        pair of suits of one colour: BLACK_PAIR, RED_PAIR)."""
        return self._beaters[trump]

    def trump_mask(self, trump: int) -> int:
        """The cards of the trump suit (both suits under a pair); 0 without a trump."""
        return sum(self.suit_mask[s] for s in trump_suits(trump))

    def _build_beaters(self, trump: int) -> tuple[int, ...]:
        rules = self.rules
        untrumpable = {SUIT_NAMES.index(s) for s in rules.untrumpable_suits}
        trump_set = trump_suits(trump)
        trumps_beat = (bool(trump_set) and rules.beat_rule != "same_suit_only"
                       and not trump_set & untrumpable)
        suits = self.suit
        ranks = self.rank
        of_suit = [0, 0, 0, 0]  # every card with a suit, jokers and blanks have none
        for card, suit in enumerate(suits):
            if suit != NO_SUIT:
                of_suit[suit] |= 1 << card
        of_trump = sum(of_suit[s] for s in trump_set)
        only_aces = rules.lowest_rank_only_by_ace == "same_suit_or_trump_ace"
        any_ace = rules.lowest_rank_only_by_ace == "any_ace"
        lowest = min((r for s, r in zip(suits, ranks, strict=True) if s != NO_SUIT), default=0)
        aces = [0, 0, 0, 0]
        for card, suit in enumerate(suits):
            if suit != NO_SUIT and ranks[card] == 14:
                aces[suit] |= 1 << card
        out = []
        for card in range(self.n_cards):
            suit, rank = suits[card], ranks[card]
            mask = 0
            if suit != NO_SUIT:
                # the same suit higher; under a pair of trump suits a trump is also beaten by
                # a higher trump of the other suit («8 треф не может отбить 8 пик»)
                same = of_suit[suit] | (of_trump if len(trump_set) > 1 and suit in trump_set
                                        else 0)
                while same:
                    low = same & -same
                    if ranks[low.bit_length() - 1] > rank:
                        mask |= low
                    same ^= low
                if trumps_beat and suit not in trump_set and suit not in untrumpable:
                    mask |= of_trump
                if rank == lowest and only_aces:
                    # королевский: the same-suit ace, or the trump ace ("любую младшую карту")
                    mask &= aces[suit] | (aces[trump] if 0 <= trump < 4 else 0)
                elif rank == lowest and any_ace:
                    # королевский's table option: «только тузом» read as any ace at all
                    mask = aces[0] | aces[1] | aces[2] | aces[3]
            out.append(mask)
        return self._special_beaters(trump, out)

    def _special_beaters(self, trump: int, out: list[int]) -> tuple[int, ...]:
        """Add the jokers' and the blank's powers (SP18) to the plain cards' beaters."""
        rules = self.rules
        faces = self.deck.faces
        kind = [f.kind for f in faces]
        jokers = sum(1 << c for c, k in enumerate(kind) if k in _JOKERS)
        blank = sum(1 << c for c, k in enumerate(kind) if k is Kind.BLANK)
        if rules.blank_card:
            # «Пустышка отбивает любую карту, но и ее можно отбить любой картой»
            for card in range(self.n_cards):
                out[card] = ((self.all_cards & ~blank) if kind[card] is Kind.BLANK
                             else out[card] | blank)
        if rules.joker_rule == "beats_any":
            # «Джокер отбивает любую карту»; nothing beats a led joker
            for card in range(self.n_cards):
                out[card] = 0 if kind[card] in _JOKERS else out[card] | jokers
        elif rules.joker_rule == "coloured":
            self._coloured_jokers(trump, kind, out)
        elif rules.joker_rule == "beats_all_but_two":
            # щелковский: «Джокер отбивает любую карту кроме двойки. Джокера может отбить только
            # двойка или другой джокер.»
            twos = sum(1 << c for c, k in enumerate(kind)
                       if k is Kind.NORMAL and self.rank[c] == 2)
            for card in range(self.n_cards):
                if kind[card] in _JOKERS:
                    out[card] = twos | (jokers & ~(1 << card))
                elif self.rank[card] != 2:
                    out[card] |= jokers
        return tuple(out)

    def _coloured_jokers(self, trump: int, kind: list[Kind], out: list[int]) -> None:
        """s_dvumya_jokerami: the joker of the trump's colour is the highest card; the other
        beats any card of its own colour; a led other joker is beaten by any trump and the
        high joker (or, by the knob, by the high joker only); nothing beats the high one."""
        red = next(c for c, k in enumerate(kind) if k is Kind.JOKER_RED)
        black = next(c for c, k in enumerate(kind) if k is Kind.JOKER_BLACK)
        trump_set = trump_suits(trump)
        if not trump_set:  # not reached: a coloured-joker game always has a trump
            for card in range(self.n_cards):
                out[card] = 0 if kind[card] in _JOKERS else out[card] | (1 << red) | (1 << black)
            return
        high_colour = min(trump_set) // 2  # 0: black (spades, clubs), 1: red
        high, low = (black, red) if high_colour == 0 else (red, black)
        low_colour = 1 - high_colour
        trumps = sum(self.suit_mask[s] for s in trump_set)
        for card in range(self.n_cards):
            if card == high:
                out[card] = 0
            elif card == low:
                by_trumps = self.rules.off_colour_joker_beaten_by == "any_trump_or_high_joker"
                out[card] = (1 << high) | (trumps if by_trumps else 0)
            else:
                out[card] |= 1 << high
                if self.suit[card] // 2 == low_colour:
                    out[card] |= 1 << low

    def opponents(self, a: int, b: int) -> bool:
        return self.team[a] != self.team[b]

    def laid_out(self) -> int:
        """Длинный дурак: the card mask of every seat's ladder laid out before him (7 up to his
        ladder's rank, of his own suit): out of play for the rest of the match."""
        mask = 0
        for seat, top in enumerate(self.ladder):
            for rank in range(7, top + 1):
                mask |= self.rank_mask.get(rank, 0) & self.suit_mask[self.personal[seat]]
        return mask


LADDER_SIZES: Final = {10: 5, 11: 4, 12: 3, 13: 2}
"""Длинный дурак: «С десятки ему сдают по 5 карт, с валета — по 4, с дамы — по 3, с короля —
по 2»: a seat's hand size by the top of his ladder."""


def ladder_hand_sizes(hand_size: int, ladder: tuple[int, ...]) -> tuple[int, ...]:
    """Each seat's hand size under its ladder; empty when nobody has a ladder yet."""
    if not any(ladder):
        return ()
    return tuple(LADDER_SIZES.get(top, hand_size) for top in ladder)


class State(NamedTuple):
    game: Game
    phase: int
    hands: tuple[int, ...]  # per seat: mask of the cards this state knows are in the hand
    hidden: tuple[int, ...]  # per seat: how many cards in the hand are unknown here
    stock: tuple[int, ...]  # top first; UNKNOWN where this state does not know the card
    trump: int  # suit, or NO_SUIT (-1) when there is none (yet)
    trump_card: int  # the face-up trump card, NO_CARD when there is none
    hidden_trump: int  # потайной: the face-down card (UNKNOWN until revealed), else NO_CARD
    reveal_card: int  # full state: the card the next chance reveal will show (the trump card,
    # the face-down потайной card); UNKNOWN in a partial view. Never part of the public view.
    table: tuple[int, ...]  # attack cards in the order they were played
    covers: tuple[int, ...]  # the card covering each attack card, UNKNOWN when uncovered
    table_by: tuple[int, ...]  # who played each attack card
    attacker: int  # the lead attacker of the bout («ходивший»)
    defender: int
    taking: bool  # the defender has said «беру»
    passed: int  # seats that passed since the table last changed (bit mask)
    shown: int  # trumps shown for a transfer this bout (card mask; щелковский: plus the bit
    # `GameTables.proezd` above the cards, set when the defender received a проездной)
    out: int  # seats out of the game (bit mask)
    finish: tuple[int, ...]  # seats in the order they went out
    discard: int  # card mask of the discard pile (face-up table cards, seen by all)
    bout: int  # bouts completed in this game
    claims: tuple[int, ...]  # lowest-trump claims so far, in claim order (UNKNOWN: no trump)
    lot_among: tuple[int, ...]  # seats a pending lot chooses among
    result: Result | None
    actors: tuple[int, ...]  # who may act now (derived, cached: `to_act` is asked constantly)
    table_ranks: int = 0  # derived, cached: the cards that may be thrown in (those whose rank
    # is on the table; дорожный: those that beat the latest defence card)
    # двухкозырной: each seat's own trump suit, in seat order (empty with one common trump);
    # `trump` is then the current defender's, the suit that decides every beat
    seat_trumps: tuple[int, ...] = ()
    # магаданский: per seat, the locked cards face down before him, in unlock order (UNKNOWN
    # where this state does not know them; the owner does not see them either); empty when the
    # rules lock nothing
    locked: tuple[tuple[int, ...], ...] = ()
    otboi: int = 0  # отбойный: successful defences so far in this game
    tally: tuple[int, ...] = ()  # per seat, a scored game's public count (очковый: cards
    # beaten, фигурный: figures beaten, погонный: pairs laid at once); () in other games
    controller: int = -1  # с болваном: the player who plays the dummy's cards now; else -1
    # верю не верю: (the doubter, the attack index doubted) while a doubted cover waits to be
    # opened (phase CHALLENGE), else ()
    doubt: tuple[int, ...] = ()
    buried: int = 0  # верю не верю: the face-down discarded cards this state knows (a mask)
    n_buried: int = 0  # верю не верю: how many cards went to the discard face down (public)
    swapped: int = 0  # покерный: the defenders who exchanged two cards this bout (seat mask)

    @property
    def n_players(self) -> int:
        return self.game.n_players

    def hand_size(self, seat: int) -> int:
        return self.hands[seat].bit_count() + self.hidden[seat]

    @property
    def is_full(self) -> bool:
        """True when every card's place is known (no hidden hand cards, no unknown stock)."""
        # потайной: before the deal the face-down card is still in the (known) stock
        return (not any(self.hidden) and UNKNOWN not in self.stock
                and (self.hidden_trump != UNKNOWN or self.reveal_card >= 0
                     or self.phase == DEAL)
                and not any(UNKNOWN in pile for pile in self.locked))


def known_cards(state: State) -> int:
    """Every card whose place this state knows."""
    known = state.discard
    for hand in state.hands:
        known |= hand
    for card in state.table:
        known |= 1 << card
    for card in state.covers:
        if card >= 0:
            known |= 1 << card
    for card in state.stock:
        if card >= 0:
            known |= 1 << card
    if state.hidden_trump >= 0:
        known |= 1 << state.hidden_trump
    known |= state.buried
    for pile in state.locked:
        for card in pile:
            if card >= 0:
                known |= 1 << card
    return known
