"""The bout: leads, throw-ins, beats, transfers, taking, passing, and closing the bout.

Throw-ins are concurrent: while a bout is open every eligible thrower and the defender may act;
the networked game orders racing actions in its log. A thrower's pass holds until the table
changes (SP9: a pass is not final); the bout closes when every card is covered, or the defender
has said «беру», and no eligible thrower is left to act.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import combinations

from p2p_durak.engine import actions as A
from p2p_durak.engine import events as E
from p2p_durak.engine.actions import Action
from p2p_durak.engine.cards import NO_SUIT, bits
from p2p_durak.engine.errors import IllegalAction, Reason
from p2p_durak.engine.events import EventSink
from p2p_durak.engine.hands import check_card, without
from p2p_durak.engine.seats import neighbours, next_active, next_opponent
from p2p_durak.engine.state import BOUT, LEAD, OVER, REVEAL_HIDDEN, UNKNOWN, Game, Result, State


def bout_actors(state: State) -> tuple[int, ...]:
    actors: list[int] = []
    if not state.taking and UNKNOWN in state.covers:
        actors.append(state.defender)
    actors.extend(throwers(state))
    return tuple(actors)


def throwers(state: State) -> list[int]:
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
    if not room_for_one_more(state):
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
        if by == "neighbours_of_defender" and seat not in neighbours(state, defender):
            continue
        out.append(seat)
    return out


def bout_limit(state: State) -> int | None:
    rules = state.game.rules
    return rules.first_bout_attack_limit if state.bout == 0 else rules.bout_attack_limit


def room_for_one_more(state: State) -> bool:
    limit = bout_limit(state)
    if limit is not None and len(state.table) >= limit:
        return False
    if state.game.rules.defender_hand_cap:
        uncovered = state.covers.count(UNKNOWN)
        return uncovered + 1 <= state.hand_size(state.defender)
    return True


def table_ranks(state: State) -> set[int]:
    rank = state.game.rank
    ranks = {rank[c] for c in state.table}
    ranks.update(rank[c] for c in state.covers if c >= 0)
    ranks.discard(-1)
    return ranks


def mask_of_ranks(game: Game, ranks: Iterable[int]) -> int:
    mask = 0
    for r in ranks:
        mask |= game.rank_mask.get(r, 0)
    return mask


def max_lead(state: State) -> int:
    cap = bout_limit(state)
    if state.game.rules.defender_hand_cap:
        size = state.hand_size(state.defender)
        cap = size if cap is None else min(cap, size)
    rules = state.game.rules
    if rules.lead_rule == "single":
        cap = 1 if cap is None else min(cap, 1)
    if rules.lead_max is not None:
        cap = rules.lead_max if cap is None else min(cap, rules.lead_max)
    return 64 if cap is None else cap


def leads(state: State) -> list[Action]:
    seat = state.attacker
    hand = state.hands[seat]
    cap = max_lead(state)
    game = state.game
    out: list[Action] = []
    by_rank: dict[int, list[int]] = {}
    for card in bits(hand):
        by_rank.setdefault(game.rank[card], []).append(card)
    for cards in by_rank.values():
        for k in range(1, min(cap, len(cards)) + 1):
            out.extend(A.Action(A.LEAD, seat, combo) for combo in combinations(cards, k))
    return out


def defender_actions(state: State) -> list[Action]:
    game = state.game
    seat = state.defender
    hand = state.hands[seat]
    beaters = game.beaters(state.trump)
    out: list[Action] = []
    for index, attack in enumerate(state.table):
        if state.covers[index] == UNKNOWN:
            out.extend(A.Action(A.BEAT, seat, (c,), index) for c in bits(hand & beaters[attack]))
    out.append(A.Action(A.TAKE, seat))
    if transfer_window_open(state):
        rank = game.rank[state.table[0]]
        same = hand & game.rank_mask.get(rank, 0)
        target = transfer_target(state)
        if same and can_transfer_cards(state, target, len(state.table) + 1):
            out.extend(A.Action(A.TRANSFER, seat, (c,)) for c in bits(same))
        if game.rules.transfer_by_showing == "forward" and state.trump != NO_SUIT:
            showable = same & game.suit_mask[state.trump] & ~state.shown
            if showable and can_transfer_cards(state, target, len(state.table), adds=False):
                out.extend(A.Action(A.SHOW, seat, (c,)) for c in bits(showable))
    return out


def transfer_window_open(state: State) -> bool:
    rules = state.game.rules
    if not rules.transfer or state.taking:
        return False
    # before_first_cover: nothing covered yet, so every attack card shares the lead's rank
    return all(c == UNKNOWN for c in state.covers)


def transfer_target(state: State) -> int:
    if state.game.rules.transfer_target == "next_active_opponent":
        return next_opponent(state, state.defender)
    return next_active(state, state.defender, 1)


def can_transfer_cards(state: State, target: int, total: int, *, adds: bool = True) -> bool:
    if target == state.defender:
        return False
    if adds:
        limit = bout_limit(state)
        if limit is not None and total > limit:
            return False
    rules = state.game.rules
    return not rules.transfer_capacity_check or state.hand_size(target) >= total


def on_lead(state: State, action: Action, ev: EventSink) -> State:
    seat = action.seat
    if seat != state.attacker:
        raise IllegalAction(Reason.NOT_YOUR_TURN)
    cards = action.cards
    if not cards or len(set(cards)) != len(cards):
        raise IllegalAction(Reason.BAD_ACTION, "a lead needs distinct cards")
    game = state.game
    for card in cards:
        check_card(state, seat, card)
    rank = game.rank[cards[0]]
    if rank < 0 or any(game.rank[c] != rank for c in cards):
        raise IllegalAction(Reason.NOT_SAME_RANK)
    if len(cards) > max_lead(state):
        raise IllegalAction(Reason.TOO_MANY_CARDS)
    hands, hidden = state.hands, state.hidden
    for card in cards:
        hands, hidden = without(state._replace(hands=hands, hidden=hidden), seat, card)
    if ev is not None:
        ev.append(E.Led(seat, tuple(cards)))
    state = state._replace(phase=BOUT, hands=hands, hidden=hidden, table=tuple(cards),
                           covers=(UNKNOWN,) * len(cards), table_by=(seat,) * len(cards),
                           passed=0)
    return settle(state, ev)


def on_throw(state: State, action: Action, ev: EventSink) -> State:
    seat = action.seat
    if seat == state.defender or seat not in state.actors:
        raise IllegalAction(Reason.THROW_IN_NOT_ALLOWED if not (state.passed >> seat) & 1
                            else Reason.ALREADY_PASSED)
    if len(action.cards) != 1:
        raise IllegalAction(Reason.BAD_ACTION, "a throw-in is one card")
    card = action.cards[0]
    check_card(state, seat, card)
    if state.game.rank[card] not in table_ranks(state):
        raise IllegalAction(Reason.RANK_NOT_ON_TABLE)
    hands, hidden = without(state, seat, card)
    if ev is not None:
        ev.append(E.ThrewIn(seat, card))
    state = state._replace(hands=hands, hidden=hidden, table=state.table + (card,),
                           covers=state.covers + (UNKNOWN,), table_by=state.table_by + (seat,),
                           passed=0)
    return settle(state, ev)


def on_beat(state: State, action: Action, ev: EventSink) -> State:
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
    check_card(state, seat, card)
    attack = state.table[target]
    if not (state.game.beaters(state.trump)[attack] >> card) & 1:
        raise IllegalAction(Reason.DOES_NOT_BEAT)
    hands, hidden = without(state, seat, card)
    if ev is not None:
        ev.append(E.Beat(seat, card, attack))
    covers = state.covers[:target] + (card,) + state.covers[target + 1:]
    state = state._replace(hands=hands, hidden=hidden, covers=covers, passed=0)
    return settle(state, ev)


def on_take(state: State, action: Action, ev: EventSink) -> State:
    if action.seat != state.defender:
        raise IllegalAction(Reason.NOT_YOUR_TURN)
    if state.taking:
        raise IllegalAction(Reason.ALREADY_TAKING)
    if UNKNOWN not in state.covers:
        raise IllegalAction(Reason.NOTHING_TO_TAKE)
    if ev is not None:
        ev.append(E.TakeDeclared(action.seat))
    return settle(state._replace(taking=True, passed=0), ev)


def on_pass(state: State, action: Action, ev: EventSink) -> State:
    seat = action.seat
    if (state.passed >> seat) & 1:
        raise IllegalAction(Reason.ALREADY_PASSED)
    if seat == state.defender or seat not in state.actors:
        raise IllegalAction(Reason.NOT_YOUR_TURN)
    if ev is not None:
        ev.append(E.Passed(seat))
    return settle(state._replace(passed=state.passed | (1 << seat)), ev)


def on_transfer(state: State, action: Action, ev: EventSink) -> State:
    seat = action.seat
    game = state.game
    showing = action.kind == A.SHOW
    if seat != state.defender:
        raise IllegalAction(Reason.NOT_YOUR_TURN)
    if not transfer_window_open(state):
        raise IllegalAction(Reason.TRANSFER_NOT_ALLOWED)
    if showing and game.rules.transfer_by_showing != "forward":
        raise IllegalAction(Reason.SHOW_NOT_ALLOWED, "transfer by showing is off")
    if len(action.cards) != 1:
        raise IllegalAction(Reason.BAD_ACTION, "a transfer is one card")
    card = action.cards[0]
    check_card(state, seat, card)
    if game.rank[card] != game.rank[state.table[0]]:
        raise IllegalAction(Reason.TRANSFER_NOT_ALLOWED, "the card must be of the attack rank")
    if showing and (game.suit[card] != state.trump or (state.shown >> card) & 1):
        raise IllegalAction(Reason.SHOW_NOT_ALLOWED)
    target = transfer_target(state)
    total = len(state.table) + (0 if showing else 1)
    if not can_transfer_cards(state, target, total, adds=not showing):
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
        hands, hidden = without(state, seat, card)
        state = state._replace(hands=hands, hidden=hidden, table=state.table + (card,),
                               covers=state.covers + (UNKNOWN,),
                               table_by=state.table_by + (seat,), defender=target, passed=0)
    return settle(state, ev)


def settle(state: State, ev: EventSink) -> State:
    """Close the bout when nobody is left to act in it."""
    actors = bout_actors(state)
    if actors:
        return state._replace(actors=actors)
    return _end_bout(state, ev)


def _end_bout(state: State, ev: EventSink) -> State:
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
            ev.append(E.Took(defender, tuple(bits(table_mask))))
    else:
        discard |= table_mask
        if ev is not None:
            ev.append(E.Discarded(tuple(bits(table_mask))))
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
        attacker = next_active(state, defender, 1)
    else:
        attacker = defender if not (state.out >> defender) & 1 else next_active(state, defender, 1)
    state = start_bout(state, attacker, ev)
    if not state.stock and state.hidden_trump == UNKNOWN:
        # потайной: the stock and the trump card are gone, so the hidden card is turned now
        return state._replace(phase=REVEAL_HIDDEN)
    return state


def _refill(state: State, ev: EventSink) -> State:
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


def _mark_out(state: State, ev: EventSink) -> State:
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
               final_by: tuple[int, ...], ev: EventSink) -> State | None:
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


def start_bout(state: State, attacker: int, ev: EventSink) -> State:
    if state.game.rules.attack_target == "next_active_opponent":
        defender = next_opponent(state, attacker)
    else:
        defender = next_active(state, attacker, 1)
    state = state._replace(phase=LEAD, attacker=attacker, defender=defender, passed=0, shown=0,
                           taking=False)
    if ev is not None:
        limit = bout_limit(state)
        ev.append(E.BoutStarted(attacker, defender, -1 if limit is None else limit))
    return state
