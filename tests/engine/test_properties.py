"""Property tests over random legal play, for every working preset and player count.

One random game per example (the deck order and every choice come from hypothesis, seeded
and derandomized). At every step the full state is checked, and in lockstep each seat's
partial view — started from `new_game(game, None)` and fed the same public log, learning only
its own deal and draws — must hash like the full state and accept what it accepts.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from engine_support import format_action
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from p2p_durak.bots.random_bot import RandomBot
from p2p_durak.engine import (
    CHANCE,
    UNKNOWN,
    Action,
    Game,
    IllegalAction,
    Phase,
    Reason,
    RuleSet,
    State,
    apply,
    cards_of,
    chance_outcome,
    is_over,
    learn,
    legal_actions,
    make_game,
    new_game,
    private_view,
    public_view,
    sequencer,
    state_hash,
    step,
    to_act,
)
from p2p_durak.engine import actions as A
from p2p_durak.engine import events as E
from p2p_durak.engine.presets import get_preset, working_presets
from p2p_durak.engine.rules import DUMMY_PLAYS_BOUT_ATTACKER, DUMMY_PLAYS_GAME_FIRST_ATTACKER

CASES = [(p.id, n) for p in working_presets() for n in p.players]
MAX_ACTIONS = 5_000  # random games end in a few hundred actions; more means a loop

PROPERTY_SETTINGS = settings(derandomize=True, database=None, deadline=None,
                             max_examples=3, suppress_health_check=list(HealthCheck))


def _snapshot(state: State) -> int:
    """A fingerprint of a state's values. `hash` refuses a mutable container anywhere in
    the state, and any change of value shows as another fingerprint."""
    return hash(tuple(v for v in state if not isinstance(v, Game)))


def _check_cards(state: State, hidden_card: int | None) -> None:
    """Hands + stock + table + covers + discard + the потайной card + the locked cards = the
    deck, disjoint."""
    game = state.game
    assert not any(state.hidden)
    assert UNKNOWN not in state.stock
    seen: list[int] = []
    for hand in state.hands:
        seen.extend(cards_of(hand))
    seen.extend(state.stock)
    seen.extend(state.table)
    seen.extend(c for c in state.covers if c >= 0)
    seen.extend(cards_of(state.discard))
    seen.extend(cards_of(state.buried))  # верю не верю: the covers discarded face down
    assert state.buried.bit_count() == state.n_buried
    if state.hidden_trump >= 0:
        seen.append(state.hidden_trump)
    for pile in state.locked:  # магаданский: the locked cards before each player
        seen.extend(pile)
    assert len(seen) == len(set(seen)), "a card is in two places"
    missing = set(range(game.n_cards)) - set(seen)
    set_aside = (hidden_card is not None and state.hidden_trump == UNKNOWN
                 and state.phase not in (Phase.DEAL, Phase.REVEAL_TRUMP))
    assert missing == ({hidden_card} if set_aside else set())


def _candidates(state: State, rng: random.Random, k: int) -> list[Action]:
    """Random actions of every kind, mostly with cards the seat really holds."""
    game = state.game
    out = []
    for _ in range(k):
        seat = rng.randrange(game.n_players)
        hand = list(cards_of(state.hands[seat]))
        card = rng.choice(hand) if hand and rng.random() < 0.8 else rng.randrange(game.n_cards)
        kind = rng.randrange(12)
        if kind == A.DEAL:
            out.append(A.deal())
        elif kind == A.REVEAL:
            out.append(A.reveal(rng.randrange(game.n_cards)))
        elif kind == A.LOT:
            out.append(A.lot(rng.randrange(game.n_players)))
        elif kind == A.LEAD:
            picks = rng.sample(hand, min(len(hand), rng.randint(1, 3))) if hand else [card]
            out.append(A.lead(seat, *picks))
        elif kind == A.BEAT:
            out.append(A.beat(seat, card, rng.randrange(len(state.table) + 1)))
        elif kind in (A.TAKE, A.PASS, A.NO_TRUMP):
            out.append(Action(kind, seat))
        else:  # THROW, TRANSFER, SHOW, CLAIM
            out.append(Action(kind, seat, (card,)))
    return out


def _opened(action: Action, events: tuple[E.Event, ...]) -> int:
    """The cards an action showed face up to every seat."""
    mask = 0
    if action.kind in (A.LEAD, A.THROW, A.BEAT, A.TRANSFER, A.CLAIM):
        for card in action.cards:
            mask |= 1 << card
    for event in events:
        if isinstance(event, E.Took):
            for card in event.cards:
                mask |= 1 << card
    return mask


def _refused_unchanged(state: State, action: Action) -> IllegalAction:
    before = _snapshot(state)
    with pytest.raises(IllegalAction) as caught:
        apply(state, action)
    assert _snapshot(state) == before
    assert caught.value.reason.en
    assert caught.value.reason.ru
    return caught.value


class Lockstep:
    """A full game and every seat's partial view, driven by one log."""

    def __init__(self, game: Game, order: list[int]) -> None:
        self.game = game
        self.order = order
        self.full = new_game(game, order)
        self.views = [new_game(game, None) for _ in range(game.n_players)]
        self.log: list[Action] = []
        self.hashes: list[bytes] = [state_hash(self.full)]
        self.blind = game.tables.blind
        self.public = 0  # the cards seen face up by every seat so far
        potayny = game.rules.trump_change == "hidden_second"
        self.hidden_card = order[game.n_players * game.rules.hand_size + 1] if potayny else None

    def play(self, action: Action) -> None:
        full_before = _snapshot(self.full)
        new_full, events = apply(self.full, action)
        assert _snapshot(self.full) == full_before, "apply changed its input"
        for seat, view in enumerate(self.views):
            view_before = _snapshot(view)
            # верю не верю: a face-down cover names its card to its author's view alone
            seen = action if seat == action.seat else A.public_form(action)
            new_view, _ = apply(view, seen)  # raises if the view refuses what the full accepts
            assert _snapshot(view) == view_before
            if self.blind:  # оборотный: a view learns every hand but its own
                self.views[seat] = self._learn_others(seat, new_view, new_full, events)
                continue
            if action.kind == A.DEAL:
                new_view = learn(new_view, seat, cards_of(new_full.hands[seat]))
            hand = new_full.hands[seat]
            for event in events:
                # a draw, and (магаданский) an unlocked card, are shown to their owner alone;
                # (круговой) a card drawn and then passed on is no longer his to learn
                # верю не верю: a doubter who takes is shown the face-down covers he took
                if isinstance(event, (E.Drew, E.Unlocked, E.Took, E.Exchanged)) \
                        and event.seat == seat:
                    new_view = learn(new_view, seat, tuple(c for c in event.cards
                                                           if (hand >> c) & 1))
                elif isinstance(event, E.HandsRotated):  # круговой: the new hand is shown
                    new_view = learn(new_view, seat, cards_of(hand))
            self.views[seat] = new_view
        self.full = new_full
        self.log.append(action)
        digest = state_hash(new_full)
        self.hashes.append(digest)
        public = public_view(new_full)
        self.public |= _opened(action, events) | (1 << new_full.trump_card
                                                  if new_full.trump_card >= 0 else 0)
        for seat, view in enumerate(self.views):
            assert public_view(view) == public, (
                f"seat {seat}'s view differs after {format_action(new_full, action)}")
            if self.blind:
                # оборотный: his own view holds none of his cards but those every seat saw
                # face up (taken from the table, a claimed trump); every other hand it holds
                assert not view.hands[seat] & ~self.public
                assert all(view.hands[s] == new_full.hands[s] and not view.hidden[s]
                           for s in range(self.game.n_players) if s != seat)
                continue
            assert view.hands[seat] == new_full.hands[seat]
        if len(self.log) % 16 == 0 or is_over(new_full):
            assert all(state_hash(view) == digest for view in self.views)
        _check_cards(new_full, self.hidden_card)

    def _learn_others(self, seat: int, view: State, full: State,
                      events: tuple[E.Event, ...]) -> State:
        for other in range(self.game.n_players):
            if other != seat:
                shown = full.hands[other] & ~view.hands[other]
                if view.hidden[other] and shown:
                    view = learn(view, other, cards_of(shown))
        return view

    def check_own_legal_actions(self, seat: int) -> None:
        """A node lists its own seat's legal actions from its partial view alone."""
        if self.blind:
            if self.full.phase in (Phase.LEAD, Phase.BOUT):
                self._check_blind_legal_actions(seat)
            else:  # the claims: the seat on the claimant's left sees his hand
                assert legal_actions(self.views[seat], seat) == legal_actions(self.full, seat)
            return
        assert legal_actions(self.views[seat], seat) == legal_actions(self.full, seat)
        mine = private_view(self.full, seat)
        assert mine.hands[seat] == self.views[seat].hands[seat]
        assert state_hash(mine) == state_hash(self.full)

    def _check_blind_legal_actions(self, seat: int) -> None:
        """оборотный: his own view lists the same plays as the full state, each with every
        position of his hand instead of every card; every other view lists the full state's."""
        view, full = self.views[seat], self.full
        mine, real = legal_actions(view, seat), legal_actions(full, seat)
        assert {(a.kind, a.target) for a in mine} == {(a.kind, a.target) for a in real}
        assert len(mine) == len(real)
        if view.hidden[seat]:
            assert all(c >= A.BLIND_BASE for a in mine for c in a.cards)
        for other, other_view in enumerate(self.views):
            if other != seat:
                assert legal_actions(other_view, seat) == real
        assert private_view(full, seat).hands[seat] == 0
        assert state_hash(private_view(full, seat)) == state_hash(full)

    def check_refusals(self, rng: random.Random) -> None:
        for action in _candidates(self.full, rng, 3):
            # (оборотный: a claim is made for the claimant by the seat on his left)
            if action in legal_actions(self.full, action.seat) or any(
                    action in legal_actions(self.full, s) for s in self.full.actors if s >= 0):
                continue
            error = _refused_unchanged(self.full, action)
            if action.kind in (A.CLAIM, A.NO_TRUMP) or action.seat == CHANCE:
                continue  # a view cannot check a lowest-trump claim or a hidden card (rules.md)
            holds = all((self.full.hands[action.seat] >> c) & 1 for c in action.cards)
            if holds and action.seat >= 0:
                # a rule-illegal action with real cards: every view refuses it the same way;
                # занудный: only the leader's own view knows his highest rank (docs/rules.md:
                # the others check the cards they know, the end-of-game audit the rest)
                hidden_rule = (error.reason is Reason.LEAD_NOT_ALLOWED
                               and self.full.game.tables.lead_highest)
                for view in [self.views[action.seat]] if hidden_rule else self.views:
                    assert _refused_unchanged(view, action).reason is error.reason


