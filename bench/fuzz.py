"""Fuzz the decoders (bench/fuzz_targets.py): coverage-guided with atheris, or a short seeded run.

    # coverage-guided (pip install -e '.[fuzz]'): libFuzzer's own flags follow the target
    nice -n 19 python bench/fuzz.py atheris framing -runs=1000000 -rss_limit_mb=1024
    # every target, a seeded mutation run without atheris (what CI runs, seconds each)
    python bench/fuzz.py quick --inputs 3000
    # a crash file (libFuzzer's crash-<sha1>, or a corpus file) through its target once
    python bench/fuzz.py replay framing crash-0123abcd

The atheris run reads and grows the target's corpus (tests/fuzz/corpus/NAME, which seeds it
when empty); `-merge=1` keeps it small before it is committed (docs/reliability.md).
"""

from __future__ import annotations

import argparse
import logging
import random
import sys
import time
import tracemalloc
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
if sys.argv[1:2] == ["atheris"] and __name__ == "__main__":
    # coverage comes from instrumenting the project's modules as they are imported (all of
    # them: the decoders call into the whole protocol layer), not the standard library's
    import atheris

    with atheris.instrument_imports(include=["p2p_durak"]):
        import fuzz_targets
else:
    import fuzz_targets  # bench/ is not a package

MEMORY_LIMIT = 64 << 20  # the peak a short run of any target may reach (tracemalloc)


def mutate(rng: random.Random, data: bytes, pool: Sequence[bytes]) -> bytes:
    """One to four of libFuzzer's simplest mutations (a deterministic stand-in for CI)."""
    out = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        choice = rng.randrange(8)
        at = rng.randrange(len(out) + 1)
        if choice == 0 and out:  # flip a bit
            i = rng.randrange(len(out))
            out[i] ^= 1 << rng.randrange(8)
        elif choice == 1 and out:  # set a byte to an interesting value
            out[rng.randrange(len(out))] = rng.choice((0, 1, 0x7F, 0x80, 0xFF, rng.randrange(256)))
        elif choice == 2:  # insert random bytes
            out[at:at] = rng.randbytes(rng.randint(1, 8))
        elif choice == 3 and out:  # delete a run
            del out[at:at + rng.randint(1, 16)]
        elif choice == 4 and out:  # duplicate a run
            start = rng.randrange(len(out))
            out[at:at] = out[start:start + rng.randint(1, 32)]
        elif choice == 5:  # truncate
            del out[at:]
        elif choice == 6 and pool:  # splice another input in
            other = rng.choice(pool)
            cut = rng.randrange(len(other) + 1)
            out[at:] = other[cut:]
        elif out:  # an interesting multi-byte integer
            width = rng.choice((1, 2, 4, 8))
            value = rng.choice((0, 1, (1 << (8 * width)) - 1, 1 << (8 * width - 1)))
            i = rng.randrange(len(out))
            out[i:i + width] = value.to_bytes(width, "big")
    return bytes(out[:fuzz_targets.MAX_INPUT])


@dataclass
class QuickResult:
    target: str
    inputs: int
    seconds: float
    peak_bytes: int


def quick(name: str, inputs: int, seed: int = 0) -> QuickResult:
    """Run a target over its corpus, its crash regressions and `inputs` seeded mutations of
    them; raise on the first crash (naming the input), or if memory grew past the bound."""
    target = fuzz_targets.TARGETS[name]
    pool = fuzz_targets.corpus(name) + fuzz_targets.seeds(name)
    rng = random.Random(f"bench/fuzz/{name}/{seed}")
    started = time.perf_counter()
    tracemalloc.start()
    try:
        count = 0
        for data in pool:
            _run_one(name, target, data)
            count += 1
        for _ in range(inputs):
            _run_one(name, target, mutate(rng, rng.choice(pool), pool))
            count += 1
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    if peak > MEMORY_LIMIT:
        raise MemoryError(f"{name}: memory peaked at {peak} bytes (limit {MEMORY_LIMIT})")
    return QuickResult(name, count, time.perf_counter() - started, peak)


class TargetCrashed(AssertionError):
    def __init__(self, name: str, data: bytes, error: BaseException) -> None:
        super().__init__(f"{name} crashed on {data.hex()}: {type(error).__name__}: {error}")
        self.data = data


def _run_one(name: str, target: Callable[[bytes], None], data: bytes) -> None:
    try:
        target(data)
    except Exception as error:
        raise TargetCrashed(name, data, error) from error


def run_atheris(name: str, libfuzzer_args: list[str]) -> None:
    import atheris  # the `fuzz` extra

    target = fuzz_targets.TARGETS[name]
    folder = fuzz_targets.CORPUS / name
    folder.mkdir(parents=True, exist_ok=True)
    if not any(folder.iterdir()):
        for data in fuzz_targets.seeds(name):
            (folder / fuzz_targets.hashlib.sha1(data).hexdigest()).write_bytes(data)
    dirs = [a for a in libfuzzer_args if not a.startswith("-")]
    flags = [a for a in libfuzzer_args if a.startswith("-")]
    if not any(f.startswith("-max_len") for f in flags):
        flags.append(f"-max_len={fuzz_targets.MAX_INPUT}")
    if not any(f.startswith("-rss_limit_mb") for f in flags):
        flags.append("-rss_limit_mb=1024")
    atheris.Setup([sys.argv[0], *flags, *(dirs or [str(folder)])], target)
    atheris.Fuzz()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    quick_p = sub.add_parser("quick", help="a seeded mutation run of targets, without atheris")
    quick_p.add_argument("targets", nargs="*", help="default: every target")
    quick_p.add_argument("--inputs", type=int, default=2000)
    quick_p.add_argument("--seed", type=int, default=0)
    ath = sub.add_parser("atheris", help="coverage-guided run of one target")
    ath.add_argument("target", choices=sorted(fuzz_targets.TARGETS))
    ath.add_argument("libfuzzer", nargs=argparse.REMAINDER)
    rep = sub.add_parser("replay", help="run files through a target once")
    rep.add_argument("target", choices=sorted(fuzz_targets.TARGETS))
    rep.add_argument("files", nargs="+", type=Path)
    args = parser.parse_args(argv)
    logging.disable(logging.WARNING)  # (the journal logs each tail it cuts: thousands of lines)
    if args.command == "atheris":
        run_atheris(args.target, args.libfuzzer)
        return 0
    if args.command == "replay":
        for path in args.files:
            fuzz_targets.TARGETS[args.target](path.read_bytes())
            print(f"{path}: no crash")
        return 0
    for name in args.targets or sorted(fuzz_targets.TARGETS):
        result = quick(name, args.inputs, args.seed)
        print(f"{name:14} {result.inputs:>7} inputs {result.seconds:6.1f} s "
              f"peak {result.peak_bytes / 1e6:5.1f} MB", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
