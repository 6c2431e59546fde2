"""The bout: leads, throw-ins, beats, transfers, taking, passing, and closing the bout.

Throw-ins are concurrent: while a bout is open every eligible thrower and the defender may act;
the networked game orders racing actions in its log. A thrower's pass holds until the table
changes (SP9: a pass is not final); the bout closes when every card is covered, or the defender
has said «беру», and no eligible thrower is left to act.

This is the engine's hot path (random play spends most of its actions here), so it is written
for speed: each handler checks the action, works out the fields that change and builds the next
`State` in one constructor call (`_settle`, `_end_bout`); rule knobs come from `GameTables`;
legal actions are generated already sorted from prebuilt `Action` values. The checks (`on_*`)
and the moves (`do_*`) are separate so that a playout, which only ever picks legal actions,
can skip the checks.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import chain, combinations, product

from p2p_durak.engine import events as E
from p2p_durak.engine.actions import (
    BEAT,
    BLIND_BASE,
    CHAIN,
    CHANCE,
    COVER,
    LEAD,
    LEAD_STOCK,
    SHOW,
    THROW,
    TRANSFER,
    Action,
)
from p2p_durak.engine.cards import bits, cards_of
from p2p_durak.engine.errors import IllegalAction, Reason
from p2p_durak.engine.events import EventSink
from p2p_durak.engine.hands import check_card, without
from p2p_durak.engine.seats import (
    defender_for,
    next_active_of,
    transfer_target_of,
)
from p2p_durak.engine.state import (
    BOUT,
    FACE_DOWN,
    OVER,
    RESHUFFLE,
    REVEAL_HIDDEN,
    REVEAL_STOCK,
    UNKNOWN,
    Result,
    State,
    known_cards,
)
from p2p_durak.engine.state import LEAD as PHASE_LEAD
from p2p_durak.engine.tables import (
    BY_NEIGHBOURS,
    BY_OPPONENTS,
    COUNTER_BEATEN,
    COUNTER_POGONY,
    NO_LIMIT,
    REFILL_NONE,
    REFILL_PROGRESSIVE,
    REFILL_WHEN_EMPTY,
    GameTables,
)
from p2p_durak.engine.xorshift import shuffled

# The next state is built with `tuple.__new__(State, fields)`: a NamedTuple without the detour
# through its Python-level `__new__`.

_NO_ACTORS: tuple[int, ...] = ()


# ---- who acts ------------------------------------------------------------------------------

def holding_of(hands: tuple[int, ...], hidden: tuple[int, ...]) -> int:
    """The seats that hold cards, as a bit mask."""
    holding = 0
    for seat in range(len(hands)):
        if hands[seat] or hidden[seat]:
            holding |= 1 << seat
    return holding


def bout_actors_of(t: GameTables, holding: int, defender_size: int, n_table: int,
                   uncovered: int, attacker: int, defender: int, taking: bool, passed: int,
                   out: int, bout: int, self_throw: int = 0,
                   cursor: int = -1, over: bool = False) -> tuple[int, ...]:
    """The defender (while a card is uncovered and he has not said «беру») and then every
    eligible thrower who has not passed, clockwise from the lead attacker. `holding`: the
    seats holding cards; `self_throw` (щелковский): non-zero when the defender received a
    проездной and may throw in to himself; `cursor` (Длинный дурак, strictly in turn): the
    seat whose turn it is to throw in — only the first eligible seat from it may; `over`
    (щелковский, `over_limit_policy: defender_chooses`): the others may throw in beyond the
    bout's limit (the defender has not chosen yet and has not said «беру»)."""
    defends = not taking and uncovered > 0
    if not t.throw_in:
        return t.solo[defender] if defends else _NO_ACTORS
    if taking:
        if not t.after_take:
            return t.solo[defender] if defends else _NO_ACTORS
    elif t.after_beat and uncovered:
        return t.solo[defender] if defends else _NO_ACTORS
    # room for one more attack card (the bout limit, SP8: uncovered + 1 <= the defender's hand)
    full = n_table >= (t.first_limit if bout == 0 else t.later_limit)
    if (full and (not over or taking)) or (t.cap and uncovered >= defender_size):
        return t.solo[defender] if defends else _NO_ACTORS
    candidates = holding & ~(out | passed | (1 << defender))
    if ((t.self_throw or self_throw) and not uncovered and not taking and defender_size > 1
            and not (passed >> defender) & 1 and not full):
        # американский: everything is beaten, so the defender may throw in to himself (he
        # keeps a card to beat it with); he takes his turn in the clockwise cycle
        candidates |= 1 << defender
    if not candidates:
        return t.solo[defender] if defends else _NO_ACTORS
    by = t.throw_by
    left = right = -1
    if by == BY_NEIGHBOURS:
        left = next_active_of(t.n_players, out, defender, -1)
        right = next_active_of(t.n_players, out, defender, 1)
    first = -1  # the first thrower; a list only when there are two or more
    more: list[int] | None = None
    team = t.team
    if cursor >= 0:
        for seat in t.order[cursor]:
            if (candidates >> seat) & 1 and (
                    not by or (team[seat] != team[defender] if by == BY_OPPONENTS
                               else seat in (left, right))):
                return t.pair[defender][seat] if defends else t.solo[seat]
        return t.solo[defender] if defends else _NO_ACTORS
    for seat in t.order[attacker]:
        if not (candidates >> seat) & 1:
            continue
        if by and seat != defender:
            if by == BY_OPPONENTS:
                if team[seat] == team[defender]:
                    continue
            elif seat != left and seat != right:
                continue
        if first < 0:
            first = seat
        elif more is None:
            more = [defender, first, seat] if defends else [first, seat]
        else:
            more.append(seat)
    if more is not None:
        return tuple(more)
    if first < 0:
        return t.solo[defender] if defends else _NO_ACTORS
    return t.pair[defender][first] if defends else t.solo[first]


def with_doubters(t: GameTables, actors: tuple[int, ...], covers: Sequence[int], taking: bool,
                  passed: int, out: int, attacker: int, defender: int) -> tuple[int, ...]:
    """верю не верю: the actors and, while a face-down cover lies on the table, every player
    still in the game but the defender who has not passed since the table last changed: he may
    say «сомневаюсь» (or throw in, when `actors` has him as a thrower). After «беру» only with
    `window: until_bout_closed`."""
    if (taking and not t.doubt_after_take) or len(covers) == covers.count(UNKNOWN):
        return actors
    doubters = ~(out | passed | (1 << defender))
    front = (defender,) if actors and actors[0] == defender else ()
    return front + tuple(s for s in t.order[attacker] if (doubters >> s) & 1 and s != defender)


def may_throw(state: State, seat: int) -> bool:
    """Whether `seat` is an eligible thrower now (верю не верю: the actors without the
    doubters)."""
    defender = state.defender
    return seat in bout_actors_of(
        state.game.tables, holding_of(state.hands, state.hidden), state.hand_size(defender),
        len(state.table), state.covers.count(UNKNOWN), state.attacker, defender, state.taking,
        state.passed, state.out, state.bout)


def bout_actors(state: State) -> tuple[int, ...]:
    defender = state.defender
    return bout_actors_of(state.game.tables, holding_of(state.hands, state.hidden),
                          state.hands[defender].bit_count() + state.hidden[defender],
                          thrown_count(state.game.tables, state.table, state.shown),
                          state.covers.count(UNKNOWN), state.attacker,
                          defender, state.taking, state.passed, state.out, state.bout,
                          state.shown & state.game.tables.proezd_self,
                          turn_of(state.game.tables, state.shown),
                          throws_beyond(state.game.tables, state.shown))


def turn_of(t: GameTables, shown: int) -> int:
    """Длинный дурак: the seat whose turn it is to throw in (-1 in other games)."""
    return (shown >> t.base_shift) - 1 if t.strict else -1


def turn_after(t: GameTables, seat: int) -> int:
    """Длинный дурак: `State.shown` with the throw-in turn passed on to the seat after `seat`."""
    return ((seat + 1) % t.n_players + 1) << t.base_shift


