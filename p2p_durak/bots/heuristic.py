"""Heuristic play: the cheapest card that does the job, trumps kept.

`heuristic_action` picks the seat's move from its hand, the table and the rules, without
listing the legal actions first (the search's playouts call it tens of thousands of times a
second); given the legal options it returns one of them. Without card memory
(`possible=None`) it is the easy bot. Given `possible` — per seat, the mask of cards that seat
may still hold — it also leads and throws in what the defender cannot beat, which is how the
medium bot uses its card accounting and how the playouts play a determinized (known) deal.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from p2p_durak.bots.base import priority_actor
from p2p_durak.bots.features import TRUMP_BONUS, bits, card_values, cheapest, trump_mask
from p2p_durak.engine import (
    CHANCE,
    UNKNOWN,
    Action,
    IllegalAction,
    State,
    chance_outcome,
    legal_actions,
    step,
)
from p2p_durak.engine.actions import (
    BEAT,
    CHAIN,
    CHALLENGE,
    COVER,
    LEAD,
    PASS,
    SHOW,
    TAKE,
    THROW,
    TRANSFER,
    lead_stock,
    name_trump,
    send_back,
)
from p2p_durak.engine.bout import max_lead, over_limit, stock_lead_open
from p2p_durak.engine.overflow import returnable
from p2p_durak.engine.seats import next_active
from p2p_durak.engine.state import BOUT, CAPTURE, NAME_TRUMP, OVER
from p2p_durak.engine.state import LEAD as PHASE_LEAD
from p2p_durak.engine.tables import COUNTER_POGONY, REFILL_NONE


@dataclass(frozen=True)
class Style:
    """The knobs of the heuristic (ranks are card ranks: 11 = jack … 14 = ace)."""

    throw_max_rank: int = 10  # plain cards thrown in while the stock lasts
    dump_max_rank: int = 11  # plain cards thrown after «беру» while the stock lasts
    keep_trump_rank: int = 12  # while the stock is long, take rather than spend such a trump
    keep_trump_stock: int = 8  # "long": at least this many cards in the stock
    keep_trump_table: int = 2  # ... and at most this many attack cards to take
    unbeatable_lead_bonus: float = 8.0  # memory: prefer leads the defender cannot beat
    endgame_unbeatable_bonus: float = 30.0  # ... even more once the stock is gone
    pair_bonus: float = 1.5  # per extra card of a several-card lead
    trump_lead_penalty: float = 40.0  # leading a trump while the stock lasts
    exposure: int = 0  # memory: extra cost of a beater whose rank the throwers may hold
    throw_trumps_endgame: bool = False  # once the stock is gone, throw trumps in too


EASY = Style()
"""The easy bot: plain cards up to ten thrown in, no card memory to speak of."""

STRONG = Style(throw_max_rank=14, exposure=4, throw_trumps_endgame=True)
"""The medium bot's and the playouts' style, tuned in heuristic-vs-easy duplicate matches
(docs/bots.md): throw in any plain card, beat without opening ranks the throwers may hold,
and once the stock is gone throw trumps in too."""


def heuristic_action(state: State, seat: int, options: Sequence[Action] | None = None,
                     possible: Sequence[int] | None = None, style: Style = EASY) -> Action:
    """The heuristic's move for `seat`, which must be able to act. With `options` (the seat's
    legal actions) the move is one of them; without, it is built from the state, legal for
    a seat `priority_actor` names."""
    phase = state.phase
    if options is not None and state.game.tables.counter == COUNTER_POGONY:
        pairs = [a for a in options if a.kind in (LEAD, THROW) and len(a.cards) > 1]
        if pairs:
            # погонный: the fewest «погоны» lose, so lay pairs whenever the rules allow,
            # the cheapest first
            values = card_values(state.game, state.trump)
            return min(pairs, key=lambda a: (-(len(a.cards) // 2),
                                             sum(values[c] for c in a.cards)))
    if phase == PHASE_LEAD:
        action = _lead(state, seat, possible, style)
        if state.game.tables.stock_lead and _blind_lead_better(state, action, possible) \
                and stock_lead_open(state):
            action = lead_stock(seat)
    elif phase == BOUT:
        if seat == state.defender and UNKNOWN not in state.covers and not state.taking:
            action = _self_throw(state, seat)  # американский: everything is beaten
        elif seat == state.defender and over_limit(state):
            action = _send_back(state, seat)  # щелковский (B): past the cap, choose first
        elif seat == state.defender:
            action = _defend(state, seat, options, possible, style)
        else:
            doubt = _doubt(state, seat, possible) if state.game.tables.face_down else None
            action = doubt if doubt is not None else _throw(state, seat, possible, style)
    elif phase == NAME_TRUMP:
        return _name_trump(state, seat)
    elif phase == CAPTURE:
        # a pre-game phase: of the face-up cards the drawn one may take, the most valuable
        values = card_values(state.game, state.trump)
        return max(options or legal_actions(state, seat), key=lambda a: values[a.cards[0]])
    else:  # claims: the one lowest trump the hand holds
        return (options or legal_actions(state, seat))[0]
    if options is not None and action not in options:
        # a rule this heuristic does not model refused its move: the cheapest legal lead (a
        # variant that shapes the leads: трешка, занудный), else the first legal move
        if phase == PHASE_LEAD:
            values = card_values(state.game, state.trump)
            # круглый: the turn passes whatever happens, so a lead that sheds more plain cards
            # is worth more (each card of a lead counts as much as a few ranks)
            shed = 6 if state.game.tables.next_by_attacker else 0
            return min(options, key=lambda a: sum(values[c] - shed for c in a.cards))
        return options[0]
    return action


def _name_trump(state: State, seat: int) -> Action:
    """Король-говно, the King: the suit he holds most of, the higher cards breaking ties."""
    game = state.game
    hand = state.hands[seat]

    def strength(suit: int) -> tuple[int, int]:
        held = hand & game.suit_mask[suit]
        return held.bit_count(), sum(game.rank[c] for c in bits(held))

    return name_trump(seat, max(range(4), key=strength))


def _lead(state: State, seat: int, possible: Sequence[int] | None, style: Style) -> Action:
    game = state.game
    values = card_values(game, state.trump)
    trumps = trump_mask(game, state.trump)
    hand = state.hands[seat]
    cap = max_lead(state)
    # the cards the defender has no beater for (memory only)
    sure = 0
    if possible is not None:
        beaters = game.beaters(state.trump)
        defence = possible[state.defender]
        rest = hand
        while rest:
            low = rest & -rest
            rest ^= low
            if not beaters[low.bit_length() - 1] & defence:
                sure |= low
    if drawable(state):
        bonus, trump_penalty = style.unbeatable_lead_bonus, style.trump_lead_penalty
    else:
        bonus, trump_penalty = style.endgame_unbeatable_bonus, 0.0
    rank, rank_mask, pair_bonus = game.rank, game.rank_mask, style.pair_bonus
    best, best_score = 0, float("inf")
    rest = hand
    while rest:
        first = rest & -rest
        # a joker or the blank (no rank) is led alone
        group = hand & rank_mask.get(rank[first.bit_length() - 1], first)
        rest &= ~group
        plain = group & ~trumps
        if plain:
            chosen, extra = _lowest(plain, cap), 0.0
        else:
            chosen, extra = group & -group, trump_penalty
        # Low cards first, several of a rank together; trumps only when nothing else is left.
        base = 2.0 * values[(chosen & -chosen).bit_length() - 1] + extra
        candidates = (chosen, chosen & sure) if chosen & sure and chosen & ~sure else (chosen,)
        for cards in candidates:
            score = base - pair_bonus * (cards.bit_count() - 1)
            if not cards & ~sure:
                score -= bonus
            if score < best_score:
                best, best_score = cards, score
    return Action(LEAD, seat, tuple(bits(best)))


BLIND_LEAD_RANK = 12
"""армянский: a plain lead from the hand of this rank or higher costs more than a blind one."""


def _blind_lead_better(state: State, lead: Action, possible: Sequence[int] | None) -> bool:
    """армянский: lead the unseen top stock card rather than `lead` (the heuristic's best lead
    from the hand) when that would spend a trump or a high card: the stock card costs the hand
    nothing, and an unseen card is a low plain card more often than not. A lead the defender
    cannot beat (several cards, or what card memory says) is kept."""
    if len(lead.cards) != 1:
        return False
    card = lead.cards[0]
    game = state.game
    if possible is not None and not game.beaters(state.trump)[card] & possible[state.defender]:
        return False
    return bool(trump_mask(game, state.trump) >> card & 1) or game.rank[card] >= BLIND_LEAD_RANK


def _lowest(mask: int, count: int) -> int:
    """The `count` lowest cards of a mask (all of them when it has no more)."""
    if mask.bit_count() <= count:
        return mask
    out = 0
    for _ in range(count):
        low = mask & -mask
        out |= low
        mask ^= low
    return out


def defence_plan(state: State, seat: int, possible: Sequence[int] | None = None,
                 style: Style = EASY) -> dict[int, int] | None:
    """Which card beats which uncovered attack card (table index -> card), the hardest attack
    card first, each with the cheapest card left that beats it; None when one cannot be beaten.
    With card memory, a beater that opens a rank the throwers may hold costs `style.exposure`
    more (every rank on the table can be thrown in)."""
    game = state.game
    values = card_values(game, state.trump)
    beaters = game.beaters(state.trump)
    left = state.hands[seat]
    open_cards = [(i, c) for i, c in enumerate(state.table) if state.covers[i] == UNKNOWN]
    open_cards.sort(key=lambda ic: -values[ic[1]])
    throwable = 0
    if possible is not None and style.exposure:
        for other in range(game.n_players):
            if other != seat:
                throwable |= possible[other]
        throwable &= ~state.table_ranks
    plan: dict[int, int] = {}
    for index, attack in open_cards:
        can = left & beaters[attack]
        if not can:
            return None
        if throwable:
            card, cost = -1, 1 << 30
            for option in bits(can):
                extra = style.exposure if throwable & game.rank_mask.get(game.rank[option], 0) \
                    else 0
                if values[option] + extra < cost:
                    card, cost = option, values[option] + extra
        else:
            card = cheapest(can, values)
        plan[index] = card
        left &= ~(1 << card)
    return plan


def _defend(state: State, seat: int, options: Sequence[Action] | None,
            possible: Sequence[int] | None, style: Style) -> Action:
    game = state.game
    values = card_values(game, state.trump)
    take = Action(TAKE, seat)
    transfer: Action | None = None
    if game.rules.transfer and not state.taking and all(c == UNKNOWN for c in state.covers):
        # the transfer window: the engine knows the capacity and showing rules
        for action in options if options is not None else legal_actions(state, seat):
            if action.kind == SHOW:
                return action  # a shown trump stays in hand: the attack moves on for free
            if action.kind == TRANSFER and (
                    transfer is None or values[action.cards[0]] < values[transfer.cards[0]]):
                transfer = action
    plan = defence_plan(state, seat, possible, style)
    if plan is None and game.tables.chain_pass:
        chain = _chain_pass(state, seat, values, possible)
        if chain is not None:
            return chain
    if plan is None and game.tables.take_unbeaten and transfer is None:
        # круглый: a take keeps what was beaten out of the hand, so beat what can be beaten
        # (the cheapest beater first), then take the rest
        return _partial_defence(state, seat, values) or take
    if plan is None:
        return transfer if transfer is not None else take
    top = max(values[c] for c in plan.values())
    if transfer is not None and values[transfer.cards[0]] <= top \
            and values[transfer.cards[0]] < TRUMP_BONUS:
        return transfer
    if (top >= TRUMP_BONUS + style.keep_trump_rank - game.deck.lowest_rank
            and drawable(state) >= style.keep_trump_stock
            and len(state.table) <= style.keep_trump_table):
        return take
    index = max(plan, key=lambda i: values[state.table[i]])
    # верю не верю: the same card, laid face down (no bluffs: an honest cover survives a doubt)
    return Action(COVER if game.tables.face_down else BEAT, seat, (plan[index],), index)


def _send_back(state: State, seat: int) -> Action:
    """щелковский (B), more thrown in than the limit: send back the card he can least afford
    to beat — one he cannot beat at all first, else the one whose cheapest beater is worth
    most — so that the cards he keeps are those he beats cheaply."""
    game = state.game
    values = card_values(game, state.trump)
    beaters = game.beaters(state.trump)
    hand = state.hands[seat]

    def cost(index: int) -> tuple[int, int]:
        card = state.table[index]
        can = hand & beaters[card]
        return (values[cheapest(can, values)] if can else 1 << 20, values[card])

    index = max(returnable(state), key=cost)
    return send_back(seat, state.table[index])


def _doubt(state: State, seat: int, possible: Sequence[int] | None) -> Action | None:
    """верю не верю: «сомневаюсь» about a cover that cannot beat its attack card — known to
    (a determinized deal in a playout), or, with card memory, when no card the defender may
    have held beats it; None when every cover may be true, or without memory."""
    if possible is None or (state.taking and not state.game.tables.doubt_after_take):
        return None
    beaters = state.game.beaters(state.trump)
    held = possible[state.defender]
    for index, cover in enumerate(state.covers):
        if cover == UNKNOWN:
            continue
        attack = state.table[index]
        if not beaters[attack] & ((1 << cover) if cover >= 0 else held):
            return Action(CHALLENGE, seat, (), index)
    return None


def _chain_pass(state: State, seat: int, values: Sequence[int],
                possible: Sequence[int] | None) -> Action | None:
    """крестовый, a defence that fails: pass on the cheapest card, one the next player cannot
    hold a beater for first (memory only); None when the chain must stop (take)."""
    options = [a for a in legal_actions(state, seat) if a.kind == CHAIN]
    if not options:
        return None
    beaters = state.game.beaters(state.trump)
    following = next_active(state, seat, 1)

    def cost(action: Action) -> float:
        card = action.cards[0]
        sure = possible is not None and not beaters[card] & possible[following]
        return values[card] - (20.0 if sure else 0.0)

    return min(options, key=cost)


def drawable(state: State) -> int:
    """The cards still to be drawn: the stock, unless it is set aside (no refill: чукотский,
    круглый's leftover)."""
    return 0 if state.game.tables.refill == REFILL_NONE else len(state.stock)


def _partial_defence(state: State, seat: int, values: Sequence[int]) -> Action | None:
    """The beat of an uncovered card with the cheapest card that beats any of them."""
    beaters = state.game.beaters(state.trump)
    hand = state.hands[seat]
    best: tuple[int, int, int] | None = None
    for index, attack in enumerate(state.table):
        if state.covers[index] != UNKNOWN:
            continue
        for card in bits(hand & beaters[attack]):
            if best is None or values[card] < best[0]:
                best = (values[card], card, index)
    return None if best is None else Action(BEAT, seat, (best[1],), best[2])


def _throw(state: State, seat: int, possible: Sequence[int] | None, style: Style) -> Action:
    game = state.game
    values = card_values(game, state.trump)
    beaters = game.beaters(state.trump)
    stock = drawable(state)
    defence = possible[state.defender] if possible is not None else -1
    limit = style.dump_max_rank if state.taking else style.throw_max_rank
    best = -1
    best_score = float("inf")
    for card in bits(state.hands[seat] & state.table_ranks):
        trump = values[card] >= TRUMP_BONUS
        score = float(values[card])
        ok = (not trump or (stock == 0 and style.throw_trumps_endgame)) and (
            stock == 0 or game.rank[card] <= limit)
        if possible is not None and not state.taking and not beaters[card] & defence:
            # the defender cannot beat it: he must take the whole table
            ok = not trump or stock == 0
            score -= 20.0
        if ok and score < best_score:
            best, best_score = card, score
    if best >= 0:
        return Action(THROW, seat, (best,))
    return Action(PASS, seat)


def _self_throw(state: State, seat: int) -> Action:
    """The defender who has beaten everything (американский): throw in to himself the
    cheapest table-rank card he can beat with a plain card (any card once the stock is gone),
    shedding two cards; else pass."""
    game = state.game
    values = card_values(game, state.trump)
    beaters = game.beaters(state.trump)
    hand = state.hands[seat]
    plain = ~trump_mask(game, state.trump) if state.stock else -1
    best, best_cost = -1, float("inf")
    for card in bits(hand & state.table_ranks):
        can = hand & ~(1 << card) & beaters[card] & plain
        if can:
            cost = values[card] + values[cheapest(can, values)]
            if cost < best_cost:
                best, best_cost = card, cost
    if best >= 0:
        return Action(THROW, seat, (best,))
    return Action(PASS, seat)


def play(state: State, action: Action, seat: int, style: Style = EASY) -> State:
    """`step` with a move built by `heuristic_action` without options; should a rule the
    heuristic does not model refuse it, the move is chosen again from the legal list."""
    try:
        return step(state, action)
    except IllegalAction:
        options = legal_actions(state, seat)
        return step(state, heuristic_action(state, seat, options, state.hands, style))


PLAYOUT_CAP = 400
"""Seat actions in one playout before it is given up (heuristic games take about sixty)."""


def play_out(state: State, style: Style = STRONG, memory: bool = True,
             policies: Sequence[tuple[Style, bool]] | None = None) -> State:
    """The game played on from a full state with the heuristic for every seat, each seeing
    the (sampled) deal when `memory`, or per seat its own (style, sees the deal) in
    `policies`; the final state, or the last one after `PLAYOUT_CAP` seat actions (bots can
    take in turn forever at three or more seats)."""
    for _ in range(PLAYOUT_CAP):
        if state.phase == OVER:
            break
        actor = priority_actor(state)
        if actor == CHANCE:
            action = chance_outcome(state) or legal_actions(state, CHANCE)[0]
            state = step(state, action)
            continue
        if policies is not None:
            style, memory = policies[actor]
        action = heuristic_action(state, actor, None, state.hands if memory else None, style)
        state = play(state, action, actor, style)
    return state
