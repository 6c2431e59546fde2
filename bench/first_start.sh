#!/usr/bin/env bash
# The first start of a fresh clone (issue #15): from `./durak` to the lobby on the screen.
#   bench/first_start.sh [REPO] [MODE]   REPO: what to clone (default: this checkout)
#   MODE: play (default: ./durak) or dev (the old path: ./durak installing the dev tools
#         and compiling the engine first; DURAK_BOOTSTRAP=dev)
# Runs ./durak under tmux in a clone in a temporary folder, with its own data folder, and
# prints the wall time until the lobby shows and the CPU time the start took (the bootstrap's
# pip runs and durak's own start, not the background engine build). Needs git, tmux and
# /usr/bin/time. pip's cache is the user's, as on a player's second clone. FIRST_START_TIMEOUT
# (seconds, default 900) is how long it waits for the lobby.
set -euo pipefail
repo="${1:-$(cd "$(dirname "$0")/.." && pwd)}"
mode="${2:-play}"
work="$(mktemp -d)"
session="first-start-$$"
kill_tree() {  # a process and its descendants, by pid
    local child
    for child in $(pgrep -P "$1" || true); do kill_tree "$child"; done
    kill "$1" 2>/dev/null || true
}
stop_build() {  # the background engine build the clone's ./durak started (its status has the pid)
    local status="$work/clone/p2p_durak/engine/_native-build.json"
    if [ -f "$status" ]; then
        kill_tree "$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["pid"])' "$status")"
    fi
}
trap 'tmux kill-session -t "$session" 2>/dev/null || true; stop_build; rm -rf "$work"' EXIT
git clone --quiet "$repo" "$work/clone"
if [ "$mode" = dev ]; then
    sed -i 's/bootstrap.sh" play/bootstrap.sh" dev/' "$work/clone/durak"
fi
start=$(date +%s.%N)
tmux new-session -d -s "$session" -x 100 -y 30 \
    "cd '$work/clone' && P2P_DURAK_HOME='$work/home' /usr/bin/time -f '%e %U %S' -o '$work/cpu' ./durak --lang en; sleep 60"
until tmux capture-pane -p -t "$session" | grep -q "Your fingerprint"; do
    if (( $(echo "$(date +%s.%N) - $start > ${FIRST_START_TIMEOUT:-900}" | bc) )); then
        echo "no lobby after ${FIRST_START_TIMEOUT:-900} s" >&2
        tmux capture-pane -p -t "$session" >&2
        exit 1
    fi
    sleep 0.2
done
shown=$(date +%s.%N)
tmux capture-pane -p -t "$session" | grep -E "Bots|engine" || true
tmux send-keys -t "$session" q
for _ in $(seq 100); do [ -s "$work/cpu" ] && break; sleep 0.2; done
read -r _ user system < "$work/cpu"
printf 'mode %s: lobby after %.1f s wall; the start took %.1f s CPU (user %.1f + system %.1f)\n' \
    "$mode" "$(echo "$shown - $start" | bc)" "$(echo "$user + $system" | bc)" "$user" "$system"
