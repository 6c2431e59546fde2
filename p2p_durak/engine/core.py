"""The rules: `new_game`, `to_act`, `legal_actions`, `apply`, `sequencer`.

Pure functions over immutable `State`s. Chance is an input: the deck order comes from outside
(`new_game(..., deck_order)`), and every chance event — the deal, a reveal, a lot — is an
explicit action by the `CHANCE` pseudo-seat, so the same action log drives a full state and a
node's partial view to the same public state.

Throw-ins are concurrent: while a bout is open every eligible thrower and the defender may act
(`to_act` returns them all); the networked game orders racing actions in its log. A thrower's
pass holds until the table changes (SP9: a pass is not final); the bout closes when every card
is covered, or the defender has said «беру», and no eligible thrower is left to act.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import combinations

from p2p_durak.engine import actions as A
from p2p_durak.engine import events as E
from p2p_durak.engine.actions import CHANCE, Action
from p2p_durak.engine.cards import NO_SUIT
from p2p_durak.engine.errors import IllegalAction, Reason
from p2p_durak.engine.rules import RuleSet, validate
from p2p_durak.engine.state import (
    BOUT,
    CLAIM,
    DEAL,
    LEAD,
    LOT,
    NO_CARD,
    OVER,
    REVEAL_HIDDEN,
    REVEAL_TRUMP,
    UNKNOWN,
    Game,
    Result,
    State,
    known_cards,
)

_SUIT_BY_NAME = {"spades": 0, "clubs": 1, "diamonds": 2, "hearts": 3}
_GAMES: dict[tuple[RuleSet, int, int, int | None, int], Game] = {}


def make_game(rules: RuleSet, n_players: int, dealer: int = 0,
              first_attacker: int | None = None, game_index: int = 0) -> Game:
    """The fixed part of a game; cached, since simulations start thousands of games."""
    key = (rules, n_players, dealer, first_attacker, game_index)
    game = _GAMES.get(key)
    if game is None:
        validate(rules, n_players)
        if not 0 <= dealer < n_players:
            raise ValueError(f"dealer {dealer} is not a seat of {n_players}")
        if first_attacker is not None and not 0 <= first_attacker < n_players:
            raise ValueError(f"first attacker {first_attacker} is not a seat of {n_players}")
        game = Game(rules, n_players, dealer, first_attacker, game_index)
        if len(_GAMES) > 4096:
            _GAMES.clear()
        _GAMES[key] = game
    return game


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
    hidden_trump = UNKNOWN if game.rules.trump_change == "hidden_second" else NO_CARD
    return State(game, DEAL, (0,) * n, (0,) * n, stock, NO_SUIT, NO_CARD, hidden_trump, UNKNOWN,
                 (), (), (), -1, -1, False, 0, 0, 0, (), 0, 0, (), (), None)


# ---- who acts ----------------------------------------------------------------------------

def to_act(state: State) -> frozenset[int]:
    """Every seat that may act now (several while cards can be thrown in); CHANCE in chance
    phases; nobody when the game is over."""
    phase = state.phase
    if phase == BOUT:
        return frozenset(_bout_actors(state))
    if phase == LEAD:
        return frozenset((state.attacker,))
    if phase in (DEAL, REVEAL_TRUMP, LOT, REVEAL_HIDDEN):
        return frozenset((CHANCE,))
    if phase == CLAIM:
        return frozenset((_claimant(state),))
    return frozenset()


def sequencer(state: State) -> int:
    """The seat that orders the next log entry in the networked game.

    While a bout is open it is the defender, the one seat in every race; in turn-based
    phases the seat whose turn it is; in chance phases, and once the game is over, the dealer.
    """
    phase = state.phase
    if phase == BOUT:
        return state.defender
    if phase == LEAD:
        return state.attacker
    if phase == CLAIM:
        return _claimant(state)
    return state.game.dealer


def is_over(state: State) -> bool:
    return state.phase == OVER


def _claimant(state: State) -> int:
    return (state.game.dealer + 1 + len(state.claims)) % state.game.n_players


def _bout_actors(state: State) -> list[int]:
    actors = []
    if not state.taking and UNKNOWN in state.covers:
        actors.append(state.defender)
    actors.extend(_throwers(state))
    return actors


def _throwers(state: State) -> list[int]:
    """Seats that may throw in now and have not passed since the table last changed."""
    game = state.game
    rules = game.rules
    if not rules.throw_in:
        return []
    if state.taking:
        if not rules.throw_in_after_take:
            return []
    elif rules.throw_in_timing == "after_beat" and UNKNOWN in state.covers:
        return []
    if not _room_for_one_more(state):
        return []
    defender = state.defender
    n = game.n_players
    by = rules.throw_in_by
    out = []
    for offset in range(n):
        seat = (state.attacker + offset) % n
        if seat == defender or (state.out >> seat) & 1 or (state.passed >> seat) & 1:
            continue
        if not state.hands[seat] and not state.hidden[seat]:
            continue
        if by == "opponents_of_defender" and not game.opponents(seat, defender):
            continue
        if by == "neighbours_of_defender" and seat not in _neighbours(state, defender):
            continue
        out.append(seat)
    return out


def _neighbours(state: State, seat: int) -> tuple[int, int]:
    return (_next_active(state, seat, -1), _next_active(state, seat, 1))


def _limit(state: State) -> int | None:
    rules = state.game.rules
    return rules.first_bout_attack_limit if state.bout == 0 else rules.bout_attack_limit


def _room_for_one_more(state: State) -> bool:
    limit = _limit(state)
    if limit is not None and len(state.table) >= limit:
        return False
    if state.game.rules.defender_hand_cap:
        uncovered = state.covers.count(UNKNOWN)
        return uncovered + 1 <= state.hand_size(state.defender)
    return True


# ---- legal actions -----------------------------------------------------------------------

def legal_actions(state: State, seat: int) -> tuple[Action, ...]:
    """The seat's legal actions, sorted. In a partial view only actions with cards this view
    knows are listed (a node lists its own seat's, which it knows fully)."""
    phase = state.phase
    if phase == BOUT:
        out: list[Action] = []
        if seat == state.defender:
            if not state.taking and UNKNOWN in state.covers:
                out.extend(_defender_actions(state))
        elif seat in _throwers(state):
            ranks = _table_ranks(state)
            game = state.game
            cards = state.hands[seat] & _mask_of_ranks(game, ranks)
            out.extend(A.Action(A.THROW, seat, (c,)) for c in _bits(cards))
            out.append(A.Action(A.PASS, seat))
        return tuple(sorted(out))
    if phase == LEAD:
        if seat != state.attacker:
            return ()
        return tuple(sorted(_leads(state)))
    if seat == CHANCE:
        return tuple(sorted(_chance_outcomes(state)))
    if phase == CLAIM and seat == _claimant(state):
        return tuple(sorted(_claims(state, seat)))
    return ()


def _bits(mask: int) -> Iterable[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def _table_ranks(state: State) -> set[int]:
    rank = state.game.rank
    ranks = {rank[c] for c in state.table}
    ranks.update(rank[c] for c in state.covers if c >= 0)
    ranks.discard(-1)
    return ranks


def _mask_of_ranks(game: Game, ranks: Iterable[int]) -> int:
    mask = 0
    for r in ranks:
        mask |= game.rank_mask.get(r, 0)
    return mask


def _max_lead(state: State) -> int:
    cap = _limit(state)
    if state.game.rules.defender_hand_cap:
        size = state.hand_size(state.defender)
        cap = size if cap is None else min(cap, size)
    rules = state.game.rules
    if rules.lead_rule == "single":
        cap = 1 if cap is None else min(cap, 1)
    if rules.lead_max is not None:
        cap = rules.lead_max if cap is None else min(cap, rules.lead_max)
    return 64 if cap is None else cap


def _leads(state: State) -> list[Action]:
    seat = state.attacker
    hand = state.hands[seat]
    cap = _max_lead(state)
    game = state.game
    out: list[Action] = []
    by_rank: dict[int, list[int]] = {}
    for card in _bits(hand):
        by_rank.setdefault(game.rank[card], []).append(card)
    for cards in by_rank.values():
        for k in range(1, min(cap, len(cards)) + 1):
            out.extend(A.Action(A.LEAD, seat, combo) for combo in combinations(cards, k))
    return out


def _defender_actions(state: State) -> list[Action]:
    game = state.game
    seat = state.defender
    hand = state.hands[seat]
    beaters = game.beaters(state.trump)
    out: list[Action] = []
    for index, attack in enumerate(state.table):
        if state.covers[index] == UNKNOWN:
            out.extend(A.Action(A.BEAT, seat, (c,), index) for c in _bits(hand & beaters[attack]))
    out.append(A.Action(A.TAKE, seat))
    if _transfer_window_open(state):
        rank = game.rank[state.table[0]]
        same = hand & game.rank_mask.get(rank, 0)
        target = _transfer_target(state)
        if same and _can_transfer_cards(state, target, len(state.table) + 1):
            out.extend(A.Action(A.TRANSFER, seat, (c,)) for c in _bits(same))
        if game.rules.transfer_by_showing == "forward" and state.trump != NO_SUIT:
            showable = same & game.suit_mask[state.trump] & ~state.shown
            if showable and _can_transfer_cards(state, target, len(state.table), adds=False):
                out.extend(A.Action(A.SHOW, seat, (c,)) for c in _bits(showable))
    return out


def _transfer_window_open(state: State) -> bool:
    rules = state.game.rules
    if not rules.transfer or state.taking:
        return False
    # before_first_cover: nothing covered yet, so every attack card shares the lead's rank
    return all(c == UNKNOWN for c in state.covers)


def _transfer_target(state: State) -> int:
    if state.game.rules.transfer_target == "next_active_opponent":
        return _next_opponent(state, state.defender)
    return _next_active(state, state.defender, 1)


def _can_transfer_cards(state: State, target: int, total: int, *, adds: bool = True) -> bool:
    if target == state.defender:
        return False
    if adds:
        limit = _limit(state)
        if limit is not None and total > limit:
            return False
    rules = state.game.rules
    return not rules.transfer_capacity_check or state.hand_size(target) >= total


def _claims(state: State, seat: int) -> list[Action]:
    game = state.game
    trumps = state.hands[seat] & game.suit_mask[state.trump]
    if state.hidden[seat] == 0:
        if not trumps:
            return [A.Action(A.NO_TRUMP, seat)]
        lowest = min(_bits(trumps), key=lambda c: (game.rank[c], c))
        return [A.Action(A.CLAIM, seat, (lowest,))]
    # A partial view of another seat cannot tell its lowest trump (see docs/rules.md).
    return [A.Action(A.NO_TRUMP, seat)] + [A.Action(A.CLAIM, seat, (c,)) for c in _bits(trumps)]


def _chance_outcomes(state: State) -> list[Action]:
    phase = state.phase
    if phase == DEAL:
        return [A.Action(A.DEAL, CHANCE)]
    if phase == LOT:
        return [A.Action(A.LOT, CHANCE, (), s) for s in state.lot_among]
    if phase in (REVEAL_TRUMP, REVEAL_HIDDEN):
        if state.reveal_card >= 0:
            return [A.Action(A.REVEAL, CHANCE, (state.reveal_card,))]
        unknown = state.game.all_cards & ~known_cards(state)
        return [A.Action(A.REVEAL, CHANCE, (c,)) for c in _bits(unknown)]
    return []


def chance_outcome(state: State) -> Action | None:
    """In a full state, the chance action that must come next when it is determined
    (the deal, a reveal); None for a lot (several outcomes) or outside chance phases."""
    if CHANCE not in to_act(state):
        return None
    outcomes = _chance_outcomes(state)
    return outcomes[0] if len(outcomes) == 1 else None


# ---- apply -------------------------------------------------------------------------------

def apply(state: State, action: Action) -> tuple[State, tuple[E.Event, ...]]:
    """The state after `action` and the events it caused. Raises `IllegalAction` (with the
    input state, being immutable, unchanged)."""
    events: list[E.Event] = []
    return _apply(state, action, events), tuple(events)


def step(state: State, action: Action) -> State:
    """`apply` without the events, for simulation."""
    return _apply(state, action, None)


_Events = list[E.Event] | None


def _apply(state: State, action: Action, ev: _Events) -> State:
    if not isinstance(action, Action):
        raise IllegalAction(Reason.BAD_ACTION, repr(action))
    kind = action.kind
    phase = state.phase
    if phase == OVER:
        raise IllegalAction(Reason.GAME_OVER)
    if phase == BOUT:
        if kind == A.BEAT:
            return _beat(state, action, ev)
        if kind == A.THROW:
            return _throw(state, action, ev)
        if kind == A.PASS:
            return _pass(state, action, ev)
        if kind == A.TAKE:
            return _take(state, action, ev)
        if kind in (A.TRANSFER, A.SHOW):
            return _transfer(state, action, ev)
        raise IllegalAction(Reason.WRONG_PHASE, A.Kind(kind).name if 0 <= kind < 12 else "?")
    if phase == LEAD:
        if kind != A.LEAD:
            raise IllegalAction(Reason.WRONG_PHASE)
        return _lead(state, action, ev)
    if phase == DEAL and kind == A.DEAL:
        return _deal(state, ev)
    if phase in (REVEAL_TRUMP, REVEAL_HIDDEN) and kind == A.REVEAL:
        return _reveal(state, action, ev)
    if phase == CLAIM and kind in (A.CLAIM, A.NO_TRUMP):
        return _claim(state, action, ev)
    if phase == LOT and kind == A.LOT:
        return _lot(state, action, ev)
    raise IllegalAction(Reason.WRONG_PHASE)


def _holds(state: State, seat: int, card: int) -> bool:
    if (state.hands[seat] >> card) & 1:
        return True
    return state.hidden[seat] > 0 and not (known_cards(state) >> card) & 1


def _without(state: State, seat: int, card: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Hands and hidden counts with `card` taken from `seat` (from the known or hidden part)."""
    hands, hidden = state.hands, state.hidden
    if (hands[seat] >> card) & 1:
        hands = hands[:seat] + (hands[seat] & ~(1 << card),) + hands[seat + 1:]
    else:
        hidden = hidden[:seat] + (hidden[seat] - 1,) + hidden[seat + 1:]
    return hands, hidden


def _check_card(state: State, seat: int, card: int) -> None:
    if not 0 <= card < state.game.n_cards or not _holds(state, seat, card):
        raise IllegalAction(Reason.NOT_IN_HAND, f"seat {seat}, card {card}")


def _lead(state: State, action: Action, ev: _Events) -> State:
    seat = action.seat
    if seat != state.attacker:
        raise IllegalAction(Reason.NOT_YOUR_TURN)
    cards = action.cards
    if not cards or len(set(cards)) != len(cards):
        raise IllegalAction(Reason.BAD_ACTION, "a lead needs distinct cards")
    game = state.game
    for card in cards:
        _check_card(state, seat, card)
    rank = game.rank[cards[0]]
    if rank < 0 or any(game.rank[c] != rank for c in cards):
        raise IllegalAction(Reason.NOT_SAME_RANK)
    if len(cards) > _max_lead(state):
        raise IllegalAction(Reason.TOO_MANY_CARDS)
    hands, hidden = state.hands, state.hidden
    for card in cards:
        hands, hidden = _without(state._replace(hands=hands, hidden=hidden), seat, card)
    if ev is not None:
        ev.append(E.Led(seat, tuple(cards)))
    state = state._replace(phase=BOUT, hands=hands, hidden=hidden, table=tuple(cards),
                           covers=(UNKNOWN,) * len(cards), table_by=(seat,) * len(cards),
                           passed=0)
    return _settle(state, ev)


def _throw(state: State, action: Action, ev: _Events) -> State:
    seat = action.seat
    if seat == state.defender or seat not in _throwers(state):
        raise IllegalAction(Reason.THROW_IN_NOT_ALLOWED if not (state.passed >> seat) & 1
                            else Reason.ALREADY_PASSED)
    if len(action.cards) != 1:
        raise IllegalAction(Reason.BAD_ACTION, "a throw-in is one card")
    card = action.cards[0]
    _check_card(state, seat, card)
    if state.game.rank[card] not in _table_ranks(state):
        raise IllegalAction(Reason.RANK_NOT_ON_TABLE)
    hands, hidden = _without(state, seat, card)
    if ev is not None:
        ev.append(E.ThrewIn(seat, card))
    state = state._replace(hands=hands, hidden=hidden, table=state.table + (card,),
                           covers=state.covers + (UNKNOWN,), table_by=state.table_by + (seat,),
                           passed=0)
    return _settle(state, ev)


def _beat(state: State, action: Action, ev: _Events) -> State:
    seat = action.seat
    if seat != state.defender:
        raise IllegalAction(Reason.NOT_YOUR_TURN)
    if state.taking:
        raise IllegalAction(Reason.ALREADY_TAKING)
    target = action.target
    if len(action.cards) != 1:
        raise IllegalAction(Reason.BAD_ACTION, "a beat is one card")
    if not 0 <= target < len(state.table):
        raise IllegalAction(Reason.NO_SUCH_TARGET)
    if state.covers[target] != UNKNOWN:
        raise IllegalAction(Reason.ALREADY_COVERED)
    card = action.cards[0]
    _check_card(state, seat, card)
    attack = state.table[target]
    if not (state.game.beaters(state.trump)[attack] >> card) & 1:
        raise IllegalAction(Reason.DOES_NOT_BEAT)
    hands, hidden = _without(state, seat, card)
    if ev is not None:
        ev.append(E.Beat(seat, card, attack))
    covers = state.covers[:target] + (card,) + state.covers[target + 1:]
    state = state._replace(hands=hands, hidden=hidden, covers=covers, passed=0)
    return _settle(state, ev)


def _take(state: State, action: Action, ev: _Events) -> State:
    if action.seat != state.defender:
        raise IllegalAction(Reason.NOT_YOUR_TURN)
    if state.taking:
        raise IllegalAction(Reason.ALREADY_TAKING)
    if UNKNOWN not in state.covers:
        raise IllegalAction(Reason.NOTHING_TO_TAKE)
    if ev is not None:
        ev.append(E.TakeDeclared(action.seat))
    return _settle(state._replace(taking=True, passed=0), ev)


def _pass(state: State, action: Action, ev: _Events) -> State:
    seat = action.seat
    if (state.passed >> seat) & 1:
        raise IllegalAction(Reason.ALREADY_PASSED)
    if seat not in _throwers(state):
        raise IllegalAction(Reason.NOT_YOUR_TURN)
    if ev is not None:
        ev.append(E.Passed(seat))
    return _settle(state._replace(passed=state.passed | (1 << seat)), ev)


def _transfer(state: State, action: Action, ev: _Events) -> State:
    seat = action.seat
    game = state.game
    showing = action.kind == A.SHOW
    if seat != state.defender:
        raise IllegalAction(Reason.NOT_YOUR_TURN)
    if not _transfer_window_open(state):
        raise IllegalAction(Reason.TRANSFER_NOT_ALLOWED)
    if showing and game.rules.transfer_by_showing != "forward":
        raise IllegalAction(Reason.SHOW_NOT_ALLOWED, "transfer by showing is off")
    if len(action.cards) != 1:
        raise IllegalAction(Reason.BAD_ACTION, "a transfer is one card")
    card = action.cards[0]
    _check_card(state, seat, card)
    if game.rank[card] != game.rank[state.table[0]]:
        raise IllegalAction(Reason.TRANSFER_NOT_ALLOWED, "the card must be of the attack rank")
    if showing and (game.suit[card] != state.trump or (state.shown >> card) & 1):
        raise IllegalAction(Reason.SHOW_NOT_ALLOWED)
    target = _transfer_target(state)
    total = len(state.table) + (0 if showing else 1)
    if not _can_transfer_cards(state, target, total, adds=not showing):
        raise IllegalAction(Reason.TRANSFER_CAPACITY)
    if ev is not None:
        ev.append(E.Transferred(seat, card, target, showing))
    if showing:
        hands, hidden = state.hands, state.hidden
        if not (hands[seat] >> card) & 1:  # a hidden card, now shown: this view learns it
            hands = hands[:seat] + (hands[seat] | (1 << card),) + hands[seat + 1:]
            hidden = hidden[:seat] + (hidden[seat] - 1,) + hidden[seat + 1:]
        state = state._replace(hands=hands, hidden=hidden, shown=state.shown | (1 << card),
                               defender=target, passed=0)
    else:
        hands, hidden = _without(state, seat, card)
        state = state._replace(hands=hands, hidden=hidden, table=state.table + (card,),
                               covers=state.covers + (UNKNOWN,),
                               table_by=state.table_by + (seat,), defender=target, passed=0)
    return _settle(state, ev)


def _settle(state: State, ev: _Events) -> State:
    """Close the bout when nobody is left to act in it."""
    if _bout_actors(state):
        return state
    return _end_bout(state, ev)


def _end_bout(state: State, ev: _Events) -> State:
    game = state.game
    n = game.n_players
    table_mask = 0
    for card in state.table:
        table_mask |= 1 << card
    for card in state.covers:
        if card >= 0:
            table_mask |= 1 << card
    defender = state.defender
    took = state.taking
    hands, discard = state.hands, state.discard
    if took:
        hands = hands[:defender] + (hands[defender] | table_mask,) + hands[defender + 1:]
        if ev is not None:
            ev.append(E.Took(defender, tuple(_bits(table_mask))))
    else:
        discard |= table_mask
        if ev is not None:
            ev.append(E.Discarded(tuple(_bits(table_mask))))
    state = state._replace(hands=hands, discard=discard, taking=False, passed=0, shown=0)
    final_table, final_by = state.table, state.table_by
    state = _refill(state, ev)
    held_before = [s for s in range(n) if not (state.out >> s) & 1]
    state = _mark_out(state, ev)
    state = state._replace(bout=state.bout + 1, table=(), covers=(), table_by=())
    over = _game_over(state, held_before, final_table, final_by, ev)
    if over is not None:
        return over
    if took:
        attacker = _next_active(state, defender, 1)
    else:
        attacker = defender if not (state.out >> defender) & 1 else _next_active(state, defender, 1)
    state = _start_bout(state, attacker, ev)
    if not state.stock and state.hidden_trump == UNKNOWN:
        # потайной: the stock and the trump card are gone, so the hidden card is turned now
        return state._replace(phase=REVEAL_HIDDEN)
    return state


def _refill(state: State, ev: _Events) -> State:
    rules = state.game.rules
    if not state.stock:
        return state
    n = state.game.n_players
    attacker, defender = state.attacker, state.defender
    if rules.refill_order == "attacker_others_defender_last":
        order = [attacker] + [(attacker + i) % n for i in range(1, n)
                              if (attacker + i) % n != defender]
        if defender != attacker:
            order.append(defender)
    else:  # attacker_then_clockwise
        order = [(attacker + i) % n for i in range(n)]
    hands, hidden, stock = list(state.hands), list(state.hidden), state.stock
    hand_size = rules.hand_size
    for seat in order:
        if not stock:
            break
        if (state.out >> seat) & 1:
            continue
        need = hand_size - hands[seat].bit_count() - hidden[seat]
        if need <= 0:
            continue
        drawn, stock = stock[:need], stock[need:]
        for card in drawn:
            if card >= 0:
                hands[seat] |= 1 << card
            else:
                hidden[seat] += 1
        if ev is not None:
            ev.append(E.Drew(seat, len(drawn), tuple(c for c in drawn if c >= 0)))
    return state._replace(hands=tuple(hands), hidden=tuple(hidden), stock=stock)


def _mark_out(state: State, ev: _Events) -> State:
    if state.stock:
        return state
    out, finish = state.out, state.finish
    n = state.game.n_players
    for offset in range(n):
        seat = (state.attacker + offset) % n
        if not (out >> seat) & 1 and state.hand_size(seat) == 0:
            out |= 1 << seat
            finish = finish + (seat,)
            if ev is not None:
                ev.append(E.PlayerOut(seat))
    return state._replace(out=out, finish=finish)


def _game_over(state: State, held_before: list[int], final_table: tuple[int, ...],
               final_by: tuple[int, ...], ev: _Events) -> State | None:
    game = state.game
    n = game.n_players
    active = [s for s in range(n) if not (state.out >> s) & 1]
    durak: tuple[int, ...]
    if game.rules.loser_rule == "team_last":
        teams_left = {game.team[s] for s in active}
        if len(teams_left) > 1:
            return None
        durak = tuple(active)
    else:
        if len(active) > 1:
            return None
        durak = tuple(active)
    draw = not durak
    pogony = 0
    if durak and game.rules.pogony_sixes:
        went_out = set(held_before) - set(active)
        sixes = sum(1 for card, by in zip(final_table, final_by, strict=True)
                    if by in went_out and game.rank[card] == 6)
        pogony = min(sixes, game.rules.pogony_max)
    result = Result(durak, draw, pogony, state.finish)
    if ev is not None:
        ev.append(E.GameOver(durak, draw, pogony))
    return state._replace(phase=OVER, result=result)


def _next_active(state: State, seat: int, direction: int) -> int:
    n = state.game.n_players
    for step_ in range(1, n + 1):
        other = (seat + direction * step_) % n
        if not (state.out >> other) & 1:
            return other
    return seat


def _next_opponent(state: State, seat: int) -> int:
    game = state.game
    n = game.n_players
    for step_ in range(1, n):
        other = (seat + step_) % n
        if not (state.out >> other) & 1 and game.opponents(seat, other):
            return other
    return seat


def _start_bout(state: State, attacker: int, ev: _Events) -> State:
    if state.game.rules.attack_target == "next_active_opponent":
        defender = _next_opponent(state, attacker)
    else:
        defender = _next_active(state, attacker, 1)
    state = state._replace(phase=LEAD, attacker=attacker, defender=defender, passed=0, shown=0,
                           taking=False)
    if ev is not None:
        limit = _limit(state)
        ev.append(E.BoutStarted(attacker, defender, -1 if limit is None else limit))
    return state


# ---- setup: deal, trump, first attacker ---------------------------------------------------

def _deal(state: State, ev: _Events) -> State:
    game = state.game
    n = game.n_players
    rules = game.rules
    count = n * rules.hand_size
    dealt, stock = state.stock[:count], state.stock[count:]
    hands, hidden = [0] * n, [0] * n
    for k, card in enumerate(dealt):
        seat = (game.dealer + 1 + k) % n
        if card >= 0:
            hands[seat] |= 1 << card
        else:
            hidden[seat] += 1
    if ev is not None:
        ev.append(E.Dealt(game.dealer, tuple(h.bit_count() + c for h, c in zip(hands, hidden,
                                                                                strict=True))))
    state = state._replace(hands=tuple(hands), hidden=tuple(hidden), stock=stock)
    trump_rule = rules.trump_rule
    if trump_rule == "turned_under_stock":
        reveal = stock[0] if stock else dealt[-1]
        return state._replace(phase=REVEAL_TRUMP, reveal_card=reveal)
    trump = _SUIT_BY_NAME[trump_rule.split(":", 1)[1]] if trump_rule.startswith("fixed_suit:") \
        else NO_SUIT
    if ev is not None:
        ev.append(E.TrumpRevealed(NO_CARD, trump))
    return _choose_first_attacker(state._replace(trump=trump), ev)


def _reveal(state: State, action: Action, ev: _Events) -> State:
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
        # The last dealt card, in the dealer's hand: it may be known there or still hidden.
        dealer = game.dealer
        if not _holds(state, dealer, card):
            raise IllegalAction(Reason.BAD_CHANCE, "the dealer cannot hold that card")
    elif (known_cards(state) >> card) & 1:
        raise IllegalAction(Reason.BAD_CHANCE, "that card is known to be elsewhere")
    suit = game.suit[card]
    if state.phase == REVEAL_HIDDEN:
        if ev is not None:
            ev.append(E.HiddenTrumpRevealed(card, suit))
        return state._replace(phase=LEAD, hidden_trump=card, reveal_card=UNKNOWN,
                              trump=suit if suit >= 0 else state.trump)
    if ev is not None:
        ev.append(E.TrumpRevealed(card, suit))
    if state.stock:
        stock = state.stock[1:] + (card,)  # turned face up and put under the stock
        pending = UNKNOWN
        if state.hidden_trump == UNKNOWN:
            # потайной: the next card lies face down under the trump card, out of play. A full
            # state keeps its identity in `reveal_card`, which only the chance reveal reads.
            pending, stock = stock[0], stock[1:]
        state = state._replace(stock=stock, trump=suit, trump_card=card, reveal_card=pending)
    else:
        hands, hidden = state.hands, state.hidden
        dealer = game.dealer
        if not (hands[dealer] >> card) & 1:
            hands = hands[:dealer] + (hands[dealer] | (1 << card),) + hands[dealer + 1:]
            hidden = hidden[:dealer] + (hidden[dealer] - 1,) + hidden[dealer + 1:]
        state = state._replace(hands=hands, hidden=hidden, trump=suit, trump_card=card,
                               reveal_card=UNKNOWN)
    return _choose_first_attacker(state, ev)


def _choose_first_attacker(state: State, ev: _Events) -> State:
    game = state.game
    if game.first_attacker is not None:
        return _first_attacker(state, game.first_attacker, False, ev)
    if state.trump == NO_SUIT:
        return state._replace(phase=LOT, lot_among=tuple(range(game.n_players)))
    return state._replace(phase=CLAIM, claims=())


def _claim(state: State, action: Action, ev: _Events) -> State:
    seat = action.seat
    if seat != _claimant(state):
        raise IllegalAction(Reason.NOT_YOUR_TURN)
    game = state.game
    hands, hidden = state.hands, state.hidden
    if action.kind == A.CLAIM:
        if len(action.cards) != 1:
            raise IllegalAction(Reason.BAD_ACTION)
        card = action.cards[0]
        _check_card(state, seat, card)
        if game.suit[card] != state.trump:
            raise IllegalAction(Reason.WRONG_CLAIM, "not a trump")
        if hidden[seat] == 0:
            lowest = min(_bits(hands[seat] & game.suit_mask[state.trump]),
                         key=lambda c: (game.rank[c], c))
            if lowest != card:
                raise IllegalAction(Reason.WRONG_CLAIM)
        elif not (hands[seat] >> card) & 1:  # shown: this view learns the card
            hands = hands[:seat] + (hands[seat] | (1 << card),) + hands[seat + 1:]
            hidden = hidden[:seat] + (hidden[seat] - 1,) + hidden[seat + 1:]
    else:
        card = UNKNOWN
        if hidden[seat] == 0 and hands[seat] & game.suit_mask[state.trump]:
            raise IllegalAction(Reason.WRONG_CLAIM, "the player holds a trump")
    if ev is not None:
        ev.append(E.Claimed(seat, card))
    claims = state.claims + (card,)
    state = state._replace(hands=hands, hidden=hidden, claims=claims)
    if len(claims) < game.n_players:
        return state
    shown = [(game.rank[c], (game.dealer + 1 + i) % game.n_players)
             for i, c in enumerate(claims) if c >= 0]
    if not shown:
        if game.rules.first_attacker_fallback == "lowest_card":
            raise IllegalAction(Reason.BAD_ACTION, "lowest_card fallback is pending")
        return state._replace(phase=LOT, lot_among=tuple(range(game.n_players)))
    low = min(rank for rank, _ in shown)
    tied = tuple(sorted(seat for rank, seat in shown if rank == low))
    if len(tied) > 1:
        return state._replace(phase=LOT, lot_among=tied)
    return _first_attacker(state, tied[0], False, ev)


def _lot(state: State, action: Action, ev: _Events) -> State:
    if action.target not in state.lot_among:
        raise IllegalAction(Reason.BAD_CHANCE, "not among the seats drawn for")
    return _first_attacker(state._replace(lot_among=()), action.target, True, ev)


def _first_attacker(state: State, seat: int, by_lot: bool, ev: _Events) -> State:
    if ev is not None:
        ev.append(E.FirstAttacker(seat, by_lot))
    return _start_bout(state, seat, ev)


# ---- series ------------------------------------------------------------------------------

def next_game(state: State) -> Game:
    """The next game of a series: the durak deals; под дурака his right neighbour leads,
    из-под дурака his left one; after a draw the same dealer deals and the lowest trump leads."""
    game = state.game
    if state.result is None:
        raise ValueError("the game is not over")
    n = game.n_players
    rules = game.rules
    if state.result.draw:
        return make_game(rules, n, game.dealer, None, game.game_index + 1)
    durak = state.result.durak[0]
    choice = rules.first_attacker_next_game
    first: int | None
    if choice == "pod_durak":
        first = (durak - 1) % n
    elif choice == "iz_pod_durak":
        first = (durak + 1) % n
    else:
        first = None
    return make_game(rules, n, durak, first, game.game_index + 1)
