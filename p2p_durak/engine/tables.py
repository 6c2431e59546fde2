"""Per-game lookup tables for the engine's hot paths.

Everything here is derived once from the rules, the deck and the number of seats, so that a
transition reads a tuple instead of re-deriving a fact: the rule knobs as small ints and
booleans, the bout limits with a sentinel for "none", seat orders, per-card masks, and the
`Action` values themselves. Actions are immutable tuples, so handing out the same object for
the same action is indistinguishable from building a new one, and much cheaper.
"""

from __future__ import annotations

from typing import Final

from p2p_durak.engine.actions import (
    BEAT,
    CHANCE,
    COVER,
    DEAL,
    LEAD,
    NO_TRUMP,
    PASS,
    SHOW,
    TAKE,
    THROW,
    TRANSFER,
    Action,
)
from p2p_durak.engine.rules import RuleSet

THROWN_IN_ONLY: Final = ("bout_limit_counts", "thrown_in_only")
"""An `extra` rule item: the bout limit counts the thrown-in cards only (щелковский)."""
STOCK_LEAD_FIRST_ONLY: Final = ("lead_from_stock_scope", "first_lead_of_game")
"""An `extra` rule item, армянский's table option: only the game's first lead may come from
the stock (the recommended reading is every bout's lead)."""

NO_LIMIT: Final = 1 << 30
"""A bout limit of `None` (no limit), as an int larger than any table."""

# throw_in_by
BY_ALL: Final = 0
BY_OPPONENTS: Final = 1
BY_NEIGHBOURS: Final = 2
_BY = {"all_non_defenders": BY_ALL, "opponents_of_defender": BY_OPPONENTS,
       "neighbours_of_defender": BY_NEIGHBOURS}

# refill_rule
REFILL_UP_TO: Final = 0
REFILL_WHEN_EMPTY: Final = 1
REFILL_PROGRESSIVE: Final = 2
REFILL_NONE: Final = 3
_REFILL = {"up_to_hand_size": REFILL_UP_TO, "only_when_empty": REFILL_WHEN_EMPTY,
           "progressive": REFILL_PROGRESSIVE, "none": REFILL_NONE}

# lead patterns by their shape (the counts of the lead's ranks, largest first)
_LEAD_SHAPES: dict[str, frozenset[tuple[int, ...]]] = {
    # «с любой карты или с двух карт одного достоинства ... добавить еще одну любую карту или
    # еще две карты одного достоинства ... двумя парами и одной картой»: the added card may
    # match a pair (trips), the two pairs may be one rank (quads) — the catalogue's reading
    "patterns:s_par": frozenset({(1,), (2,), (3,), (2, 1), (2, 2), (4,), (2, 2, 1), (3, 2),
                                 (4, 1)}),
    # «Пятерка»: a pair or two pairs with an odd card, trips, quads with an odd card; a single
    # card (the catalogue's recommendation); never a bare pair or a full house
    "patterns:pyaterka": frozenset({(1,), (2, 1), (2, 2, 1), (3,), (4, 1)}),
    # круглый: «с любой одной карты или с трех карт из одной пары и одной любой карты, или с
    # пяти карт, где две пары карт и одна любая карта»: the odd card may match a pair (trips,
    # a pair and trips), the two pairs may be one rank (quads and a card)
    "patterns:krugly": frozenset({(1,), (2, 1), (3,), (2, 2, 1), (3, 2), (4, 1)}),
}
# pre_phase (engine/prephase.py)
PRE_NONE: Final = 0
PRE_CAPTURE_ROW: Final = 1
PRE_CAPTURE_CIRCLE: Final = 2
PRE_LADDER: Final = 3
_PRE = {"none": PRE_NONE, "capture_row": PRE_CAPTURE_ROW, "capture_circle": PRE_CAPTURE_CIRCLE,
        "ladder_deal": PRE_LADDER}
# counter (a scored game's public count per seat)
COUNTER_NONE: Final = 0
COUNTER_BEATEN: Final = 1
COUNTER_FIGURES: Final = 2
COUNTER_POGONY: Final = 3
_COUNTER = {"none": COUNTER_NONE, "beaten_cards": COUNTER_BEATEN,
            "figures_beaten": COUNTER_FIGURES, "pogony_pairs": COUNTER_POGONY}

_BEAT_ROWS_EAGER: Final = 12
"""Beat actions are prebuilt for attack cards at table positions below this."""


