"""Every deck message survives msgpack (the codec the node uses) byte for byte."""

from __future__ import annotations

import msgpack

from p2p_durak.protocol.mental.messages import message_from_wire
from p2p_durak.protocol.mental.ops import AuditOp, ClassOp, CoinOp, RevealOp, ShowOp

from .test_flow import setup_table


def test_every_message_kind_round_trips_through_msgpack() -> None:
    table = setup_table(3, 24)
    table.run(CoinOp("coin"))
    table.deal("deal", {0: [0, 1], 1: [2]})
    table.run(ShowOp("pass", ((2, (2,)),)))
    card = table.parties[0].seen[0]
    table.run(ClassOp("suit", 0, 0, tuple(c for c in range(24) if c % 4 == card % 4)))
    table.run(RevealOp("trump", (5,)))
    table.run(AuditOp("audit"))
    kinds = set()
    for wire in table.wire:
        packed = msgpack.packb(wire, use_bin_type=True)
        again = msgpack.unpackb(packed, raw=False)
        assert message_from_wire(again) == message_from_wire(wire)
        assert msgpack.packb(message_from_wire(again).to_wire(), use_bin_type=True) == packed
        kinds.add(wire[0])
    assert kinds == {
        "key-commit",
        "key-reveal",
        "coin-commit",
        "coin-reveal",
        "shuffle",
        "rerandomize",
        "token-commit",
        "tokens",
        "class-proof",
        "audit-key",
    }
