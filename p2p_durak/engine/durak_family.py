"""The attack/defend durak of the 54 presets as a game family (`engine/family.py`).

An adapter over the engine's entry points (`core`, `entry`, `views`): nothing here is on a
playout's path, which calls the engine directly. Its card movements come from
`engine/durak_moves.py`, derived from a transition after the fact.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from p2p_durak.engine import actions as A
from p2p_durak.engine import core
from p2p_durak.engine import views as V
from p2p_durak.engine.actions import CHANCE, Action
from p2p_durak.engine.bout import DECK_ORDER
from p2p_durak.engine.durak_moves import initial_layout, movements, stock_bottom
from p2p_durak.engine.entry import apply, step
from p2p_durak.engine.events import Event
from p2p_durak.engine.family import (
    Audit,
    Capabilities,
    ChanceRequest,
    Command,
    DrawLot,
    JointCoin,
    Numbering,
    OpenCard,
    Outcome,
    ProveSuit,
    Reshuffle,
    SeatView,
    Shape,
    ShuffleDeck,
    TableView,
    ZoneView,
)
from p2p_durak.engine.moves import DISCARD, SET_ASIDE, STOCK, TABLE, Movement, Zone, hand
from p2p_durak.engine.rules import RuleSet
from p2p_durak.engine.setup import last_dealt_seat, personal_trumps_turned, presort_layout
from p2p_durak.engine.state import (
    CHALLENGE,
    DEAL,
    DEAL_SIXES,
    EXCHANGE,
    LOT,
    OVER,
    RESHUFFLE,
    REVEAL_HIDDEN,
    REVEAL_STOCK,
    REVEAL_TRUMP,
    TURN_UP,
    State,
)


@lru_cache(maxsize=64)
def capabilities(rules: RuleSet) -> Capabilities:
    """The commands and facts of a rule set the UI shows (help keys, table layout); asked
    often by a table, so kept per rule set."""
    claims = rules.first_attacker_first_game != "left_of_dealer" \
        and rules.trump_rule != "personal_six"
    lowest_card = rules.first_attacker_first_game == "lowest_card"
    wanted = {
        Command.TRANSFER: rules.transfer,
        Command.CHAIN: rules.take_rule == "chain_pass",
        Command.CLAIM: claims and not lowest_card,
        Command.CLAIM_CARD: claims and lowest_card,
        Command.SHOW: rules.transfer_by_showing != "off",
        Command.PROEZDNOY: rules.transfer_by_showing == "backward_proezdnoy",
        Command.LEAD_STOCK: rules.lead_from_stock,
        Command.DOUBT: rules.defence_visibility == "face_down_challengeable",
        Command.EXCHANGE: rules.pre_defence_exchange == "swap_two",
        Command.SEND_BACK: rules.over_limit_policy == "defender_chooses",
        Command.DUMMY: bool(rules.dummy_hand),
    }
    return Capabilities(
        family="attack_defend",
        commands=frozenset(c for c, on in wanted.items() if on),
        has_trump=rules.trump_rule != "none",
        has_stock=rules.deal_mode != "whole_deck",
        teams={"none": 0, "2v2": 2, "3v3": 3}[rules.teams],
        scored=rules.counter != "none",
        blind_hands=rules.hand_visibility == "others_only",
        remask_open_hands=rules.defence_visibility == "face_down_challengeable")


def chance(state: State) -> ChanceRequest | None:
    """What the deck must do before this state can go on (the table's deck steps)."""
    phase = state.phase
    game = state.game
    if phase == DEAL:
        if game.rules.deck_presort == "rank_desc":
            # албанский: laid out by rank, aces on top; each rank's block shuffled alone
            initial, blocks = presort_layout(game)
            return ShuffleDeck(blocks, initial)
        out = game.laid_out()
        if out:  # Длинный: the ladders lie below the stock, never dealt nor shuffled
            n = game.n_cards
            play = tuple(c for c in range(n) if not (out >> c) & 1)
            rest = tuple(c for c in range(n) if (out >> c) & 1)
            return ShuffleDeck((len(play), len(rest)), play + rest)
        return ShuffleDeck()
    if phase == DEAL_SIXES:
        return JointCoin("sixes", 4)
    if phase == REVEAL_TRUMP:
        if game.rules.trump_rule == "bottom_suit_announced":
            return ProveSuit(STOCK, -1, game.dealer)  # невидимый: the dealer alone sees it
        # двухкозырной turns one card per seat, each its own step; a joker turned as trump
        # (put back into the stock) makes another reveal
        turned = personal_trumps_turned(state)
        if turned:
            step, numbering = f"trump:{turned}", Numbering.NONE
        elif state.shown:
            step, numbering = "trump:joker", Numbering.DECK
        else:
            step, numbering = "trump", Numbering.NONE
        if state.stock:
            return OpenCard(STOCK, 0, step=step, numbering=numbering)
        seat = last_dealt_seat(game)  # no stock: the last dealt card, by its holder
        return OpenCard(hand(seat), -1, by=seat, step=step, numbering=numbering)
    if phase == TURN_UP:
        return OpenCard(STOCK, 0, step="turn", numbering=Numbering.EACH)
    if phase == REVEAL_HIDDEN:
        return OpenCard(SET_ASIDE, 0, step="hidden-trump")
    if phase == REVEAL_STOCK:
        # армянский: a blind lead from the stock; its top card opens to everyone, so nobody,
        # the attacker neither, chose or saw it first
        return OpenCard(STOCK, 0, step="stock-lead", numbering=Numbering.EACH)
    if phase == LOT:
        return DrawLot(state.lot_among)
    if phase == CHALLENGE:
        # верю не верю: the doubted cover, opened by its owner (the defender)'s tokens, so a
        # defender cannot make it open as another card
        return OpenCard(TABLE, label=state.doubt[1], by=state.defender, step="doubt",
                        numbering=Numbering.EACH)
    if phase in (RESHUFFLE, EXCHANGE):
        # отбойный: the bout's cards and the stock's face-down part; покерный: the stock's
        # face-down part with the given cards in it; the turned card stays at the bottom
        face_down = (STOCK, len(state.stock) - stock_bottom(state))
        if phase == RESHUFFLE:
            return Reshuffle("reshuffle", ((TABLE, -1), face_down))
        return Reshuffle("swap-shuffle", (face_down,))
    if phase == OVER:
        return Audit()
    return None


def chance_actions(state: State, request: ChanceRequest,
                   value: int | tuple[int, ...]) -> tuple[Action, ...]:
    if isinstance(request, ShuffleDeck):
        return (A.deal(),)
    if isinstance(request, Reshuffle):
        return (A.shuffle(DECK_ORDER),)
    if isinstance(request, JointCoin):
        assert isinstance(value, tuple)
        return tuple(A.announce_suit(s) for s in value[:state.game.n_players])
    assert isinstance(value, int)
    if isinstance(request, DrawLot):
        return (A.lot(value),)
    if isinstance(request, ProveSuit):
        return (A.announce_suit(value),)
    if isinstance(request, OpenCard):
        return (A.reveal(value),)
    return ()


def table_view(state: State, seat: int) -> TableView:
    """One seat's screen: the stock (with the turned trump card), the bout's pairs, the
    discard, and every seat with its hand's size and roles."""
    stock = state.stock
    turned = (state.trump_card,) if stock and stock[-1] == state.trump_card >= 0 else ()
    zones = [
        ZoneView(STOCK, Shape.PILE, len(stock), turned),
        ZoneView(TABLE, Shape.PAIRS, len(state.table) + sum(c >= 0 for c in state.covers),
                 tuple(c for pair in zip(state.table, state.covers, strict=True)
                       for c in pair)),
        ZoneView(DISCARD, Shape.PILE, state.discard.bit_count() + state.n_buried, ()),
    ]
    seats = []
    for s in range(state.game.n_players):
        roles = [name for name, on in (
            ("attacker", s == state.attacker), ("defender", s == state.defender),
            ("to_act", s in state.actors), ("out", bool((state.out >> s) & 1)),
            ("dummy", s == state.game.dummy), ("you", s == seat)) if on]
        seats.append(SeatView(s, state.hands[s].bit_count() + state.hidden[s], tuple(roles)))
    return TableView(tuple(zones), tuple(seats), state.trump, state.trump_card)


class AttackDefend:
    """`GameFamily[RuleSet, State, Action]` for the attack/defend engine."""

    name = "attack_defend"

    def new_game(self, rules: RuleSet, n_players: int, dealer: int,
                 deck_order: Sequence[int] | None = None,
                 previous: State | None = None) -> State:
        game = core.next_game(previous) if previous is not None \
            else core.make_game(rules, n_players, dealer)
        return core.new_game(game, deck_order)

    def to_act(self, state: State) -> frozenset[int]:
        return core.to_act(state)

    def legal_actions(self, state: State, seat: int) -> tuple[Action, ...]:
        return core.legal_actions(state, seat)

    def apply(self, state: State, action: Action) -> tuple[State, tuple[Event, ...]]:
        return apply(state, action)

    def step(self, state: State, action: Action) -> State:
        return step(state, action)

    def movements(self, before: State, action: Action, events: tuple[object, ...],
                  after: State) -> tuple[Movement, ...]:
        return movements(before, action, events, after)  # type: ignore[arg-type]

    def initial_layout(self, state: State) -> tuple[tuple[Zone, tuple[int, ...]], ...]:
        return initial_layout(state.game, len(state.stock))

    def chance(self, state: State) -> ChanceRequest | None:
        return chance(state)

    def chance_actions(self, state: State, request: ChanceRequest,
                       value: int | tuple[int, ...]) -> tuple[Action, ...]:
        return chance_actions(state, request, value)

    def sequencer(self, state: State) -> int:
        return core.sequencer(state)

    def plays_for(self, state: State, seat: int) -> int:
        return state.controller if seat == state.game.dummy >= 0 else seat

    def result(self, state: State) -> Outcome | None:
        r = state.result
        if r is None:
            return None
        n = state.game.n_players
        winners = r.winners or tuple(s for s in range(n) if s not in r.durak and not r.draw)
        return Outcome(r.durak, winners, r.draw, r.scores)

    def public_view(self, state: State) -> object:
        return V.public_view(state)

    def private_view(self, state: State, seat: int) -> State:
        return V.private_view(state, seat)

    def learn(self, state: State, seat: int, cards: tuple[int, ...]) -> State:
        return V.learn(state, seat, cards)

    def state_hash(self, state: State) -> bytes:
        return V.state_hash(state)

    def capabilities(self, rules: RuleSet) -> Capabilities:
        return capabilities(rules)

    def table_view(self, state: State, seat: int) -> TableView:
        return table_view(state, seat)

    def encode_action(self, action: Action) -> object:
        return A.encode_action(action)

    def decode_action(self, raw: object) -> Action:
        return A.decode_action(raw)


ATTACK_DEFEND = AttackDefend()
"""The one instance (the family is stateless)."""

__all__ = ["ATTACK_DEFEND", "CHANCE", "AttackDefend", "capabilities", "chance",
           "chance_actions", "table_view"]
