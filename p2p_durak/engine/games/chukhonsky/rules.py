"""Дурак чухонский's table options: the catalogue's recommended resolutions as defaults.

Source: 000_0a1bcdd496bc6662.txt, «Дурак чухонский» (lines 488–496); catalogue:
shared/rules/variants-other-games.md, `chukhonsky`. Every option is a `Literal` or a number,
so a misspelt value is a type error, and `validate` refuses a value the engine cannot play.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, fields
from typing import Literal, get_args

from p2p_durak.engine.canonical import encode
from p2p_durak.engine.rules import RuleError

DeckSize = Literal[36, 52]
ClimbRule = Literal["strict_successor", "any_higher_same_suit"]
DealRemainder = Literal["round_robin", "out_of_play"]
FirstNextGame = Literal["pod_durak", "iz_pod_durak"]
CycleResult = Literal["most_cards_loses", "draw"]

PRESET_ID = "chukhonsky"
ENGINE_ID = "suit_ladder"  # the catalogue's `game_engine` value


@dataclass(frozen=True)
class ChukhonskyRules:
    # «Количество карт в колоде: 36 или 52»
    deck_size: DeckSize = 36
    # «положить на нее карту той же масти, но старшего достоинства, например, на восьмерку -
    # девятку … следующую по старшинству карту»: exactly the next rank (the alternative: any
    # higher card of the suit)
    climb_rule: ClimbRule = "strict_successor"
    # «должен положить»: a player who holds a card that climbs must play it; off, he may take
    # instead
    play_compulsory: bool = True
    # «все карты сдаются поровну»: round-robin, some get one card more (the alternative: the
    # remainder lies face down out of play)
    deal_remainder: DealRemainder = "round_robin"
    # «под дурака … из-под дурака … выбирается игроками перед игрой»
    first_player_next_game: FirstNextGame = "pod_durak"
    # not in the source: once no card can go on another any more (no ace is left, every
    # card's climbers are in the discard), each lead is taken by the next player and the
    # rest is forced; with an odd number of players the cards can go round for ever. The
    # engine plays the forced rest on the counts; when it comes round, the player holding
    # the most cards is the durak (several with the most: a draw), or it is a draw.
    cycle_result: CycleResult = "most_cards_loses"
    # not in the source: a safety net for play that could progress but never does (lone cards
    # taken back again and again by choice): after this many takes of a lone card in a row
    # the game ends as `cycle_result` says. Random play's longest run in 400 games was 226.
    stall_limit: int = 1000
    min_players: int = 2
    max_players: int = 6

    def canonical(self) -> bytes:
        return encode([ENGINE_ID] + [[f.name, getattr(self, f.name)] for f in fields(self)])

    def rules_hash(self) -> bytes:
        return hashlib.sha256(self.canonical()).digest()


_CHOICES: dict[str, tuple[object, ...]] = {
    "deck_size": get_args(DeckSize),
    "climb_rule": get_args(ClimbRule),
    "deal_remainder": get_args(DealRemainder),
    "first_player_next_game": get_args(FirstNextGame),
    "play_compulsory": (True, False),
    "cycle_result": get_args(CycleResult),
}


def validate(rules: ChukhonskyRules, n_players: int | None = None) -> None:
    """Refuse options (and a player count) the engine cannot play, saying why in English and
    Russian."""
    for name, allowed in _CHOICES.items():
        value = getattr(rules, name)
        if value not in allowed or type(value) is not type(allowed[0]):
            raise RuleError(name, f"{value!r} is not one of {', '.join(map(repr, allowed))}",
                            f"{value!r} — не из {', '.join(map(repr, allowed))}")
    if type(rules.stall_limit) is not int or rules.stall_limit < 3:
        raise RuleError("stall_limit", "the stall limit is a whole number of at least 3",
                        "предел ходов без сброса — целое число, не меньше 3")
    if not 2 <= rules.min_players <= rules.max_players <= 6:
        raise RuleError("players", "Дурак чухонский is for 2 to 6 players",
                        "в чухонского дурака играют от 2 до 6 игроков")
    if n_players is not None and not rules.min_players <= n_players <= rules.max_players:
        raise RuleError("players", f"{n_players} players: this table takes "
                        f"{rules.min_players} to {rules.max_players}",
                        f"игроков: {n_players}, а за этим столом от {rules.min_players} "
                        f"до {rules.max_players}")
