"""The five-attacker race: a crafted 6-player app_podkidnoy deal played up to the moment five
players may throw in at once (shared by the race tests and the log's unit tests)."""

from __future__ import annotations

from p2p_durak import engine
from p2p_durak.engine import CHANCE, Game, Phase, State
from p2p_durak.engine import actions as A
from p2p_durak.protocol.log_effects import Committed

from .netsim import Peer, Plan, Sim, make_game

# Dealer 0, trump hearts (seat 0's last card, A♥, is turned: no stock with six players). Seat 1
# holds the lowest trump and leads 7♠; seat 2 defends with 8♠; then seats 0, 1, 3, 4 and 5 each
# hold one card of a rank on the table: five throw-ins race for the first bout's four places.
HANDS = {
    0: "8♥ 10♥ J♥ Q♥ K♥ A♥",
    1: "6♥ 7♠ 7♣ 9♠ 9♣ 10♠",
    2: "8♠ 7♥ 9♦ 10♣ 10♦ J♠",
    3: "7♦ J♣ J♦ Q♠ Q♣ 6♠",
    4: "8♣ Q♦ K♠ K♣ K♦ 6♣",
    5: "8♦ A♠ A♣ A♦ 6♦ 9♥",
}
THROWS = {0: "8♥", 1: "7♣", 3: "7♦", 4: "8♣", 5: "8♦"}
GAME: Game = make_game(6)


def race_deck() -> list[int]:
    """One card at a time, clockwise from the dealer's left."""
    deck = GAME.deck
    hands = {seat: [deck.parse(c) for c in text.split()] for seat, text in HANDS.items()}
    return [hands[(k + 1) % 6][k // 6] for k in range(36)]


def check_bout_limits(peer: Peer, commit: Committed[State]) -> None:
    state = commit.state
    if state.phase != Phase.BOUT:
        return
    limit = 5 if state.bout == 0 else 6
    assert len(state.table) <= limit, f"{len(state.table)} attack cards in bout {state.bout}"
    uncovered = sum(1 for cover in state.covers if cover == engine.UNKNOWN)
    assert uncovered <= state.hand_size(state.defender), "more uncovered cards than the defender"


def settle(sim: Sim) -> None:
    sim.run(until_ms=sim.now + 30_000)


def play_to_the_race(plan: Plan, peer_class: dict[int, type[Peer]] | None = None) -> Sim:
    """Deal, claims, lead 7♠, beat with 8♠: the table just before the five throw-ins."""
    sim = Sim(6, plan, game=GAME, deck=race_deck(), bots=False, peer_class=peer_class or Peer)
    sim.commit_hooks.append(check_bout_limits)
    deck = GAME.deck
    while True:
        state = sim.peers[0].log.state
        if state.phase == Phase.BOUT:
            break
        actors = engine.to_act(state)
        if CHANCE in actors:
            seat = engine.sequencer(state)
            action = engine.chance_outcome(state)
            assert action is not None
        elif state.phase == Phase.LEAD:
            seat, action = 1, A.lead(1, deck.parse("7♠"))
        else:
            (seat,) = actors
            (action,) = engine.legal_actions(state, seat)
        sim.submit(seat, action)
        settle(sim)
    sim.submit(2, A.beat(2, deck.parse("8♠"), 0))
    settle(sim)
    state = sim.peers[0].log.state
    assert engine.to_act(state) == frozenset(THROWS)
    assert engine.sequencer(state) == 2
    return sim


def throw_all(sim: Sim, order: tuple[int, ...] = tuple(THROWS)) -> None:
    for seat in order:  # the same simulated instant
        sim.submit(seat, A.throw(seat, GAME.deck.parse(THROWS[seat])))
    settle(sim)
