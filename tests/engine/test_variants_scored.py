"""The scored compendium variants: «Дурак очковый» (ochkovy: the fewest beaten cards lose) and
«Дурак фигурный» (figurny: the most figures beaten win, everybody else loses).
Catalogue: shared/rules/variants-attack-defend.md, sections `ochkovy` and `figurny`."""

from __future__ import annotations

from typing import Any

from engine_support import Table

from p2p_durak.engine import events as E

_P0 = "6♦ 7♠ 10♦ Q♣ 9♥ K♥"
_P1 = "7♦ 8♠ J♦ A♣ 8♥ 10♥"


def _started(preset: str, **knobs: Any) -> Table:
    t = Table(preset, [_P0, _P1], trump="6♥", first_attacker=0, **knobs)
    t.setup()
    return t


def _endgame(preset: str, hands: tuple[str, str], tally: tuple[int, int],
             **knobs: Any) -> Table:
    """Two players, the stock gone, seat 0 to lead against seat 1 with these counts so far."""
    t = _started(preset, **knobs)
    masks = tuple(sum(1 << c for c in t.cs(h)) for h in hands)
    t.state = t.state._replace(hands=masks, stock=(), attacker=0, defender=1, actors=(0,),
                               tally=tally)
    return t


def test_ochkovy_counts_the_cards_of_every_defended_bout() -> None:
    """000_0a1bcdd496bc6662.txt: «Можно играть на очки. За каждую отбитую карту начислять по
    одному очку.»"""
    t = _started("ochkovy")
    assert t.state.tally == (0, 0)
    t.do("0 lead 6♦", "1 beat 7♦ on 6♦", "0 throw 7♠", "1 beat 8♠ on 7♠", "0 pass")
    assert t.state.tally == (0, 2)
    t.do("1 lead 8♥", "0 beat 9♥ on 8♥", "1 pass")
    assert t.state.tally == (1, 2)


def test_ochkovy_taken_bouts_score_nothing() -> None:
    """Catalogue resolution: «свое количество отбитых карт» counts the cards of bouts that went
    to the discard, not the ones covered before a take."""
    t = _started("ochkovy")
    t.do("0 lead 6♦", "1 beat 7♦ on 6♦", "0 throw 7♠", "1 take")
    assert t.state.tally == (0, 0)


def test_ochkovy_the_fewest_beaten_cards_lose_not_the_last_holder() -> None:
    """000_0a1bcdd496bc6662.txt: «Таким образом, игра идет до тех пор, пока не останется один
    игрок с картами на руках. После этого игроки подсчитывают каждый свое количество отбитых
    карт и тот игрок, который отобьет их меньшее количество, будет считается проигравшим и
    зовется "дураком".»"""
    t = _endgame("ochkovy", ("7♥", "9♥ 6♣"), (1, 3))
    t.do("0 lead 7♥", "1 beat 9♥ on 7♥")
    result = t.state.result
    assert result is not None
    # seat 1 still holds 6♣, but seat 0 beat fewer cards
    assert result.durak == (0,)
    assert result.scores == (1, 4)
    assert t.of(E.GameOver)[0].scores == (1, 4)


def test_ochkovy_a_tie_goes_to_the_last_out() -> None:
    """Catalogue resolution (the text is silent on ties): among the tied, the player who went
    out latest — the one left holding cards counts as latest — is the durak; `shared` makes
    them all duraks."""
    t = _endgame("ochkovy", ("7♥", "9♥ 6♣"), (2, 1))
    t.do("0 lead 7♥", "1 beat 9♥ on 7♥")
    assert t.state.result is not None
    assert t.state.result.durak == (1,)
    shared = _endgame("ochkovy", ("7♥", "9♥ 6♣"), (2, 1), counter_tie_break="shared")
    shared.do("0 lead 7♥", "1 beat 9♥ on 7♥")
    assert shared.state.result is not None
    assert shared.state.result.durak == (1, 0)  # the latest out first: he deals next


def test_figurny_counts_the_opponents_figures_beaten() -> None:
    """000_0a1bcdd496bc6662.txt: «Фигурной картой называются любые карты старше по значению
    девятки это 10, валет, дама, король, туз.» and «Если игрок отбил какую-либо фигурную карту
    соперника, то он записывает себе число отбитых фигурных карт.»"""
    t = _started("figurny")
    # 10♦ is a figure; the jack he beats it with is his own and does not count
    t.do("0 lead 10♦", "1 beat J♦ on 10♦", "0 pass")
    assert t.state.tally == (0, 1)
    t.do("1 lead A♣", "0 take")  # a taken figure counts for nobody
    assert t.state.tally == (0, 1)


def test_figurny_the_most_figures_win_and_everybody_else_loses() -> None:
    """000_0a1bcdd496bc6662.txt: «Тот игрок, который отбил больше всех фигурных карт,
    становится победителем, все остальные игроки считаются проигравшими.»"""
    t = _endgame("figurny", ("7♥", "9♥ 6♣"), (3, 1))
    t.do("0 lead 7♥", "1 beat 9♥ on 7♥")
    result = t.state.result
    assert result is not None
    assert result.winners == (0,)
    assert result.durak == (1,)
    assert not result.draw


