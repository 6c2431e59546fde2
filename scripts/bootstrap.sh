# Sourced by ./durak (play) and ./run-tests (dev): create .venv once and keep it in sync with
# pyproject.toml.
#   play: only what playing needs, as fast as we can (issue #15: the lobby within 30 s of a
#         fresh clone); the compiled engine is built in the background and used from the next
#         start (p2p_durak/cli/engine_build.py); the engine runs as Python meanwhile.
#   dev:  the development tools too, and the engine compiled before the tests run, so that
#         ./run-tests always tests the build players get.
# shellcheck shell=bash
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="$here/.venv"
mode="$1"
py="${PYTHON:-python3}"
if ! "$py" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
    echo "p2p-durak needs Python 3.11 or newer (found: $("$py" --version 2>&1))" >&2
    exit 1
fi
quiet=(--quiet --disable-pip-version-check)
if [ ! -x "$venv/bin/python" ]; then
    if [ "$mode" = play ] && "$py" -m pip --version >/dev/null 2>&1; then
        # A venv's own pip and setuptools take seconds of CPU to unpack and compile; the
        # system's pip installs into the venv instead (pip --python).
        "$py" -m venv --without-pip "$venv"
    else
        "$py" -m venv "$venv"
    fi
fi
if "$venv/bin/python" -m pip --version >/dev/null 2>&1; then
    pip=("$venv/bin/python" -m pip "${quiet[@]}")
else
    pip=("$py" -m pip "${quiet[@]}" --python "$venv/bin/python")
fi
# Whether an install stamp is older than what it installed: the dependencies (pyproject.toml,
# setup.py) and, for dev, the engine's sources, which its install compiles with mypyc (an old
# build is not used: p2p_durak/engine/_compiled.py).
stale() {
    [ ! -f "$1" ] || [ "$here/pyproject.toml" -nt "$1" ] || [ "$here/setup.py" -nt "$1" ] \
        || { [ "$2" = dev ] && [ -n "$(find "$here/p2p_durak/engine" -name '*.py' -newer "$1" | head -n 1)" ]; }
}
if [ "$mode" = dev ]; then
    if stale "$venv/.installed-dev" dev; then
        # Without this line the terminal stays blank for minutes while pip compiles the engine.
        echo "p2p-durak: installing the dependencies and compiling the rules engine (once per change)..." >&2
        "$venv/bin/python" -m pip --version >/dev/null 2>&1 || "$venv/bin/python" -m ensurepip --upgrade >/dev/null
        pip=("$venv/bin/python" -m pip "${quiet[@]}")
        "${pip[@]}" install --upgrade pip
        "${pip[@]}" install -e "$here[dev]"
        touch "$venv/.installed-dev"
        echo "p2p-durak: set up." >&2
    fi
elif stale "$venv/.installed-play" play && stale "$venv/.installed-dev" play; then
    echo "p2p-durak: installing what the game needs (once per change)..." >&2
    # No isolated build environment (it would fetch setuptools and mypy for each install), no
    # compiler run, no byte-compiling of every dependency: setuptools is the one build tool
    # the editable install needs.
    "$venv/bin/python" -c 'import setuptools, sys; sys.exit(int(setuptools.__version__.split(".")[0]) < 77)' \
        2>/dev/null || "${pip[@]}" install --no-compile "setuptools>=77"
    DURAK_COMPILE=later "${pip[@]}" install --no-compile --no-build-isolation -e "$here"
    touch "$venv/.installed-play"
fi
if [ "$mode" = play ] && [ -z "${DURAK_PURE:-}" ]; then
    # The compiled engine makes the bots stronger (docs/bots.md): build it behind the game, at
    # low priority, when the one in place is missing or older than the sources (it checks).
    nohup nice -n 10 "$venv/bin/python" -m p2p_durak.cli.engine_build \
        "$venv/engine-build.log" >/dev/null 2>&1 </dev/null &
fi