def _check_sequencer(state: State, actors: list[int]) -> None:
    """The seat that orders the next log entry: the defender while a bout is open (the one
    seat in every race), the seat whose turn it is, or the dealer for chance."""
    seat = sequencer(state)
    if actors == [CHANCE]:
        assert seat == state.game.dealer
    elif state.phase == Phase.BOUT:
        assert seat == state.defender
    else:
        assert actors == [seat]


def _play_random_game(game: Game, order: list[int], rng: random.Random) -> Lockstep:
    run = Lockstep(game, order)
    bot = RandomBot(rng)
    while not is_over(run.full):
        assert len(run.log) < MAX_ACTIONS, "the game does not end"
        actors = sorted(to_act(run.full))
        assert actors, "nobody may act in an open game"
        _check_sequencer(run.full, actors)
        if actors == [CHANCE]:
            action = chance_outcome(run.full)
            if action is None:
                options = legal_actions(run.full, CHANCE)
                # a lot, отбойный, Длинный дурак's sixes
                assert run.full.phase in (Phase.LOT, Phase.RESHUFFLE, Phase.DEAL_SIXES,
                                          Phase.EXCHANGE)  # (покерный: its shuffle)
                assert len(options) > 1
                action = rng.choice(options)
        else:
            seat = rng.choice(actors)
            run.check_own_legal_actions(seat)
            action = bot.choose(run.full, seat)
        if rng.random() < 0.3:
            run.check_refusals(rng)
        run.play(action)
    assert run.full.result is not None
    assert to_act(run.full) == frozenset()
    return run


