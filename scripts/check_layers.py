"""import-linter over every module of the distribution, each under the name it is imported by.

Usage: python scripts/check_layers.py [lint-imports options]

import-linter (grimp) finds a package's modules by walking its one folder, so it would miss
protocol/ and cli/, which setuptools maps into p2p_durak (scripts/package_map.py), and the
contracts on `p2p_durak.protocol` and `p2p_durak.cli` would fail to find them. This gives grimp
each mapped folder as the package it becomes; the contracts are pyproject.toml's as for plain
lint-imports.
"""

from __future__ import annotations

import grimp
from grimp.adaptors.modulefinder import ModuleFinder
from grimp.application.config import settings
from grimp.application.ports.filesystem import AbstractFileSystem
from grimp.application.ports.modulefinder import FoundPackage
from importlinter.cli import lint_imports_command
from package_map import TOP_PACKAGE, package_folders

FOLDERS = {str(folder): name for name, folder in package_folders().items()}


class MappedPackageFinder:
    """The folders of the top package: its own and the ones mapped into it."""

    def determine_package_directories(
        self, package_name: str, file_system: AbstractFileSystem
    ) -> set[str]:
        if package_name != TOP_PACKAGE:
            raise ValueError(f"check_layers knows only {TOP_PACKAGE}, not {package_name}")
        return set(FOLDERS)


class MappedModuleFinder(ModuleFinder):
    """A mapped folder's modules under the package name it is mapped to."""

    def find_package(
        self, package_name: str, package_directory: str, file_system: AbstractFileSystem
    ) -> FoundPackage:
        return super().find_package(FOLDERS[package_directory], package_directory, file_system)


def main() -> None:
    assert grimp.build_graph  # imported first: it configures grimp's settings we override
    settings.configure(PACKAGE_FINDER=MappedPackageFinder(), MODULE_FINDER=MappedModuleFinder())
    lint_imports_command()


if __name__ == "__main__":
    main()
