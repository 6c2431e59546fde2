"""One dishonest node among honest ones, in-process over a MemoryNetwork (autojump clock).

For every kind of misbehaviour: each honest node names the culprit (its party and identity
fingerprint, and what it did), no honest node crashes, the honest nodes never commit different
entries, and where the fault is not fatal the game still finishes. Where the protocol halts by
design (two entries for one position, a wrong state hash), every honest node halts with the
same diagnosis naming the culprit.
"""

from __future__ import annotations

import random
from pathlib import Path

import trio
import trio.testing
from misbehaving_doubles import (
    EquivocatingNode,
    EquivocatingRunner,
    FalseProofNode,
    FalseProofRunner,
    ForgingPlayer,
    GarbageNode,
    IllegalMovePlayer,
    LyingAckNode,
    LyingAckRunner,
    ReplayingPlayer,
    SignallingPlayer,
)
from table_harness import (
    Table,
    assert_blames_only,
    assert_finished_cleanly,
    assert_same_committed_log,
    blamed,
    identity_of,
    position,
    run_table,
    until,
)

from p2p_durak.node.game import GameRunner
from p2p_durak.node.link import FRAME_SECONDS

CHEAT = 2
HONEST = (0, 1)


def honest(table: Table) -> list[GameRunner]:
    return [table.runner(i) for i in HONEST]


def assert_named(table: Table, *kinds: str) -> None:
    """Every honest node named the cheat, for each kind of fault, and nobody else."""
    fingerprint = table.fingerprint(CHEAT)
    party = table.party(CHEAT)
    for runner in honest(table):
        for kind in kinds:
            assert blamed(runner, party, kind), (kind, runner.problems)
        assert_blames_only(runner, party, fingerprint)


async def test_garbage_on_the_channel_cuts_the_link_and_the_game_goes_on(
        tmp_path: Path, autojump_clock: trio.testing.MockClock) -> None:
    rng = random.Random(5)

    async def spray(table: Table) -> None:
        node = table.nodes[CHEAT]
        assert isinstance(node, GarbageNode)
        for at in (15, 35):
            await until(lambda at=at: position(node) >= at)
            await node.spray(rng)

    table = await run_table(tmp_path, seed=3, node_classes={CHEAT: GarbageNode}, during=spray)
    node = table.nodes[CHEAT]
    assert isinstance(node, GarbageNode)
    assert node.sprayed >= 2
    assert_named(table, "channel")
    for runner in honest(table):  # garbage frames are no proof of who put them there (§15)
        assert any("by someone between us" in p for p in runner.problems), runner.problems
    assert_finished_cleanly([table.runner(i) for i in range(3)])


async def test_forged_and_foreign_envelopes_are_refused_and_named(
        tmp_path: Path, autojump_clock: trio.testing.MockClock) -> None:
    async with trio.open_nursery() as helpers:
        cheat = ForgingPlayer(helpers, seed=7, victim=identity_of("p1"))
        table = await run_table(tmp_path, seed=4, players={CHEAT: cheat})
        helpers.cancel_scope.cancel()
    assert cheat.cheated == ["foreign", "bad signature", "in another's name"]
    assert_named(table, "dropped", "channel")
    for runner in honest(table):
        text = "\n".join(runner.problems)
        assert (f"seat {table.party(CHEAT)} signed an intent naming seat {table.party(1)}"
                in text)
        assert "not a player" in text  # the stranger's envelope
        assert "does not verify" in text
        assert identity_of("p1").fingerprint in text  # whose name the forgery used
    assert_finished_cleanly([table.runner(i) for i in range(3)])


async def test_replayed_entries_acks_and_intents_are_named_and_harmless(
        tmp_path: Path, autojump_clock: trio.testing.MockClock) -> None:
    async with trio.open_nursery() as helpers:
        cheat = ReplayingPlayer(helpers, seed=8)
        table = await run_table(tmp_path, seed=5, players={CHEAT: cheat})
        helpers.cancel_scope.cancel()
    assert cheat.cheated
    assert_named(table, "replay", "dropped")
    for runner in honest(table):
        text = "\n".join(runner.problems)
        assert "old entry" in text
        assert "old ack" in text
        assert "its counter was already used" in text
    assert_finished_cleanly([table.runner(i) for i in range(3)])