def thrown_count(t: GameTables, table: Sequence[int], shown: int) -> int:
    """The attack cards the bout limit counts: all, or (щелковский) the thrown-in ones."""
    if not t.thrown_only:
        return len(table)
    if t.over_limit:  # a mask of the table positions not thrown in (tables.over_limit)
        return len(table) - (shown >> t.base_shift).bit_count()
    return len(table) - (shown >> t.base_shift)


def throws_beyond(t: GameTables, shown: int) -> bool:
    """щелковский (B): whether more may be thrown in than the limit (until the defender
    has sent the extra cards back once)."""
    return t.over_limit and not shown & t.chosen


def over_limit(state: State) -> bool:
    """щелковский (B): more cards are thrown in than the bout allows, so the defender's one
    move is to send one of them back (`engine/overflow.py`)."""
    t = state.game.tables
    return t.over_limit and thrown_count(t, state.table, state.shown) > (
        t.first_limit if state.bout == 0 else t.later_limit)


def bout_limit(state: State) -> int | None:
    """The bout's limit of attack cards (before the defender cap), None for no limit."""
    rules = state.game.rules
    return rules.first_bout_attack_limit if state.bout == 0 else rules.bout_attack_limit


def lead_cap(t: GameTables, bout: int, defender_size: int) -> int:
    """How many cards a lead may have: the bout limit, the defender's hand, the lead rule."""
    limit = NO_LIMIT if t.thrown_only else t.first_limit if bout == 0 else t.later_limit
    cap = min(limit, t.lead_cap)
    if t.cap and defender_size < cap:
        cap = defender_size
    return 64 if cap == NO_LIMIT else cap


def max_lead(state: State) -> int:
    defender = state.defender
    return lead_cap(state.game.tables, state.bout,
                    state.hands[defender].bit_count() + state.hidden[defender])


# ---- legal actions -------------------------------------------------------------------------

def leads(state: State) -> list[Action]:
    """The attacker's leads, sorted: one card, or several of one rank up to the cap
    (армянский: then the blind lead of the top stock card, when it may be led)."""
    seat = state.attacker
    t = state.game.tables
    if t.lead_special:
        return special_leads(t, seat, state.hands[seat], max_lead(state), state.bout)
    if t.stock_lead and stock_lead_open(state):
        return [*lead_actions(t, seat, state.hands[seat], max_lead(state)),
                Action(LEAD_STOCK, seat)]
    return lead_actions(t, seat, state.hands[seat], max_lead(state))


def stock_lead_open(state: State) -> bool:
    """армянский: «Первый игрок может сделать первый ход с любой своей карты или с верхней карты
    колоды. Если в колоде остается одна козырная карта, то ход с нее делать нельзя»: the stock
    has a face-down top card (not just the turned trump card), and (table option) this is the
    game's first lead."""
    stock = state.stock
    if not stock or (len(stock) == 1 and stock[0] == state.trump_card >= 0):
        return False
    return state.bout == 0 or not state.game.tables.stock_lead_first_only


def special_leads(t: GameTables, seat: int, hand: int, cap: int, bout: int) -> list[Action]:
    """The leads of the variants that shape them (занудный: only the highest rank in hand;
    трешка: exactly three cards of any kind, or as many as the hand and the cap allow),
    sorted like `lead_actions`."""
    if hand and t.lead_highest and (bout == 0 or not t.lead_first_only):
        rank = t.rank
        top = max(rank[c] for c in bits(hand))
        hand &= t.same_rank[next(c for c in bits(hand) if rank[c] == top)]
    if t.lead_shapes:
        return pattern_leads(t, seat, hand, cap)
    if t.lead_exact:
        held = cards_of(hand)
        size = min(t.lead_exact, len(held), cap)
        return [Action(LEAD, seat, combo) for combo in combinations(held, size)] \
            if size > 0 else []
    return lead_actions(t, seat, hand, cap)


def lead_actions(t: GameTables, seat: int, hand: int, cap: int) -> list[Action]:
    """Every lead of `hand` up to `cap` cards, sorted: each card alone, then each card with
    higher cards of its rank (depth first, so the tuples come out in ascending order)."""
    single = t.lead_single[seat]
    options: list[Action] = []
    if cap <= 0:
        return options
    higher_same = t.higher_same
    combos = t.lead_combos[seat]
    rest = hand
    while rest:
        low = rest & -rest
        card = low.bit_length() - 1
        rest ^= low
        options.append(single[card])
        higher = hand & higher_same[card]
        if higher and cap > 1:
            # the leads that start with `card` depend only on these cards and the cap (a cap
            # of 64 binds no rank); the key holds the cap, not the lead size it allows, to
            # spare a bit_count on every hit (a slow method call in the compiled build)
            key = (higher << 8 | card) << 7 | (cap if cap < 64 else 64)
            more = combos.get(key)
            if more is None:
                size = min(cap, higher.bit_count() + 1)
                found: list[Action] = []
                _extend_leads(found, seat, (card,), higher, size - 1)
                more = tuple(found)
                combos[key] = more
            options.extend(more)
    return options


def _extend_leads(out: list[Action], seat: int, prefix: tuple[int, ...], higher: int,
                  room: int) -> None:
    while higher:
        low = higher & -higher
        higher ^= low
        cards = prefix + (low.bit_length() - 1,)
        out.append(Action(LEAD, seat, cards))
        if room > 1 and higher:
            _extend_leads(out, seat, cards, higher, room - 1)


def defender_actions(state: State) -> list[Action]:
    """The defender's actions, sorted: beats (by card, then attack card), transfers, shows,
    take (крестовый: passing on with each card instead). Only while he may act: a card is
    uncovered and he has not said «беру»."""
    seat = state.defender
    options = defender_options(state.game.tables, seat, state.hands[seat], state.trump,
                               state.table, state.covers, state.out, state.shown, state.bout,
                               state.hands, state.hidden)
    if state.game.tables.chain_pass and not chain_guarded(state):
        options.pop()  # the take
        options.extend(Action(CHAIN, seat, (card,)) for card in bits(state.hands[seat]))
    return options


def chain_guarded(state: State) -> bool:
    """крестовый: the next in the chain would be the player who led, so the defender takes
    (the catalogue's guard: the chain cannot come round for ever)."""
    return next_active_of(state.game.n_players, state.out, state.defender, 1) == state.attacker


def defender_options(t: GameTables, seat: int, hand: int, trump: int, table: Sequence[int],
                     covers: Sequence[int], out: int, shown: int, bout: int,
                     hands: Sequence[int], hidden: Sequence[int]) -> list[Action]:
    beaters = t.defence_beaters[trump + 1]
    options: list[Action] = []
    rows: list[tuple[int, int]] = []  # (the hand's beaters of an uncovered card, its index)
    union = 0
    covered = 0
    for index in range(len(table)):
        if covers[index] == UNKNOWN:
            mask = hand & beaters[table[index]]
            if mask:
                rows.append((mask, index))
                union |= mask
        else:
            covered += 1
    if rows:
        beat_rows = t.beat[seat]
        if len(rows) == 1:
            mask, index = rows[0]
            while mask:
                low = mask & -mask
                card = low.bit_length() - 1
                options.append(beat_rows[index][card] if index < len(beat_rows)
                               else Action(COVER if t.face_down else BEAT, seat, (card,),
                                           index))
                mask ^= low
        else:
            while union:
                low = union & -union
                card = low.bit_length() - 1
                union ^= low
                for mask, index in rows:
                    if mask & low:
                        options.append(beat_rows[index][card] if index < len(beat_rows)
                                       else Action(COVER if t.face_down else BEAT, seat,
                                                   (card,), index))
    # before_first_cover: nothing covered yet, so every attack card shares the lead's rank;
    # any_unbeaten_same_rank: the unbeaten cards must share one rank
    if t.transfer_on and (not covered or t.transfer_any) and not shown & t.proezd:
        rank_card = table[0] if not covered else unbeaten_rank_card(t, table, covers)
        same = hand & t.same_rank[rank_card] if rank_card >= 0 else 0
        if same:
            target = transfer_target_of(t, out, seat)
            size = hands[target].bit_count() + hidden[target]
            unbeaten = len(table) - covered
            if can_transfer(t, seat, target, len(table), unbeaten, True, bout, size):
                row = t.transfer[seat]
                rest = same
                while rest:
                    low = rest & -rest
                    options.append(row[low.bit_length() - 1])
                    rest ^= low
            showable = same & t.trumps[trump + 1] & ~shown
            if showable and t.show_backward:
                target = next_active_of(t.n_players, out, seat, -1)
                size = hands[target].bit_count() + hidden[target]
            if showable and (t.show_forward or t.show_backward) and can_transfer(
                    t, seat, target, len(table), unbeaten, False, bout, size):
                row = t.show[seat]
                while showable:
                    low = showable & -showable
                    options.append(row[low.bit_length() - 1])
                    showable ^= low
    options.append(t.take[seat])
    return options


