"""Which engine runs: the mypyc build of the hot modules, or their Python sources.

setup.py compiles the hot modules into `_native/` and writes there the SHA-256 of the sources
it compiled, followed by their names. Importing this module (the package does it before any
other) puts `_native/` first on the package's path only if that hash matches the sources next
to this file, so an edited engine is never shadowed by an old build: it runs as pure Python
until the package is built again. `python -X durak-pure` forces pure Python. This reads the
engine's own files once, at import; no game function does any I/O.
"""

from __future__ import annotations

import hashlib
import sys
from collections.abc import MutableSequence


def build_is_current(here: str, native: str | None = None) -> bool:
    """Whether the build in `native` (default: `here`/_native) was compiled from the sources in
    `here`, the engine's folder. Also asked by the `durak` command while a background build
    runs (p2p_durak/cli/engine_build.py), never by a game function."""
    native = here + "/_native" if native is None else native
    try:
        with open(native + "/sources.sha256", encoding="ascii") as stamp_file:
            stamp, *names = stamp_file.read().split()
        digest = hashlib.sha256()
        for name in names:
            with open(f"{here}/{name}.py", "rb") as source:
                digest.update(name.encode() + b"\0" + source.read() + b"\0")
    except (OSError, ValueError):
        return False
    return bool(names) and digest.hexdigest() == stamp


def use_native(package_path: MutableSequence[str]) -> bool:
    if "durak-pure" in sys._xoptions or not package_path:
        return False
    here = package_path[0]
    if not build_is_current(here):
        return False
    package_path.insert(0, here + "/_native")
    return True


COMPILED = use_native(sys.modules["p2p_durak.engine"].__path__)
"""True when the hot modules are the mypyc build, False when they run as Python."""