def _replay(game: Game, order: list[int], log: list[Action]) -> list[bytes]:
    state = new_game(game, order)
    hashes = [state_hash(state)]
    for action in log:
        state = step(state, action)
        hashes.append(state_hash(state))
    return hashes


def _check_random_game(rules: RuleSet, n_players: int, data: st.DataObject) -> None:
    dealer = data.draw(st.integers(0, n_players - 1), label="dealer")
    game = make_game(rules, n_players, dealer)
    order = data.draw(st.permutations(range(game.n_cards)), label="deck order")
    # choices from a drawn seed: a long game would overrun hypothesis's buffer if every
    # choice were a separate draw
    rng = random.Random(data.draw(st.integers(0, 2**64 - 1), label="choice seed"))
    run = _play_random_game(game, order, rng)
    # the same inputs give the same states: replaying the log (with `step`) reproduces
    # every state hash, and a second replay gives the same final state
    assert _replay(game, order, run.log) == run.hashes
    again = new_game(game, order)
    for action in run.log:
        again = step(again, action)
    assert again == run.full


@pytest.mark.parametrize(("preset_id", "n_players"), CASES)
@PROPERTY_SETTINGS
@given(data=st.data())
def test_random_games_keep_every_invariant(preset_id: str, n_players: int,
                                           data: st.DataObject) -> None:
    _check_random_game(get_preset(preset_id).rules, n_players, data)


