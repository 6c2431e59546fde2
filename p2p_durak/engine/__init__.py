"""The pure rules engine: immutable states, legal actions, apply, views and hashes.

No I/O, no clock, no randomness: chance (the deck order, reveals, lots) is an input.

The hot modules may run compiled by mypyc, or as the Python sources here, with the same
behaviour; `COMPILED` says which (see `_compiled` and docs/decisions/0007-engine-speed.md).
"""

from p2p_durak.engine._compiled import COMPILED  # first: it picks the modules below
from p2p_durak.engine.actions import CHANCE, Action, Kind, decode_action, encode_action
from p2p_durak.engine.cards import CardFace, DeckSpec, Suit, cards_of, mask_of
from p2p_durak.engine.core import (
    chance_outcome,
    is_over,
    legal_actions,
    make_game,
    new_game,
    next_game,
    sequencer,
    to_act,
)
from p2p_durak.engine.entry import apply, step
from p2p_durak.engine.errors import IllegalAction, Reason
from p2p_durak.engine.playout import random_playout
from p2p_durak.engine.rules import RuleError, RuleSet, validate
from p2p_durak.engine.state import UNKNOWN, Game, Phase, Result, State
from p2p_durak.engine.verdicts import forfeit
from p2p_durak.engine.views import learn, private_view, public_view, state_hash

__all__ = [
    "CHANCE", "COMPILED", "UNKNOWN", "Action", "CardFace", "DeckSpec", "Game", "IllegalAction",
    "Kind", "Phase", "Reason", "Result", "RuleError", "RuleSet", "State", "Suit", "apply",
    "cards_of", "chance_outcome", "decode_action", "encode_action", "forfeit", "is_over", "learn",
    "legal_actions", "make_game", "mask_of", "new_game", "next_game", "private_view",
    "public_view", "random_playout", "sequencer", "state_hash", "step", "to_act", "validate",
]
