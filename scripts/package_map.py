"""The distribution's packages and their folders, as pyproject.toml maps them for setuptools.

The design card keeps `protocol/` and `cli/` at the top of the repository, and the code imports
them as `p2p_durak.protocol` and `p2p_durak.cli`: setuptools' `package-dir` maps the folders into
the package (docs/decisions/0001-package-layout.md). mypy and import-linter name a module after
its folder, so they would see `protocol.channel`; scripts/check_types.py and
scripts/check_layers.py give them the distribution's names from this module instead.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TOP_PACKAGE = "p2p_durak"


def package_folders(root: Path = ROOT) -> dict[str, Path]:
    """Each top of a folder tree of the distribution: package name -> folder."""
    with open(root / "pyproject.toml", "rb") as config_file:
        config = tomllib.load(config_file)
    mapped = config["tool"]["setuptools"].get("package-dir", {})
    folders = {TOP_PACKAGE: root / TOP_PACKAGE}
    folders.update({name: root / folder for name, folder in mapped.items()})
    return folders


def modules(root: Path = ROOT) -> Iterator[tuple[str, Path]]:
    """Every module of the distribution, by its importable name, with its source file."""
    for package, folder in package_folders(root).items():
        yield from _modules_in(package, folder)


def _modules_in(package: str, folder: Path) -> Iterator[tuple[str, Path]]:
    if not (folder / "__init__.py").is_file():
        return  # not a package (a build folder such as engine/_native, caches)
    for path in sorted(folder.iterdir()):
        if path.is_dir():
            yield from _modules_in(f"{package}.{path.name}", path)
        elif path.suffix == ".py":
            yield (package if path.stem == "__init__" else f"{package}.{path.stem}"), path
