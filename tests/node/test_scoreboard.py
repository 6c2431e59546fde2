"""The scoreboard: who was the durak how often, this player against each opponent, per
variant; this installation's player is one person in practice and at networked tables."""

from __future__ import annotations

from p2p_durak.node.history import DUMMY, NETWORK, PRACTICE, GameRecord, PlayerRecord
from p2p_durak.node.scoreboard import Versus, scoreboard

ME_PRACTICE = PlayerRecord("Olga", me=True)
ME_NETWORK = PlayerRecord("Olga K", "OLGA-FING-ERPR-INT0", me=True)
MASHA = PlayerRecord("Masha", "MASH-AFIN-GERP-RINT")
MASHA_RENAMED = PlayerRecord("Маша", "MASH-AFIN-GERP-RINT")  # the same key, another name
ANNA_BOT = PlayerRecord("Anna", bot="easy")


def game(number: int, players: tuple[PlayerRecord, ...], durak: tuple[int, ...],
         variant: str = "app_podkidnoy", kind: str = PRACTICE) -> GameRecord:
    return GameRecord("t", number, kind, 1000.0 - number, "Kitchen", variant, False, players,
                      durak, not durak, (0,) * len(players))


GAMES = [  # the latest first, as the store returns them
    game(1, (ME_NETWORK, MASHA_RENAMED), (0,), kind=NETWORK),
    game(2, (ME_NETWORK, MASHA), (1,), "app_perevodnoy", NETWORK),
    game(3, (ME_PRACTICE, ANNA_BOT), (1,)),
    game(4, (ME_PRACTICE, ANNA_BOT, PlayerRecord("Dummy", bot=DUMMY)), ()),  # a draw
]


def test_the_durak_how_often_per_player() -> None:
    board = scoreboard(GAMES)
    assert (board.games, board.draws) == (4, 1)
    assert [(t.name, t.games, t.duraks) for t in board.players] == [
        ("Olga K", 4, 1), ("Anna", 2, 1), ("Маша", 2, 1)]
    assert board.me is not None
    assert board.me.name == "Olga K"  # practice and networked games: one person
    assert [t.bot for t in board.players] == ["", "easy", ""]


def test_this_player_against_each_opponent() -> None:
    board = scoreboard(GAMES)
    assert [(v.opponent.name, v.opponent.games, v.opponent.duraks, v.my_duraks)
            for v in board.versus] == [("Anna", 2, 1, 0), ("Маша", 2, 1, 1)]
    assert all(isinstance(v, Versus) for v in board.versus)


def test_per_variant() -> None:
    board = scoreboard(GAMES)
    assert [(v.variant, v.games) for v in board.variants] == [("app_podkidnoy", 3),
                                                              ("app_perevodnoy", 1)]
    podkidnoy = board.variants[0]
    assert [(t.name, t.games, t.duraks) for t in podkidnoy.players] == [
        ("Olga K", 3, 1), ("Anna", 2, 1), ("Маша", 1, 0)]


def test_the_dummy_is_nobody() -> None:
    board = scoreboard(GAMES)
    assert "Dummy" not in [t.name for t in board.players]


def test_no_games_no_tallies() -> None:
    board = scoreboard([])
    assert (board.games, board.players, board.versus, board.variants) == (0, (), (), ())
    assert board.me is None