def thrower_actions(state: State, seat: int) -> list[Action]:
    """A thrower's actions, sorted: a card of each rank on the table (погонный: also several
    of one rank at once, as room allows), then pass."""
    t = state.game.tables
    if seat == state.defender and state.shown & t.proezd_self:
        # щелковский: after a проездной only its rank, to himself
        return thrower_options(t, seat, state.hands[seat] & t.same_rank[state.table[0]])
    room = throw_room(t, state.bout, len(state.table), state.covers.count(UNKNOWN),
                      state.hand_size(state.defender)) if t.multi_throw else 1
    return thrower_options(t, seat, state.hands[seat] & state.table_ranks, room)


def throw_room(t: GameTables, bout: int, n_table: int, uncovered: int,
               defender_size: int) -> int:
    """How many attack cards may still join the bout: its limit, and the defender's hand."""
    room = (t.first_limit if bout == 0 else t.later_limit) - n_table
    if t.cap and defender_size - uncovered < room:
        room = defender_size - uncovered
    return room


def thrower_options(t: GameTables, seat: int, cards: int, room: int = 1) -> list[Action]:
    row = t.throw[seat]
    options: list[Action] = []
    if room > 1:
        rest = cards
        while rest:
            low = rest & -rest
            rest ^= low
            card = low.bit_length() - 1
            options.append(row[card])
            higher = cards & t.higher_same[card]
            if higher:
                _extend_throws(options, seat, (card,), higher, room - 1)
    else:
        while cards:
            low = cards & -cards
            options.append(row[low.bit_length() - 1])
            cards ^= low
    options.append(t.pass_[seat])
    return options


def _extend_throws(out: list[Action], seat: int, prefix: tuple[int, ...], higher: int,
                   room: int) -> None:
    while higher:
        low = higher & -higher
        higher ^= low
        cards = prefix + (low.bit_length() - 1,)
        out.append(Action(THROW, seat, cards))
        if room > 1 and higher:
            _extend_throws(out, seat, cards, higher, room - 1)


def blind_templates(state: State, seat: int) -> list[Action]:
    """оборотный: the plays open to `seat` now, each without its card (a beat with its target):
    «игрок не видит своих карт», so any card of his may be meant for any of them, and only
    once it is shown does the engine check it (`misplay`)."""
    t = state.game.tables
    if state.phase == PHASE_LEAD:
        return [Action(LEAD, seat)] if seat == state.attacker else []
    if state.phase != BOUT or seat not in state.actors:
        return []
    if seat == state.defender and not state.taking and UNKNOWN in state.covers:
        out = [Action(BEAT, seat, (), i) for i, c in enumerate(state.covers) if c == UNKNOWN]
        if transfer_rank_card(state) >= 0:
            target = transfer_target_of(t, state.out, seat)
            if can_transfer(t, seat, target, len(state.table), state.covers.count(UNKNOWN),
                            True, state.bout, state.hand_size(target)):
                out.append(Action(TRANSFER, seat))
        return out
    return [Action(THROW, seat)]


def blind_actions(state: State, seat: int) -> list[Action]:
    """оборотный: `seat`'s legal actions, sorted. Where this state knows his whole hand (a
    full state, or another seat's view) every play with every card of it; in his own view,
    which does not hold his cards, every play with every position of his hand (`pick`)."""
    templates = blind_templates(state, seat)
    if not templates:
        return []
    hidden = state.hidden[seat]
    cards = [BLIND_BASE + p for p in range(state.hand_size(seat))] if hidden \
        else list(bits(state.hands[seat]))
    options = [Action(tp.kind, seat, (card,), tp.target) for tp in templates for card in cards]
    t = state.game.tables
    if templates[0].kind == THROW:
        options.append(t.pass_[seat])
    elif templates[0].kind != LEAD:  # the defender
        options.append(t.take[seat])
    options.sort()
    return options


def transfer_rank_card(state: State) -> int:
    """An attack card whose rank a transfer must match now, or -1 when no transfer is open:
    before_first_cover the lead (nothing covered yet); any_unbeaten_same_rank any unbeaten
    card, when all the unbeaten cards share its rank."""
    t = state.game.tables
    if not t.transfer_on or state.taking or state.shown & t.proezd:
        return -1  # (щелковский: the recipient of a проездной must defend)
    if UNKNOWN not in state.covers:
        return -1
    if all(c == UNKNOWN for c in state.covers):
        return state.table[0]
    return unbeaten_rank_card(t, state.table, state.covers) if t.transfer_any else -1


def unbeaten_rank_card(t: GameTables, table: Sequence[int], covers: Sequence[int]) -> int:
    """The first unbeaten attack card if every unbeaten card shares its rank, else -1."""
    found = -1
    for index in range(len(table)):
        if covers[index] == UNKNOWN:
            card = table[index]
            if found < 0:
                found = card
            elif not (t.same_rank[found] >> card) & 1:
                return -1
    return found


def can_transfer(t: GameTables, defender: int, target: int, n_table: int, unbeaten: int,
                 adds: bool, bout: int, target_size: int) -> bool:
    """Whether a transfer to `target` is allowed with `n_table` attack cards on the table,
    `unbeaten` of them uncovered; `adds`: the transfer card joins the table."""
    if target == defender:
        return False
    if adds:
        n_table += 1
        unbeaten += 1
        if n_table > (t.first_limit if bout == 0 else t.later_limit) and not t.thrown_only:
            return False
    return not t.transfer_capacity or target_size >= unbeaten


# ---- checks --------------------------------------------------------------------------------

def on_lead(state: State, action: Action, ev: EventSink) -> State:
    seat = action.seat
    if seat != state.attacker:
        raise IllegalAction(Reason.NOT_YOUR_TURN)
    cards = action.cards
    if not cards or len(set(cards)) != len(cards):
        raise IllegalAction(Reason.BAD_ACTION, "a lead needs distinct cards")
    if any(cards[i] > cards[i + 1] for i in range(len(cards) - 1)):
        raise IllegalAction(Reason.BAD_ACTION, "a lead lists its cards in ascending order")
    game = state.game
    for card in cards:
        check_card(state, seat, card)
    rank = game.rank
    t = game.tables
    if t.lead_special:
        _check_special_lead(state, seat, cards)
        if t.lead_exact or t.lead_shapes:
            return do_lead(state, seat, tuple(cards), ev)
    first = rank[cards[0]]
    # a joker or the blank has no rank: it is led alone (SP18)
    if (first < 0 and len(cards) > 1) or any(rank[c] != first for c in cards):
        raise IllegalAction(Reason.NOT_SAME_RANK)
    if len(cards) > max_lead(state):
        raise IllegalAction(Reason.TOO_MANY_CARDS)
    return do_lead(state, seat, tuple(cards), ev)


def on_lead_stock(state: State, action: Action, ev: EventSink) -> State:
    """армянский: the attacker leads the top stock card unseen; chance reveals it to everyone
    next (`on_stock_revealed`), and only then is it on the table."""
    seat = action.seat
    if seat != state.attacker:
        raise IllegalAction(Reason.NOT_YOUR_TURN)
    if not state.game.tables.stock_lead or not stock_lead_open(state):
        raise IllegalAction(Reason.LEAD_NOT_ALLOWED, "no lead from the stock now")
    if ev is not None:
        ev.append(E.StockLeadDeclared(seat))
    s: State = tuple.__new__(State, (
        state.game, REVEAL_STOCK, state.hands, state.hidden, state.stock, state.trump,
        state.trump_card, state.hidden_trump, state.stock[0], (), (), (), seat,
        state.defender, False, 0, state.shown, state.out, state.finish, state.discard,
        state.bout, state.claims, state.lot_among, state.result, (CHANCE,), 0,
        state.seat_trumps, state.locked, state.otboi, state.tally, state.controller,
        state.doubt, state.buried, state.n_buried, state.swapped))
    return s


