"""How long a networked bot waits before its move goes out, whatever its cards.

Everyone at a table sees when each move arrives. A bot that answers the moment it has only one
legal move, and after its search otherwise, tells the table its hand: an instant «беру» means
that nothing beats the card, an instant pass that there is nothing to throw in. So every move of
a networked bot leaves at a time drawn, at the moment it is asked, from one distribution that
depends on nothing of the position: not on its cards, the number of legal moves, the phase, or
whether its search settled early. The draw starts with the turn and the decision runs inside
it, so the decision's own length is hidden as long as it ends before the drawn time: the lower
bound covers a searching bot's time budget (`for_bot`).
"""

from __future__ import annotations

import os
import random
from collections.abc import Mapping
from dataclasses import dataclass

from p2p_durak.bots.base import Bot

# A bot that moves at once reads as a machine, and a whole table of them rushes past the
# people watching; the practice table waits 0.8 s (`LocalSetup.bot_delay`). Networked bots wait
# 0.6 to 1.8 s, uniformly, plus the search budget of a bot that searches.
LOW_SECONDS = 0.6
HIGH_SECONDS = 1.8
# A searching bot's wall time can overrun its budget a little (the last playout finishes, the
# thread is scheduled late on a busy laptop): this much is added on top of it.
BUDGET_SLACK_SECONDS = 0.5
# The bots of a `durak host`/`join` process and of the lobby's bot seats: "LOW-HIGH" seconds,
# one number for a fixed delay, "0" to send at once (the tests of real processes, which play
# whole games against a wall-clock deadline, set it; nobody playing should).
ENVIRONMENT = "P2P_DURAK_BOT_DELAY"


@dataclass(frozen=True, slots=True)
class ReplyDelay:
    """Uniform on [low, high] seconds, from the moment the bot is asked to move. `NONE` (0, 0)
    sends at once, for a headless host whose operator wants speed over privacy (a test)."""

    low: float = LOW_SECONDS
    high: float = HIGH_SECONDS

    def __post_init__(self) -> None:
        if not 0 <= self.low <= self.high:
            raise ValueError(f"a reply delay needs 0 <= low <= high, not {self.low}, "
                             f"{self.high}")

    def draw(self, rng: random.Random) -> float:
        """One delay, independent of anything but `rng`."""
        if self.high == self.low:
            return self.low
        return rng.uniform(self.low, self.high)

    def for_bot(self, bot: Bot) -> ReplyDelay:
        """The delay for this bot: shifted by its search budget (a bot that searches, hard,
        takes up to its budget to decide; the delay must outlast the decision or the time of
        the move would again say whether there was anything to search)."""
        budget = float(getattr(bot, "budget", 0.0))
        if budget <= 0 or self == NONE:
            return self
        shift = budget + BUDGET_SLACK_SECONDS
        return ReplyDelay(self.low + shift, self.high + shift)


NONE = ReplyDelay(0.0, 0.0)


def parse(text: str) -> ReplyDelay:
    """"0.6-1.8" (uniform between), "1" (always 1 s) or "0" (at once); ValueError else."""
    low, sep, high = text.strip().partition("-")
    try:
        bounds = (float(low), float(high if sep else low))
    except ValueError:
        raise ValueError(f"a bot delay is SECONDS or LOW-HIGH seconds, not {text!r}") from None
    return ReplyDelay(*bounds)


def configured(environ: Mapping[str, str] = os.environ) -> ReplyDelay:
    """The delay of a process's bots: `ENVIRONMENT`'s, else the default."""
    text = environ.get(ENVIRONMENT)
    return ReplyDelay() if text is None else parse(text)
