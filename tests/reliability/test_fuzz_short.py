"""CI's short run of every fuzz target (bench/fuzz_targets.py): its corpus in the repository,
its crash regressions and a few hundred seeded mutations, with memory bounded. The long,
coverage-guided runs (atheris) and what they found are in docs/reliability.md."""

from __future__ import annotations

import fuzz  # bench/fuzz.py
import fuzz_targets
import pytest

# inputs per target: the slow ones (an observer's proof checks, a transcript's audit, a fresh
# channel handshake after every refused record) get fewer, so that each takes seconds
INPUTS = {"deck_receive": 120, "transcript": 150, "records": 250, "game_journal": 400}


@pytest.mark.parametrize("name", sorted(fuzz_targets.TARGETS))
def test_target_survives_its_corpus_and_seeded_mutations(name: str) -> None:
    result = fuzz.quick(name, INPUTS.get(name, 1500), seed=0)
    assert result.inputs > INPUTS.get(name, 1500)
    assert result.peak_bytes < fuzz.MEMORY_LIMIT


def test_a_target_that_raises_an_undocumented_error_is_reported_with_its_input() -> None:
    def broken(data: bytes) -> None:
        if data.startswith(b"\x93"):
            raise KeyError("not a documented error")

    with pytest.raises(fuzz.TargetCrashed, match="93"):
        fuzz._run_one("broken", broken, b"\x93\x01")


def test_the_mutator_is_deterministic_and_bounded() -> None:
    import random

    pool = fuzz_targets.seeds("codec")
    first = [fuzz.mutate(random.Random(1), pool[0], pool) for _ in range(50)]
    again = [fuzz.mutate(random.Random(1), pool[0], pool) for _ in range(50)]
    assert first == again
    assert all(len(m) <= fuzz_targets.MAX_INPUT for m in first)