def on_stock_revealed(state: State, action: Action, ev: EventSink) -> State:
    """армянский: the top stock card, shown to everyone, is the lead: «the led stock card is a
    normal attack card: its rank enables throw-ins; the stock shrinks by one before the
    refill» (catalogue). A full state checks it is the card on top; a partial view only that
    nobody is known to hold it (over the deck the reveal proves it came out of the top slot)."""
    if len(action.cards) != 1:
        raise IllegalAction(Reason.BAD_CHANCE, "a reveal shows one card")
    card = action.cards[0]
    if not 0 <= card < state.game.n_cards:
        raise IllegalAction(Reason.BAD_CHANCE, f"no card {card}")
    top = state.stock[0]
    if (card != top) if top >= 0 else (known_cards(state) >> card) & 1:
        raise IllegalAction(Reason.BAD_CHANCE, "that card is not the top of the stock")
    seat = state.attacker
    if ev is not None:
        ev.append(E.StockLed(seat, card))
    state = state._replace(stock=state.stock[1:], reveal_card=UNKNOWN)
    return _settle(state, BOUT, state.hands, state.hidden, (card,), (UNKNOWN,), (seat,),
                   state.defender, False, 0, state.shown,
                   lead_throwable(state.game.tables, (card,)), ev)


def pattern_leads(t: GameTables, seat: int, hand: int, cap: int) -> list[Action]:
    """Every lead of `hand` whose shape (its rank counts) the variant allows, up to `cap`
    cards, as sorted tuples in ascending order."""
    groups: dict[int, list[int]] = {}
    for card in bits(hand):
        groups.setdefault(t.rank[card], []).append(card)
    ranks = sorted(groups)
    shapes = t.lead_shapes
    found: list[tuple[int, ...]] = []
    chosen: list[tuple[int, int]] = []

    def choose(index: int, size: int) -> None:
        if index == len(ranks):
            if chosen and tuple(sorted((k for _, k in chosen), reverse=True)) in shapes:
                for parts in product(*(combinations(groups[r], k) for r, k in chosen)):
                    found.append(tuple(sorted(chain.from_iterable(parts))))
            return
        choose(index + 1, size)
        if len(chosen) < 3:  # no shape has more than three ranks
            rank = ranks[index]
            for k in range(1, min(len(groups[rank]), cap - size, 4) + 1):
                chosen.append((rank, k))
                choose(index + 1, size + k)
                chosen.pop()

    choose(0, 0)
    found.sort()
    return [Action(LEAD, seat, cards) for cards in found]


def lead_shape(rank: Sequence[int], cards: Sequence[int]) -> tuple[int, ...]:
    counts: dict[int, int] = {}
    for card in cards:
        counts[rank[card]] = counts.get(rank[card], 0) + 1
    return tuple(sorted(counts.values(), reverse=True))


def _check_special_lead(state: State, seat: int, cards: Sequence[int]) -> None:
    """трешка: exactly three cards (fewer only when the hand or the cap has fewer); занудный:
    of the highest rank in the hand. A partial view checks what it knows of another seat's
    hand; the end-of-game audit checks the rest (protocol/table.py)."""
    t = state.game.tables
    rank = state.game.rank
    if t.lead_shapes:
        if lead_shape(rank, cards) not in t.lead_shapes:
            raise IllegalAction(Reason.LEAD_NOT_ALLOWED, "not a lead pattern of this variant")
        if len(cards) > max_lead(state):
            raise IllegalAction(Reason.TOO_MANY_CARDS)
    if t.lead_exact:
        size = min(t.lead_exact, state.hand_size(seat), max_lead(state))
        if len(cards) != size:
            raise IllegalAction(Reason.LEAD_NOT_ALLOWED, f"a lead is {size} cards")
    if t.lead_highest and (state.bout == 0 or not t.lead_first_only):
        top = max(rank[c] for c in (*bits(state.hands[seat]), *cards))
        if any(rank[c] != top for c in cards):
            raise IllegalAction(Reason.LEAD_NOT_ALLOWED, "lead the highest rank in hand")


def on_throw(state: State, action: Action, ev: EventSink) -> State:
    seat = action.seat
    # the defender is an actor here only to defend, or (американский) to throw in to himself
    # once everything is beaten
    if seat not in state.actors or (seat == state.defender and UNKNOWN in state.covers):
        raise IllegalAction(Reason.THROW_IN_NOT_ALLOWED if not (state.passed >> seat) & 1
                            else Reason.ALREADY_PASSED)
    cards = action.cards
    t = state.game.tables
    if t.face_down and not may_throw(state, seat):  # верю не верю: an actor only to doubt
        raise IllegalAction(Reason.THROW_IN_NOT_ALLOWED)
    if len(cards) != 1:
        if not t.multi_throw or not cards:
            raise IllegalAction(Reason.BAD_ACTION, "a throw-in is one card")
        return _on_multi_throw(state, seat, cards, ev)
    card = cards[0]
    check_card(state, seat, card)
    if not (state.table_ranks >> card) & 1 or (
            seat == state.defender and state.shown & t.proezd
            and not (t.same_rank[state.table[0]] >> card) & 1):
        if t.blind:
            return misplay(state, seat, card, THROW, -1, ev)
        raise IllegalAction(Reason.THROW_MUST_BEAT if t.throw_beats
                            else Reason.RANK_NOT_ON_TABLE)
    return do_throw(state, seat, card, ev)


def _on_multi_throw(state: State, seat: int, cards: tuple[int, ...], ev: EventSink) -> State:
    """погонный: several cards of one rank thrown in at once."""
    if len(set(cards)) != len(cards) or any(cards[i] > cards[i + 1]
                                            for i in range(len(cards) - 1)):
        raise IllegalAction(Reason.BAD_ACTION, "the cards are distinct, in ascending order")
    rank = state.game.rank
    for card in cards:
        check_card(state, seat, card)
        if rank[card] != rank[cards[0]]:
            raise IllegalAction(Reason.NOT_SAME_RANK)
        if not (state.table_ranks >> card) & 1:
            raise IllegalAction(Reason.RANK_NOT_ON_TABLE)
    if len(cards) > throw_room(state.game.tables, state.bout, len(state.table),
                               state.covers.count(UNKNOWN), state.hand_size(state.defender)):
        raise IllegalAction(Reason.TOO_MANY_CARDS)
    return do_throw_cards(state, seat, cards, ev)


def on_beat(state: State, action: Action, ev: EventSink) -> State:
    seat = action.seat
    if seat != state.defender:
        raise IllegalAction(Reason.NOT_YOUR_TURN)
    if state.taking:
        raise IllegalAction(Reason.ALREADY_TAKING)
    if over_limit(state):
        raise IllegalAction(Reason.SEND_BACK_FIRST)
    target = action.target
    if len(action.cards) != 1:
        raise IllegalAction(Reason.BAD_ACTION, "a beat is one card")
    if not 0 <= target < len(state.table):
        raise IllegalAction(Reason.NO_SUCH_TARGET)
    if state.covers[target] != UNKNOWN:
        raise IllegalAction(Reason.ALREADY_COVERED)
    card = action.cards[0]
    check_card(state, seat, card)
    t = state.game.tables
    if not (t.beaters[state.trump + 1][state.table[target]] >> card) & 1:
        if t.blind:
            return misplay(state, seat, card, BEAT, target, ev)
        raise IllegalAction(Reason.DOES_NOT_BEAT)
    if t.face_down:
        raise IllegalAction(Reason.FACE_DOWN_ONLY)
    return do_beat(state, seat, card, target, ev)


def on_take(state: State, action: Action, ev: EventSink) -> State:
    if action.seat != state.defender:
        raise IllegalAction(Reason.NOT_YOUR_TURN)
    if state.taking:
        raise IllegalAction(Reason.ALREADY_TAKING)
    if UNKNOWN not in state.covers:
        raise IllegalAction(Reason.NOTHING_TO_TAKE)
    if over_limit(state):
        raise IllegalAction(Reason.SEND_BACK_FIRST)
    if state.game.tables.chain_pass and not chain_guarded(state):
        raise IllegalAction(Reason.MUST_PASS_ON)
    return do_take(state, ev)


