"""What every benchmark prints about the machine it ran on, and pinning to one core."""

from __future__ import annotations

import os
import platform


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            for line in info:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def pin_to_one_core() -> str:
    """Keep this process on one core (the targets are per core); says what it did."""
    if hasattr(os, "sched_setaffinity") and hasattr(os, "sched_getaffinity"):
        cpu = min(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {cpu})
        return f"pinned to CPU {cpu}"
    return "not pinned (no sched_setaffinity)"


def load_average() -> float:
    return os.getloadavg()[0] if hasattr(os, "getloadavg") else -1.0
