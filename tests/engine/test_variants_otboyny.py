"""«Дурак отбойный» (otboyny): every second successful defence goes back into the stock,
shuffled, instead of the discard. Catalogue: shared/rules/variants-attack-defend.md, section
`otboyny`."""

from __future__ import annotations

import random

from engine_support import Table

from p2p_durak.engine import (
    CHANCE,
    UNKNOWN,
    Phase,
    apply,
    chance_outcome,
    is_over,
    legal_actions,
    make_game,
    new_game,
    private_view,
    to_act,
)
from p2p_durak.engine import actions as A
from p2p_durak.engine import events as E
from p2p_durak.engine.bout import DECK_ORDER
from p2p_durak.engine.presets import get_preset

HANDS = ["6♣ 10♣ 8♥ 9♥ 10♥ J♥", "8♣ 9♣ 9♠ 10♠ J♠ Q♠"]


def _two_defences() -> Table:
    t = Table("otboyny", HANDS, trump="6♦", first_attacker=0)
    t.setup()
    t.do("0 lead 6♣", "1 beat 8♣ on 6♣", "0 pass")  # the first отбой: discarded
    assert t.of(E.Discarded)
    t.do("1 lead 9♠", "0 take")  # a take is no отбой; seat 1 attacks again
    t.do("1 lead 9♣", "0 beat 10♣ on 9♣", "1 pass")  # the second отбой
    return t


def test_every_second_defence_goes_back_into_the_stock() -> None:
    """000_0a1bcdd496bc6662.txt: «Причем каждый второй отбой карты не откладываются в закрытую
    стопку, а перемешиваются с картами в колоде и снова принимают участие в игре.»"""
    t = _two_defences()
    assert t.state.phase == Phase.RESHUFFLE
    assert t.state.otboi == 2
    assert t.of(E.Discarded) == []
    discard = t.state.discard
    stock = len(t.state.stock)
    assert legal_actions(t.state, CHANCE) == tuple(A.shuffle(k) for k in range(64))
    t.state, events = apply(t.state, A.shuffle(5))
    rebounded = [e for e in events if isinstance(e, E.Rebounded)]
    assert rebounded == [E.Rebounded(t.cs("9♣ 10♣"), stock + 2)]
    assert t.state.discard == discard  # nothing more in the discard
    # the trump card stays at the bottom, the two cards are somewhere above it
    assert t.state.stock[-1] == t.c("6♦")
    assert set(t.cs("9♣ 10♣")) <= set(t.state.stock) | {
        c for s in range(2) for c in range(36) if (t.state.hands[s] >> c) & 1}
    assert t.state.phase == Phase.LEAD
    assert t.state.attacker == 0  # the defender leads next, as after any отбой


def test_the_shuffled_order_is_chance() -> None:
    """000_0a1bcdd496bc6662.txt: «перемешиваются с картами в колоде» — different outcomes give
    different orders; a partial view, and the network's deck order, know none of it."""
    t = _two_defences()
    orders = {apply(t.state, A.shuffle(k))[0].stock for k in range(8)}
    assert len(orders) > 1
    view = private_view(t.state, 0)
    after, _ = apply(view, A.shuffle(3))
    assert all(c == UNKNOWN for c in after.stock[:-1])
    assert after.stock[-1] == t.c("6♦")
    deck, _ = apply(t.state, A.shuffle(DECK_ORDER))
    assert all(c == UNKNOWN for c in deck.stock[:-1])
    t.refuse(A.shuffle(65))


def test_a_take_does_not_count() -> None:
    """000_0a1bcdd496bc6662.txt: «Если игрок, который отбивается, не отобьет все выложенные
    карты, то он забирает все эти карты себе.» — only отбои count."""
    t = Table("otboyny", HANDS, trump="6♦", first_attacker=0)
    t.setup()
    t.do("0 lead 6♣", "1 take")
    assert t.state.otboi == 0


def test_an_empty_stock_is_made_anew() -> None:
    """000_0a1bcdd496bc6662.txt: «перемешиваются с картами в колоде и снова принимают участие в
    игре» — with no stock left the returned cards form a new one (the catalogue's reading);
    here 24 cards dealt to four leave none from the start (SP2)."""
    hands = ["9♣ 10♥ J♥ Q♥ K♥ A♥", "10♣ 9♠ 10♠ J♠ Q♠ K♠", "A♠ J♣ Q♣ K♣ 9♦ 10♦",
             "A♣ J♦ Q♦ K♦ A♦ 9♥"]
    t = Table("otboyny", hands, trump="A♥", first_attacker=0, deck_size=24)
    t.setup()
    assert t.state.stock == ()
    t.do("0 lead 9♣", "1 beat 10♣ on 9♣", "0 pass", "2 pass", "3 pass")
    t.do("1 lead 9♠", "2 beat A♠ on 9♠", "1 pass", "3 pass", "0 pass")
    assert t.state.phase == Phase.RESHUFFLE
    t.state, events = apply(t.state, A.shuffle(0))
    assert [e for e in events if isinstance(e, E.Rebounded)] == [
        E.Rebounded(t.cs("9♠ A♠"), 2)]
    # the new stock is drawn at once: seat 1 (who led, and beat in the bout before) draws
    # first and takes both
    assert [(e.seat, e.n) for e in events if isinstance(e, E.Drew)] == [(1, 2)]
    assert t.state.stock == ()
    assert (t.state.hand_size(1), t.state.hand_size(2)) == (6, 5)


def test_random_games_reshuffle_and_still_end() -> None:
    """000_0a1bcdd496bc6662.txt: «снова принимают участие в игре» — the catalogue warns that
    the game need not end in theory; random games here all end, most after reshuffles."""
    rules = get_preset("otboyny").rules
    reshuffles = 0
    for n, seed in ((2, 1), (3, 2), (4, 3), (2, 4), (3, 5)):
        game = make_game(rules, n, 0)
        order = list(range(game.n_cards))
        random.Random(seed).shuffle(order)
        state = new_game(game, order)
        rng = random.Random(seed)
        steps = 0
        while not is_over(state):
            steps += 1
            assert steps < 5000, "a random game did not end"
            seat = rng.choice(sorted(to_act(state)))
            action = chance_outcome(state) if seat == CHANCE else None
            if action is None:
                action = rng.choice(legal_actions(state, seat))
            reshuffles += action.kind == A.SHUFFLE
            state, _ = apply(state, action)
    assert reshuffles >= 5
