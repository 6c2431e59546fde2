"""Дурак верю не верю: covers laid face down, and «сомневаюсь».

«Карта, которой отбивается игрок, должна быть положена в закрытом виде поверх той карты,
которую она отбивает. Любой из игроков, который сомневается в правильном отбивании карты, может
проверить это. Для этого он говорит "сомневаюсь" и карта, которой отбился игрок открывается.
Если отбой правильный, то все карты, которые были выложены, забирает сомневающийся игрок, а
если отбой был неправильным, то все карты забирает тот игрок, который отбивался.»
(shared/seeds/000_0a1bcdd496bc6662.txt, «Дурак верю не верю»)

One log entry takes two forms. A full state and the cover's author name the card
(`cover(seat, card, i)`); every other view applies the public form `cover(seat, None, i)`: the
card leaves the author's hidden count and the attack card shows covered, card unknown
(`FACE_DOWN`). Any card may be laid (a bluff stands unless doubted), so a view checks nothing of
the card it cannot see. A doubt (`challenge(seat, i)`) stops the bout in the phase CHALLENGE
until chance opens that cover (`reveal(card)`; over the network the deck opens the slot with its
owner's proven tokens, so the card cannot be another); then the bout ends at once: the doubter
takes the table if the card beat, else the defender does.
"""

from __future__ import annotations

from p2p_durak.engine import events as E
from p2p_durak.engine.actions import CHALLENGE, CHANCE, PASS, REVEAL, Action
from p2p_durak.engine.bout import _settle, close_bout, may_throw, thrower_actions
from p2p_durak.engine.cards import cards_of
from p2p_durak.engine.errors import IllegalAction, Reason
from p2p_durak.engine.events import EventSink
from p2p_durak.engine.hands import check_card, without
from p2p_durak.engine.state import CHALLENGE as PHASE_CHALLENGE
from p2p_durak.engine.state import FACE_DOWN, OVER, UNKNOWN, State, known_cards
from p2p_durak.engine.state import LEAD as PHASE_LEAD

# ---- who may do what ---------------------------------------------------------------------------


def doubt_actions(state: State, seat: int) -> list[Action]:
    """A non-defender's actions: throw-ins (when he may throw in), then a doubt of each
    face-down cover, then pass — sorted by kind like every action list."""
    options = thrower_actions(state, seat) if may_throw(state, seat) else \
        [state.game.tables.pass_[seat]]
    doubts = [Action(CHALLENGE, seat, (), i) for i, c in enumerate(state.covers)
              if c != UNKNOWN]
    if doubts and (not state.taking or state.game.tables.doubt_after_take):
        # a list sorted by kind: THROW < PASS < CHALLENGE
        assert options[-1].kind == PASS
        options.extend(doubts)
    return options


# ---- the face-down cover -----------------------------------------------------------------------


def on_cover(state: State, action: Action, ev: EventSink) -> State:
    seat = action.seat
    t = state.game.tables
    if not t.face_down:
        raise IllegalAction(Reason.WRONG_PHASE, "covers are laid face up in this variant")
    if seat != state.defender:
        raise IllegalAction(Reason.NOT_YOUR_TURN)
    if state.taking:
        raise IllegalAction(Reason.ALREADY_TAKING)
    target = action.target
    if not 0 <= target < len(state.table):
        raise IllegalAction(Reason.NO_SUCH_TARGET)
    if state.covers[target] != UNKNOWN:
        raise IllegalAction(Reason.ALREADY_COVERED)
    if len(action.cards) > 1:
        raise IllegalAction(Reason.BAD_ACTION, "a cover is one card")
    if action.cards:
        card = action.cards[0]
        check_card(state, seat, card)
        hands, hidden = without(state.hands, state.hidden, seat, card)
    else:
        # the public form: any of the author's cards may have gone, so a view that knew some
        # of them (taken face up before) no longer knows which are left: all become hidden
        size = state.hand_size(seat)
        if size <= 0:
            raise IllegalAction(Reason.NOT_IN_HAND, f"seat {seat} holds no card")
        card = FACE_DOWN
        hidden = state.hidden[:seat] + (size - 1,) + state.hidden[seat + 1:]
        hands = state.hands[:seat] + (0,) + state.hands[seat + 1:]
    if ev is not None:
        ev.append(E.Covered(seat, target, state.table[target], card))
    covers = state.covers
    # «throw_in_ranks_from: face_up_only»: the cover's rank opens no throw-in
    ranks = state.table_ranks | t.beat_throwable[card] if card >= 0 else state.table_ranks
    return _settle(state, state.phase, hands, hidden, state.table,
                   covers[:target] + (card,) + covers[target + 1:], state.table_by, seat,
                   False, 0, state.shown, ranks, ev)