def on_chain(state: State, action: Action, ev: EventSink) -> State:
    """крестовый: «Если игрок не может отбить карту, то он берет первую карту хода, а остальные
    карты переходят к следующему игроку по кругу, который отбивает последнюю карту» — the
    catalogue's reading (A): he lays a card of his own for the next player and takes the card
    that was led to him."""
    seat = action.seat
    if seat != state.defender or not state.game.tables.chain_pass:
        raise IllegalAction(Reason.NOT_YOUR_TURN)
    if state.taking or UNKNOWN not in state.covers:
        raise IllegalAction(Reason.WRONG_PHASE)
    if chain_guarded(state):
        raise IllegalAction(Reason.TRANSFER_NOT_ALLOWED, "the next player led this bout: take")
    if len(action.cards) != 1:
        raise IllegalAction(Reason.BAD_ACTION, "one card is passed on")
    check_card(state, seat, action.cards[0])
    return do_chain(state, seat, action.cards[0], ev)


def do_chain(state: State, seat: int, card: int, ev: EventSink) -> State:
    hands, hidden = without(state.hands, state.hidden, seat, card)
    took = state.table[0]
    hands = hands[:seat] + (hands[seat] | (1 << took),) + hands[seat + 1:]
    following = next_active_of(state.game.n_players, state.out, seat, 1)
    if ev is not None:
        ev.append(E.ChainPassed(seat, card, took, following))
    return _settle(state, state.phase, hands, hidden, (card,), (UNKNOWN,), (seat,), following,
                   False, 0, state.shown, 0, ev)


def on_pass(state: State, action: Action, ev: EventSink) -> State:
    seat = action.seat
    if (state.passed >> seat) & 1:
        raise IllegalAction(Reason.ALREADY_PASSED)
    if seat not in state.actors or (seat == state.defender and UNKNOWN in state.covers):
        raise IllegalAction(Reason.NOT_YOUR_TURN)
    return do_pass(state, seat, ev)


def on_transfer(state: State, action: Action, ev: EventSink) -> State:
    seat = action.seat
    game = state.game
    t = game.tables
    showing = action.kind == SHOW
    if seat != state.defender:
        raise IllegalAction(Reason.NOT_YOUR_TURN)
    if over_limit(state):
        raise IllegalAction(Reason.SEND_BACK_FIRST)
    rank_card = transfer_rank_card(state)
    if rank_card < 0:
        raise IllegalAction(Reason.TRANSFER_NOT_ALLOWED)
    if showing and not (t.show_forward or t.show_backward):
        raise IllegalAction(Reason.SHOW_NOT_ALLOWED, "transfer by showing is off")
    if len(action.cards) != 1:
        raise IllegalAction(Reason.BAD_ACTION, "a transfer is one card")
    card = action.cards[0]
    check_card(state, seat, card)
    if game.rank[card] != game.rank[rank_card] or game.rank[card] < 0:
        if t.blind and not showing:
            target = transfer_target_of(t, state.out, seat)
            if not can_transfer(t, seat, target, len(state.table), state.covers.count(UNKNOWN),
                                True, state.bout, state.hand_size(target)):
                raise IllegalAction(Reason.TRANSFER_CAPACITY)
            return misplay(state, seat, card, TRANSFER, -1, ev)
        raise IllegalAction(Reason.TRANSFER_NOT_ALLOWED, "the card must be of the attack rank")
    if showing and (not (t.trumps[state.trump + 1] >> card) & 1 or (state.shown >> card) & 1):
        raise IllegalAction(Reason.SHOW_NOT_ALLOWED)
    target = next_active_of(t.n_players, state.out, seat, -1) if showing and t.show_backward \
        else transfer_target_of(t, state.out, seat)
    if not can_transfer(t, seat, target, len(state.table), state.covers.count(UNKNOWN),
                        not showing, state.bout,
                        state.hands[target].bit_count() + state.hidden[target]):
        raise IllegalAction(Reason.TRANSFER_CAPACITY)
    return do_transfer(state, seat, card, target, showing, ev)


# ---- moves (the action is known to be legal) -------------------------------------------------

def do_lead(state: State, seat: int, cards: tuple[int, ...], ev: EventSink) -> State:
    hands, hidden = state.hands, state.hidden
    for card in cards:
        hands, hidden = without(hands, hidden, seat, card)
    if ev is not None:
        ev.append(E.Led(seat, cards))
    n = len(cards)
    if n > 1:
        state = _scored_pairs(state, seat, n)
    t = state.game.tables
    shown = state.shown
    if t.over_limit:  # the lead's positions, never sent back
        shown |= ((1 << n) - 1) << t.base_shift
    elif t.thrown_only:
        shown |= n << t.base_shift
    if t.strict:  # the lead attacker has the first turn to throw in
        shown = (seat + 1) << t.base_shift
    return _settle(state, BOUT, hands, hidden, cards, (UNKNOWN,) * n, (seat,) * n,
                   state.defender, state.taking, 0, shown,
                   lead_throwable(state.game.tables, cards), ev)


def lead_throwable(t: GameTables, cards: Sequence[int]) -> int:
    """The cards a lead lets the others throw in (one rank; parnomastny: and their suits;
    дорожный: none before the first beat)."""
    if t.throw_beats:
        return 0
    throwable = t.throwable[cards[0]]
    if t.throw_suit or t.lead_mixed:  # several suits, or several ranks (трешка)
        for card in cards:
            throwable |= t.throwable[card]
    return throwable


def misplay(state: State, seat: int, card: int, kind: int, target: int,
            ev: EventSink) -> State:
    """оборотный: a card picked blind that does not fit. «Если игрок неправильно подбросит
    карту, то все карты он забирает к себе, а ход переходит к следующему игроку по часовой
    стрелке»: a wrong throw-in makes the thrower take the table, the wrong card with it. A
    wrong beat or transfer (the catalogue: «отбивает … правильно», no second attempt) leaves
    the card on the table and the defender takes it all. The bout ends either way."""
    hands, hidden = without(state.hands, state.hidden, seat, card)
    if ev is not None:
        ev.append(E.Misplayed(seat, card, kind, target))
    table, covers, table_by = state.table, state.covers, state.table_by
    if kind == BEAT:
        covers = covers[:target] + (card,) + covers[target + 1:]
    else:
        table, covers, table_by = table + (card,), covers + (UNKNOWN,), table_by + (seat,)
    t = state.game.tables
    # the next attacker: left of the penalised seat (close_bout's rule after a take), or, by
    # the knob, left of the bout's attacker
    after = state.attacker if t.penalty_from_attacker else -1
    return _closed(state, hands, hidden, table, covers, table_by, seat, True, ev,
                   state.otboi, after)


def do_throw_cards(state: State, seat: int, cards: tuple[int, ...], ev: EventSink) -> State:
    """Several cards of one rank thrown in at once (погонный), each a throw-in event; every
    two of them score one «погоны»."""
    hands, hidden = state.hands, state.hidden
    for card in cards:
        hands, hidden = without(hands, hidden, seat, card)
        if ev is not None:
            ev.append(E.ThrewIn(seat, card))
    n = len(cards)
    return _settle(_scored_pairs(state, seat, n), state.phase, hands, hidden,
                   state.table + cards, state.covers + (UNKNOWN,) * n,
                   state.table_by + (seat,) * n, state.defender, state.taking, 0, state.shown,
                   state.table_ranks, ev)