@pytest.mark.parametrize(("deck_size", "n_players"), [(24, 2), (24, 4), (32, 3), (32, 5),
                                                      (52, 2), (52, 6)])
@PROPERTY_SETTINGS
@given(data=st.data())
def test_the_other_deck_sizes_keep_every_invariant(deck_size: int, n_players: int,
                                                   data: st.DataObject) -> None:
    """001: «можно 24, 32 или 52» — four seats with 24 cards leave no stock."""
    rules = get_preset("app_perevodnoy").rules.with_options(deck_size=deck_size)
    _check_random_game(rules, n_players, data)


@pytest.mark.parametrize(("limit", "n_players"), [(10, 3), (10, 6), (2, 2), (2, 4), (3, 5)])
@PROPERTY_SETTINGS
@given(data=st.data())
def test_the_defenders_choice_past_the_cap_keeps_every_invariant(limit: int, n_players: int,
                                                                 data: st.DataObject) -> None:
    """щелковский's table option (B), `over_limit_policy: defender_chooses` (the catalogue:
    «(B): allow more and let the defender pick 10 to beat and return the rest»); with a low
    limit as well, so that random games send cards back often."""
    rules = get_preset("shchelkovsky").rules.with_options(
        over_limit_policy="defender_chooses", bout_attack_limit=limit,
        first_bout_attack_limit=limit)
    _check_random_game(rules, n_players, data)


@pytest.mark.parametrize(("preset_id", "changes", "n_players"), [
    ("app_podkidnoy", {"deck_size": 24, "hand_size": 2}, 2),
    ("app_podkidnoy", {"deck_size": 24, "hand_size": 2}, 4),
    ("shchelkovsky", {"hand_size": 2}, 3),
    ("beskozyrny", {}, 3)])
