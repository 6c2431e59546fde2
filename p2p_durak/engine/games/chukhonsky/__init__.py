"""Дурак чухонский (`chukhonsky`): a suit ladder. The whole deck is dealt, there is no trump;
each player in turn lays the next card of the pile's suit, an ace clears the pile and its
player leads again, a player who cannot follow takes the top card and the rest is discarded.
The last player holding cards is the durak. Source: 000_0a1bcdd496bc6662.txt, «Дурак
чухонский»; catalogue: shared/rules/variants-other-games.md, `chukhonsky`."""

from p2p_durak.engine.games.chukhonsky.ladder import (
    apply,
    chance_outcome,
    holds,
    is_over,
    learn,
    legal_actions,
    make_game,
    new_game,
    next_game,
    sequencer,
    step,
    to_act,
)
from p2p_durak.engine.games.chukhonsky.rules import PRESET_ID, ChukhonskyRules, validate
from p2p_durak.engine.games.chukhonsky.state import (
    CHANCE,
    UNKNOWN,
    EndReason,
    Event,
    Game,
    Move,
    MoveKind,
    Phase,
    Result,
    State,
    deal,
    play,
    take,
)
from p2p_durak.engine.games.chukhonsky.views import private_view, public_view, state_hash

__all__ = [
    "CHANCE", "PRESET_ID", "UNKNOWN", "ChukhonskyRules", "EndReason", "Event", "Game", "Move",
    "MoveKind", "Phase", "Result", "State", "apply", "chance_outcome", "deal", "holds",
    "is_over", "learn", "legal_actions", "make_game", "new_game", "next_game", "play",
    "private_view", "public_view", "sequencer", "state_hash", "step", "take", "to_act",
    "validate",
]
