"""mypy over every module of the distribution, each under the name it is imported by.

Usage: python scripts/check_types.py [mypy options]   (e.g. --platform win32)

Plain `mypy protocol/` would call protocol/channel.py `protocol.channel`, and the imports of
`p2p_durak.protocol.channel` elsewhere would find nothing: the folders are mapped into the
package by setuptools (scripts/package_map.py). This hands mypy the same files with the names
of the installed package, and reports their real paths. Options and settings come from
pyproject.toml's [tool.mypy] as for plain mypy.
"""

from __future__ import annotations

import sys
import time

from mypy import build
from mypy.errors import CompileError
from mypy.main import process_options
from mypy.modulefinder import BuildSource
from package_map import ROOT, modules


def main(argv: list[str]) -> int:
    started = time.monotonic()
    named = {path: name for name, path in modules()}
    # mypy parses the options and reads [tool.mypy]; the files it is given get their names here
    sources, options = process_options([*argv, *map(str, named)])
    by_path = {str(path.resolve()): name for path, name in named.items()}
    renamed = [BuildSource(source.path, by_path[str(ROOT / source.path)]
                           if source.path and str(ROOT / source.path) in by_path
                           else source.module, source.text, str(ROOT))
               for source in sources]
    missing = set(by_path.values()) - {source.module for source in renamed}
    if missing:
        print(f"check_types: mypy was not given {sorted(missing)}", file=sys.stderr)
        return 2
    try:
        result = build.build(renamed, options)
    except CompileError as error:
        print("\n".join(error.messages))
        return 2
    for line in result.errors:
        print(line)
    files = len(renamed)
    errors = [line for line in result.errors if ": error:" in line]
    took = f"{time.monotonic() - started:.1f} s"
    if errors:
        with_errors = len({line.split(":", 1)[0] for line in errors})
        print(f"Found {len(errors)} errors in {with_errors} files "
              f"(checked {files} source files, platform {options.platform}, {took})")
        return 1
    print(f"Success: no issues found in {files} source files "
          f"(platform {options.platform}, {took})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