class GameTables:
    """Derived, read-only facts of one game (rules x deck x seats)."""

    __slots__ = (
        "after_beat",
        "after_take",
        "attack_next_opponent",
        "base_shift",
        "beat",
        "beat_throwable",
        "beaters",
        "blind",
        "bout_cap",
        "cap",
        "chain_pass",
        "chosen",
        "count_defended",
        "count_taken",
        "counter",
        "deal_action",
        "defence_beaters",
        "discard_leftovers",
        "doubt_after_take",
        "doubter_hands_on",
        "dummy",
        "dummy_bit",
        "dummy_by_bout",
        "dummy_skip",
        "exchange",
        "exchange_return",
        "face_down",
        "face_up_ranks",
        "figures",
        "first_limit",
        "hand_size",
        "higher_same",
        "later_limit",
        "lead_cap",
        "lead_combos",
        "lead_exact",
        "lead_first_only",
        "lead_highest",
        "lead_mixed",
        "lead_shapes",
        "lead_single",
        "lead_special",
        "locks",
        "loss_size",
        "multi_throw",
        "n_cards",
        "n_players",
        "next_by_attacker",
        "ninth_first_added",
        "no_trump",
        "order",
        "over_limit",
        "pair",
        "pass_",
        "penalty_from_attacker",
        "pogony_max",
        "pogony_sixes",
        "pre_phase",
        "proezd",
        "proezd_self",
        "rank",
        "rebound",
        "refill",
        "refill_order",
        "rotate",
        "same_rank",
        "scored_loser",
        "seat_sizes",
        "seed_after_capture",
        "self_throw",
        "show",
        "show_backward",
        "show_forward",
        "solo",
        "stepwise",
        "stock_lead",
        "stock_lead_first_only",
        "strict",
        "swap_trump",
        "take",
        "take_unbeaten",
        "team",
        "team_last",
        "throw",
        "throw_beats",
        "throw_beats_any",
        "throw_by",
        "throw_in",
        "throw_suit",
        "throwable",
        "thrown_only",
        "tie_shared",
        "transfer",
        "transfer_any",
        "transfer_capacity",
        "transfer_next_opponent",
        "transfer_on",
        "trumps",
    )

    def __init__(self, rules: RuleSet, n_players: int, suit: tuple[int, ...],
                 rank: tuple[int, ...], rank_mask: dict[int, int], suit_mask: tuple[int, ...],
                 beaters: tuple[tuple[int, ...], ...], team: tuple[int, ...],
                 dummy: int = -1, seat_sizes: tuple[int, ...] = ()) -> None:
        n_cards = len(suit)
        seats = range(n_players)
        cards = range(n_cards)
        self.n_players: int = n_players
        self.n_cards: int = n_cards
        self.team: tuple[int, ...] = team
        self.beaters: tuple[tuple[int, ...], ...] = beaters  # index: trump + 1
        # the trump suit's cards, index trump + 1 (the last two: a pair of suits of one colour)
        self.trumps: tuple[int, ...] = (0, *suit_mask, suit_mask[0] | suit_mask[1],
                                        suit_mask[2] | suit_mask[3])
        self.same_rank: tuple[int, ...] = tuple(rank_mask.get(rank[c], 0) if rank[c] >= 0
                                                else 0 for c in cards)
        # the cards a table card lets the others throw in: its rank (parnomastny: or its suit)
        self.throw_suit: bool = rules.throw_in_match == "rank_or_suit"
        # дорожный: a throw-in must beat the defender's latest beating card, so the throwable
        # cards are that card's beaters (set by each beat, not grown by the table's ranks)
        self.throw_beats: bool = rules.throw_in_match in ("beats_last_defence",
                                                          "beats_any_defence")
        # the table option `beats_any_defence`: a throw-in may beat any of the defender's
        # beating cards on the table (the throwable cards grow with each beat)
        self.throw_beats_any: bool = rules.throw_in_match == "beats_any_defence"
        self.throwable: tuple[int, ...] = tuple(
            self.same_rank[c] | (suit_mask[suit[c]] if self.throw_suit and suit[c] >= 0 else 0)
            for c in cards)
        # the actors of a bout as shared tuples: one seat, or the defender and one thrower
        self.solo: tuple[tuple[int, ...], ...] = tuple((s,) for s in seats)
        self.pair: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
            tuple((d, s) for s in seats) for d in seats)
        self.order: tuple[tuple[int, ...], ...] = tuple(
            tuple((s + k) % n_players for k in seats) for s in seats)
        # knobs
        self.throw_in: bool = rules.throw_in
        self.after_take: bool = rules.throw_in_after_take
        self.after_beat: bool = rules.throw_in_timing == "after_beat"
        self.throw_by: int = _BY[rules.throw_in_by]
        # американский: once everything is beaten the defender may throw in to himself
        self.self_throw: bool = rules.self_throw_in == "after_all_beaten"
        self.cap: bool = rules.defender_hand_cap
        first, later = rules.first_bout_attack_limit, rules.bout_attack_limit
        self.first_limit: int = NO_LIMIT if first is None else first
        self.later_limit: int = NO_LIMIT if later is None else later
        lead_cap = 1 if rules.lead_rule == "single" else NO_LIMIT
        if rules.lead_max is not None:
            lead_cap = min(lead_cap, rules.lead_max)
        self.lead_cap: int = lead_cap
        # leads the variants shape (bout.special_leads): трешка's exact count, занудный's
        # highest rank; a lead of several ranks opens each of them to throw-ins
        self.lead_exact: int = int(rules.lead_rule.split(":")[1]) \
            if rules.lead_rule.startswith("exact_any:") else 0
        self.lead_highest: bool = rules.lead_restriction == "highest_rank_in_hand"
        self.lead_first_only: bool = rules.lead_restriction_scope == "first_lead_of_game"
        # с пар, «Пятерка»: a lead's shape, the counts of its ranks from the largest
        self.lead_shapes: frozenset[tuple[int, ...]] = _LEAD_SHAPES.get(rules.lead_rule,
                                                                         frozenset())
        self.lead_special: bool = bool(self.lead_exact or self.lead_shapes) or self.lead_highest
        self.lead_mixed: bool = bool(self.lead_exact or self.lead_shapes)
        self.rank: tuple[int, ...] = rank
        # занудный's forced leads can cycle for ever: the bout that ends such a game as a draw
        # щелковский: a проездной can be answered by taking back one's own cards, bout after
        # bout (players who always do so never finish): the same cap; круглый: the turn passes
        # to the taker, so cards nobody can beat shuttle between two players for ever
        # Every other game ends too (ours): a game that reaches ten bouts per card is a draw.
        # Players who keep taking cards nobody can beat pass them round for ever — магаданский,
        # whose locked cards stop the refill, and круговой did so between bots; no ordinary
        # game comes near (docs/rules.md, "Every game ends").
        self.bout_cap: int = 3 * n_cards if (
            (self.lead_highest and not self.lead_first_only)
            or rules.transfer_by_showing == "backward_proezdnoy"
            or rules.next_attacker_after_take == "left_of_attacker") else 10 * n_cards
        self.transfer_on: bool = rules.transfer
        self.transfer_any: bool = rules.transfer_window == "any_unbeaten_same_rank"
        self.transfer_next_opponent: bool = rules.transfer_target == "next_active_opponent"
        self.transfer_capacity: bool = rules.transfer_capacity_check
        self.show_forward: bool = rules.transfer_by_showing == "forward"
        # щелковский: «показать козырную карту такого же значения (проездной) и карта, с которой
        # зашли, переходит к предыдущему игроку»; the recipient must defend. `proezd` is the
        # bit of `State.shown` (above every card's) that marks him; `proezd_self` the same bit
        # when he may then throw in cards of that rank to himself
        self.show_backward: bool = rules.transfer_by_showing == "backward_proezdnoy"
        self.proezd: int = (1 << n_cards) if self.show_backward else 0
        self.proezd_self: int = self.proezd if rules.self_throw_in == "after_proezdnoy" else 0
        # the bouts of these rules are played through `step` by random playouts (playout.py
        # writes out only the common moves)
        # щелковский: «Максимальное число подкидываемых карт 10»: the bout limit counts only
        # the thrown-in cards; the lead's and the transfers' cards are counted in `State.shown`
        # from bit `base_shift` up (above the card bits and the проездной bit)
        self.thrown_only: bool = THROWN_IN_ONLY in rules.extra
        # the catalogue's choice (B), `over_limit_policy: defender_chooses`: «если игроки
        # подкинули более десяти карт, игрок может на выбор: выбрать карты, которые отбивать, а
        # остальные возвратить». More may be thrown in until the defender sends the extra ones
        # back; `chosen` is the bit of `State.shown` set once he has (the cap is hard after
        # it), and from `base_shift` up `shown` holds a mask of the table positions that are
        # not thrown in (the lead's and the transfers' cards) instead of their count, so that
        # the cards sent back can be told from them
        self.over_limit: bool = rules.over_limit_policy == "defender_chooses"
        self.chosen: int = (1 << (n_cards + 1)) if self.over_limit else 0
        self.base_shift: int = n_cards + (2 if self.over_limit else 1)
        # армянский: the attacker may lead the top stock card unseen (a chance reveal follows)
        self.stock_lead: bool = rules.lead_from_stock
        self.stock_lead_first_only: bool = STOCK_LEAD_FIRST_ONLY in rules.extra
        # оборотный: nobody sees his own hand; every play is a pick by position, checked once
        # the card is shown, and a wrong one is penalised (bout.misplay) instead of refused
        self.blind: bool = rules.hand_visibility == "others_only"
        self.penalty_from_attacker: bool = (
            ("next_attacker_after_penalty", "left_of_attacker") in rules.invalid_play_penalty)
        # с болваном: the dummy's seat throws in and draws but is skipped as attacker, defender
        # and transfer target (`dummy_bit` joins the out mask for those choices); its
        # controller is followed bout by bout, so its games are played through `step`
        # крестовый: a defender who does not beat passes the attack on (bout.defender_actions)
        self.chain_pass: bool = rules.take_rule == "chain_pass"
        self.dummy: int = dummy
        self.dummy_bit: int = 1 << dummy if dummy >= 0 else 0
        self.dummy_by_bout: bool = ("controller", "bout_attacker") in rules.dummy_hand
        # the seats every attacker and defender choice passes over: the dummy's, unless the
        # table agreed that it attacks and defends («по согласованию между игроками болван
        # имеет право это делать»)
        self.dummy_skip: int = 0 if ("can_attack_defend", "true") in rules.dummy_hand \
            else self.dummy_bit
        # верю не верю: covers are laid face down (any card: a bluff stands unless doubted),
        # their ranks are not thrown in to, and a non-defender may doubt one
        self.face_down: bool = rules.defence_visibility == "face_down_challengeable"
        self.face_up_ranks: bool = rules.throw_in_ranks_from == "face_up_only"
        challenge = dict(rules.challenge)
        self.doubt_after_take: bool = challenge.get("window") == "until_bout_closed"
        # after a doubter took: the defender leads (as after a defence), or the doubter's left
        # neighbour (as after a take)
        self.doubter_hands_on: bool = challenge.get("next_attacker_if_challenger_took") \
            == "left_of_challenger"
        # the cards the defender may lay on each card: those that beat it, or face down any
        everything = (1 << n_cards) - 1
        self.defence_beaters: tuple[tuple[int, ...], ...] = tuple(
            (everything,) * n_cards for _ in beaters) if self.face_down else beaters
        # the cards a defence card lets the others throw in (none when only face-up ranks
        # count, «throw_in_ranks_from: face_up_only»)
        self.beat_throwable: tuple[int, ...] = (0,) * n_cards if self.face_up_ranks \
            else self.throwable
        # покерный: before defending the defender may swap two cards with the stock's top;
        # the given cards are shuffled into the stock (0), or put on its top (1) or bottom (2)
        self.exchange: bool = rules.pre_defence_exchange == "swap_two"
        self.exchange_return: int = ("shuffle_into_stock", "top", "bottom").index(
            dict(rules.swap_two).get("return_to", "shuffle_into_stock"))
        # Длинный дурак: «Подкидывают строго по очереди по часовой стрелке»: one thrower at a
        # time, the turn going round from the lead attacker; its seat + 1 is kept in
        # `State.shown` from bit `base_shift` up (0 before anyone's turn)
        self.strict: bool = rules.throw_in_order == "strict_clockwise"
        self.stepwise: bool = (self.show_backward or self.thrown_only or self.stock_lead
                               or self.blind or dummy >= 0 or self.strict
                               or self.chain_pass or self.face_down or self.exchange)
        # козырной: a beat records its card in `shown` (the bout's last card), and a defended
        # bout swaps it with the trump card under the stock
        self.swap_trump: bool = rules.trump_change == "swap_on_defence"
        # магаданский: locked cards count toward the refill, one unlocks per defence
        self.locks: bool = rules.locked_cards > 0
        # отбойный: every second successful defence goes back into the stock, shuffled
        self.rebound: bool = rules.discard_rule == "every_second_to_stock"
        self.attack_next_opponent: bool = rules.attack_target == "next_active_opponent"
        self.hand_size: int = rules.hand_size
        # Длинный дурак: each seat's own hand size under its ladder (empty: all `hand_size`)
        self.seat_sizes: tuple[int, ...] = seat_sizes
        # большой: a hand this large after a take loses at once (0: no such rule)
        self.loss_size: int = rules.immediate_loss_hand_size or 0
        self.refill: int = _REFILL[rules.refill_rule]
        self.rotate: bool = rules.hand_rotation == "left_after_refill"  # круговой
        # круглый, наборный, крестовый: a pre-game phase turns every card it hands out face up
        # for everyone, so all hands are public (views.private_view keeps them)
        self.pre_phase: int = _PRE[rules.pre_phase]
        params = dict(rules.pre_phase_params)
        # наборный, `after_capture: seed_and_end`: the card turned after a capture is laid
        # without comparing and the turn ends (the catalogue's reading (a))
        self.seed_after_capture: bool = params.get("after_capture") == "seed_and_end"
        # круглый, `on_stock_empty: discard_leftovers`: a stock run out leaves the table's cards
        # out of play
        self.discard_leftovers: bool = params.get("on_stock_empty") == "discard_leftovers"
        # круглый, `ninth_card: first_added` (the catalogue's reading (b)): the «девятая карта»
        # whose taker sweeps the table is the first card a drawer laid beside the eight (marked
        # in `State.shown` during the phase); the centre card is then taken like any other
        self.ninth_first_added: bool = params.get("ninth_card") == "first_added"
        # круглый: a take keeps the beaten pairs out (to the discard), the taker takes the rest
        self.take_unbeaten: bool = rules.take_rule == "unbeaten_only"
        # круглый: the next attacker is the attacker's left neighbour, after a defence (bit 0)
        # and/or after a take (bit 1)
        self.next_by_attacker: int = \
            (rules.next_attacker_after_defence == "left_of_attacker") \
            | (rules.next_attacker_after_take == "left_of_attacker") << 1
        # refill order by (attacker, defender): the attacker, the others clockwise and the
        # defender last, or everybody clockwise from the attacker
        defender_last = rules.refill_order == "attacker_others_defender_last"
        self.refill_order: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
            tuple(self.order[a] if not defender_last or d == a
                  else tuple(s for s in self.order[a] if s != d) + (d,) for d in seats)
            for a in seats)
        self.team_last: bool = rules.loser_rule == "team_last"
        self.pogony_sixes: bool = rules.pogony_sixes
        self.pogony_max: int = rules.pogony_max
        # scored games: what is counted, who loses or wins by it, and how ties go
        self.counter: int = _COUNTER[rules.counter]
        self.count_defended: bool = self.counter in (COUNTER_BEATEN, COUNTER_FIGURES)
        # очковый's `every_beat`, фигурный's `count_on_take` (table options): a taken bout
        # scores the attack cards the defender covered before he took
        self.count_taken: bool = rules.counter_counts == "every_beat" or rules.count_on_take
        # погонный: several cards of one rank may be thrown in at once
        self.multi_throw: bool = rules.throw_in_cards_per_action == "multi_same_rank"
        self.figures: int = sum(1 << c for c in cards if rank[c] >= 10)
        self.scored_loser: bool = rules.loser_rule in ("fewest_beaten_cards", "fewest_pogony")
        self.tie_shared: bool = rules.counter_tie_break == "shared"
        # actions
        single = tuple((c,) for c in cards)

        def per_card(kind: int) -> tuple[tuple[Action, ...], ...]:
            return tuple(tuple(Action(kind, s, single[c]) for c in cards) for s in seats)

        self.throw: tuple[tuple[Action, ...], ...] = per_card(THROW)
        self.transfer: tuple[tuple[Action, ...], ...] = per_card(TRANSFER)
        self.show: tuple[tuple[Action, ...], ...] = per_card(SHOW)
        self.lead_single: tuple[tuple[Action, ...], ...] = per_card(LEAD)
        self.take: tuple[Action, ...] = tuple(Action(TAKE, s) for s in seats)
        self.pass_: tuple[Action, ...] = tuple(Action(PASS, s) for s in seats)
        self.no_trump: tuple[Action, ...] = tuple(Action(NO_TRUMP, s) for s in seats)
        self.deal_action: Action = Action(DEAL, CHANCE)
        longest = max(self.first_limit, self.later_limit)
        rows = min(longest if longest < NO_LIMIT else n_cards, _BEAT_ROWS_EAGER)
        beat = COVER if self.face_down else BEAT
        self.beat: tuple[tuple[tuple[Action, ...], ...], ...] = tuple(
            tuple(tuple(Action(beat, s, single[c], i) for c in cards) for i in range(rows))
            for s in seats)
        # the cards of the same rank above each card (for the leads of several cards)
        self.higher_same: tuple[int, ...] = tuple(
            self.same_rank[c] & ~((2 << c) - 1) for c in cards)
        # leads of several cards, by seat, then by the first card, the higher cards of its
        # rank in the hand and the cap; filled as they come up (see bout.lead_actions)
        self.lead_combos: tuple[dict[int, tuple[Action, ...]], ...] = tuple(
            {} for _ in seats)
