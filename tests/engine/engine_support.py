"""Helpers for the engine tests: decks from readable hands, an action notation, a table driver.

Scenarios are written the way a person describes a deal: each seat's hand, the turned trump
card and the top of the stock, in card notation ("6♠ 10♥ Q♦ A♣"). `deck_order` turns that into
the deck order `new_game` takes, knowing how the engine deals (SP3: one card at a time,
clockwise, starting at the dealer's left) and where it puts the trump card and the потайной card.

The action notation is one line per action, used by the scenarios and the golden games:

    deal | reveal 7♦ | announce D | lot 2 | shuffle 5
    0 claim 6♦ | 0 no_trump | 2 name_trump hearts
    0 lead 6♠ 6♥ | 2 throw 6♦ | 1 beat 7♠ on 6♠ | 1 transfer 6♣ | 1 show 6♦ | 0 lead_stock
    1 take | 2 pass
    1 cover 7♠ on 6♠ | 1 cover ? on 6♠ | 2 doubt 6♠   (верю не верю: a face-down cover, its
    public form, «сомневаюсь» about the cover of 6♠)
    1 exchange 6♥ 8♠ | 1 exchange   (покерный: two cards swapped with the stock, its public form)
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Any

import pytest

from p2p_durak.bots.random_bot import RandomBot
from p2p_durak.engine import (
    CHANCE,
    UNKNOWN,
    Action,
    Game,
    IllegalAction,
    Phase,
    RuleSet,
    State,
    apply,
    cards_of,
    chance_outcome,
    is_over,
    legal_actions,
    make_game,
    new_game,
    state_hash,
    to_act,
)
from p2p_durak.engine import actions as A
from p2p_durak.engine.presets import get_preset

# ---- cards -------------------------------------------------------------------------------

def card(game: Game, text: str) -> int:
    return game.deck.parse(text)


def cards(game: Game, text: str) -> tuple[int, ...]:
    return tuple(game.deck.parse(t) for t in text.split())


def card_text(game: Game, card_id: int) -> str:
    return game.deck.card_text(card_id, "en")


def mask_text(game: Game, mask: int) -> str:
    """A hand mask as readable text, by suit then rank."""
    ids = sorted(cards_of(mask), key=lambda c: (game.suit[c], game.rank[c]))
    return " ".join(card_text(game, c) for c in ids)


def deck_order(game: Game, hands: Sequence[str], trump: str | None = None,
               hidden: str | None = None, stock: str = "") -> list[int]:
    """The deck order (top first) that deals `hands` to seats 0..n-1.

    `trump` is the card turned face up after the deal (it ends up under the stock, drawn
    last); `hidden` the потайной card laid face down under it; `stock` the next cards drawn,
    top first. Cards named nowhere follow the listed stock, in id order, above the trump card.
    """
    n = game.n_players
    size = game.rules.hand_size
    if len(hands) != n:
        raise ValueError(f"{len(hands)} hands for {n} seats")
    seat_cards = [cards(game, h) for h in hands]
    for seat, held in enumerate(seat_cards):
        if len(held) != size:
            raise ValueError(f"seat {seat} is given {len(held)} cards, not {size}")
    dealt = [seat_cards[(k + 1 + game.dealer) % n][k // n] for k in range(n * size)]
    rest: list[int] = []
    if trump is not None:
        if n * size == game.n_cards:
            if card(game, trump) != dealt[-1]:
                raise ValueError("with no stock left the trump is the last dealt card")
        else:
            rest.append(card(game, trump))
    if hidden is not None:
        rest.append(card(game, hidden))
    rest.extend(cards(game, stock))
    order = dealt + rest
    if len(set(order)) != len(order):
        raise ValueError("a card is named twice")
    named = set(order)
    order += [c for c in range(game.n_cards) if c not in named]
    return order


# ---- notation ----------------------------------------------------------------------------

_NAMES = {A.LEAD: "lead", A.THROW: "throw", A.BEAT: "beat", A.TRANSFER: "transfer",
          A.SHOW: "show", A.TAKE: "take", A.PASS: "pass", A.CLAIM: "claim",
          A.NO_TRUMP: "no_trump", A.LEAD_STOCK: "lead_stock",
          A.CAPTURE: "capture", A.CHAIN: "chain", A.COVER: "cover", A.CHALLENGE: "doubt",
          A.EXCHANGE: "exchange", A.SEND_BACK: "send_back"}
_KINDS = {v: k for k, v in _NAMES.items()}
_SUITS = ("spades", "clubs", "diamonds", "hearts")


def format_action(state: State, action: Action) -> str:
    game = state.game
    kind = action.kind
    if kind == A.DEAL:
        return "deal"
    if kind == A.REVEAL and not action.cards:
        return "announce " + "SCDH"[action.target]  # невидимый: only the suit
    if kind == A.REVEAL:
        return "reveal " + card_text(game, action.cards[0])
    if kind == A.LOT:
        return f"lot {action.target}"
    if kind == A.SHUFFLE:
        return f"shuffle {action.target}"  # отбойный
    if kind == A.NAME_TRUMP:
        return f"{action.seat} name_trump {_SUITS[action.target]}"
    words = [str(action.seat), _NAMES[kind]]
    words += [card_text(game, c) for c in action.cards]
    if kind == A.COVER:
        return " ".join(words + (["?"] if not action.cards else [])
                        + ["on", card_text(game, state.table[action.target])])
    if kind == A.CHALLENGE:
        return " ".join(words + [card_text(game, state.table[action.target])])
    if kind == A.BEAT:
        words += ["on", card_text(game, state.table[action.target])]
    return " ".join(words)


def parse_action(state: State, text: str) -> Action:
    game = state.game
    words = text.split()
    if words == ["deal"]:
        return A.deal()
    if words[0] == "announce":
        return A.announce_suit("SCDH".index(words[1]))
    if words[0] == "reveal":
        return A.reveal(card(game, words[1]))
    if words[0] == "lot":
        return A.lot(int(words[1]))
    if words[0] == "shuffle":
        return A.shuffle(int(words[1]))
    if words[1:2] == ["name_trump"]:
        return A.name_trump(int(words[0]), _SUITS.index(words[2]))
    seat, kind = int(words[0]), _KINDS[words[1]]
    args = words[2:]
    if kind == A.BEAT:
        if len(args) != 3 or args[1] != "on":
            raise ValueError(f"write a beat as 'SEAT beat CARD on ATTACK_CARD': {text!r}")
        attack = card(game, args[2])
        return A.beat(seat, card(game, args[0]), state.table.index(attack))
    if kind == A.COVER:
        if len(args) != 3 or args[1] != "on":
            raise ValueError(f"write a cover as 'SEAT cover CARD|? on ATTACK_CARD': {text!r}")
        index = state.table.index(card(game, args[2]))
        return A.cover(seat, None if args[0] == "?" else card(game, args[0]), index)
    if kind == A.CHALLENGE:
        return A.challenge(seat, state.table.index(card(game, args[0])))
    ids = tuple(card(game, w) for w in args)
    if kind == A.EXCHANGE:
        return A.exchange(seat, *ids)
    if kind == A.LEAD:
        return A.lead(seat, *ids)
    return Action(kind, seat, ids)


# ---- a table driven by notation ------------------------------------------------------------

def preset_rules(preset: str, **knobs: Any) -> RuleSet:
    rules = get_preset(preset).rules
    return rules.with_options(**knobs) if knobs else rules


class Table:
    """One full-information game, set up from readable hands and driven by notation lines."""

    def __init__(self, preset: str, hands: Sequence[str], trump: str | None = None, *,
                 hidden: str | None = None, stock: str = "", dealer: int = 0,
                 first_attacker: int | None = None, **knobs: Any) -> None:
        rules = preset_rules(preset, **knobs)
        self.game = make_game(rules, len(hands), dealer, first_attacker)
        self.state = new_game(self.game, deck_order(self.game, hands, trump, hidden, stock))
        self.events: list[Any] = []  # events of the last `do`
        self.log: list[str] = []

    # cards
    def c(self, text: str) -> int:
        return card(self.game, text)

    def cs(self, text: str) -> tuple[int, ...]:
        return cards(self.game, text)

    def hand(self, seat: int) -> str:
        return mask_text(self.game, self.state.hands[seat])

    def table_text(self) -> list[tuple[str, str | None]]:
        g, s = self.game, self.state
        return [(card_text(g, a), None if c == UNKNOWN else card_text(g, c))
                for a, c in zip(s.table, s.covers, strict=True)]

    # driving
    def act(self, text: str) -> Action:
        return parse_action(self.state, text)

    def do(self, *lines: str) -> State:
        """Apply each line; `events` holds the events of all of them."""
        self.events = []
        for line in lines:
            action = parse_action(self.state, line)
            self.state, events = apply(self.state, action)
            self.events.extend(events)
            self.log.append(line)
        return self.state

    def setup(self, lot: int | None = None) -> State:
        """Deal, turn the trump, let every seat claim its lowest trump (each seat has exactly
        one legal claim in a full state) and draw the lot if needed: up to the first lead."""
        events: list[Any] = []
        while self.state.phase not in (Phase.LEAD, Phase.OVER):
            if CHANCE in to_act(self.state):
                action = chance_outcome(self.state)
                if action is None:
                    if lot is None:
                        raise AssertionError("a lot is needed: pass lot=SEAT")
                    action = A.lot(lot)
            else:
                (seat,) = to_act(self.state)
                (action,) = legal_actions(self.state, seat)
            self.log.append(format_action(self.state, action))
            self.state, new = apply(self.state, action)
            events.extend(new)
        self.events = events
        return self.state

    def refuse(self, text: str | Action) -> IllegalAction:
        """Assert the action is refused with a reason in both languages, the state unchanged."""
        action = parse_action(self.state, text) if isinstance(text, str) else text
        before, before_hash = tuple(self.state), state_hash(self.state)
        with pytest.raises(IllegalAction) as caught:
            apply(self.state, action)
        error = caught.value
        assert tuple(self.state) == before
        assert state_hash(self.state) == before_hash
        assert error.code == error.reason.name
        assert error.message("en")
        assert error.message("ru") != error.message("en")
        assert any("а" <= ch <= "я" for ch in error.message("ru").lower())
        return error

    def legal(self, seat: int) -> list[str]:
        return [format_action(self.state, a) for a in legal_actions(self.state, seat)]

    def of(self, kind: type) -> list[Any]:
        return [e for e in self.events if isinstance(e, kind)]


# ---- random play -------------------------------------------------------------------------

def random_playout(game: Game, order: Iterable[int], rng: random.Random,
                   max_actions: int = 20_000) -> tuple[State, list[Action]]:
    """A random game from a deck order; the final state and the whole action log."""
    state = new_game(game, order)
    bot = RandomBot(rng)
    log: list[Action] = []
    while not is_over(state):
        if len(log) >= max_actions:
            raise AssertionError(f"no end after {max_actions} actions")
        actors = sorted(to_act(state))
        if actors == [CHANCE]:
            action = chance_outcome(state) or rng.choice(legal_actions(state, CHANCE))
        else:
            action = bot.choose(state, rng.choice(actors))
        state, _ = apply(state, action)
        log.append(action)
    return state, log