def test_figurny_a_tie_for_the_most_is_a_shared_win() -> None:
    """Catalogue resolution: a tie for the most figures is a shared win; with two players
    nobody loses."""
    t = _endgame("figurny", ("K♥", "A♥ 6♣"), (1, 1))
    t.do("0 lead K♥", "1 beat A♥ on K♥")
    result = t.state.result
    assert result is not None
    assert result.scores == (1, 2)
    assert result.winners == (1,)
    tie = _endgame("figurny", ("7♥", "9♥ 6♣"), (2, 2))
    tie.do("0 lead 7♥", "1 beat 9♥ on 7♥")
    assert tie.state.result is not None
    assert tie.state.result.winners == (0, 1)
    assert tie.state.result.draw


def test_pogonny_two_cards_of_a_rank_at_once_score_a_pogony() -> None:
    """000_0a1bcdd496bc6662.txt: «Если один игрок подкинет за раз две карты одного значения, то
    это будет считаться "погонами". Чем большим количеством "погон" игрок зайдет к другому
    игроку или подкинет, тем больше у него шансов, что он не станет "дураком".»"""
    t = Table("pogonny", ["6♦ 6♠ 7♠ 7♣ 9♥ K♥", "7♦ 8♠ 8♣ A♣ 8♥ 10♥"], trump="6♥",
              first_attacker=0)
    t.setup()
    assert t.state.tally == (0, 0)
    assert "0 lead 6♠ 6♦" in t.legal(0)
    t.do("0 lead 6♠ 6♦")
    assert t.state.tally == (1, 0)
    t.do("1 beat 7♦ on 6♦", "1 beat 8♠ on 6♠")
    # the sevens on the table: both at once is another pair
    assert "0 throw 7♠ 7♣" in t.legal(0)
    t.do("0 throw 7♠ 7♣")
    assert [e.card for e in t.of(E.ThrewIn)] == list(t.cs("7♠ 7♣"))
    assert t.state.tally == (2, 0)
    assert t.table_text()[2:] == [("7♠", None), ("7♣", None)]


def test_pogonny_a_throw_in_of_several_respects_the_limits() -> None:
    """Catalogue resolution (SP8): a pair thrown in needs two free places and a defender who
    holds enough cards."""
    t = Table("pogonny", ["6♦ 6♠ 7♠ 7♣ 9♥ K♥", "7♦ 8♠ 8♣ A♣ 8♥ 10♥"], trump="6♥",
              first_attacker=0, first_bout_attack_limit=3)
    t.setup()
    t.do("0 lead 6♠ 6♦", "1 beat 7♦ on 6♦", "1 beat 8♠ on 6♠")
    assert "0 throw 7♠ 7♣" not in t.legal(0)
    assert t.refuse("0 throw 7♠ 7♣").reason.name == "TOO_MANY_CARDS"
    assert "0 throw 7♠" in t.legal(0)


def test_pogonny_the_fewest_pogony_lose() -> None:
    """000_0a1bcdd496bc6662.txt: «После это игроки подсчитывают количество "погон" (парных
    карт, выложенных за раз), которое они выложили за игру. Тот игрок, у которого их будет
    меньше всего, считается проигравшим и зовется "дураком".»"""
    t = _endgame("pogonny", ("7♥", "9♥ 6♣"), (0, 2))
    t.do("0 lead 7♥", "1 beat 9♥ on 7♥")
    result = t.state.result
    assert result is not None
    assert result.durak == (0,)
    assert result.scores == (0, 2)


def test_ochkovy_every_beat_counts_the_cards_covered_before_a_take() -> None:
    """The catalogue's alternative reading of «свое количество отбитых карт»: «(b) every card
    he covered, including bouts he then took» (`counter_counts: every_beat`, a table option):
    the covered 6♦ scores, the uncovered 7♠ does not."""
    t = _started("ochkovy", counter_counts="every_beat")
    t.do("0 lead 6♦", "1 beat 7♦ on 6♦", "0 throw 7♠", "1 take")
    assert t.state.tally == (0, 1)
    t.do("0 lead 10♦", "1 beat J♦ on 10♦", "0 pass")  # a defended bout as before
    assert t.state.tally == (0, 2)


def test_figurny_count_on_take_counts_the_figures_covered_before_a_take() -> None:
    """The catalogue: «When a figure counts: only in bouts that end in the discard … or every
    figure covered even if the defender later takes» (`count_on_take: true`, a table option)."""
    for count_on_take, scored in ((False, (0, 0)), (True, (0, 1))):
        t = _endgame("figurny", ("10♦ 10♣ 6♣", "J♦ 7♣ 8♣"), (0, 0),
                     count_on_take=count_on_take)
        t.do("0 lead 10♦", "1 beat J♦ on 10♦", "0 throw 10♣", "1 take")
        assert t.state.tally == scored
