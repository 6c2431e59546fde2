"""Whole games over a perfect network: every peer commits the same log and the same states."""

from __future__ import annotations

import pytest

from p2p_durak import engine

from .netsim import Plan, Sim
from .race import check_bout_limits


@pytest.mark.parametrize("n", [2, 3, 6])
def test_whole_game_over_a_perfect_network(n: int) -> None:
    """Every player commits the same log and reaches the same end, and no bout ever goes past
    its limits in any player's committed state."""
    sim = Sim(n, Plan(seed=n))
    sim.commit_hooks.append(check_bout_limits)
    sim.run()
    sim.check_agreement()
    for peer in sim.peers:
        assert peer.halted is None
        assert engine.is_over(peer.log.state)
    assert sim.peers[0].log.seq > 20
