"""A networked bot's reply time tells nothing of its hand (issue #22, hole 4).

A bot that answers at once when it has one legal move and after its search otherwise tells the
table what it holds: an instant «беру» means that nothing beats the card. Every move of a
networked bot leaves after a delay drawn from one distribution, whatever the position; these
tests time the bots of whole in-process games on trio's autojump clock.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
import trio
import trio.testing
from table_harness import run_table

from p2p_durak.bots.levels import make_bot
from p2p_durak.engine import Action
from p2p_durak.node import reply_delay
from p2p_durak.node.game import GameRunner, Turn
from p2p_durak.node.players import BotPlayer
from p2p_durak.node.reply_delay import HIGH_SECONDS, LOW_SECONDS, NONE, ReplyDelay


class TimedBot(BotPlayer):
    """A bot that notes when it was asked to move, with how many legal moves and cards."""

    def __init__(self, seed: int, asked: dict[tuple[int, int], tuple[float, int, int]]) -> None:
        super().__init__(level="easy", seed=seed)
        self.asked = asked

    async def turn(self, turn: Turn, runner: GameRunner) -> None:
        state = turn.table.state
        assert state is not None
        hand = state.hand_size(turn.table.my_seat)
        self.asked[(runner.party, turn.seq)] = (trio.current_time(), len(turn.legal), hand)
        await super().turn(turn, runner)


def ks_distance(a: list[float], b: list[float]) -> float:
    """The two-sample Kolmogorov–Smirnov statistic: the largest gap between the samples'
    distribution functions."""
    points = sorted(set(a) | set(b))
    return max(abs(sum(x <= p for x in a) / len(a) - sum(x <= p for x in b) / len(b))
               for p in points)


async def test_reply_times_do_not_depend_on_the_legal_moves_or_the_hand(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        autojump_clock: trio.testing.MockClock) -> None:
    asked: dict[tuple[int, int], tuple[float, int, int]] = {}
    sent: dict[tuple[int, int], float] = {}
    move = GameRunner.move

    async def timed_move(runner: GameRunner, seq: int, action: Action) -> None:
        sent.setdefault((runner.party, seq), trio.current_time())
        await move(runner, seq, action)

    monkeypatch.setattr(GameRunner, "move", timed_move)
    delays: list[tuple[float, int, int]] = []
    for seed in (1, 2, 3):
        asked.clear()
        sent.clear()
        await run_table(tmp_path / f"table{seed}", n=3, seed=seed,
                        players={i: TimedBot(seed * 100 + i, asked) for i in range(3)})
        delays += [(sent[key] - at, legal, hand) for key, (at, legal, hand) in asked.items()
                   if key in sent]
    one = [d for d, legal, _ in delays if legal == 1]
    many = [d for d, legal, _ in delays if legal > 1]
    small = [d for d, _, hand in delays if hand <= 3]
    large = [d for d, _, hand in delays if hand >= 6]
    assert min(len(one), len(many), len(small), len(large)) >= 20, \
        (len(one), len(many), len(small), len(large))
    # never at once, and within the one distribution: the old bot answered a single legal
    # move in no time at all
    assert all(LOW_SECONDS - 1e-6 <= d <= HIGH_SECONDS + 1e-6 for d, _, _ in delays)
    # the same distribution with one legal move as with many, with few cards as with many
    assert ks_distance(one, many) < 0.3
    assert ks_distance(small, large) < 0.3


def test_a_searching_bot_waits_past_its_budget() -> None:
    """The hard bot takes up to its budget to decide: its delay starts after it, so a search
    that settles early, or one legal move, leaves at the same time as a full search."""
    rng = random.Random(7)
    hard = make_bot("hard", 0, random.Random(1))
    delay = ReplyDelay().for_bot(hard)
    assert delay.low > hard.budget
    assert delay.high - delay.low == pytest.approx(HIGH_SECONDS - LOW_SECONDS)
    assert all(delay.low <= delay.draw(rng) <= delay.high for _ in range(100))
    assert ReplyDelay().for_bot(make_bot("easy", 0, random.Random(1))) == ReplyDelay()
    assert NONE.for_bot(hard) == NONE
    with pytest.raises(ValueError, match="low <= high"):
        ReplyDelay(2.0, 1.0)


def test_a_process_takes_its_bots_delay_from_the_environment() -> None:
    assert reply_delay.configured({}) == ReplyDelay()
    assert reply_delay.configured({reply_delay.ENVIRONMENT: "0"}) == NONE
    assert reply_delay.configured({reply_delay.ENVIRONMENT: "0.5-2"}) == ReplyDelay(0.5, 2.0)
    assert reply_delay.configured({reply_delay.ENVIRONMENT: "1"}) == ReplyDelay(1.0, 1.0)
    with pytest.raises(ValueError, match="LOW-HIGH"):
        reply_delay.parse("soon")
