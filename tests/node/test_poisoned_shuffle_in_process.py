"""Issue #22, hole 1 with real nodes (one trio process, memory streams, the autojump clock).

The deal's last shuffler sends a shuffle whose output for the first card of another party's
hand opens to a point that is no card, with a proof forged against 1b24ba3's fold weights. That
verifier is stood in on every node (today's refuses the shuffle, which
tests/protocol/table/test_poisoned_slot_tables.py checks): on 1b24ba3 the victim's node crashed
("AssertionError: seat … cannot open its own slot") and the others blamed it for its silence.
Now its node shows the card to all, the game ends with the audit, every node names the
cheater, nobody is blamed for silence, and `durak audit` of the saved transcript names him.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

import pytest
import trio
import trio.testing
from misbehaving_doubles import RunnerDoubleNode
from table_harness import run_table

from p2p_durak.engine.presets import get_preset
from p2p_durak.node.game import GameRunner
from p2p_durak.node.replay import audit_file
from p2p_durak.protocol import codec
from p2p_durak.protocol.mental import group as g
from p2p_durak.protocol.mental import state as deck_state
from p2p_durak.protocol.mental.deck import random_permutation
from p2p_durak.protocol.mental.messages import Shuffle
from p2p_durak.protocol.table import DECK_STEP, Seated, _deck_bytes, deck_message

# the forger of tests/protocol/mental (its package `mental` sits in tests/protocol)
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "protocol"))
from mental.shuffle_forgery import forge, old_verify_shuffle, old_verify_shuffles

N = 3


class PoisoningRunner(GameRunner):
    """Honest, except that as the deal's last shuffler it poisons the first card dealt to the
    next party (docs/protocol.md B.5: the deal gives slot k to seat (dealer + 1 + k) mod n)."""

    poisoned: int | None = None

    def _submit(self, payload: bytes, kind: str) -> Sequence[object]:
        table = self.log.state
        pending = table.deck.pending_op()
        raw = codec.decode(payload)
        if (self.poisoned is None and pending is not None and pending.op.step == "shuffle"
                and pending.order[-1] == self.party and isinstance(raw, tuple)
                and raw[0] == DECK_STEP and isinstance(deck_message(raw[1]), Shuffle)):
            seated = next(e for e in table.history if isinstance(e, Seated))
            victim = (self.party + 1) % N
            slot = (table.seat_of_party[victim] - seated.dealer - 1) % N
            msg = deck_message(raw[1])
            assert isinstance(msg, Shuffle)
            rng = table.deck.rng
            n = len(pending.current)
            forged = forge(table.deck.ctx(msg.step, msg.seat), table.deck._key(),
                           pending.current, random_permutation(rng, n),
                           [g.random_scalar(rng) for _ in range(n)], rng, poisoned=slot)
            bad = Shuffle(msg.game_id, msg.step, msg.seat, tuple(forged.outputs), forged.proof)
            payload = codec.encode((DECK_STEP, _deck_bytes(bad)))
            self.poisoned = slot
        return super()._submit(payload, kind)


class PoisoningNode(RunnerDoubleNode):
    runner_class = PoisoningRunner


async def test_a_poisoned_card_is_shown_by_its_node_and_every_node_names_the_shuffler(
        tmp_path: Path, autojump_clock: trio.testing.MockClock,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(deck_state, "verify_shuffle", old_verify_shuffle)
    monkeypatch.setattr(deck_state, "verify_shuffles", old_verify_shuffles)
    table = await run_table(tmp_path, n=N, seed=4,
                            node_classes=dict.fromkeys(range(N), PoisoningNode))
    runners = [table.runner(i) for i in range(N)]
    cheaters = [r for r in runners if isinstance(r, PoisoningRunner) and r.poisoned is not None]
    assert len(cheaters) == 1
    cheater = cheaters[0]
    slot = cheater.poisoned
    victim = next(r for r in runners if r.party == (cheater.party + 1) % N)
    for runner in runners:
        assert runner.finished.is_set()
        assert runner.diagnosis is None, runner.diagnosis  # nobody halted, nobody abandoned
        assert not [p for p in runner.reports if p.kind == "abandoned"], runner.problems
        state = runner.log.state
        assert state.audit is not None
        seat = state.seat_of_party[cheater.party]
        assert [s for s, _ in state.audit.cheaters] == [seat], state.audit
        assert f"point that is no card into slot {slot}" in state.audit.cheaters[0][1]
    assert [(f.slot, f.shuffler, f.public) for f in victim.log.state.deck_faults] == [
        (slot, cheater.party, False), (slot, cheater.party, True)]
    saved = {(r.journal.folder / "transcript.durak").read_bytes() for r in runners}
    assert len(saved) == 1
    verdict = audit_file(saved.pop(), get_preset("app_podkidnoy").rules)
    assert not verdict.ok
    assert f"CHEAT: game 1, seat {victim.log.state.seat_of_party[cheater.party]}: " \
        in verdict.text, verdict.text
