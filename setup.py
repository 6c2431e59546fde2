"""Build hook: compile the rules engine's hot modules with mypyc, when we can.

Everything else about the package is declared in pyproject.toml. The compiled modules go to
p2p_durak/engine/_native/ (never next to the sources), together with the SHA-256 of the sources
they were compiled from; the engine loads them only while that hash matches its sources, and
is pure Python otherwise (see docs/decisions/0007-engine-speed.md). Without a C compiler or
mypyc the install goes on in pure Python. Two variables skip the compilation:

* DURAK_PURE=1: and remove an old build of a checkout (the engine runs as Python);
* DURAK_COMPILE=later: and keep it — ./durak installs so, to start at once, and compiles in
  the background (scripts/build_engine.py); a kept build is used only while it is current.
"""

from __future__ import annotations

import hashlib
import os
import sys
import tomllib
from pathlib import Path

from setuptools import find_packages, setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent
ENGINE = HERE / "p2p_durak" / "engine"
NATIVE = "_native"
# The modules mypyc compiles. errors.py (an Enum with tuple values, which mypyc mis-compiles),
# rules.py, presets.py, _compiled.py and __init__.py stay Python: they are not on the hot path.
COMPILED = ("actions", "bout", "canonical", "cards", "core", "events", "hands", "playout",
            "seats", "setup", "state", "tables", "views", "xorshift")


def sources_stamp() -> str:
    """The SHA-256 of the compiled sources, then their names (read by engine/_compiled.py)."""
    digest = hashlib.sha256()
    for name in COMPILED:
        digest.update(name.encode() + b"\0" + (ENGINE / f"{name}.py").read_bytes() + b"\0")
    return " ".join((digest.hexdigest(), *COMPILED)) + "\n"


class BuildNative(build_ext):
    """Put the compiled engine in engine/_native/ with its source hash, in the wheel and in an
    editable install alike; never fail the install over it."""

    def get_ext_fullpath(self, ext_name: str) -> str:
        return _native_path(ext_name, super().get_ext_fullpath(ext_name))

    def _get_inplace_equivalent(self, build_py: object, ext: object) -> tuple[str, str]:
        inplace, regular = super()._get_inplace_equivalent(build_py, ext)  # type: ignore[misc]
        name = str(getattr(ext, "name", ""))
        return _native_path(name, inplace), _native_path(name, regular)

    def copy_extensions_to_source(self) -> None:
        (ENGINE / NATIVE).mkdir(exist_ok=True)
        (ENGINE / NATIVE / ".gitignore").write_text("*\n")  # build output, never committed
        super().copy_extensions_to_source()

    def run(self) -> None:
        if not STAMP[0]:
            return  # nothing to compile (DURAK_PURE, DURAK_COMPILE=later, no mypyc)
        # The build goes to build_lib, and into the checkout only in place (an editable
        # install): a wheel's build must not stamp a checkout's older modules as current.
        targets = [Path(self.build_lib) / "p2p_durak" / "engine" / NATIVE]
        if self.inplace:
            targets.append(ENGINE / NATIVE)
        # an old build must not outlive a failed one: clear the stamp first
        for directory in targets:
            (directory / "sources.sha256").unlink(missing_ok=True)
        try:
            super().run()
        except Exception as error:  # no compiler, no headers: the pure engine still works
            print(f"p2p-durak: the engine stays pure Python ({error})", file=sys.stderr)
            return
        for directory in targets:
            if directory.is_dir():
                (directory / "sources.sha256").write_text(STAMP[0])


def _native_path(ext_name: str, path: str) -> str:
    """engine/x.so -> engine/_native/x.so, for the engine's modules."""
    if not ext_name.startswith("p2p_durak.engine.") or f"/{NATIVE}/" in path:
        return path
    head, _, tail = path.rpartition("/")
    return f"{head}/{NATIVE}/{tail}"


STAMP = [""]
"""The stamp of the sources as mypyc read them: taken before compiling, so that sources edited
during the build do not pass for the ones compiled."""


def native_modules() -> list[object]:
    if os.environ.get("DURAK_PURE"):
        (ENGINE / NATIVE / "sources.sha256").unlink(missing_ok=True)  # an old build: unused
        return []
    if os.environ.get("DURAK_COMPILE") == "later":
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        print("p2p-durak: mypyc is not available, the engine stays pure Python", file=sys.stderr)
        return []
    stamp = sources_stamp()
    try:
        modules = mypycify([f"p2p_durak/engine/{name}.py" for name in COMPILED],
                           opt_level="3", separate=True)
    except (Exception, SystemExit) as error:  # mypyc refuses the code (a type error, say)
        print(f"p2p-durak: mypyc failed, the engine stays pure Python ({error})",
              file=sys.stderr)
        return []
    STAMP[0] = stamp
    return list(modules)


def packages() -> list[str]:
    """p2p_durak's packages, with the folders pyproject.toml maps into it (protocol/, cli/) and
    their sub-packages: a new sub-package needs no edit here (decision 0001)."""
    with open(HERE / "pyproject.toml", "rb") as config_file:
        mapped = tomllib.load(config_file)["tool"]["setuptools"]["package-dir"]
    found = find_packages(where=str(HERE), include=["p2p_durak", "p2p_durak.*"])
    for name, folder in mapped.items():
        found += [name, *(f"{name}.{sub}" for sub in find_packages(where=str(HERE / folder)))]
    return found


setup(packages=packages(), ext_modules=native_modules(), cmdclass={"build_ext": BuildNative})
