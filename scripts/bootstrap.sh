# Sourced by ./durak and ./run-tests: create .venv once and keep it in sync with pyproject.toml.
# shellcheck shell=bash
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="$here/.venv"
py="${PYTHON:-python3}"
if ! "$py" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
    echo "p2p-durak needs Python 3.11 or newer (found: $("$py" --version 2>&1))" >&2
    exit 1
fi
if [ ! -x "$venv/bin/python" ]; then
    "$py" -m venv "$venv"
fi
stamp="$venv/.installed-$1"
# Reinstall when the dependencies change, and when the engine's sources do: the install
# compiles them with mypyc (setup.py), and an old build is not used (p2p_durak/engine/_compiled.py).
if [ ! -f "$stamp" ] || [ "$here/pyproject.toml" -nt "$stamp" ] || [ "$here/setup.py" -nt "$stamp" ] \
        || [ -n "$(find "$here/p2p_durak/engine" -name '*.py' -newer "$stamp" | head -n 1)" ]; then
    # Without this line the terminal stays blank for minutes while pip compiles the engine.
    echo "p2p-durak: installing the dependencies and compiling the rules engine (once per change)..." >&2
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --upgrade pip
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -e "$here[$1]"
    touch "$stamp"
    echo "p2p-durak: set up." >&2
fi
