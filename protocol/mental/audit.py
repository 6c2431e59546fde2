"""End-of-game audit: replay a deck journal, re-verify every proof, and trace every card.

Any node (or a bystander with the log) can call :func:`replay` on the journal of operations
and messages: it rebuilds the public state from scratch through the same checks a party runs,
so one bad proof anywhere raises the same named :class:`DeckError`. When the journal ends with
an audit step (every seat published its per-game key), :func:`card_paths` also opens every
deck that every shuffler produced, so the whole path of every card can be re-checked: each
shuffle output is a permutation of its input, and each revealed card is what the slot held.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from p2p_durak.protocol.mental.errors import DeckError
from p2p_durak.protocol.mental.messages import Message
from p2p_durak.protocol.mental.ops import Op
from p2p_durak.protocol.mental.state import DeckState
from p2p_durak.protocol.mental.tracing import open_shuffles, published_secrets


def replay(
    game_id: bytes, n_seats: int, n_cards: int, journal: Sequence[Op | Message]
) -> DeckState:
    """Re-run a journal through a fresh observer; raises DeckError at the first bad entry."""
    state = DeckState(game_id, n_seats, n_cards)
    for entry in journal:
        if isinstance(entry, Op):
            state.begin(entry)
        else:
            state.receive(entry)
    return state


@dataclass(frozen=True, slots=True)
class ShufflePath:
    step: str
    seat: int
    slots: tuple[int, ...]
    cards: tuple[int, ...]  # plaintext of the shuffler's output, slot by slot


def card_paths(state: DeckState) -> list[ShufflePath]:
    """Open every shuffle output in the journal with the published keys.

    Needs an audit step in the journal; a seat that left before the audit took its key along,
    so shuffles made while it still held a layer cannot be opened and are skipped."""
    secrets = published_secrets(state.journal)
    if not secrets:
        raise DeckError(None, "audit", "the journal has no published keys")
    paths: list[ShufflePath] = []
    for opened in open_shuffles(state.journal, state.n_cards, secrets):
        entry = opened.message
        cards = [card for card in opened.cards if card is not None]
        if len(cards) != len(opened.cards):
            raise DeckError(entry.seat, entry.step, "audit: a shuffled card is no card")
        paths.append(ShufflePath(entry.step, entry.seat, opened.op.slots, tuple(cards)))
    return paths
