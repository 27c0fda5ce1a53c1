#!/usr/bin/env bash
# `npm run test:loaded`: runs `npm test` while every core is kept busy by a CPU hog at the same
# priority as the tests, as on a loaded CI machine. A suite that passes here does not depend on
# being fast: it waits for events and conditions, never for a fixed time.
# The hogs start before the tests and are killed afterwards, whatever the outcome; the exit
# status is npm test's. Arguments go to vitest (e.g. one test file); LOAD_HOGS sets how many hogs
# run (default: one per core).
set -uo pipefail
cd "$(dirname "$0")/.."

hogs=${LOAD_HOGS:-$(nproc)}
hog_pids=()

stop_hogs() {
  for pid in "${hog_pids[@]}"; do kill "$pid" 2>/dev/null; done
  for pid in "${hog_pids[@]}"; do wait "$pid" 2>/dev/null; done
  hog_pids=()
}
trap stop_hogs EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

for ((i = 0; i < hogs; i++)); do
  node -e 'for (;;);' &
  hog_pids+=("$!")
done
echo "test:loaded: ${hogs} CPU hog(s) running (pids ${hog_pids[*]})"

started=$(date +%s)
npm test -- "$@"
status=$?
echo "test:loaded: npm test exited ${status} after $(($(date +%s) - started)) s beside ${hogs} CPU hog(s)"
exit "$status"
