"""Дурак чухонский over the mental-poker deck, through the game-family interface: every party
follows only the engine's card movements (`protocol/family_deck.py`, which knows no game),
bots play from their own seat's view, every card a player lays is opened with his tokens and
checked against the card his move names, and the end-of-game audit replays the moves on the
deal the published keys open — which catches a take by a player who held the card that
climbs («Тот игрок, у которого нет необходимой карты, забирает себе верхнюю карту»), the one
rule a partial view must take on trust."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from p2p_durak.bots import chukhonsky as B
from p2p_durak.engine.cards import cards_of
from p2p_durak.engine.games import chukhonsky as C
from p2p_durak.engine.games.chukhonsky.family import SUIT_LADDER
from p2p_durak.engine.moves import hand
from p2p_durak.protocol.family_deck import AuditFinding, FamilyDeckGame, FollowError
from p2p_durak.protocol.mental.events import AuditDone, CardRevealed, CardSeen
from p2p_durak.protocol.mental.ops import Op

from .table import Table


class DeckTable:
    """N parties over one in-memory deck: each its FamilyDeckGame and its bot."""

    def __init__(self, n: int, seed: int, levels: list[str]) -> None:
        rng = random.Random(seed)
        self.game = C.make_game(C.ChukhonskyRules(), n, rng.randrange(n))
        self.deck = Table(n, self.game.n_cards, seed=b"chukh-%d" % seed)
        self.parties = [FamilyDeckGame(SUIT_LADDER, C.new_game(self.game, None), s)
                        for s in range(n)]
        self.bots = [B.make_bot(level, s, random.Random(rng.getrandbits(32)))
                     for s, level in enumerate(levels)]
        for bot in self.bots:
            bot.new_game(self.game)
        self.cheater: int | None = None
        self.cheated = False

    def run(self, ops: list[list[Op]]) -> dict[int, list[object]]:
        """Every party asked for the same deck steps (they follow the same movements)."""
        assert all(o == ops[0] for o in ops), "the parties disagree on the deck steps"
        events: dict[int, list[object]] = {s: [] for s in range(len(self.parties))}
        for op in ops[0]:
            for seat, new in self.deck.run(op).items():
                events[seat] += new
                for event in new:
                    if isinstance(event, CardSeen):
                        self.parties[seat].saw(event.slot, event.card_id)
        return events

    def start(self) -> None:
        self.run([p.opening() for p in self.parties])
        self.run([p.deal() for p in self.parties])
        for seat, party in enumerate(self.parties):
            party.learn_own()
            self.bots[seat].observe(C.deal())
            self.bots[seat].learn(cards_of(party.view.hands[seat]))

    def choose(self, seat: int) -> C.Move:
        view = self.parties[seat].view
        if seat == self.cheater and view.pile and not self.cheated:
            climbing = view.hands[seat] & view.game.climbers(view.top)
            if climbing and not climbing & view.shown:  # (a face-up card everyone would see)
                self.cheated = True
                return C.take(seat)  # «I cannot follow», holding the card
        return self.bots[seat].choose()

    def play_move(self, seat: int, move: C.Move) -> None:
        mover = self.parties[seat]
        slots = mover.slots_for([move.card]) if move.kind is C.MoveKind.PLAY else ()
        reveals = [p.reveal_for(seat, slots) for p in self.parties]
        opened: dict[int, dict[int, int]] = {s: {} for s in range(len(self.parties))}
        if reveals[0] is not None:
            for s, new in self.run([[r] for r in reveals if r is not None]).items():
                opened[s] = {e.slot: e.card_id for e in new if isinstance(e, CardRevealed)}
        cheat = seat == self.cheater and move not in C.legal_actions(mover.view, seat)
        for s, party in enumerate(self.parties):
            if cheat and s == seat:  # a cheating node skips its own checks
                party.moves.append(move)
                party.view = _trusting_step(party.view, seat, move)
                continue
            assert party.apply(move, seat, slots, opened[s]) == []
        for s, bot in enumerate(self.bots):
            if cheat and s == seat:
                bot._view = _trusting_step(bot.view, seat, move)
            else:
                bot.observe(move)

    def play(self) -> list[C.State]:
        self.start()
        while not C.is_over(self.parties[0].view):
            (seat,) = C.to_act(self.parties[0].view)
            self.play_move(seat, self.choose(seat))
            hashes = {C.state_hash(p.view) for p in self.parties}
            assert len(hashes) == 1, "the parties' views diverged"
        return [p.view for p in self.parties]

    def audit(self) -> list[list[AuditFinding]]:
        events = self.run([[p.closing()] for p in self.parties])
        out = []
        for seat, party in enumerate(self.parties):
            (done,) = [e for e in events[seat] if isinstance(e, AuditDone)]
            first = C.new_game(self.game, list(done.cards))
            out.append(party.audit(first))
        return out


def _trusting_step(view: C.State, seat: int, move: C.Move) -> C.State:
    """The cheater's own view of its take: its engine forgets its own unseen cards for the
    move (so it accepts it), then learns them back."""
    secret = view.hands[seat] & ~view.shown
    hands = tuple(h & ~secret if s == seat else h for s, h in enumerate(view.hands))
    hidden = tuple(h + secret.bit_count() if s == seat else h for s, h in enumerate(view.hidden))
    after = C.step(replace(view, hands=hands, hidden=hidden), move)
    return C.learn(after, seat, cards_of(secret))


@pytest.mark.parametrize(("n", "seed"), [(2, 1), (3, 2)])
def test_bots_play_a_whole_game_over_the_deck_and_the_audit_finds_nothing(
        n: int, seed: int) -> None:
    table = DeckTable(n, seed, ["medium", "easy", "random"][:n])
    views = table.play()
    assert all(v.result == views[0].result for v in views)
    findings = table.audit()
    assert findings == [[]] * n
    # the deal the keys open, replayed, ends where every party's view ended
    first = C.new_game(table.game, list(_audited_cards(table)))
    final = first
    for move in table.parties[0].moves:
        final = C.step(final, move)
    assert C.state_hash(final) == C.state_hash(views[0])


def _audited_cards(table: DeckTable) -> tuple[int, ...]:
    (done,) = [e for e in table.deck.events[0] if isinstance(e, AuditDone)]
    return done.cards


def test_a_take_while_holding_the_card_is_caught_by_the_audit() -> None:
    table = DeckTable(3, 5, ["medium", "medium", "medium"])
    table.cheater = 1
    table.play()
    assert table.cheated
    findings = table.audit()
    for seat in (0, 2):  # the honest parties name the cheater and the rule
        assert findings[seat]
        assert findings[seat][0].seat == 1
        assert "must lay it" in findings[seat][0].reason


def test_a_move_naming_a_slot_outside_its_hand_is_refused_naming_the_seat() -> None:
    table = DeckTable(2, 3, ["random", "random"])
    table.start()
    (seat,) = C.to_act(table.parties[0].view)
    other_slot = table.parties[0].layout.slots(hand(1 - seat))[0]
    with pytest.raises(FollowError) as refused:
        table.parties[0].reveal_for(seat, (other_slot,))
    assert refused.value.seat == seat
    assert "not in its hand" in refused.value.reason
