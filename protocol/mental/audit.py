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

from p2p_durak.protocol.mental import group as g
from p2p_durak.protocol.mental.elgamal import CardCodec
from p2p_durak.protocol.mental.errors import DeckError
from p2p_durak.protocol.mental.messages import AuditKey, BlockShuffle, KeyReveal, Message, Shuffle
from p2p_durak.protocol.mental.ops import LeaveOp, Op, ShuffleOp
from p2p_durak.protocol.mental.state import DeckState


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
    secrets = {m.seat: m.secret for m in state.journal if isinstance(m, AuditKey)}
    keys = {m.seat: m.public_key for m in state.journal if isinstance(m, KeyReveal)}
    if not secrets:
        raise DeckError(None, "audit", "the journal has no published keys")
    codec = CardCodec(state.n_cards)
    holders = set(keys)
    current_slots: tuple[int, ...] = ()
    paths: list[ShufflePath] = []
    for entry in state.journal:
        if isinstance(entry, ShuffleOp):
            current_slots = entry.slots
        elif isinstance(entry, LeaveOp):
            holders.discard(entry.seat)
        elif isinstance(entry, Shuffle | BlockShuffle) and holders <= set(secrets):
            x = sum(secrets[s] for s in holders) % g.ORDER
            cards = []
            for ct in entry.deck:
                card = codec.decode(g.sub(ct.c2, g.mul(x, ct.c1)))
                if card is None:
                    raise DeckError(entry.seat, entry.step, "audit: a shuffled card is no card")
                cards.append(card)
            paths.append(ShufflePath(entry.step, entry.seat, current_slots, tuple(cards)))
    return paths
