"""Card accounting: what one seat can know of the other hands and the stock.

The bot's partial view already places every public card: the discard, the table, the face-up
trump card, and, per seat, the cards known to be in its hand (taken from the table, claimed as
the lowest trump, shown for a transfer). What the view cannot say is which *unseen* cards sit
in which hidden slot. This model adds the hard facts about those slots:

- a seat that says «нет козыря» held no trump then;
- a seat that claims trump T as its lowest held no lower trump then.

Facts hold for the cards held at that moment, not for cards drawn later, so each seat's hidden
cards are kept as groups `[count, excluded mask]`: the deal is one group, every draw adds a
free group, a claim narrows the groups held at the time. When a hidden card comes out, it
leaves the most narrowed group that could have held it — never over-constraining, so the true
deal always stays consistent with the model.

A defender who takes instead of beating did so voluntarily (keeping trumps is common), so a
take is only a soft hint: the plain cards that would have beaten an open card are probably not
among the slots held then; the sampler honours the hint with probability `SOFT_WEIGHT`.

`determinize` samples a full state consistent with all of it, for the search.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from p2p_durak.bots.features import bits, trump_mask
from p2p_durak.engine import CHANCE, UNKNOWN, Action, Game, State
from p2p_durak.engine.actions import CLAIM, COVER, EXCHANGE, NO_TRUMP, REVEAL, TAKE
from p2p_durak.engine.setup import JOKER_ROUND, JOKERS, LOWEST_ROUND, claim_round, claim_suit
from p2p_durak.engine.state import FACE_DOWN, REVEAL_TRUMP, known_cards

SOFT_WEIGHT = 0.5
"""How often a determinization honours a soft hint (a take instead of a possible beat)."""

COUNT, HARD, SOFT = 0, 1, 2
"""A group of hidden slots: how many, the cards they cannot be, the cards they probably are not."""


class Knowledge:
    """Hard and soft facts about the hidden cards of every seat but `seat`."""

    def __init__(self, game: Game, seat: int) -> None:
        self.game = game
        self.seat = seat
        # per seat: its hidden slots as groups [count, hard mask, soft mask] (owned lists)
        self.groups: list[list[list[int]]] = [[] for _ in range(game.n_players)]

    def update(self, before: State, action: Action, after: State) -> None:
        """Account for one public action (`before` -> `after` in the bot's view)."""
        game = self.game
        if game.tables.rotate and after.bout != before.bout:
            # круговой: the hands moved on at the end of the bout, and what was known of a
            # seat's hidden cards went with them; start afresh from the counts
            self.groups = [[[after.hidden[s], 0, 0]] if s != self.seat and after.hidden[s]
                           else [] for s in range(game.n_players)]
            return
        for s in range(game.n_players):
            if s == self.seat:
                continue
            if action.kind in (COVER, EXCHANGE) and not action.cards and action.seat == s:
                self._gone_unseen(before, after, s, 1 if action.kind == COVER else 2)
                continue
            revealed = self._revealed_from_hidden(before, action, s)
            for card in revealed:
                self._remove_slot(s, card)
            added = after.hidden[s] - before.hidden[s] + len(revealed)
            if added > 0:
                self.groups[s].append([added, 0, 0])  # drawn cards: nothing known of them
            for _ in range(-added):  # impossible with a consistent view; stay sound anyway
                self._remove_slot(s, -1)
        s = action.seat
        if s == self.seat or s == CHANCE:
            return
        trumps = trump_mask(game, claim_suit(before, s))  # двухкозырной: his own suit
        # a round after the first: counted over the claiming seats (с болваном's dummy never
        # claims, so `n_players` would be one too many)
        later_round = len(before.claims) >= len(game.claim_seats)
        if action.kind in (CLAIM, NO_TRUMP) and later_round \
                and claim_round(before).round == LOWEST_ROUND:
            # SP5's lowest-card round: he shows his lowest card of any suit (none: no card of
            # rank at all)
            trumps = sum(1 << c for c, rank in enumerate(game.rank) if rank >= 0)
        if action.kind == NO_TRUMP and later_round \
                and claim_round(before).round == JOKER_ROUND:
            # щелковский's last tie-break round: "no joker"
            self._narrow(s, HARD, sum(1 << c for c, f in enumerate(game.deck.faces)
                                      if f.kind in JOKERS))
        elif action.kind == NO_TRUMP:
            # (in a tie-break round: no trump beyond those shown, which are known)
            self._narrow(s, HARD, trumps)
        elif action.kind == CLAIM:
            claimed = action.cards[0]
            lower = 0
            for card in bits(trumps):
                if game.rank[card] < game.rank[claimed]:
                    lower |= 1 << card
            self._narrow(s, HARD, lower)
        elif action.kind == TAKE:
            beaters = game.beaters(before.trump)
            could_beat = 0
            for index, attack in enumerate(before.table):
                if before.covers[index] == UNKNOWN:
                    could_beat |= beaters[attack]
            self._narrow(s, SOFT, could_beat & ~trumps)

    def shown(self, s: int, cards: Sequence[int]) -> None:
        """оборотный: these cards of seat `s`'s hidden slots were shown to this seat."""
        for card in cards:
            self._remove_slot(s, card)

    def _gone_unseen(self, before: State, after: State, s: int, n: int) -> None:
        """Seat `s` laid `n` cards face down (верю не верю) or gave them back to the stock
        (покерный, drawing two unseen). Each left a hidden slot (the most narrowed group that
        could have held it) or was one of his known cards; those known cards are hidden now
        (nothing says which went), with the drawn ones a free group: sound either way."""
        removed = min(n, before.hidden[s])
        for _ in range(removed):
            self._remove_slot(s, -1)
        extra = after.hidden[s] - (before.hidden[s] - removed)
        if extra > 0:
            self.groups[s].append([extra, 0, 0])

    def _revealed_from_hidden(self, before: State, action: Action, s: int) -> list[int]:
        """Cards of `action` that came out of seat `s`'s hidden part."""
        from_hand = action.seat == s or (
            # the trump card when no stock is left: the dealer's last dealt card, shown
            action.kind == REVEAL and before.phase == REVEAL_TRUMP and not before.stock
            and s == self.game.dealer)
        if not from_hand or not before.hidden[s]:
            return []
        known = known_cards(before)
        return [c for c in action.cards if not (known >> c) & 1]

    def _remove_slot(self, s: int, card: int) -> None:
        groups = self.groups[s]
        best = -1
        for i, group in enumerate(groups):
            if card >= 0 and (group[HARD] >> card) & 1:
                continue
            if best < 0 or group[HARD].bit_count() > groups[best][HARD].bit_count():
                best = i
        if best < 0:
            # a card no group allows: a claim was false (the end-of-game audit tells);
            # forget the facts rather than keep an impossible model
            for group in groups:
                group[HARD] = group[SOFT] = 0
            best = 0 if groups else -1
            if best < 0:
                return
        groups[best][COUNT] -= 1
        if groups[best][COUNT] == 0:
            del groups[best]

    def _narrow(self, s: int, which: int, mask: int) -> None:
        for group in self.groups[s]:
            group[which] |= mask

    # ---- queries -------------------------------------------------------------------------

    def unseen(self, view: State) -> int:
        """Cards whose place the view does not know (other hidden hands, stock, hidden trump)."""
        return self.game.all_cards & ~known_cards(view)

    def possible(self, view: State) -> list[int]:
        """Per seat, every card it may hold now (its own seat: exactly its hand)."""
        pool = self.unseen(view)
        out = []
        for s in range(self.game.n_players):
            mask = view.hands[s]
            if view.hidden[s]:
                for group in self.groups[s]:
                    mask |= pool & ~group[HARD]
            out.append(mask)
        return out

    def check(self, view: State) -> None:
        """The model's invariants against the view (tests call it after every action)."""
        for s in range(self.game.n_players):
            if s == self.seat:
                continue
            total = sum(group[COUNT] for group in self.groups[s])
            if total != view.hidden[s]:
                raise AssertionError(f"seat {s}: {total} slots in groups, view hides "
                                     f"{view.hidden[s]}")
            if any(group[COUNT] <= 0 for group in self.groups[s]):
                raise AssertionError(f"seat {s}: an empty group")


def determinize(view: State, knowledge: Knowledge, rng: random.Random) -> State:
    """A full state consistent with the view and the knowledge: every unseen card placed in a
    hidden hand slot, an unknown stock position or the face-down потайной card, respecting
    every hard fact, and each soft hint with probability `SOFT_WEIGHT`."""
    game = view.game
    pool = knowledge.unseen(view)
    slots: list[tuple[int, int, int, int]] = []  # (seat, count, hard, soft)
    for s in range(game.n_players):
        if not view.hidden[s]:
            continue
        if s == knowledge.seat:
            if game.tables.blind:  # оборотный: his own cards are the ones he does not see
                slots.append((s, view.hidden[s], 0, 0))
            continue
        honour = rng.random() < SOFT_WEIGHT
        for count, hard, soft in knowledge.groups[s]:
            slots.append((s, count, hard, soft if honour else 0))
    # The tightest groups by their hard facts first: those are nested sets of trumps, so the
    # allowed cards form a chain and any pick for a tighter group leaves a looser one enough.
    # (Sorting by soft hints too would break the chain: soft hints are not nested.)
    slots.sort(key=lambda t: (pool & ~t[2]).bit_count())
    hands = list(view.hands)
    left = pool
    for s, count, hard, soft in slots:
        allowed = bits(left & ~(hard | soft))
        if len(allowed) < count:  # the soft hint does not fit this deal
            allowed = bits(left & ~hard)
        if len(allowed) < count:
            raise AssertionError(f"seat {s}: no deal fits the facts")
        for card in rng.sample(allowed, count):
            hands[s] |= 1 << card
            left &= ~(1 << card)
    rest = bits(left)
    rng.shuffle(rest)
    stock = list(view.stock)
    for i, card in enumerate(stock):
        if card == UNKNOWN:
            stock[i] = rest.pop()
    # магаданский: the locked cards nobody has seen
    locked = tuple(tuple(rest.pop() if card == UNKNOWN else card for card in pile)
                   for pile in view.locked)
    # верю не верю: the face-down covers and the discarded ones this view has not seen
    covers = tuple(rest.pop() if card == FACE_DOWN else card for card in view.covers)
    buried = view.buried
    for _ in range(view.n_buried - buried.bit_count()):
        buried |= 1 << rest.pop()
    reveal_card = view.reveal_card
    if view.hidden_trump == UNKNOWN and reveal_card == UNKNOWN and view.phase > REVEAL_TRUMP:
        reveal_card = rest.pop()
    if rest:
        raise AssertionError(f"{len(rest)} unseen cards have no place in the view")
    return view._replace(hands=tuple(hands), hidden=(0,) * game.n_players, stock=tuple(stock),
                         reveal_card=reveal_card, locked=locked, covers=covers, buried=buried)