async def test_illegal_moves_are_refused_by_everyone_and_named(
        tmp_path: Path, autojump_clock: trio.testing.MockClock) -> None:
    # Why each cheat is refused. A move names slots: one of another hand is refused at once; a
    # card that does not beat is known once its slot is opened after the move's commit, and the
    # move is void then.
    reasons = {"not in hand": ("hand",),
               "out of turn": ("it is not this seat's turn to do that",),
               "does not beat": ("that card does not beat the attack card",)}
    kinds = tuple(reasons)
    async with trio.open_nursery() as helpers:
        cheat = IllegalMovePlayer(helpers, seed=9, kinds=kinds)
        table = await run_table(tmp_path, seed=6, players={CHEAT: cheat})
        helpers.cancel_scope.cancel()
    assert sorted(cheat.cheated) == sorted(kinds)  # each tried once, at its first chance
    assert_named(table, "refused")
    for runner in honest(table):
        refusals = [str(p) for p in blamed(runner, table.party(CHEAT), "refused")]
        for kind, why in reasons.items():
            assert any(reason in refusal for refusal in refusals for reason in why), \
                (kind, refusals)
    assert_finished_cleanly([table.runner(i) for i in range(3)])


async def test_false_deck_proofs_are_skipped_by_everyone_and_named(
        tmp_path: Path, autojump_clock: trio.testing.MockClock) -> None:
    table = await run_table(tmp_path, seed=7, node_classes={CHEAT: FalseProofNode})
    cheat = table.runner(CHEAT)
    assert isinstance(cheat, FalseProofRunner)
    assert cheat.tampered == ["shuffle", "tokens"]
    assert_named(table, "refused")
    for runner in honest(table):
        refusals = "\n".join(str(p) for p in blamed(runner, table.party(CHEAT), "refused"))
        assert "skipped in entry" in refusals  # ordered, then refused by every node alike
        assert "shuffle" in refusals
        assert "reveal-token proof does not verify" in refusals
    assert_finished_cleanly([table.runner(i) for i in range(3)])


async def test_an_equivocating_sequencer_halts_every_honest_node_with_one_diagnosis(
        tmp_path: Path, autojump_clock: trio.testing.MockClock) -> None:
    table = await run_table(tmp_path, seed=8, node_classes={CHEAT: EquivocatingNode},
                            wait_for=HONEST)
    cheat = table.runner(CHEAT)
    assert isinstance(cheat, EquivocatingRunner)
    position = cheat.equivocated_at
    assert position is not None
    diagnoses = {runner.diagnosis for runner in honest(table)}
    assert len(diagnoses) == 1
    diagnosis = diagnoses.pop()
    assert diagnosis is not None
    assert diagnosis.startswith(f"EQUIVOCATION at position {position} by party {cheat.party} "
                                f"({table.fingerprint(CHEAT)})")
    assert_named(table, "halted")
    assert_same_committed_log(honest(table))


async def test_an_ack_with_a_wrong_state_hash_halts_every_honest_node_with_one_diagnosis(
        tmp_path: Path, autojump_clock: trio.testing.MockClock) -> None:
    table = await run_table(tmp_path, seed=9, node_classes={CHEAT: LyingAckNode},
                            wait_for=HONEST)
    cheat = table.runner(CHEAT)
    assert isinstance(cheat, LyingAckRunner)
    position = cheat.lied_at
    assert position is not None
    diagnoses = {runner.diagnosis for runner in honest(table)}
    assert len(diagnoses) == 1
    diagnosis = diagnoses.pop()
    assert diagnosis is not None
    assert diagnosis.startswith(f"DIVERGENCE at position {position} by party {cheat.party} "
                                f"({table.fingerprint(CHEAT)})")
    assert_named(table, "halted")
    assert_same_committed_log(honest(table))
    for runner in honest(table):
        assert runner.log.seq == position - 1  # the lied-about entry never committed


async def test_a_frame_that_never_completes_cuts_the_link_and_the_game_goes_on(
        tmp_path: Path, autojump_clock: trio.testing.MockClock) -> None:
    # A frame header of 1 MiB and a few bytes, then the node's own honest frames: they would be
    # read as that frame's body, and the party heard as silent until the grace period ended the
    # game for everyone. A frame begun must be complete within FRAME_SECONDS.
    cheat = SignallingPlayer(seed=CHEAT * 100 + 3, at=15)

    async def stall(table: Table) -> None:
        node = table.nodes[CHEAT]
        assert isinstance(node, GarbageNode)
        await cheat.reached.wait()
        await node.inject((1 << 20).to_bytes(4, "big") + bytes(10))

    table = await run_table(tmp_path, seed=3, node_classes={CHEAT: GarbageNode},
                            players={CHEAT: cheat}, during=stall)
    node = table.nodes[CHEAT]
    assert isinstance(node, GarbageNode)
    assert node.sprayed >= 1
    assert_named(table, "channel")
    for runner in honest(table):
        text = "\n".join(runner.problems)
        assert f"stayed incomplete for {FRAME_SECONDS:g} s" in text
    assert_finished_cleanly([table.runner(i) for i in range(3)])
