"""Who was the durak how often: the history's games added up (no I/O; see history_store.py).

Players are told apart by `PlayerRecord.key` (a networked player's fingerprint, a practice
seat's name), and shown by the name they had in their latest game. Draws count as games with
no durak. с болваном's dummy hand is nobody's: it is left out of every tally.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from p2p_durak.node.history import DUMMY, GameRecord, PlayerRecord

TONIGHT_HOURS = 12.0
"""The evening: the games finished this many hours before now (an evening may pass midnight)."""


@dataclass(frozen=True, slots=True)
class Tally:
    """One player's games and how often the durak in them."""

    key: str
    name: str
    games: int
    duraks: int
    bot: str = ""
    me: bool = False


@dataclass(frozen=True, slots=True)
class Versus:
    """This installation's player against one opponent, over the games they both played."""

    opponent: Tally  # games together; `duraks`: how often the opponent was the durak in them
    my_duraks: int  # how often this player was the durak in them


@dataclass(frozen=True, slots=True)
class VariantTally:
    variant: str
    games: int
    players: tuple[Tally, ...]  # as in `Scoreboard.players`, over this variant's games


@dataclass(frozen=True, slots=True)
class Scoreboard:
    games: int
    draws: int
    players: tuple[Tally, ...]  # the most often durak first
    versus: tuple[Versus, ...]  # most games together first
    variants: tuple[VariantTally, ...]  # most played first

    @property
    def me(self) -> Tally | None:
        return next((t for t in self.players if t.me), None)


def _seated(game: GameRecord) -> list[tuple[int, PlayerRecord]]:
    return [(i, p) for i, p in enumerate(game.players) if p.bot != DUMMY]


def tallies(games: Sequence[GameRecord]) -> tuple[Tally, ...]:
    """Per player, `games` given the latest first (as the store returns them)."""
    latest: dict[str, PlayerRecord] = {}
    played: dict[str, int] = {}
    duraks: dict[str, int] = {}
    for game in games:
        for seat, player in _seated(game):
            latest.setdefault(player.key, player)
            played[player.key] = played.get(player.key, 0) + 1
            duraks[player.key] = duraks.get(player.key, 0) + (seat in game.durak)
    out = [Tally(k, p.name, played[k], duraks[k], p.bot, p.me) for k, p in latest.items()]
    return tuple(sorted(out, key=lambda t: (-t.duraks, -t.games, t.name, t.key)))


def scoreboard(games: Iterable[GameRecord]) -> Scoreboard:
    listed = list(games)
    versus = []
    mine = [g for g in listed if g.me is not None]
    for opponent in tallies(mine):
        if opponent.me:
            continue
        together = [g for g in mine if any(p.key == opponent.key for p in g.players)]
        me_durak = sum(g.me in g.durak for g in together)
        versus.append(Versus(
            Tally(opponent.key, opponent.name, len(together),
                  sum(any(p.key == opponent.key and i in g.durak for i, p in _seated(g))
                      for g in together), opponent.bot),
            me_durak))
    versus.sort(key=lambda v: (-v.opponent.games, v.opponent.name, v.opponent.key))
    variants = []
    for variant in dict.fromkeys(g.variant for g in listed):
        of_it = [g for g in listed if g.variant == variant]
        variants.append(VariantTally(variant, len(of_it), tallies(of_it)))
    variants.sort(key=lambda v: (-v.games, v.variant))
    return Scoreboard(len(listed), sum(g.draw for g in listed), tallies(listed), tuple(versus),
                      tuple(variants))
