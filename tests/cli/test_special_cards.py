"""Jokers and the blank on screen (s_jokerom, s_dvumya_jokerami, pustyshka): the cards in the
hand and on the table, a special card turned as trump in the header, and the log lines of a
joker going back into the stock and of a pair of trump suits."""

from __future__ import annotations

from table_states import find_state, snapshot_of

from p2p_durak.cli.canvas import plain
from p2p_durak.cli.cardtext import CardText
from p2p_durak.cli.i18n import Look
from p2p_durak.cli.table_ui import TableUi
from p2p_durak.cli.table_view import render_table_screen
from p2p_durak.engine import Action, State, cards_of
from p2p_durak.engine import actions as A
from p2p_durak.engine import events as E
from p2p_durak.engine.cards import Kind
from p2p_durak.engine.state import BLACK_PAIR, LEAD, OVER, RED_PAIR
from p2p_durak.node.api import LogLine


def _screen(state: State, preset: str, look: Look, **snapshot: object) -> str:
    ui = TableUi()
    ui.update(snapshot_of(state, preset=preset, **snapshot))  # type: ignore[arg-type]
    return plain(render_table_screen(ui, look, 80, 24))


def _special(state: State) -> int:
    return next(c for c, f in enumerate(state.game.deck.faces) if f.kind is not Kind.NORMAL)


def test_a_joker_in_my_hand_is_shown_and_playable_as_a_lead() -> None:
    state = find_state(lambda s: s.phase == LEAD and s.attacker == 0
                       and bool(s.hands[0] >> _special(s) & 1), preset="s_jokerom", players=2)
    joker = _special(state)
    snap = snapshot_of(state, preset="s_jokerom")
    assert any(a.cards == (joker,) for a in snap.legal)
    for look, text in ((Look("en", False), "J*R"), (Look("ru", False), "Дж*R"),
                       (Look("en", True), "J*R"), (Look("ru", True), "Дж*R")):
        assert f"[{text:>3}]" in _screen(state, "s_jokerom", look)


def test_the_russian_ascii_screen_names_the_special_cards_in_russian() -> None:
    """Russian without suit symbols (a KOI8-R terminal, `--ascii --lang ru`) writes the ranks
    in Russian (`Дп`, `10ч`); the jokers and the blank too, not the English ASCII `J*R`, `BL`."""
    for preset, special in (("s_dvumya_jokerami", {"Дж*B", "Дж*R"}), ("pustyshka", {"Пуст"})):
        state = find_state(lambda s: s.phase == LEAD, preset=preset, players=2)
        cards = CardText(state.game, "ru", True)
        names = {cards(c) for c in range(state.game.n_cards)
                 if state.game.deck.faces[c].kind is not Kind.NORMAL}
        assert names == special


def test_a_joker_turned_as_trump_shows_its_pair_of_suits() -> None:
    state = find_state(lambda s: s.trump in (BLACK_PAIR, RED_PAIR) and s.phase == LEAD,
                       preset="s_dvumya_jokerami", players=2)
    pair = "♠♣" if state.trump == BLACK_PAIR else "♦♥"
    header = _screen(state, "s_dvumya_jokerami", Look("en", False)).split("\n")[0]
    assert "J*" in header
    assert pair in header
    cards = CardText(state.game, "en", False)
    log = (LogLine(1, E.TrumpRevealed(state.trump_card, state.trump)),)
    text = _screen(state, "s_dvumya_jokerami", Look("en", False), log=log)
    assert f"Trump: {cards(state.trump_card)} = {pair}" in text


def test_the_blank_turned_as_trump_says_there_is_no_trump() -> None:
    state = find_state(lambda s: s.trump_card >= 0 and s.trump_card == _special(s)
                       and s.phase == LEAD, preset="pustyshka", players=2, seeds=range(400))
    header = _screen(state, "pustyshka", Look("en", False)).split("\n")[0]
    assert "Blank" in header
    assert "none" in header.lower() or "no trump" in header.lower()


def test_the_log_says_a_joker_went_back_into_the_stock() -> None:
    state = find_state(lambda s: s.phase == LEAD, preset="s_jokerom", players=2)
    joker = _special(state)
    log = (LogLine(1, E.TrumpReinserted(joker, 12)),)
    assert "J*R: into the stock" in _screen(state, "s_jokerom", Look("en", False), log=log)
    assert "Дж*R: в колоду" in _screen(state, "s_jokerom", Look("ru", False), log=log)


def test_the_end_of_a_pairs_game_names_the_winner_first_out() -> None:
    """с пар: «Выигрывает тот игрок, который первым остался без карт, при условии, что карты в
    колоде закончились.» — the end panel names him beside the durak."""
    state = find_state(lambda s: s.phase == OVER and bool(s.result and s.result.durak),
                       preset="s_par", players=3)
    assert state.result is not None
    text = _screen(state, "s_par", Look("en", False))
    first = ("Tester (you)", "Anna", "Boris")[state.result.finish[0]]
    assert f"The winner (first out): {first}" in text
    plain_game = find_state(lambda s: s.phase == OVER, preset="s_jokerom", players=2)
    assert "The winner" not in _screen(plain_game, "s_jokerom", Look("en", False))


def _mark_and_play(ui: TableUi, cards: list[int]) -> Action | None:
    hand = ui.hand()
    for card in cards:
        ui.command("home")
        for _ in range(hand.index(card)):
            ui.command("right")
        ui.command("mark")
    return ui.command("play")


def test_a_treshka_lead_of_three_ranks_is_marked_and_played_by_keys() -> None:
    state = find_state(lambda s: s.phase == LEAD and s.attacker == 0 and
                       len({s.game.rank[c] for c in cards_of(s.hands[0])}) >= 3,
                       preset="treshka", players=2)
    ui = TableUi()
    ui.update(snapshot_of(state, preset="treshka"))
    assert "mark its cards with Space" in _screen(state, "treshka", Look("en", False))
    hand = ui.hand()
    chosen: list[int] = []
    for card in hand:
        if state.game.rank[card] not in {state.game.rank[c] for c in chosen}:
            chosen.append(card)
    action = _mark_and_play(ui, chosen[:3])
    assert action == Action(A.LEAD, 0, tuple(sorted(chosen[:3])))
    assert ui.snapshot is not None
    assert action in ui.snapshot.legal
    assert ui.command("card:0") == Action(A.LEAD, 0, (hand[0],))  # tried, the engine refuses


def test_a_pair_and_a_card_is_marked_and_played_by_keys() -> None:
    def pair_and_more(s: State) -> bool:
        ranks = [s.game.rank[c] for c in cards_of(s.hands[0])]
        return s.phase == LEAD and s.attacker == 0 and any(ranks.count(r) == 2 for r in ranks)

    state = find_state(pair_and_more, preset="s_par", players=2)
    ui = TableUi()
    ui.update(snapshot_of(state, preset="s_par"))
    hand = ui.hand()
    rank = state.game.rank
    pair = next([a, b] for a in hand for b in hand if a < b and rank[a] == rank[b])
    odd = next(c for c in hand if rank[c] != rank[pair[0]])
    action = _mark_and_play(ui, [*pair, odd])
    assert action == Action(A.LEAD, 0, tuple(sorted([*pair, odd])))
    assert ui.snapshot is not None
    assert action in ui.snapshot.legal