@PROPERTY_SETTINGS
@given(data=st.data())
def test_the_lowest_card_fallback_keeps_every_invariant(preset_id: str, changes: dict[str, int],
                                                        n_players: int,
                                                        data: st.DataObject) -> None:
    """SP5's table option `first_attacker_fallback: lowest_card` («или же определяют по младшей
    карте»), with hands of two so that nobody holds a trump often."""
    rules = get_preset(preset_id).rules.with_options(first_attacker_fallback="lowest_card",
                                                     **changes)
    _check_random_game(rules, n_players, data)


@pytest.mark.parametrize("n_players", [2, 4])
@PROPERTY_SETTINGS
@given(data=st.data())
def test_korolevskys_any_ace_keeps_every_invariant(n_players: int, data: st.DataObject) -> None:
    """королевский's table option `lowest_rank_only_by_ace: any_ace` (the catalogue:
    «`any_ace` is the alternative»)."""
    rules = get_preset("korolevsky").rules.with_options(lowest_rank_only_by_ace="any_ace")
    _check_random_game(rules, n_players, data)


@pytest.mark.parametrize(("overlay", "n_players"), [
    (DUMMY_PLAYS_GAME_FIRST_ATTACKER, 3), (DUMMY_PLAYS_GAME_FIRST_ATTACKER, 5),
    (DUMMY_PLAYS_BOUT_ATTACKER, 4)])
@PROPERTY_SETTINGS
@given(data=st.data())
def test_a_dummy_that_attacks_and_defends_keeps_every_invariant(
        overlay: tuple[tuple[str, str], ...], n_players: int, data: st.DataObject) -> None:
    """с болваном's table option `can_attack_defend: true` (000_0a1bcdd496bc6662.txt: «возможен
    вариант игры, когда по согласованию между игроками болван имеет право это делать»)."""
    rules = get_preset("s_bolvanom").rules.with_options(dummy_hand=overlay)
    _check_random_game(rules, n_players, data)


@pytest.mark.parametrize("n_players", [2, 5])
@PROPERTY_SETTINGS
@given(data=st.data())
def test_dorozhnys_beats_any_defence_keeps_every_invariant(n_players: int,
                                                           data: st.DataObject) -> None:
    """дорожный's table option `throw_in_match: beats_any_defence` (the catalogue:
    «Alternative `beats_any_defence`»)."""
    rules = get_preset("dorozhny").rules.with_options(throw_in_match="beats_any_defence")
    _check_random_game(rules, n_players, data)


@pytest.mark.parametrize(("preset_id", "changes", "n_players"), [
    ("ochkovy", {"counter_counts": "every_beat"}, 2),
    ("ochkovy", {"counter_counts": "every_beat"}, 4),
    ("figurny", {"count_on_take": True}, 3)])
@PROPERTY_SETTINGS
@given(data=st.data())
def test_scoring_the_beats_of_taken_bouts_keeps_every_invariant(
        preset_id: str, changes: dict[str, Any], n_players: int, data: st.DataObject) -> None:
    """очковый's `counter_counts: every_beat` and фигурный's `count_on_take: true` (the
    catalogue: «(b) every card he covered, including bouts he then took»)."""
    _check_random_game(get_preset(preset_id).rules.with_options(**changes), n_players, data)


@pytest.mark.parametrize(("params", "n_players"), [
    ((("ninth_card", "first_added"),), 2),
    ((("ninth_card", "first_added"),), 4),
    ((("ninth_card", "first_added"), ("on_stock_empty", "discard_leftovers")), 3)])
@PROPERTY_SETTINGS
@given(data=st.data())
def test_krugly_ninth_card_first_added_keeps_every_invariant(
        params: tuple[tuple[str, str], ...], n_players: int, data: st.DataObject) -> None:
    """круглый's table option `ninth_card: first_added` (the catalogue: «Knob `ninth_card:
    centre_trump | first_added`»)."""
    rules = get_preset("krugly").rules.with_options(pre_phase_params=params)
    _check_random_game(rules, n_players, data)
