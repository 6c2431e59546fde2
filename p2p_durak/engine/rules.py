"""The rule model: one typed, validated set of knobs for every attack/defend variant.

Knob names and values follow the catalogue's glossary (shared/rules/knobs.md). Every knob of
the glossary has a field here, so every variant of the catalogue fits the model's shape; the
values the engine does not play yet are refused by `validate` with a message naming the knob,
which is how `durak rules` tells working presets from pending ones.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field, fields, replace
from typing import Any

from p2p_durak.engine.canonical import decode, encode
from p2p_durak.engine.cards import DECK_SIZES, DeckSpec

Overlay = tuple[tuple[str, str], ...]
"""An overlay knob: off when empty, else its sub-knobs as sorted (name, value) pairs."""


class RuleError(ValueError):
    """A rule set that cannot be played, with the reason in English and Russian."""

    def __init__(self, knob: str, message_en: str, message_ru: str) -> None:
        super().__init__(f"{knob}: {message_en}")
        self.knob = knob
        self.message_en = message_en
        self.message_ru = message_ru


@dataclass(frozen=True, slots=True)
class RuleSet:
    # -- setup and deal (knobs.md §1)
    deck_count: int = 1
    deck_size: int = 36
    rank_order: str = "standard"
    jokers_per_deck: int = 0
    remove_one_joker: bool = False
    blank_card: bool = False
    deck_remove: tuple[str, ...] = ()
    min_players: int = 2
    max_players: int = 6
    teams: str = "none"
    deal_mode: str = "fixed"
    hand_size: int = 6
    deal_remainder: str = "round_robin"
    deal_order: str = "one_at_a_time_clockwise_from_dealer_left"
    shuffle: str = "full"
    deck_presort: str = "none"
    pre_phase: str = "none"
    # -- trump (§2)
    trump_rule: str = "turned_under_stock"
    trump_card_drawn: bool = True
    trump_when_no_stock: str = "last_dealt_card"
    trump_indicator_special: str = "reinsert_middle"
    trump_perspective: str = "common"
    trump_change: str = "none"
    hidden_trump_card: str = "out_of_play"
    fixed_trump_indicator_draw: bool = False
    # -- dealer and first attacker (§3)
    dealer_first_game: str = "lot"
    dealer_next_game: str = "durak"
    first_attacker_first_game: str = "lowest_trump"
    first_attacker_fallback: str = "lot"
    first_attacker_tiebreak: str = "lot"
    first_attacker_next_game: str = "pod_durak"
    # -- bout shape and leading (§4)
    game_engine: str = "attack_defend"
    attack_target: str = "left_neighbour"
    lead_rule: str = "same_rank_multi"
    lead_max: int | None = None
    lead_restriction: str = "any"
    lead_restriction_scope: str = "every_bout_lead"
    lead_from_stock: bool = False
    next_attacker_after_defence: str = "defender"
    next_attacker_after_take: str = "left_of_taker"
    # -- throw-in (§5)
    throw_in: bool = True
    throw_in_match: str = "rank"
    throw_in_ranks_from: str = "all_table_cards"
    throw_in_timing: str = "until_bout_closed"
    throw_in_after_take: bool = True
    throw_in_by: str = "all_non_defenders"
    throw_in_order: str = "lead_attacker_then_clockwise"
    throw_in_cards_per_action: str = "1"
    throw_in_pass_final: bool = False
    self_throw_in: str = "off"
    bout_attack_limit: int | None = 6
    first_bout_attack_limit: int | None = 5
    defender_hand_cap: bool = True
    over_limit_policy: str = "hard_cap"
    # -- defence and beating (§6)
    beat_rule: str = "standard"
    untrumpable_suits: tuple[str, ...] = ()
    lowest_rank_only_by_ace: str = "off"
    duplicate_beats: bool = False
    joker_rule: str = "none"
    defence_visibility: str = "open"
    hand_visibility: str = "owner_only"
    voluntary_take: bool = True
    # -- transfer (§7)
    transfer: bool = False
    transfer_window: str = "before_first_cover"
    transfer_cards_per_action: str = "1"
    transfer_capacity_check: bool = True
    transfer_target: str = "next_clockwise"
    transfer_by_showing: str = "off"
    show_once_per_card_per_bout: bool = True
    proezdnoy_recipient_must_defend: bool = True
    # -- taking and drawing (§8, §9)
    take_rule: str = "all_table"
    refill_rule: str = "up_to_hand_size"
    refill_order: str = "attacker_others_defender_last"
    refill_amount: int | None = None
    # -- ending, scoring, series (§10, §11)
    loser_rule: str = "last_with_cards"
    winner_rule: str = "none"
    counter_tie_break: str = "latest_out"
    simultaneous_exhaustion: str = "draw"
    immediate_loss_hand_size: int | None = None
    pogony_sixes: bool = False
    pogony_max: int = 2
    pogony_counting: str = "final_bout_attack_sixes_by_players_going_out"
    series: str = "single"
    series_length: int | None = None
    series_state: str = "none"
    # -- special overlays (§12)
    base_rules: str = "podkidnoy"
    hand_rotation: str = "off"
    locked_cards: int = 0
    locked: Overlay = ()
    defender_hand_cap_counts: str = "all_cards"
    discard_rule: str = "discard"
    every_second_to_stock: Overlay = ()
    pre_defence_exchange: str = "off"
    swap_two: Overlay = ()
    pokerny_showdown: str = "off"
    dummy_hand: Overlay = ()
    challenge: Overlay = ()
    invalid_play_penalty: Overlay = ()
    counter: str = "none"
    counter_counts: str = "none"
    count_on_take: bool = False
    pre_phase_params: Overlay = ()
    chain_loop_guard: str = "none"
    trump_indicators: str = "none"
    off_colour_joker_beaten_by: str = "none"
    match_end: str = "none"
    post_game_swap: str = "none"
    title_reassign: str = "none"
    extra: Overlay = field(default=())

    # ---- derived helpers -------------------------------------------------------------

    def deck(self) -> DeckSpec:
        removed = tuple(_face_key(text) for text in self.deck_remove)
        return DeckSpec(self.deck_size, self.deck_count, self.jokers_per_deck,
                        self.remove_one_joker, self.blank_card, removed)

    def with_options(self, **changes: Any) -> RuleSet:
        """A copy with some knobs changed; unknown knob names are refused."""
        known = {f.name for f in fields(self)}
        unknown = sorted(set(changes) - known)
        if unknown:
            raise RuleError(unknown[0], "no such rule knob", "нет такой настройки правил")
        return replace(self, **changes)

    def canonical(self) -> bytes:
        """Canonical bytes: every knob by name, sorted, so any node derives the same bytes."""
        items = sorted((f.name, getattr(self, f.name)) for f in fields(self))
        return encode(("p2p-durak/rules/v1", tuple(items)))

    @classmethod
    def from_canonical(cls, data: bytes) -> RuleSet:
        """The rule set whose `canonical()` bytes these are; RuleError for anything else, so a
        node can take a table's rules from a peer and check them against the advertised hash."""
        try:
            value = decode(data)
        except (ValueError, UnicodeDecodeError) as exc:
            raise RuleError("rules", f"not a rule set encoding ({exc})",
                            "это не описание правил") from exc
        if not (isinstance(value, tuple) and len(value) == 2):
            raise RuleError("rules", "not a rule set encoding", "это не описание правил")
        tag, items = value
        if tag != "p2p-durak/rules/v1" or not isinstance(items, tuple):
            raise RuleError("rules", "not a rule set encoding", "это не описание правил")
        known = {f.name for f in fields(cls)}
        values: dict[str, Any] = {}
        for item in items:
            if not (isinstance(item, tuple) and len(item) == 2 and item[0] in known):
                raise RuleError("rules", f"unknown rule knob {item!r:.40}", "неизвестная настройка")
            values[item[0]] = item[1]
        rules = cls(**values)
        if rules.canonical() != data:
            raise RuleError("rules", "rule encoding is not canonical",
                            "описание правил неканонично")
        return rules

    def rules_hash(self) -> str:
        return hashlib.sha256(self.canonical()).hexdigest()

    def as_dict(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RuleSet:
        known = {f.name: f for f in fields(cls)}
        kwargs: dict[str, Any] = {}
        for name, value in data.items():
            if name not in known:
                raise RuleError(name, "no such rule knob", "нет такой настройки правил")
            kwargs[name] = tuple(tuple(v) if isinstance(v, list) else v for v in value) \
                if isinstance(value, list) else value
        return cls(**kwargs)


def _face_key(text: str) -> tuple[int, int]:
    probe = DeckSpec(52)
    face = probe.faces[probe.parse(text)]
    return face.suit, face.rank


# ---- validation ------------------------------------------------------------------------

# оборотный: the penalties of blind play (the catalogue's `invalid_play_penalty`): every play
# is a pick by position, checked once the card is shown; a wrong beat or transfer makes the
# defender take the table, a wrong throw-in makes the thrower take it. Those sub-knobs have one
# value each and are implied (the table's rules travel in at most 4 KiB, docs/protocol.md);
# the one choice is who leads next: the left of the penalised player, or of the bout's attacker
BLIND_PENALTY: Overlay = (("next_attacker_after_penalty", "left_of_penalised"),)
BLIND_PENALTY_FROM_ATTACKER: Overlay = (("next_attacker_after_penalty", "left_of_attacker"),)

# с болваном: a dummy hand without a player (the catalogue's `dummy_hand`). Its hand size is
# the rule set's, its seat the one after the first dealer, its roles throwing in and drawing
# only (implied, to keep the table's rules small); the one choice is who controls it: the
# game's first attacker (the literal default) or each bout's attacker
DUMMY_GAME_FIRST_ATTACKER: Overlay = (("controller", "game_first_attacker"),)
DUMMY_BOUT_ATTACKER: Overlay = (("controller", "bout_attacker"),)
# «Болван не имеет права ходить и отбиваться, но возможен вариант игры, когда по согласованию
# между игроками болван имеет право это делать»: the agreed variant (the catalogue's
# `can_attack_defend: true`), with either controller; the two overlays above keep it false
DUMMY_PLAYS_GAME_FIRST_ATTACKER: Overlay = (("can_attack_defend", "true"),
                                            ("controller", "game_first_attacker"))
DUMMY_PLAYS_BOUT_ATTACKER: Overlay = (("can_attack_defend", "true"),
                                      ("controller", "bout_attacker"))

# верю не верю's doubt: the catalogue's recommendation for the sub-knobs that are a table's
# choice. The others have one value, the engine's only behaviour, and are not encoded (the
# rules travel in every table advertisement, kept small): who: all_non_defenders_in_game, target:
# one_face_down_card, on_legal: challenger_takes_all, on_illegal: defender_takes_all, after:
# bout_ends.
CHALLENGE_RULES: Overlay = (("next_attacker_if_challenger_took", "defender"),
                            ("window", "until_bout_closed"))
_CHALLENGE_CHOICES = {"window": ("until_bout_closed", "until_take"),
                      "next_attacker_if_challenger_took": ("defender", "left_of_challenger")}


def _challenge_overlays() -> frozenset[Overlay]:
    out: set[Overlay] = {()}
    for window in _CHALLENGE_CHOICES["window"]:
        for nxt in _CHALLENGE_CHOICES["next_attacker_if_challenger_took"]:
            items = dict(CHALLENGE_RULES, window=window, next_attacker_if_challenger_took=nxt)
            out.add(tuple(sorted(items.items())))
    return frozenset(out)

# покерный's exchange: the catalogue's recommendation for its one sub-knob that is a table's
# choice (the others are the engine's only behaviour, not encoded: count 2, max_hand 6,
# once_per_bout_per_defender, source stock_top, exclude_trump_card, min_stock_face_down 2)
SWAP_TWO_RULES: Overlay = (("return_to", "shuffle_into_stock"),)
_SWAP_TWO_CHOICES = frozenset({()} | {(("return_to", where),) for where in (
    "shuffle_into_stock", "top", "bottom")})


# The values the engine plays today. A knob value outside its glossary domain is an error;
# a value inside the domain but not here is "pending".
IMPLEMENTED: dict[str, frozenset[Any]] = {
    "deck_count": frozenset({1, 2, 4}),
    "rank_order": frozenset({"standard"}),
    "jokers_per_deck": frozenset({0, 1, 2}),
    "remove_one_joker": frozenset({False, True}),
    "blank_card": frozenset({False, True}),
    "deck_remove": frozenset({(), ("6S", "6C", "6D", "6H")}),
    "teams": frozenset({"none", "2v2", "3v3"}),
    "deal_mode": frozenset({"fixed", "whole_deck", "none"}),
    "deal_remainder": frozenset({"round_robin"}),
    "deal_order": frozenset({"one_at_a_time_clockwise_from_dealer_left"}),
    "shuffle": frozenset({"full", "within_rank"}),
    "deck_presort": frozenset({"none", "rank_desc"}),
    "pre_phase": frozenset({"none", "capture_row", "capture_circle", "ladder_deal"}),
    "trump_rule": frozenset({"turned_under_stock", "named_by_king", "last_dealt_card",
                             "shown_then_set_aside", "fixed_suit:spades", "fixed_suit:clubs",
                             "fixed_suit:diamonds", "fixed_suit:hearts", "none",
                             "per_player_turned", "bottom_suit_announced", "personal_six",
                             "last_pre_phase_card", "centre_card"}),
    "trump_indicator_special": frozenset({"reinsert_middle", "colour_pair", "no_trump"}),
    "trump_card_drawn": frozenset({True}),
    "trump_when_no_stock": frozenset({"last_dealt_card", "forbid"}),
    "trump_perspective": frozenset({"common", "defender"}),
    "trump_change": frozenset({"none", "hidden_second", "swap_on_defence"}),
    "hidden_trump_card": frozenset({"out_of_play"}),
    "fixed_trump_indicator_draw": frozenset({False}),
    "dealer_first_game": frozenset({"lot", "outsider"}),
    "dealer_next_game": frozenset({"durak", "outsider", "title_govno"}),
    "first_attacker_first_game": frozenset({"lowest_trump", "lowest_card", "lowest_own_trump",
                                            "left_of_dealer"}),
    "first_attacker_fallback": frozenset({"lot", "lowest_card"}),
    "first_attacker_tiebreak": frozenset({"lot", "next_trumps_then_joker_then_lot"}),
    "first_attacker_next_game": frozenset({"pod_durak", "iz_pod_durak", "same_as_first_game",
                                           "left_of_dealer", "title_govno"}),
    "game_engine": frozenset({"attack_defend"}),
    "attack_target": frozenset({"left_neighbour", "next_active_opponent"}),
    "lead_rule": frozenset({"single", "same_rank_multi", "exact_any:3", "patterns:s_par",
                            "patterns:pyaterka",
                            "patterns:krugly"}),
    "lead_restriction": frozenset({"any", "highest_rank_in_hand"}),
    "lead_restriction_scope": frozenset({"every_bout_lead", "first_lead_of_game"}),
    "lead_from_stock": frozenset({False, True}),
    "next_attacker_after_defence": frozenset({"defender", "left_of_attacker"}),
    "next_attacker_after_take": frozenset({"left_of_taker", "left_of_attacker"}),
    "throw_in_match": frozenset({"rank", "rank_or_suit", "beats_last_defence",
                                 "beats_any_defence"}),
    "throw_in_ranks_from": frozenset({"all_table_cards", "face_up_only"}),
    "throw_in_timing": frozenset({"until_bout_closed", "after_beat"}),
    "throw_in_by": frozenset({"all_non_defenders", "opponents_of_defender",
                              "neighbours_of_defender"}),
    "throw_in_order": frozenset({"lead_attacker_then_clockwise", "strict_clockwise"}),
    "throw_in_cards_per_action": frozenset({"1", "multi_same_rank"}),
    "throw_in_pass_final": frozenset({False}),
    "self_throw_in": frozenset({"off", "after_all_beaten", "after_proezdnoy"}),
    "over_limit_policy": frozenset({"hard_cap", "defender_chooses"}),
    "beat_rule": frozenset({"standard", "same_suit_only"}),
    "lowest_rank_only_by_ace": frozenset({"off", "same_suit_or_trump_ace", "any_ace"}),
    "duplicate_beats": frozenset({False}),
    "joker_rule": frozenset({"none", "beats_any", "coloured", "beats_all_but_two"}),
    "defence_visibility": frozenset({"open", "face_down_challengeable"}),
    "hand_visibility": frozenset({"owner_only", "others_only"}),
    "voluntary_take": frozenset({True}),
    "transfer_window": frozenset({"before_first_cover", "any_unbeaten_same_rank"}),
    "transfer_cards_per_action": frozenset({"1"}),
    "transfer_target": frozenset({"next_clockwise", "next_active_opponent"}),
    "transfer_by_showing": frozenset({"off", "forward", "backward_proezdnoy"}),
    "show_once_per_card_per_bout": frozenset({True}),
    "take_rule": frozenset({"all_table", "unbeaten_only", "chain_pass"}),
    "refill_rule": frozenset({"up_to_hand_size", "only_when_empty", "progressive", "none"}),
    "refill_order": frozenset({"attacker_others_defender_last", "attacker_then_clockwise"}),
    "refill_amount": frozenset({None}),
    "loser_rule": frozenset({"last_with_cards", "team_last", "fewest_beaten_cards",
                             "fewest_pogony", "none"}),
    "winner_rule": frozenset({"none", "first_out", "most_figures"}),
    "counter_tie_break": frozenset({"latest_out", "earlier_out", "shared"}),
    "simultaneous_exhaustion": frozenset({"draw"}),
    "pogony_counting": frozenset({"final_bout_attack_sixes_by_players_going_out"}),
    "series": frozenset({"single", "series"}),
    "series_state": frozenset({"none", "titles", "ladder"}),
    "base_rules": frozenset({"podkidnoy", "prostoy", "perevodnoy"}),
    "hand_rotation": frozenset({"off", "left_after_refill"}),
    "locked_cards": frozenset(range(10)),
    "locked": frozenset({()}),
    "defender_hand_cap_counts": frozenset({"all_cards", "usable_cards"}),
    "discard_rule": frozenset({"discard", "every_second_to_stock"}),
    "every_second_to_stock": frozenset({()}),
    "pre_defence_exchange": frozenset({"off", "swap_two"}),
    "swap_two": _SWAP_TWO_CHOICES,
    "pokerny_showdown": frozenset({"off"}),
    "dummy_hand": frozenset({(), DUMMY_GAME_FIRST_ATTACKER, DUMMY_BOUT_ATTACKER,
                             DUMMY_PLAYS_GAME_FIRST_ATTACKER, DUMMY_PLAYS_BOUT_ATTACKER}),
    "challenge": _challenge_overlays(),
    "invalid_play_penalty": frozenset({(), BLIND_PENALTY, BLIND_PENALTY_FROM_ATTACKER}),
    "counter": frozenset({"none", "beaten_cards", "figures_beaten", "pogony_pairs"}),
    "counter_counts": frozenset({"none", "successful_bouts_only", "lead_and_throw_in",
                                 "every_beat"}),
    "count_on_take": frozenset({False, True}),
    # the catalogue's alternatives: наборный's reading (a) after a capture, круглый's table left
    # out of play when the stock runs out (engine/prephase.py)
    "pre_phase_params": frozenset({(), (("after_capture", "seed_and_end"),),
                                   (("on_stock_empty", "discard_leftovers"),),
                                   (("ninth_card", "first_added"),),
                                   (("ninth_card", "first_added"),
                                    ("on_stock_empty", "discard_leftovers"))}),
    "chain_loop_guard": frozenset({"none", "original_attacker_takes"}),
    "trump_indicators": frozenset({"none", "out_of_play"}),
    "off_colour_joker_beaten_by": frozenset({"none", "any_trump_or_high_joker",
                                             "high_joker_only"}),
    "match_end": frozenset({"none", "ladder_reaches_A"}),
    "post_game_swap": frozenset({"none", "durak_with_govno"}),
    "title_reassign": frozenset({"none", "after_game_1_only"}),
    # щелковский: the bout limit counts thrown-in cards only (engine/tables.THROWN_IN_ONLY)
    # армянский's table option: only the first lead of a game from the stock (tables.py)
    "extra": frozenset({(), (("bout_limit_counts", "thrown_in_only"),),
                        (("lead_from_stock_scope", "first_lead_of_game"),)}),
}


def pending_knobs(rules: RuleSet) -> list[str]:
    """Knobs whose value the engine does not play yet, as `knob=value` strings."""
    out = []
    for name, allowed in IMPLEMENTED.items():
        value = getattr(rules, name)
        if value not in allowed:
            out.append(f"{name}={value!r}")
    return out


def validate(rules: RuleSet, n_players: int | None = None) -> None:
    """Refuse a rule set (and player count) the engine cannot play, saying why."""
    pending = pending_knobs(rules)
    if pending:
        raise RuleError(pending[0].split("=")[0],
                        f"not implemented yet ({', '.join(pending)})",
                        f"ещё не реализовано ({', '.join(pending)})")
    if rules.deck_size not in DECK_SIZES:
        raise RuleError("deck_size", f"{rules.deck_size} is not 24, 32, 36 or 52",
                        f"{rules.deck_size} — не 24, 32, 36 или 52")
    if not 2 <= rules.min_players <= rules.max_players <= 10:
        raise RuleError("players", "the player range must lie within 2..10",
                        "число игроков должно быть в пределах 2..10")
    if rules.immediate_loss_hand_size is not None and rules.immediate_loss_hand_size < 1:
        raise RuleError("immediate_loss_hand_size", "the losing hand size is at least one card",
                        "проигрышное число карт — хотя бы одна")
    if rules.hand_size < 1:
        raise RuleError("hand_size", "hands need at least one card", "в руке хотя бы одна карта")
    for name in ("bout_attack_limit", "first_bout_attack_limit"):
        limit = getattr(rules, name)
        if limit is not None and limit < 1:
            raise RuleError(name, "a bout limit must allow at least one card",
                            "лимит кона должен позволять хотя бы одну карту")
    if rules.transfer_by_showing != "off" and not rules.transfer:
        raise RuleError("transfer_by_showing", "transfer by showing needs transfer: on",
                        "перевод показом требует включённого перевода")
    if rules.transfer_by_showing != "off" and rules.trump_rule == "none":
        raise RuleError("transfer_by_showing", "there is no trump to show in a game without trumps",
                        "в игре без козырей нечего показывать")
    if rules.base_rules == "prostoy" and (rules.throw_in or rules.transfer):
        raise RuleError("base_rules", "simple durak has no throw-ins and no transfers",
                        "в простом дураке не подкидывают и не переводят")
    if rules.base_rules == "perevodnoy" and not rules.transfer:
        raise RuleError("base_rules", "transfer durak needs transfer: on",
                        "переводной дурак требует перевода")
    if rules.first_attacker_first_game == "lowest_card" and rules.trump_rule != "none":
        raise RuleError("first_attacker_first_game", "the lowest card leads only in a game "
                        "without trumps", "младшая карта ходит первой только в бескозырке")
    if rules.pogony_sixes and rules.deck_size not in (36, 52):
        raise RuleError("pogony_sixes", "a deck without sixes cannot have pogony",
                        "в колоде без шестёрок не бывает погон")
    if rules.trump_change == "hidden_second" and rules.trump_rule != "turned_under_stock":
        raise RuleError("trump_change", "a hidden second trump lies under a turned trump card",
                        "потайной козырь лежит под открытым козырем")
    if rules.trump_change == "swap_on_defence" and (rules.trump_rule != "turned_under_stock"
                                                   or rules.transfer_by_showing != "off"):
        # козырной: the bout's last card swaps with the turned card under the stock (and the
        # record of that card shares the field of the shown trumps, so no showing either)
        raise RuleError("trump_change", "the trump swap needs a turned trump card under the "
                        "stock and no transfer by showing",
                        "замена козыря требует открытого козыря под колодой и перевода без "
                        "показа")
    per_player = rules.trump_rule == "per_player_turned"
    sixes = rules.trump_rule == "personal_six"
    if (per_player or sixes) != (rules.trump_perspective == "defender") or per_player != (
            rules.first_attacker_first_game == "lowest_own_trump") or per_player != (
            rules.trump_indicators == "out_of_play"):
        # двухкозырной: a turned card per player, out of play; the defender's suit decides;
        # each seat claims the lowest card of his own suit
        raise RuleError("trump_rule", "a trump per player goes with the defender's trump, the "
                        "lowest own trump leading and the indicators out of play",
                        "личный козырь у каждого требует козыря отбивающегося, первого хода с "
                        "младшего своего козыря и открытых карт вне игры")
    if rules.trump_rule == "bottom_suit_announced" and (rules.trump_change != "none"
                                                        or rules.transfer_by_showing != "off"):
        raise RuleError("trump_rule", "an announced trump suit has no card to swap or show",
                        "у объявленной козырной масти нет карты для замены или показа")
    if rules.locked_cards and not (
            rules.locked_cards < rules.hand_size and rules.deal_mode == "fixed"
            and rules.refill_rule == "up_to_hand_size"
            and rules.defender_hand_cap_counts == "usable_cards"):
        # магаданский: of a dealt hand some cards are locked; they count toward the refill, and
        # the defender's cap counts only the usable ones (the engine's hand)
        raise RuleError("locked_cards", "locked cards need a fixed deal with at least one usable "
                        "card, the usual refill and the cap counting usable cards",
                        "закрытые карты требуют обычной сдачи, хотя бы одной доступной карты, "
                        "обычного добора и лимита по доступным картам")
    if rules.discard_rule == "every_second_to_stock" and not (
            rules.deal_mode == "fixed" and rules.refill_rule == "up_to_hand_size"
            and rules.trump_change == "none" and rules.locked_cards == 0):
        raise RuleError("discard_rule", "cards shuffled back into the stock need the usual deal "
                        "and refill", "возврат отбоя в колоду требует обычной сдачи и добора")
    _validate_ladder(rules)
    _validate_over_limit(rules)
    if (per_player or sixes) and (rules.transfer_by_showing != "off"
                                  or rules.trump_change != "none"):
        raise RuleError("trump_rule", "personal trumps are not shown for a transfer and do not "
                        "change", "личные козыри не показывают для перевода и не меняют")
    if rules.throw_in_by == "opponents_of_defender" and rules.teams == "none":
        raise RuleError("throw_in_by", "'opponents of the defender' needs teams",
                        "«только соперники» имеет смысл только в командной игре")
    if rules.teams != "none" and rules.attack_target != "next_active_opponent":
        raise RuleError("attack_target", "team play attacks the next active opponent",
                        "в командной игре ходят под соперника")
    if rules.loser_rule == "team_last" and rules.teams == "none":
        raise RuleError("loser_rule", "'team_last' needs teams", "«team_last» требует команд")
    if rules.teams != "none" and rules.loser_rule != "team_last":
        # with one team out nobody is left to attack, so the game could not go on
        raise RuleError("loser_rule", "team play ends when a whole team is out: 'team_last'",
                        "командная игра кончается, когда вышла вся команда: «team_last»")
    _validate_pre_phase(rules)
    chain = rules.take_rule == "chain_pass"
    if chain != (rules.chain_loop_guard == "original_attacker_takes") or (chain and (
            rules.throw_in or rules.transfer or rules.lead_rule != "single")):
        # крестовый: one card travels round the table, and must stop at its attacker
        raise RuleError("take_rule", "the chain pass goes with single-card leads, no throw-ins "
                        "or transfers, and the original attacker taking",
                        "передача по кругу — только с заходом одной картой, без подкидывания и "
                        "перевода, и ходивший берёт сам")
    if rules.refill_rule == "none" and not (rules.deal_mode in ("whole_deck", "none")
                                            or rules.trump_rule == "shown_then_set_aside"):
        # a stock nobody draws from would never run out, and empty hands leave only then
        raise RuleError("refill_rule", "no refill needs no stock: the whole deck dealt or the "
                        "stock set aside", "без добора не должно быть колоды: сдаётся вся "
                        "колода или колода откладывается")
    if rules.deal_mode == "whole_deck" and rules.trump_rule != "last_dealt_card":
        raise RuleError("trump_rule", "with the whole deck dealt the last dealt card is trump",
                        "при сдаче всей колоды козырь — последняя сданная карта")
    if rules.trump_rule == "last_dealt_card" and rules.deal_mode != "whole_deck":
        raise RuleError("trump_rule", "the last dealt card is trump only when the whole deck "
                        "is dealt", "последняя сданная карта — козырь, только когда сдаётся "
                        "вся колода")
    _validate_scoring(rules)
    titled = (rules.series_state == "titles", rules.trump_rule == "named_by_king",
              rules.dealer_next_game == "title_govno",
              rules.first_attacker_next_game == "title_govno",
              rules.post_game_swap == "durak_with_govno",
              rules.title_reassign == "after_game_1_only")
    if any(titled) and not all(titled):
        raise RuleError("series_state", "Король-говно's titles go together: the King names the "
                        "trump, Говно deals and leads, the durak swaps with Говно",
                        "звания Король-говно идут вместе: козырь назначает Король, сдаёт и "
                        "ходит Говно, дурак меняется с Говном")
    if all(titled) and (rules.teams != "none" or rules.series != "series"):
        raise RuleError("series_state", "titles need a series without teams",
                        "звания — это серия партий без команд")
    if rules.self_throw_in == "after_proezdnoy" and rules.transfer_by_showing \
            != "backward_proezdnoy":
        raise RuleError("self_throw_in", "throwing in to oneself after a проездной needs "
                        "transfer_by_showing: backward_proezdnoy",
                        "подкидывать себе после проездного можно только с проездным")
    if rules.self_throw_in == "after_all_beaten" and not rules.throw_in:
        raise RuleError("self_throw_in", "throwing in to oneself needs throw-ins",
                        "подкидывать самому себе можно только в подкидном")
    if rules.throw_in_match in ("beats_last_defence", "beats_any_defence") \
            and rules.throw_in_timing != "after_beat":
        raise RuleError("throw_in_match", "a throw-in that must beat a defence card comes "
                        "after each beat", "подкидывают картой, бьющей карту отбоя, "
                        "только после того, как отбились")
    _validate_special_cards(rules)
    if rules.lead_from_stock and not (
            rules.trump_rule == "turned_under_stock" and rules.trump_change == "none"
            and rules.deal_mode == "fixed" and rules.refill_rule == "up_to_hand_size"
            and rules.discard_rule == "discard" and rules.lead_rule in ("single",
                                                                        "same_rank_multi")
            and rules.lead_restriction == "any"):
        # армянский: the stock is the usual one, the turned trump card under it; the blind
        # lead is one card that no lead pattern or restriction shapes
        raise RuleError("lead_from_stock", "a lead from the stock needs the usual stock with "
                        "the trump card turned under it, and plain leads",
                        "ход с колоды требует обычной колоды с открытым козырем под ней и "
                        "обычного хода")
    if (rules.shuffle == "within_rank") != (rules.deck_presort == "rank_desc"):
        # албанский: the deck is laid out by rank and the shuffle keeps each rank together;
        # a full shuffle erases the order (the literal reading is plain podkidnoy)
        raise RuleError("shuffle", "a shuffle within ranks goes with a deck sorted by rank",
                        "тасовка внутри достоинств требует колоды, разложенной по достоинству")
    if rules.deck_presort == "rank_desc" and (rules.jokers_per_deck or rules.blank_card):
        raise RuleError("deck_presort", "jokers and the blank have no rank to sort by",
                        "у джокеров и пустышки нет достоинства для раскладки")
    if ("lead_from_stock_scope", "first_lead_of_game") in rules.extra \
            and not rules.lead_from_stock:
        raise RuleError("lead_from_stock", "the scope of a lead from the stock needs the lead "
                        "from the stock", "ограничение хода с колоды требует хода с колоды")
    _validate_blind(rules)
    _validate_dummy(rules)
    _validate_face_down(rules)
    exchange = rules.pre_defence_exchange == "swap_two"
    if exchange != bool(rules.swap_two):
        raise RuleError("swap_two", "the exchange with the stock goes with its options",
                        "обмен с колодой задаётся вместе с его настройками")
    if exchange and (rules.refill_rule == "none" or rules.discard_rule != "discard"
                     or rules.trump_change != "none" or rules.locked_cards
                     or rules.hand_visibility != "owner_only" or rules.lead_from_stock):
        # the exchange draws from a stock of face-down cards under a fixed trump card
        raise RuleError("pre_defence_exchange", "the exchange needs a stock to draw from, "
                        "a trump that stays and nothing else shuffled into the stock",
                        "обмену нужна колода для добора, неизменный козырь и никакого "
                        "другого замешивания в колоду")
    if n_players is not None:
        validate_players(rules, n_players)


def _validate_ladder(rules: RuleSet) -> None:
    """Длинный дурак: the sixes taken out are the personal trumps, the match is a ladder, and
    the throw-ins go strictly round (its cursor lives in `State.shown`, which a game without
    transfers, trump swaps or a thrown-in count leaves free)."""
    sixes = rules.trump_rule == "personal_six"
    ladder = (rules.series_state == "ladder", rules.match_end == "ladder_reaches_A",
              rules.deck_remove == ("6S", "6C", "6D", "6H"))
    if sixes != all(ladder) or (sixes and (rules.deck_size != 36 or rules.deck_count != 1
                                           or rules.series != "series"
                                           or rules.teams != "none")) \
            or (any(ladder) and not all(ladder)):
        raise RuleError("trump_rule", "Длинный дурак's parts go together: the four sixes of one "
                        "36-card deck taken out as personal trumps, a ladder series that ends "
                        "with an ace", "части Длинного дурака идут вместе: четыре шестёрки "
                        "одной колоды в 36 карт — личные козыри, серия-лесенка до туза")
    if rules.deck_remove and not sixes:
        raise RuleError("deck_remove", "cards are taken out only as Длинный дурак's sixes",
                        "карты вынимают только как шестёрки Длинного дурака")
    if rules.throw_in_order == "strict_clockwise" and (
            rules.transfer or rules.self_throw_in != "off" or rules.trump_change != "none"
            or rules.extra or rules.throw_in_cards_per_action != "1"):
        raise RuleError("throw_in_order", "throw-ins strictly in turn are played without "
                        "transfers, self-throw-ins, trump swaps and several cards at once",
                        "подкидывание строго по очереди — без перевода, подкидывания себе, "
                        "замены козыря и нескольких карт сразу")


def _validate_over_limit(rules: RuleSet) -> None:
    """щелковский's choice (B): more than the limit may be thrown in and the defender sends the
    extra ones back. The engine plays it where the limit counts the thrown-in cards only (a
    lead or a transfer is never sent back), one card per throw-in, all cards face up."""
    if rules.over_limit_policy == "defender_chooses" and not (
            ("bout_limit_counts", "thrown_in_only") in rules.extra
            and rules.bout_attack_limit is not None
            and rules.throw_in_cards_per_action == "1" and rules.trump_change == "none"
            and rules.defence_visibility == "open" and rules.hand_visibility == "owner_only"):
        # (a trump swap on defence keeps the bout's last card where the choice keeps its marks)
        raise RuleError("over_limit_policy", "the defender's choice of the cards he beats goes "
                        "with a limit on the thrown-in cards only (as щелковский's), one card "
                        "per throw-in, all cards face up, no trump swap", "выбор отбивающегося "
                        "идёт с лимитом только на подкинутые карты (как в щелковском), "
                        "подкидывают по одной, все карты открыты, без замены козыря")


# each pre-game phase (engine/prephase.py) with the trump rule it sets
_PRE_PHASE_TRUMP = {"capture_row": "last_pre_phase_card", "capture_circle": "centre_card",
                    "ladder_deal": "fixed_suit:diamonds"}


def _validate_pre_phase(rules: RuleSet) -> None:
    """A pre-game phase hands the whole deck out instead of a deal, with no stock left to
    draw from, in a single game of one plain deck without teams or scores."""
    if (rules.pre_phase != "none") != (rules.deal_mode == "none"):
        raise RuleError("pre_phase", "a pre-game phase and only it replaces the deal: "
                        "deal_mode 'none'", "только предварительная фаза заменяет сдачу: "
                        "deal_mode «none»")
    params = {"after_capture": "capture_row", "on_stock_empty": "capture_circle",
              "ninth_card": "capture_circle"}
    for name, _ in rules.pre_phase_params:
        if params.get(name) != rules.pre_phase:
            raise RuleError("pre_phase_params", f"{name} is not an option of the phase "
                            f"{rules.pre_phase}", f"{name} не относится к фазе {rules.pre_phase}")
    if rules.pre_phase == "none":
        if rules.trump_rule == "last_pre_phase_card":
            raise RuleError("trump_rule", "the last card of a pre-game phase needs that phase",
                            "последняя карта предварительной фазы требует этой фазы")
        return
    if not rules.trump_rule.startswith(_PRE_PHASE_TRUMP[rules.pre_phase].split(":")[0]):
        raise RuleError("trump_rule", f"the phase {rules.pre_phase} sets the trump by "
                        f"{_PRE_PHASE_TRUMP[rules.pre_phase]}",
                        f"фаза {rules.pre_phase} задаёт козырь правилом "
                        f"{_PRE_PHASE_TRUMP[rules.pre_phase]}")
    if not (rules.refill_rule == "none" and rules.deck_count == 1 and rules.teams == "none"
            and rules.counter == "none" and rules.jokers_per_deck == 0
            and not rules.blank_card and rules.locked_cards == 0
            and rules.discard_rule == "discard" and rules.trump_change == "none"
            and rules.hand_rotation == "off"):
        raise RuleError("pre_phase", "a pre-game phase deals one plain deck with no stock left "
                        "to draw from, without teams, scores or other deal overlays",
                        "предварительная фаза раздаёт одну обычную колоду без добора, без "
                        "команд, счёта и других особенностей сдачи")


def _validate_face_down(rules: RuleSet) -> None:
    """верю не верю: face-down covers go with the doubt, and with nothing that reads a cover's
    face before it is doubted."""
    face_down = rules.defence_visibility == "face_down_challengeable"
    if face_down != bool(rules.challenge):
        raise RuleError("challenge", "face-down covers go with the doubt («сомневаюсь»)",
                        "закрытый отбой идёт вместе с правом сказать «сомневаюсь»")
    if face_down and (rules.throw_in_ranks_from != "face_up_only"
                      or rules.transfer_window != "before_first_cover"
                      or rules.throw_in_match in ("beats_last_defence", "beats_any_defence")
                      or rules.trump_change == "swap_on_defence"
                      or rules.discard_rule != "discard" or rules.counter != "none"
                      or rules.locked_cards or rules.self_throw_in != "off"
                      or rules.hand_visibility != "owner_only" or rules.dummy_hand):
        raise RuleError("defence_visibility", "face-down covers are not thrown in to, not "
                        "transferred past, swapped, counted, reshuffled or self-thrown",
                        "под закрытые карты не подкидывают; их не переводят, не меняют, не "
                        "считают и не замешивают в колоду")


def _validate_special_cards(rules: RuleSet) -> None:
    """Jokers and the blank (SP18): a joker needs its beat powers, and the other way round."""
    if (rules.jokers_per_deck > 0) != (rules.joker_rule != "none"):
        raise RuleError("joker_rule", "jokers need a joker rule, a joker rule needs jokers",
                        "джокерам нужно правило джокера, а правилу — джокеры")
    coloured = rules.joker_rule == "coloured"
    if coloured and (rules.jokers_per_deck != 2 or rules.deck_count != 1):
        raise RuleError("joker_rule", "coloured jokers are one red and one black: one deck "
                        "with two jokers", "цветные джокеры — красный и чёрный: одна колода "
                        "с двумя джокерами")
    if coloured != (rules.off_colour_joker_beaten_by != "none"):
        raise RuleError("off_colour_joker_beaten_by", "says what beats the other-colour joker, "
                        "with coloured jokers only", "говорит, чем бить джокер другого цвета, "
                        "только при цветных джокерах")
    if rules.trump_indicator_special == "colour_pair" and not coloured:
        raise RuleError("trump_indicator_special", "a pair of trump suits comes from a coloured "
                        "joker turned as trump", "две козырные масти даёт только цветной "
                        "джокер, открытый козырем")
    if (rules.trump_indicator_special == "no_trump") != rules.blank_card:
        raise RuleError("trump_indicator_special", "the blank turned as trump means no trump "
                        "('no_trump', with the blank only)", "открытая козырем пустышка — игра "
                        "без козырей («no_trump», только с пустышкой)")
    if rules.blank_card and rules.jokers_per_deck:
        raise RuleError("blank_card", "the blank and jokers in one deck are not a variant",
                        "пустышки и джокеров в одной колоде не бывает")


def _validate_blind(rules: RuleSet) -> None:
    """оборотный: hands held backwards go with the penalties of blind play, and every play is
    one card picked by position (no shapes of leads, no shown trumps, no hands passed on)."""
    blind = rules.hand_visibility == "others_only"
    if blind != bool(rules.invalid_play_penalty):
        raise RuleError("hand_visibility", "hands held backwards go with the penalties of "
                        "blind play (invalid_play_penalty), and the other way round",
                        "карты рубашкой к себе требуют штрафов за неверный ход вслепую, и "
                        "наоборот")
    if blind and (rules.lead_rule != "single" or rules.throw_in_cards_per_action != "1"
                  or rules.transfer_by_showing != "off" or rules.self_throw_in != "off"
                  or rules.lead_restriction != "any" or rules.hand_rotation != "off"
                  or rules.locked_cards or rules.first_attacker_tiebreak != "lot"
                  or rules.lead_from_stock):
        raise RuleError("hand_visibility", "a player who cannot see his cards plays one card "
                        "at a time: single leads and throw-ins, no showing, no forced leads, "
                        "no hands passed on or locked, ties of the lowest trump by lot",
                        "игрок, не видящий своих карт, ходит по одной карте: заход и "
                        "подкидывание одной картой, без показа, без обязательного захода, "
                        "без передачи и закрытых карт, равные младшие козыри — жребием")


def _validate_dummy(rules: RuleSet) -> None:
    """с болваном: the dummy is one more hand of the plain deal, drawn like the others; its
    seat is fixed for a series and nothing passes hands round or gives it a team."""
    if rules.dummy_hand and (rules.deal_mode != "fixed" or rules.teams != "none"
                             or rules.hand_rotation != "off" or rules.locked_cards
                             or rules.hand_visibility != "owner_only" or rules.counter != "none"
                             or rules.series_state != "none"
                             or rules.trump_rule != "turned_under_stock"):
        raise RuleError("dummy_hand", "a dummy hand needs the plain deal and trump, no teams, "
                        "no hands passed on, locked or held backwards, and no scores or titles",
                        "болван требует обычной сдачи и козыря, без команд, без передачи, "
                        "закрытых и перевёрнутых карт, без очков и званий")


# a scored game: each counter with the loser or winner rule that reads it
_SCORING = {"beaten_cards": ("fewest_beaten_cards", "none"),
            "figures_beaten": ("none", "most_figures"),
            "pogony_pairs": ("fewest_pogony", "none")}


def _validate_scoring(rules: RuleSet) -> None:
    # очковый's and фигурный's table options: the cards covered in a bout the defender then
    # took count too
    if rules.counter_counts == "every_beat" and rules.counter != "beaten_cards":
        raise RuleError("counter_counts", "every beat counts for the beaten-cards counter",
                        "каждая отбитая карта считается только в счёте отбитых карт")
    if rules.count_on_take and rules.counter != "figures_beaten":
        raise RuleError("count_on_take", "figures covered before a take count for the figures "
                        "counter", "фигуры, побитые до «беру», считаются только в счёте фигур")
    pair = (rules.loser_rule, rules.winner_rule)
    wanted = _SCORING.get(rules.counter)
    if wanted is None:
        if pair[0] in ("fewest_beaten_cards", "fewest_pogony", "none") \
                or pair[1] == "most_figures":
            raise RuleError("counter", "this loser or winner rule needs its counter",
                            "для такого правила проигрыша или выигрыша нужен счёт")
        return
    if pair != wanted:
        raise RuleError("loser_rule", f"the counter {rules.counter} decides the game by "
                        f"loser_rule={wanted[0]}, winner_rule={wanted[1]}",
                        f"счёт {rules.counter} решает партию правилами loser_rule={wanted[0]}, "
                        f"winner_rule={wanted[1]}")
    if rules.counter == "beaten_cards" and rules.counter_counts not in (
            "successful_bouts_only", "every_beat"):
        raise RuleError("counter_counts", "beaten cards count the defended bouts",
                        "отбитые карты считаются по отбоям")
    if rules.counter == "pogony_pairs" and rules.counter_counts != "lead_and_throw_in":
        raise RuleError("counter_counts", "pogony count the leads and throw-ins",
                        "погоны считаются по ходам и подкидыванию")
    if rules.counter_tie_break == "earlier_out" and rules.winner_rule == "none":
        raise RuleError("counter_tie_break", "'earlier_out' breaks a tie of winners",
                        "«earlier_out» решает ничью победителей")
    if rules.teams != "none":
        raise RuleError("counter", "scored games are played without teams",
                        "игры на счёт играются без команд")


def engine_seats(rules: RuleSet, players: int) -> int:
    """The engine's seats for `players` people at a table: с болваном, one more (the dummy's)."""
    return players + 1 if rules.dummy_hand else players


def validate_players(rules: RuleSet, n_players: int) -> None:
    """`n_players` counts the engine's seats: с болваном, the players and the dummy."""
    players = n_players - 1 if rules.dummy_hand else n_players
    if not rules.min_players <= players <= rules.max_players:
        raise RuleError("players", f"this rule set is for {rules.min_players}–{rules.max_players}"
                        f" players, not {players}",
                        f"эти правила для {rules.min_players}–{rules.max_players} игроков,"
                        f" а не {players}")
    team_size = {"none": 0, "2v2": 2, "3v3": 3}[rules.teams]
    if team_size and n_players != 2 * team_size:
        raise RuleError("teams", f"{rules.teams} needs exactly {2 * team_size} players",
                        f"{rules.teams} — ровно {2 * team_size} игроков")
    n_cards = rules.deck().n_cards
    if rules.deal_mode in ("whole_deck", "none"):
        return  # every card dealt round robin; a remainder makes some hands one card longer
    dealt = n_players * rules.hand_size
    if rules.trump_rule == "per_player_turned" and dealt + n_players > n_cards:
        raise RuleError("players", f"{n_players} hands of {rules.hand_size} and a trump card "
                        f"each do not fit in {n_cards} cards",
                        f"{n_players} рук по {rules.hand_size} и по козырной карте каждому не "
                        f"помещаются в {n_cards} карт")
    extra = 1 if rules.trump_change == "hidden_second" else 0
    if dealt + extra > n_cards or (extra and dealt + 2 > n_cards):
        raise RuleError("players", f"{n_players} hands of {rules.hand_size} (plus the hidden"
                        f" trump) do not fit in {n_cards} cards",
                        f"{n_players} рук по {rules.hand_size} (и потайной козырь) не помещаются"
                        f" в {n_cards} карт")
    if dealt >= n_cards and rules.trump_rule == "bottom_suit_announced":
        raise RuleError("players", "no stock is left for the bottom card that sets the trump",
                        "не остаётся колоды, нижняя карта которой задаёт козырь")
    if (dealt == n_cards and rules.trump_rule == "turned_under_stock"
            and rules.trump_when_no_stock == "forbid"):
        raise RuleError("trump_when_no_stock", "no card is left to turn for the trump",
                        "не остаётся карты для козыря")
