"""What the table's keys ask for: `TableUi.command`, on real engine situations."""

from __future__ import annotations

import pytest
from table_states import find_state, snapshot_of

from p2p_durak.cli.table_ui import TableUi
from p2p_durak.engine import UNKNOWN, Action, IllegalAction, State, apply, legal_actions
from p2p_durak.engine import actions as A
from p2p_durak.engine.state import BOUT, CLAIM, LEAD


def ui_for(state: State, preset: str = "app_podkidnoy") -> TableUi:
    ui = TableUi()
    ui.update(snapshot_of(state, preset=preset))
    return ui


def leading(state: State) -> bool:
    return state.phase == LEAD and state.attacker == 0


def defending_two(state: State) -> bool:
    return (state.phase == BOUT and state.defender == 0 and not state.taking
            and state.covers.count(UNKNOWN) >= 2)


def test_a_number_plays_that_card_alone_when_leading() -> None:
    ui = ui_for(find_state(leading))
    hand = ui.hand()
    assert ui.command("card:1") == Action(A.LEAD, 0, (hand[1],))
    assert ui.cursor == 1
    assert ui.command("card:25") is None
    assert ui.notice is not None
    assert "no card" in ui.notice.en


def test_space_marks_cards_and_enter_leads_them_together() -> None:
    def pair_to_lead(state: State) -> bool:
        if not leading(state):
            return False
        ranks = [state.game.rank[c] for c in range(state.game.n_cards)
                 if (state.hands[0] >> c) & 1]
        return any(ranks.count(r) >= 2 for r in ranks)

    ui = ui_for(find_state(pair_to_lead))
    hand = ui.hand()
    game = ui.state.game  # type: ignore[union-attr]
    i, j = next((i, j) for i in range(len(hand)) for j in range(i + 1, len(hand))
                if game.rank[hand[i]] == game.rank[hand[j]])
    for position in (i, j):
        ui.command("home")
        for _ in range(position):
            ui.command("right")
        ui.command("mark")
    assert ui.marked == {hand[i], hand[j]}
    action = ui.command("play")
    assert action == Action(A.LEAD, 0, tuple(sorted((hand[i], hand[j]))))
    assert action in ui.snapshot.legal  # type: ignore[union-attr]
    assert not ui.marked


def test_enter_plays_the_card_under_the_cursor_and_arrows_wrap() -> None:
    ui = ui_for(find_state(leading))
    hand = ui.hand()
    ui.command("left")
    assert ui.cursor == len(hand) - 1
    assert ui.command("play") == Action(A.LEAD, 0, (hand[-1],))
    ui.command("right")
    assert ui.cursor == 0


def test_the_defender_beats_the_chosen_attack_card() -> None:
    state = find_state(defending_two)
    ui = ui_for(state)
    open_cards = ui.open_targets()
    assert ui.target == open_cards[0]
    ui.command("target_next")
    assert ui.target == open_cards[1]
    ui.command("target_prev")
    assert ui.target == open_cards[0]
    ui.command("target:" + str(open_cards[1]))
    assert ui.target == open_cards[1]
    beats = [a for a in ui.snapshot.legal if a.kind == A.BEAT]  # type: ignore[union-attr]
    # a number plays a card on the chosen attack card when it beats that one
    for beat in beats:
        ui.target = beat.target
        position = ui.hand().index(beat.cards[0])
        assert ui.command(f"card:{position}") == beat
    # B beats the chosen attack card with the card under the cursor, legal or not
    ui.target = open_cards[1]
    ui.command("home")
    card = ui.hand()[0]
    assert ui.command("beat") == Action(A.BEAT, 0, (card,), open_cards[1])


def test_an_unplayable_card_is_still_tried_so_the_engine_can_say_why() -> None:
    def stuck_defender(state: State) -> bool:
        if not (state.phase == BOUT and state.defender == 0 and not state.taking
                and UNKNOWN in state.covers):
            return False
        beaters = state.game.beaters(state.trump)
        return any(not (state.hands[0] & beaters[a]) for a in state.table)

    state = find_state(stuck_defender)
    ui = ui_for(state)
    playable = ui.playable()
    hand = ui.hand()
    position = next(i for i, c in enumerate(hand) if c not in playable)
    action = ui.command(f"card:{position}")
    assert action is not None
    assert action.kind == A.BEAT
    assert action.cards == (hand[position],)
    assert action not in ui.snapshot.legal  # type: ignore[union-attr]
    with pytest.raises(IllegalAction):  # the engine's refusal is what the player sees
        apply(state, action)


def test_take_pass_and_the_first_move_check() -> None:
    ui = ui_for(find_state(defending_two))
    assert ui.command("take") == Action(A.TAKE, 0)
    assert ui.command("pass") == Action(A.PASS, 0)

    def claiming(state: State) -> bool:
        return state.phase == CLAIM and (state.game.dealer + 1 + len(state.claims)) % 3 == 0

    ui = ui_for(find_state(claiming))
    legal = ui.snapshot.legal  # type: ignore[union-attr]
    assert len(legal) == 1
    if legal[0].kind == A.CLAIM:
        assert ui.command("show") == legal[0]
        position = ui.hand().index(legal[0].cards[0])
        assert ui.command(f"card:{position}") == legal[0]
    else:
        assert ui.command("pass") == Action(A.NO_TRUMP, 0)


def test_transfer_uses_the_cursor_card_or_the_only_one_that_can() -> None:
    def can_transfer(state: State) -> bool:
        return state.phase == BOUT and state.defender == 0 and any(
            a.kind == A.TRANSFER for a in legal_actions(state, 0))

    state = find_state(can_transfer, preset="app_perevodnoy")
    ui = ui_for(state, "app_perevodnoy")
    transfers = [a for a in ui.snapshot.legal if a.kind == A.TRANSFER]  # type: ignore[union-attr]
    ui.cursor = ui.hand().index(transfers[0].cards[0])
    assert ui.command("transfer") == transfers[0]
    others = [i for i, c in enumerate(ui.hand()) if all(c not in a.cards for a in transfers)]
    if others and len(transfers) == 1:
        ui.cursor = others[0]
        assert ui.command("transfer") == transfers[0]


def test_the_cursor_follows_its_card_as_the_hand_changes() -> None:
    state = find_state(leading)
    ui = ui_for(state)
    ui.command("end")
    card = ui.hand()[-1]
    first = ui.hand()[0]
    lead = Action(A.LEAD, 0, (first,))
    after, _ = apply(state, lead)
    ui.update(snapshot_of(after))
    assert ui.hand()[ui.cursor] == card

