from __future__ import annotations

import gc
import weakref

from p2p_durak.node.heap import frozen_while_playing


def test_the_heap_is_frozen_while_any_game_runs() -> None:
    assert gc.get_freeze_count() == 0
    with frozen_while_playing():
        before_second = gc.get_freeze_count()
        assert before_second > 0  # what existed at the start: skipped by full collections
        with frozen_while_playing():  # a second game of the same process
            assert gc.get_freeze_count() >= before_second
        assert gc.get_freeze_count() > 0  # the first game still runs
    assert gc.get_freeze_count() == 0  # collectable again between games


def test_a_game_that_fails_unfreezes_the_heap() -> None:
    try:
        with frozen_while_playing():
            raise RuntimeError("the game stopped")
    except RuntimeError:
        pass
    assert gc.get_freeze_count() == 0


def test_garbage_from_before_the_game_is_collected_after_it() -> None:
    class Node:
        other: object = None

    a, b = Node(), Node()
    a.other, b.other = b, a  # a cycle: only the collector frees it
    alive = weakref.ref(a)
    with frozen_while_playing():
        del a, b
        gc.collect()
        assert alive() is not None  # frozen: no collection during the game walks it
    gc.collect()
    assert alive() is None