def _scored_pairs(state: State, seat: int, n: int) -> State:
    """погонный: ⌊n/2⌋ «погоны» for laying n cards of one rank at once."""
    if state.game.tables.counter != COUNTER_POGONY or n < 2:
        return state
    tally = state.tally
    return state._replace(tally=tally[:seat] + (tally[seat] + n // 2,) + tally[seat + 1:])


def do_throw(state: State, seat: int, card: int, ev: EventSink) -> State:
    hands, hidden = without(state.hands, state.hidden, seat, card)
    if ev is not None:
        ev.append(E.ThrewIn(seat, card))
    t = state.game.tables
    return _settle(state, state.phase, hands, hidden, state.table + (card,),
                   state.covers + (UNKNOWN,), state.table_by + (seat,), state.defender,
                   state.taking, 0, turn_after(t, seat) if t.strict else state.shown,
                   state.table_ranks, ev)


def do_beat(state: State, seat: int, card: int, target: int, ev: EventSink) -> State:
    hands, hidden = without(state.hands, state.hidden, seat, card)
    if ev is not None:
        ev.append(E.Beat(seat, card, state.table[target]))
    covers = state.covers
    t = state.game.tables
    if t.throw_beats:  # дорожный: what beats this card (the option: or an earlier one)
        ranks = t.beaters[state.trump + 1][card] | (state.table_ranks if t.throw_beats_any
                                                     else 0)
    else:
        ranks = state.table_ranks | t.beat_throwable[card]
    return _settle(state, state.phase, hands, hidden, state.table,
                   covers[:target] + (card,) + covers[target + 1:], state.table_by,
                   state.defender, state.taking, 0, (1 << card) if t.swap_trump else state.shown,
                   ranks, ev)


def do_take(state: State, ev: EventSink) -> State:
    if ev is not None:
        ev.append(E.TakeDeclared(state.defender))
    return _settle(state, state.phase, state.hands, state.hidden, state.table, state.covers,
                   state.table_by, state.defender, True, 0, state.shown, state.table_ranks, ev)


def do_pass(state: State, seat: int, ev: EventSink) -> State:
    if ev is not None:
        ev.append(E.Passed(seat))
    t = state.game.tables
    return _settle(state, state.phase, state.hands, state.hidden, state.table, state.covers,
                   state.table_by, state.defender, state.taking, state.passed | (1 << seat),
                   turn_after(t, seat) if t.strict else state.shown, state.table_ranks, ev)


def do_transfer(state: State, seat: int, card: int, target: int, showing: bool,
                ev: EventSink) -> State:
    if ev is not None:
        ev.append(E.Transferred(seat, card, target, showing))
    hands, hidden = state.hands, state.hidden
    if showing:
        if not (hands[seat] >> card) & 1:  # a hidden card, now shown: this view learns it
            hands = hands[:seat] + (hands[seat] | (1 << card),) + hands[seat + 1:]
            hidden = hidden[:seat] + (hidden[seat] - 1,) + hidden[seat + 1:]
        return _settle(state, state.phase, hands, hidden, state.table, state.covers,
                       state.table_by, target, state.taking, 0,
                       state.shown | (1 << card) | state.game.tables.proezd,
                       state.table_ranks, ev)
    hands, hidden = without(hands, hidden, seat, card)
    t = state.game.tables
    ranks = state.table_ranks if t.throw_beats else state.table_ranks | t.throwable[card]
    if state.seat_trumps:  # двухкозырной: the new defender's own trump decides his beats
        state = state._replace(trump=state.seat_trumps[target])
    return _settle(state, state.phase, hands, hidden, state.table + (card,),
                   state.covers + (UNKNOWN,), state.table_by + (seat,), target, state.taking,
                   0, not_thrown(t, state.shown, len(state.table)), ranks, ev)


def not_thrown(t: GameTables, shown: int, position: int) -> int:
    """`State.shown` after a transfer card joins the table at `position`: щелковский counts it
    among the cards the limit does not count (with (B) marks its position)."""
    if t.over_limit:
        return shown | (1 << (t.base_shift + position))
    return shown + (1 << t.base_shift) if t.thrown_only else shown


# ---- settling and closing the bout -----------------------------------------------------------

def _settle(state: State, phase: int, hands: tuple[int, ...], hidden: tuple[int, ...],
            table: tuple[int, ...], covers: tuple[int, ...], table_by: tuple[int, ...],
            defender: int, taking: bool, passed: int, shown: int, ranks: int,
            ev: EventSink) -> State:
    """The state after a bout action: the bout goes on while anybody may act in it, and
    closes otherwise."""
    t = state.game.tables
    actors = bout_actors_of(t, holding_of(hands, hidden),
                            hands[defender].bit_count() + hidden[defender],
                            thrown_count(t, table, shown),
                            covers.count(UNKNOWN), state.attacker, defender, taking, passed,
                            state.out, state.bout, shown & state.game.tables.proezd_self,
                            (shown >> t.base_shift) - 1 if t.strict else -1,
                            t.over_limit and not shown & t.chosen)
    if t.face_down:
        actors = with_doubters(t, actors, covers, taking, passed, state.out, state.attacker,
                               defender)
    if actors:
        s: State = tuple.__new__(State, (
            state.game, phase, hands, hidden, state.stock, state.trump, state.trump_card,
            state.hidden_trump, state.reveal_card, table, covers, table_by, state.attacker,
            defender, taking, passed, shown, state.out, state.finish, state.discard,
            state.bout, state.claims, state.lot_among, state.result, actors, ranks,
            state.seat_trumps, state.locked, state.otboi, state.tally, state.controller,
            state.doubt, state.buried, state.n_buried, state.swapped))
        return s
    return _end_bout(state, hands, hidden, table, covers, table_by, defender, taking, ev)


def _end_bout(state: State, hands: tuple[int, ...], hidden: tuple[int, ...],
              table: tuple[int, ...], covers: tuple[int, ...], table_by: tuple[int, ...],
              defender: int, took: bool, ev: EventSink) -> State:
    otboi = state.otboi
    if state.game.tables.rebound and not took:
        otboi += 1
        if otboi % 2 == 0:
            # отбойный: «каждый второй отбой карты ... перемешиваются с картами в колоде»: the
            # cards wait on the table for the shuffle (chance), then the bout closes
            s: State = tuple.__new__(State, (
                state.game, RESHUFFLE, hands, hidden, state.stock, state.trump,
                state.trump_card, state.hidden_trump, state.reveal_card, table, covers,
                table_by, state.attacker, defender, False, 0, state.shown, state.out,
                state.finish, state.discard, state.bout, state.claims, state.lot_among,
                state.result, (CHANCE,), state.table_ranks, state.seat_trumps, state.locked,
                otboi, state.tally, state.controller, (), state.buried, state.n_buried, 0))
            return s
    return _closed(state, hands, hidden, table, covers, table_by, defender, took, ev, otboi)


DECK_ORDER = 64
"""отбойный: the reshuffle variant of a networked game, whose order only the deck holds."""


def rebound_stock(state: State, variant: int) -> tuple[int, ...]:
    """отбойный: the stock after the waiting bout's cards are shuffled into it. The trump card
    stays face up at the bottom; a full state takes the order `variant` (0..63) gives; with
    `DECK_ORDER` (the network deck's secret order) or in a partial view nobody knows it."""
    returned = list(state.table) + [c for c in state.covers if c >= 0]
    stock = state.stock
    bottom = stock[-1:] if stock and stock[-1] == state.trump_card >= 0 else ()
    face_down = list(stock[:len(stock) - len(bottom)])
    pool = face_down + returned
    if variant == DECK_ORDER or UNKNOWN in face_down:
        return (UNKNOWN,) * len(pool) + bottom
    return tuple(shuffled(pool, variant * 4099 + state.bout)) + bottom


def on_reshuffle(state: State, action: Action, ev: EventSink) -> State:
    variant = action.target
    if action.cards or not 0 <= variant <= DECK_ORDER:
        raise IllegalAction(Reason.BAD_CHANCE, "a reshuffle names an order 0..64 and no card")
    returned = tuple(state.table) + tuple(c for c in state.covers if c >= 0)
    stock = rebound_stock(state, variant)
    if ev is not None:
        ev.append(E.Rebounded(returned, len(stock)))
    state = state._replace(stock=stock)
    return _closed(state, state.hands, state.hidden, (), (), (), state.defender, False, ev,
                   state.otboi)


def _closed(state: State, hands: tuple[int, ...], hidden: tuple[int, ...],
            table: tuple[int, ...], covers: tuple[int, ...], table_by: tuple[int, ...],
            defender: int, took: bool, ev: EventSink, otboi: int, next_from: int = -1) -> State:
    game = state.game
    new_hands, new_hidden = list(hands), list(hidden)
    stock, trump, trump_card = state.stock, state.trump, state.trump_card
    if game.tables.swap_trump and not took:
        stock, covers, trump, trump_card = swap_trump(game.suit, stock, covers, state.shown,
                                                      trump, trump_card, ev)
    locked = list(state.locked) if state.locked else None
    tally = state.tally
    buried, n_buried = state.buried, state.n_buried
    if game.tables.face_down and not took:
        # верю не верю: «карты идут в отбой, откладываются в закрытую стопку»: the face-down
        # covers go there unseen (a view knows only its own), the attack cards face up
        known = tuple(c for c in covers if c >= 0)
        for card in known:
            buried |= 1 << card
        n_buried += len(covers)
        if ev is not None:
            ev.append(E.Buried(len(covers), known))
        covers = ()
    if game.tables.count_defended and (not took or game.tables.count_taken):
        tally = count_defence(game.tables, tally, covered_attacks(table, covers) if took
                              else table, defender)
    phase, stock, out, finish, discard, result, attacker, defender = close_bout(
        game.tables, game.rank, new_hands, new_hidden, stock, table, covers, table_by,
        state.attacker, defender, took, state.out, state.finish, state.discard, state.bout,
        state.hidden_trump, ev, locked, tally, next_from)
    actors = _NO_ACTORS if phase == OVER else (
        game.tables.solo[attacker] if phase == PHASE_LEAD else (CHANCE,))
    if state.seat_trumps:
        trump = state.seat_trumps[defender]  # двухкозырной: the new defender's suit decides
    controller = state.controller
    if game.tables.dummy >= 0 and result is None:
        controller = next_controller(game.tables, controller, attacker, out)
    s: State = tuple.__new__(State, (
        game, phase, tuple(new_hands), tuple(new_hidden), stock, trump, trump_card,
        state.hidden_trump, state.reveal_card, (), (), (), attacker, defender, False, 0, 0, out,
        finish, discard, state.bout + 1, state.claims, state.lot_among, result, actors, 0,
        state.seat_trumps, state.locked if locked is None else tuple(locked), otboi, tally,
        controller, (), buried, n_buried, 0))
    return s


def next_controller(t: GameTables, controller: int, attacker: int, out: int) -> int:
    """с болваном, who plays the dummy's cards in the next bout: the bout's attacker
    (`bout_attacker`), or the game's first attacker until he goes out, then the next player
    still in clockwise (the catalogue's resolution; the text is silent)."""
    if t.dummy_by_bout and attacker != t.dummy:
        return attacker
    # the dummy attacks (the agreed variant): its controller keeps its cards for the bout
    if (out >> controller) & 1:
        return next_active_of(t.n_players, out | t.dummy_bit, controller, 1)
    return controller


def covered_attacks(table: Sequence[int], covers: Sequence[int]) -> tuple[int, ...]:
    """The attack cards that are covered (a taken bout's beaten cards)."""
    return tuple(card for card, cover in zip(table, covers, strict=True) if cover >= 0)


def count_defence(t: GameTables, tally: tuple[int, ...], table: Sequence[int],
                  defender: int) -> tuple[int, ...]:
    """The scores after a defended bout (очковый: every attack card beaten; фигурный: the
    figures, 10 to ace, among them), credited to the defender who saw the bout through."""
    if t.counter == COUNTER_BEATEN:
        gained = len(table)
    else:
        mask = 0
        for card in table:
            mask |= 1 << card
        gained = (mask & t.figures).bit_count()
    if not gained:
        return tally
    return tally[:defender] + (tally[defender] + gained,) + tally[defender + 1:]


def swap_trump(suit: tuple[int, ...], stock: tuple[int, ...], covers: tuple[int, ...],
               last: int, trump: int, trump_card: int, ev: EventSink) -> tuple[
                   tuple[int, ...], tuple[int, ...], int, int]:
    """козырной, a defended bout: «последняя карта с отбоя меняется с козырной картой, которая
    лежит под колодой». `last` is the mask of the bout's last card (its last beat); it goes
    under the stock as the new trump card and the old one takes its place in the discard.
    No swap once the trump card has been drawn. Returns the stock, the covers, the trump suit
    and the trump card."""
    if not stock or stock[-1] != trump_card or trump_card < 0 or not last:
        return stock, covers, trump, trump_card
    card = last.bit_length() - 1
    index = covers.index(card)
    if ev is not None:
        ev.append(E.TrumpSwapped(card, trump_card, suit[card]))
    return (stock[:-1] + (card,), covers[:index] + (trump_card,) + covers[index + 1:],
            suit[card], card)


def close_bout(t: GameTables, rank: tuple[int, ...], hands: list[int], hidden: list[int],
               stock: tuple[int, ...], table: Sequence[int], covers: Sequence[int],
               table_by: Sequence[int], attacker: int, defender: int, took: bool, out: int,
               finish: tuple[int, ...], discard: int, bout: int, hidden_trump: int,
               ev: EventSink, locked: list[tuple[int, ...]] | None = None,
               tally: tuple[int, ...] = (), next_from: int = -1) -> tuple[
                   int, tuple[int, ...], int, tuple[int, ...], int, Result | None, int, int]:
    """Close a bout nobody can act in any more: the table goes to the taker or the discard,
    hands are refilled (in place), players with no cards leave once the stock is empty, and
    the game ends or the next bout starts. Returns the next phase, stock, out mask, finish
    order, discard, result, attacker and defender. `defender` is the seat that takes when
    `took` (оборотный: also a thrower penalised); `next_from`, when set, is the seat whose left
    neighbour attacks next instead."""
    table_mask = 0
    for card in table:
        table_mask |= 1 << card
    unseen = 0  # верю не верю: face-down covers this state does not know
    for card in covers:
        if card >= 0:
            table_mask |= 1 << card
        elif card == FACE_DOWN:
            unseen += 1
    if took:
        if t.take_unbeaten:
            # круглый: «Карты, которые игрок отбивает, идут в отбой, а те, которые он не смог
            # побить, он забирает себе»
            beaten = _beaten_pairs(table, covers)
            table_mask &= ~beaten
            hands[defender] = hands[defender] | table_mask  # (`|=` on a list item: boxed in mypyc)
            if ev is not None:
                ev.append(E.Took(defender, cards_of(table_mask)))
            if beaten:
                discard |= beaten
                if ev is not None:
                    ev.append(E.Discarded(cards_of(beaten)))
        else:
            hands[defender] = hands[defender] | table_mask
            if ev is not None:
                ev.append(E.Took(defender, cards_of(table_mask)))
        if unseen:  # верю не верю: the face-down covers this state does not know
            hidden[defender] += unseen
        if t.loss_size and hands[defender].bit_count() + hidden[defender] >= t.loss_size:
            # большой: «Игрок, у которого оказываются 52 карты или более в ходе игры, сразу
            # считается проигравшим» — checked after a take, before anybody draws
            if ev is not None:
                ev.append(E.GameOver((defender,), False, 0))
            return (OVER, stock, out, finish, discard, Result((defender,), False, 0, finish),
                    attacker, defender)
    elif table_mask:  # (отбойный: a reshuffled bout closes with its cards in the stock)
        discard |= table_mask
        if ev is not None:
            ev.append(E.Discarded(cards_of(table_mask)))
        if locked is not None and locked[defender]:
            # магаданский: «если он сделает отбой ... По одной карте становится доступной»
            unlock(hands, hidden, locked, defender, 1, ev)
    if stock and t.refill != REFILL_NONE:
        stock = _refill(t, hands, hidden, stock, attacker, defender, out, bout, ev, locked)
    if locked is not None and not stock:
        # «Когда закончится колода, то все недоступные карты, становятся доступными»
        for seat in t.order[attacker]:
            if locked[seat]:
                unlock(hands, hidden, locked, seat, len(locked[seat]), ev)
    held_before = out
    # refill none (чукотский): the stock is set aside, so an empty hand leaves at once
    if not stock or t.refill == REFILL_NONE:
        for seat in t.order[attacker]:
            if not (out >> seat) & 1 and not hands[seat] and not hidden[seat]:
                out |= 1 << seat
                if seat != t.dummy:  # с болваном: `finish` lists the players only
                    finish = finish + (seat,)
                if ev is not None:
                    ev.append(E.PlayerOut(seat))
    bout += 1
    if t.dummy >= 0:
        result = dummy_result(t, out, held_before, finish, defender, took, table_by, ev)
    else:
        result = _result(t, rank, out, held_before, finish, table, table_by, tally, ev)
    if result is None and bout >= t.bout_cap:
        # cards can pass round for ever (занудный's forced leads, takes of cards nobody can
        # beat): a game that reaches the cap is a draw (docs/rules.md, "Every game ends")
        result = Result((), True, 0, finish)
        if ev is not None:
            ev.append(E.GameOver((), True, 0))
    if result is not None:
        return OVER, stock, out, finish, discard, result, attacker, defender
    if t.rotate:
        rotate_hands(t.n_players, hands, hidden, out, ev)
    # after a take the taker's left neighbour leads; after a defence the defender (круглый:
    # the attacker's left neighbour, whatever happened)
    skip = out | t.dummy_skip  # с болваном: the dummy never attacks (unless agreed)
    if t.next_by_attacker & (2 if took else 1):
        attacker = next_active_of(t.n_players, skip, attacker, 1)
    else:
        attacker = next_active_of(t.n_players, skip, defender, 1) if took or (out >> defender) & 1 \
            else defender
    if next_from >= 0:
        attacker = next_active_of(t.n_players, skip, next_from, 1)
    defender = defender_for(t, out, attacker)
    if ev is not None:
        limit = t.first_limit if bout == 0 else t.later_limit
        ev.append(E.BoutStarted(attacker, defender, -1 if limit == NO_LIMIT else limit))
    # потайной: the stock and the trump card are gone, so the hidden card is turned now
    phase = REVEAL_HIDDEN if not stock and hidden_trump == UNKNOWN else PHASE_LEAD
    return phase, stock, out, finish, discard, None, attacker, defender


def _beaten_pairs(table: Sequence[int], covers: Sequence[int]) -> int:
    """The mask of the attack cards that are covered and their covers."""
    beaten = 0
    for card, cover in zip(table, covers, strict=True):
        if cover >= 0:
            beaten |= (1 << card) | (1 << cover)
    return beaten


def unlock(hands: list[int], hidden: list[int], locked: list[tuple[int, ...]], seat: int,
           n: int, ev: EventSink) -> None:
    """магаданский: the first `n` locked cards of `seat` go into his hand (the lists in place);
    a card this state does not know joins the hand's hidden part."""
    pile = locked[seat]
    cards, locked[seat] = pile[:n], pile[n:]
    known = tuple(c for c in cards if c >= 0)
    for card in known:
        hands[seat] |= 1 << card
    hidden[seat] += len(cards) - len(known)
    if ev is not None:
        ev.append(E.Unlocked(seat, len(cards), known))
def rotate_hands(n: int, hands: list[int], hidden: list[int], out: int,
                 ev: EventSink) -> None:
    """круговой, after the refill: every player still in the game passes his whole hand to the
    next one clockwise (to his left); two players swap hands. The lists change in place; the
    seats keep their roles."""
    seats = [s for s in range(n) if not (out >> s) & 1]
    if len(seats) < 2:
        return
    moved = [hands[s] for s in seats]
    unknown = [hidden[s] for s in seats]
    for i, seat in enumerate(seats):
        hands[seat] = moved[i - 1]
        hidden[seat] = unknown[i - 1]
    if ev is not None:
        ev.append(E.HandsRotated(tuple(seats)))


def _refill(t: GameTables, hands: list[int], hidden: list[int], stock: tuple[int, ...],
            attacker: int, defender: int, out: int, bout: int,
            ev: EventSink, locked: list[tuple[int, ...]] | None = None) -> tuple[int, ...]:
    """Draw up to the hand size in the refill order (the lists in place); the stock left.
    only_when_empty: only empty hands draw (a full hand); progressive: the target is the
    number of completed bouts + 1, with `bout` the index of the bout just closed."""
    hand_size = bout + 2 if t.refill == REFILL_PROGRESSIVE else t.hand_size
    when_empty = t.refill == REFILL_WHEN_EMPTY
    for seat in t.refill_order[attacker][defender]:
        if not stock:
            break
        if (out >> seat) & 1:
            continue
        if when_empty and (hands[seat] or hidden[seat]):
            continue
        need = (t.seat_sizes[seat] if t.seat_sizes else hand_size) \
            - hands[seat].bit_count() - hidden[seat]
        if locked is not None:
            need -= len(locked[seat])  # магаданский: locked cards are still his
        if need <= 0:
            continue
        drawn, stock = stock[:need], stock[need:]
        hand = hands[seat]
        unknown = 0
        for card in drawn:
            if card >= 0:
                hand |= 1 << card
            else:
                unknown += 1
        hands[seat] = hand
        if unknown:
            hidden[seat] += unknown
        if ev is not None:
            ev.append(E.Drew(seat, len(drawn), tuple(c for c in drawn if c >= 0)))
    return stock


def _result(t: GameTables, rank: tuple[int, ...], out: int, held_before: int,
            finish: tuple[int, ...], final_table: Sequence[int], final_by: Sequence[int],
            tally: tuple[int, ...], ev: EventSink) -> Result | None:
    """The result when the game is over (one player, or one team, left holding cards)."""
    n = t.n_players
    if t.team_last:
        if len({t.team[s] for s in range(n) if not (out >> s) & 1}) > 1:
            return None
    elif n - out.bit_count() > 1:
        return None
    durak = tuple(s for s in range(n) if not (out >> s) & 1)
    draw = not durak
    pogony = 0
    if durak and t.pogony_sixes:
        went_out = out & ~held_before
        sixes = sum(1 for card, by in zip(final_table, final_by, strict=True)
                    if (went_out >> by) & 1 and rank[card] == 6)
        pogony = min(sixes, t.pogony_max)
    winners: tuple[int, ...] = ()
    if t.counter:
        durak, winners = scored_outcome(t, tally, finish)
        draw = not durak
    if ev is not None:
        ev.append(E.GameOver(durak, draw, pogony, tally, winners))
    return Result(durak, draw, pogony, finish, tally, winners)


def dummy_result(t: GameTables, out: int, held_before: int, finish: tuple[int, ...],
                 defender: int, took: bool, table_by: Sequence[int],
                 ev: EventSink) -> Result | None:
    """с болваном, the result: «Болван не может быть "дураком"». The game ends when at most one
    player holds cards, whatever the dummy holds; the one left is the durak. «Если последним
    игроком, у которого остались карты становится болван, то "дураком" считается игрок,
    который избавился от всех своих карт перед болваном»: when no player holds cards but the
    dummy does, the durak is the player whose hand emptied last — the defender of the final
    bout, who beat its last card (nobody took: a taker would still hold cards). If the dummy
    is out too, nobody holds cards: a draw (SP16). When the dummy attacks and defends (the
    agreed variant) and defends that bout, the players went out laying cards on it: the one
    whose last card came last emptied his hand last."""
    left = tuple(s for s in range(t.n_players) if not ((out | t.dummy_bit) >> s) & 1)
    if len(left) > 1:
        return None
    durak = left
    gone = out & ~held_before
    if not left and not (out >> t.dummy) & 1:
        if defender == t.dummy:
            durak = next(((seat,) for seat in reversed(table_by) if (gone >> seat) & 1), ())
        elif not took and (gone >> defender) & 1:
            durak = (defender,)
    if ev is not None:
        ev.append(E.GameOver(durak, not durak, 0))
    return Result(durak, not durak, 0, finish)


def scored_outcome(t: GameTables, tally: tuple[int, ...],
                   finish: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The losers and winners of a scored game (очковый, погонный: the fewest points lose;
    фигурный: the most figures win, everybody else loses). Ties go by the order of going out
    (a seat still holding cards went out last) or are shared. Losers are listed the most
    beaten first: the first of them deals the next game."""
    n = t.n_players
    out_at = {seat: i for i, seat in enumerate(finish)}

    def lateness(seat: int) -> int:
        return out_at.get(seat, n)

    if t.scored_loser:
        low = min(tally)
        tied = sorted((s for s in range(n) if tally[s] == low), key=lateness, reverse=True)
        return (tuple(tied) if t.tie_shared else (tied[0],)), ()
    high = max(tally)
    best = sorted((s for s in range(n) if tally[s] == high), key=lateness)
    winners = tuple(sorted(best)) if t.tie_shared else (best[0],)
    losers = sorted((s for s in range(n) if s not in winners),
                    key=lambda s: (tally[s], -lateness(s)))
    return tuple(losers), winners
