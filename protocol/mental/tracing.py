"""After the audit: open every shuffle output with the published keys, and find a false one.

Every token and copy is proven as it arrives, so the only way a slot can hold a point that is no
card, or a card twice, is a shuffle whose proof was wrongly accepted. With every key public, the
output of every shuffle in the journal can be opened; the first whose cards are not its input
cards re-ordered (a point that is no card, a card swapped for another) is the false one, and
its author is the cheater — whichever later shuffle or opening the damage showed up in.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from p2p_durak.protocol.mental import group as g
from p2p_durak.protocol.mental.elgamal import CardCodec
from p2p_durak.protocol.mental.errors import DeckError, InvalidProof
from p2p_durak.protocol.mental.messages import AuditKey, BlockShuffle, KeyReveal, Message, Shuffle
from p2p_durak.protocol.mental.ops import LeaveOp, Op, ShuffleOp


@dataclass(frozen=True, slots=True)
class OpenedShuffle:
    """One shuffle message of the journal, its output opened: `cards[i]` is what output i (the
    operation's slot `op.slots[i]`) holds, None for a point that is no card."""

    op: ShuffleOp
    message: Shuffle | BlockShuffle
    cards: tuple[int | None, ...]


def open_shuffles(journal: Sequence[Op | Message], n_cards: int,
                  secrets: dict[int, int]) -> Iterator[OpenedShuffle]:
    """Every shuffle output of the journal opened with the published per-game `secrets`. A
    seat that left before the audit took its key along, so the shuffles made while it still
    held a layer cannot be opened and are skipped."""
    codec = CardCodec(n_cards)
    holders = {m.seat for m in journal if isinstance(m, KeyReveal)}
    op: ShuffleOp | None = None
    for entry in journal:
        if isinstance(entry, ShuffleOp):
            op = entry
        elif isinstance(entry, LeaveOp):
            holders.discard(entry.seat)
        elif isinstance(entry, Shuffle | BlockShuffle) and holders <= set(secrets):
            assert op is not None
            x = sum(secrets[s] for s in holders) % g.ORDER
            cards = tuple(codec.decode(g.sub(ct.c2, g.mul(x, ct.c1))) for ct in entry.deck)
            yield OpenedShuffle(op, entry, cards)


def first_shuffler(journal: Sequence[Op | Message], op: ShuffleOp) -> int | None:
    """The seat of the first shuffle message after `op` in the journal."""
    begun = False
    for entry in journal:
        if entry is op:
            begun = True
        elif begun and isinstance(entry, Shuffle | BlockShuffle):
            return entry.seat
    return None


def published_secrets(journal: Sequence[Op | Message]) -> dict[int, int]:
    return {m.seat: m.secret for m in journal if isinstance(m, AuditKey)}


def first_false_shuffle(journal: Sequence[Op | Message], n_cards: int,
                        secrets: dict[int, int]) -> DeckError | None:
    """The first shuffle whose output is not its input cards re-ordered (within each block of
    a partitioned shuffle), as an error naming its author; None when every shuffle that can
    be opened is true."""
    first = next((e for e in journal if isinstance(e, ShuffleOp)), None)
    holding: dict[int, int | None] = {}  # slot -> its card after the shuffles so far
    for opened in open_shuffles(journal, n_cards, secrets):
        op, msg = opened.op, opened.message
        if op is first and msg.seat == first_shuffler(journal, op):
            # the game's first shuffle takes the public initial deck as laid out
            inputs: list[int | None] = list(op.initial or range(n_cards))
        else:  # (unknown: made while a seat that has left held a layer)
            inputs = [holding.get(slot) for slot in op.slots]
        at = 0
        for index, size in enumerate(op.blocks or (len(op.slots),)):
            given = inputs[at:at + size]
            made = opened.cards[at:at + size]
            where = f" (block {index})" if op.blocks else ""
            if None in made:
                slots = [op.slots[at + i] for i, card in enumerate(made) if card is None]
                return InvalidProof(msg.seat, msg.step, f"audit: its shuffle{where} put a "
                                    f"point that is no card into slot {slots[0]}")
            if None not in given and Counter(made) != Counter(given):
                return InvalidProof(msg.seat, msg.step, f"audit: its shuffle{where} swapped "
                                    "a card for another")
            at += size
        for slot, card in zip(op.slots, opened.cards, strict=True):
            holding[slot] = card
    return None
