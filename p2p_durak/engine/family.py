"""The game-family interface: what the node, the deck, the bots and the UI need of a game.

A game family is one rules engine for a kind of game: the attack/defend durak of the 54
presets (`engine/durak_family.py`), and the games of `variants-other-games.md` — tricks
(армянский 2), beat chains (без названия, китайский), cover chains (польский), rank sequences
(пасьянсный), shedding with a recycled stock (чешский), suit ladders (чухонский), two-phase
games (Скитгаб). Each is pure like the engine: no I/O, clock or randomness; chance (the deck
order, every reveal, every lot) is an input.

What every family gives (`GameFamily`):

- states and actions of its own types, `to_act`, `legal_actions`, `apply` (the new state and
  the events), `step` (without events, for simulation), `sequencer` (who orders the next log
  entry), `result`;
- card movements (`engine/moves.py`): `movements(before, action, events, after)`, worked out
  only when a table asks, so a playout pays nothing;
- chance input: `chance(state)` says what the deck must do before the game can go on
  (`ChanceRequest`: shuffle the deck as laid out, open a card to all, show one to a seat and
  let him prove its suit, draw a lot, a joint coin, reshuffle, the end-of-game audit);
  `chance_actions(state, request, value)` turns the deck's answer into the family's chance
  actions;
- views: `public_view`, `private_view(state, seat)`, `learn(state, seat, cards)` (a partial
  view learns cards the deck showed it), and `state_hash`, on which every node agrees;
- what the screen and the help need: `capabilities(rules)` (the commands these rules use, so
  the UI never compares knob strings) and `table_view(state, seat)` (the zones to draw, with
  their counts and the cards face up, and each seat's role);
- `plays_for(state, seat)`: the seat whose player sees and plays that seat's hand (itself; с
  болваном the dummy's controller), so a table can turn `Seen.OWNER` into a party.

docs/decisions/0010-card-movements-and-game-families.md gives the reasons and maps each of
the nine other games onto this interface.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum, IntEnum
from typing import NamedTuple, Protocol, TypeVar

from p2p_durak.engine.moves import EVERY_SEAT, Movement, Zone

RulesT = TypeVar("RulesT", contravariant=True)
StateT = TypeVar("StateT")
ActionT = TypeVar("ActionT")


# ---- chance: what the deck must do next ---------------------------------------------------------


class Numbering(IntEnum):
    """How a table names a chance request's deck step (the names are on the wire): `step`
    alone, `step:<c>` with the table's running count of its show and chance steps (`EACH`),
    or `step:<d>` with the number of deck steps finished in this game (`DECK`)."""

    NONE = 0
    EACH = 1
    DECK = 2


class ShuffleDeck(NamedTuple):
    """Every seat shuffles the deck, laid out as `initial` (slot order; empty: 0..n-1), each
    block of `blocks` (sizes, top first) on its own (албанский shuffles each rank's block;
    Длинный's ladders lie below the stock, unshuffled); then the deal (`DEAL` chance)."""

    blocks: tuple[int, ...] = ()
    initial: tuple[int, ...] = ()
    step: str = "shuffle"


class OpenCard(NamedTuple):
    """Open the card at `position` of `zone` (-1: the last; or the one labelled `label`) to
    everybody; `by`: the seat whose hand it is, whose own tokens open it (EVERY_SEAT:
    everyone's). A card open already needs no deck step. Its card feeds the family's chance
    action (`chance_actions`)."""

    zone: Zone
    position: int = 0
    label: int = -1
    by: int = EVERY_SEAT
    step: str = "reveal"
    numbering: Numbering = Numbering.NONE


class ProveSuit(NamedTuple):
    """Show the card at `position` of `zone` (-1: the last) to `seat` alone, who then
    announces its suit and proves it (невидимый's bottom card); the suit feeds the chance
    action."""

    zone: Zone
    position: int
    seat: int
    step: str = "trump-view"


class DrawLot(NamedTuple):
    among: tuple[int, ...]
    step: str = "lot"


class JointCoin(NamedTuple):
    """A random order of `items` things every seat contributes to (Длинный's sixes: the
    order of the four suits); the permutation feeds the chance actions."""

    step: str
    items: int


class Reshuffle(NamedTuple):
    """Every seat re-masks and permutes `parts` (each a zone and how many of its first cards;
    -1: all of them), then the family's shuffle action is applied, whose movements put the
    slots where they go."""

    step: str
    parts: tuple[tuple[Zone, int], ...]


class Audit(NamedTuple):
    """The game is over: every seat publishes its keys; the family checks what a partial view
    had to take on trust."""

    step: str = "audit"


ChanceRequest = ShuffleDeck | OpenCard | ProveSuit | DrawLot | JointCoin | \
    Reshuffle | Audit


# ---- what the screen and the help need --------------------------------------------------------


class Command(Enum):
    """A command a table's rules may offer beyond playing a card, taking and passing."""

    TRANSFER = "transfer"
    CHAIN = "chain"  # крестовый: take the first card and lay one for the next player
    CLAIM = "claim"  # show the lowest trump for the first move
    CLAIM_CARD = "claim_card"  # show the lowest card (no trump)
    SHOW = "show"  # transfer by showing a trump
    PROEZDNOY = "proezdnoy"  # show a trump backwards
    LEAD_STOCK = "lead_stock"  # lead the top stock card unseen
    DOUBT = "doubt"  # верю не верю
    EXCHANGE = "exchange"  # покерный
    SEND_BACK = "send_back"  # щелковский
    DUMMY = "dummy"  # с болваном: play the dummy's cards


class Capabilities(NamedTuple):
    """What a UI needs to know of a rule set, typed (never a knob string)."""

    family: str
    commands: frozenset[Command]
    has_trump: bool
    has_stock: bool
    teams: int  # seats per team, 0 without teams
    scored: bool  # a count per seat (очковый, погонный, фигурный)
    blind_hands: bool  # a player never sees his own hand (оборотный)
    remask_open_hands: bool  # the deck must re-mask a hand holding a card known to all
    # (a face-down card is named by its slot: верю не верю)


class Shape(IntEnum):
    PILE = 0  # a stack, only its count (and top card) shown: the stock, the discard
    PAIRS = 1  # attack cards each with its cover (a bout's table)
    CHAIN = 2  # cards in the order played (a beat chain, a ladder, a trick)
    ROW = 3  # cards side by side (a tableau row, a spread by position)


class ZoneView(NamedTuple):
    zone: Zone
    shape: Shape
    size: int
    face_up: tuple[int, ...]  # the cards shown face up, in the shape's order (-1: face down)


class SeatView(NamedTuple):
    seat: int
    cards: int  # how many cards in hand
    roles: tuple[str, ...]  # "attacker", "defender", "to_act", "out", "dummy" …
    # cards of that hand every seat has seen (Дурак чухонский: taken from the pile face up)
    face_up: tuple[int, ...] = ()


class TableView(NamedTuple):
    """One seat's screen of the table: the zones to draw and every seat."""

    zones: tuple[ZoneView, ...]
    seats: tuple[SeatView, ...]
    trump_suit: int  # -1: none
    trump_card: int  # -1: none face up


class Outcome(NamedTuple):
    """A finished game, for the series and the screen: the losers (durak, or everyone but the
    winners), the winners, a draw, and a score per seat where the game keeps one."""

    losers: tuple[int, ...]
    winners: tuple[int, ...]
    draw: bool
    scores: tuple[int, ...] = ()


# ---- the interface ----------------------------------------------------------------------------


class GameFamily(Protocol[RulesT, StateT, ActionT]):
    """One kind of game. Every method is pure; states are immutable."""

    name: str

    def new_game(self, rules: RulesT, n_players: int, dealer: int,
                 deck_order: Sequence[int] | None = None,
                 previous: StateT | None = None) -> StateT:
        """A game's first state: a full state (`deck_order`, top first) or a partial view
        (None: every card unknown); `previous`: the last game of the series, final."""
        ...

    def to_act(self, state: StateT) -> frozenset[int]:
        """The seats that may act now (several where moves race), {CHANCE} for chance."""
        ...

    def legal_actions(self, state: StateT, seat: int) -> tuple[ActionT, ...]: ...

    def apply(self, state: StateT, action: ActionT) -> tuple[StateT, tuple[object, ...]]:
        """The new state and the events; raises the family's refusal (with a reason)."""
        ...

    def step(self, state: StateT, action: ActionT) -> StateT: ...

    def movements(self, before: StateT, action: ActionT, events: tuple[object, ...],
                  after: StateT) -> tuple[Movement, ...]:
        """Where the cards of this transition went (only a table asks)."""
        ...

    def initial_layout(self, state: StateT) -> tuple[tuple[Zone, tuple[int, ...]], ...]:
        """Where the shuffled deck's slots lie before the deal (zone, slots in order)."""
        ...

    def chance(self, state: StateT) -> ChanceRequest | None:
        """What the deck must do before the game can go on, or None."""
        ...

    def chance_actions(self, state: StateT, request: ChanceRequest,
                       value: int | tuple[int, ...]) -> tuple[ActionT, ...]:
        """The chance actions the deck's answer to `request` makes: the opened card or the
        proven suit, the lot's winner, a coin's permutation; ignored for a shuffle."""
        ...

    def sequencer(self, state: StateT) -> int: ...

    def plays_for(self, state: StateT, seat: int) -> int:
        """The seat whose player sees and plays `seat`'s hand."""
        ...

    def result(self, state: StateT) -> Outcome | None: ...

    def public_view(self, state: StateT) -> object: ...

    def private_view(self, state: StateT, seat: int) -> StateT: ...

    def learn(self, state: StateT, seat: int, cards: tuple[int, ...]) -> StateT: ...

    def state_hash(self, state: StateT) -> bytes: ...

    def capabilities(self, rules: RulesT) -> Capabilities: ...

    def table_view(self, state: StateT, seat: int) -> TableView: ...

    def encode_action(self, action: ActionT) -> object: ...

    def decode_action(self, raw: object) -> ActionT: ...