# ---- the doubt ---------------------------------------------------------------------------------


def on_challenge(state: State, action: Action, ev: EventSink) -> State:
    seat = action.seat
    t = state.game.tables
    if not t.face_down:
        raise IllegalAction(Reason.WRONG_PHASE, "nothing lies face down in this variant")
    if seat == state.defender or (state.out >> seat) & 1:
        raise IllegalAction(Reason.CANNOT_DOUBT, "the defender and players out do not doubt")
    if (state.passed >> seat) & 1:
        raise IllegalAction(Reason.ALREADY_PASSED)
    if state.taking and not t.doubt_after_take:
        raise IllegalAction(Reason.CANNOT_DOUBT, "the defender has said «беру»")
    target = action.target
    if not 0 <= target < len(state.table):
        raise IllegalAction(Reason.NO_SUCH_TARGET)
    if state.covers[target] == UNKNOWN:
        raise IllegalAction(Reason.NOT_FACE_DOWN)
    if ev is not None:
        ev.append(E.Doubted(seat, target, state.table[target]))
    return state._replace(phase=PHASE_CHALLENGE, doubt=(seat, target), actors=(CHANCE,),
                          passed=0)


def doubt_outcomes(state: State) -> list[Action]:
    """The chance reveals of a doubted cover: its card where this state knows it, else any card
    this state does not know the place of."""
    card = state.covers[state.doubt[1]]
    if card >= 0:
        return [Action(REVEAL, CHANCE, (card,))]
    unknown = state.game.all_cards & ~known_cards(state)
    return [Action(REVEAL, CHANCE, (c,)) for c in cards_of(unknown)]


def on_doubt_reveal(state: State, action: Action, ev: EventSink) -> State:
    """The doubted cover is open: settle the doubt and end the bout at once."""
    if len(action.cards) != 1 or action.target != -1:
        raise IllegalAction(Reason.BAD_CHANCE, "a reveal shows one card")
    card = action.cards[0]
    game = state.game
    doubter, index = state.doubt
    cover = state.covers[index]
    if cover >= 0:
        if card != cover:
            raise IllegalAction(Reason.BAD_CHANCE, "not the card laid there")
    elif not 0 <= card < game.n_cards or (known_cards(state) >> card) & 1:
        raise IllegalAction(Reason.BAD_CHANCE, "that card is elsewhere")
    t = game.tables
    defender = state.defender
    attack = state.table[index]
    beats = bool((t.beaters[state.trump + 1][attack] >> card) & 1)
    taker = doubter if beats else defender
    if ev is not None:
        ev.append(E.DoubtSettled(doubter, defender, card, attack, beats, taker))
    covers = state.covers[:index] + (card,) + state.covers[index + 1:]
    hands, hidden = list(state.hands), list(state.hidden)
    attacker = state.attacker
    if beats and not t.doubter_hands_on:
        # «все карты, которые были выложены, забирает сомневающийся игрок»; then, as after a
        # defence, the defender leads (the catalogue's recommendation)
        mask = 0
        for c in state.table:
            mask |= 1 << c
        for c in covers:
            if c >= 0:
                mask |= 1 << c
        hands[doubter] |= mask
        hidden[doubter] += covers.count(FACE_DOWN)
        if ev is not None:
            ev.append(E.Took(doubter, cards_of(mask)))
        table: tuple[int, ...] = ()
        covers = ()
        took, receiver = False, defender
    else:
        # the defender takes (a bluff caught: «беру»), or the doubter takes as a taker does
        table = state.table
        took, receiver = True, taker
    phase, stock, out, finish, discard, result, attacker, new_defender = close_bout(
        t, game.rank, hands, hidden, state.stock, table, covers, state.table_by, attacker,
        receiver, took, state.out, state.finish, state.discard, state.bout,
        state.hidden_trump, ev, None, state.tally)
    actors = () if phase == OVER else (
        t.solo[attacker] if phase == PHASE_LEAD else (CHANCE,))
    return state._replace(
        phase=phase, hands=tuple(hands), hidden=tuple(hidden), stock=stock, table=(),
        covers=(), table_by=(), attacker=attacker, defender=new_defender, taking=False,
        passed=0, shown=0, out=out, finish=finish, discard=discard, bout=state.bout + 1,
        result=result, actors=actors, table_ranks=0, doubt=(), swapped=0)
