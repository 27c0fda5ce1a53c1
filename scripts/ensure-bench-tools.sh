#!/usr/bin/env bash
# Installs the HTTP load generator the facade benchmark prefers: wrk (Debian's package), a C
# client that costs the 2-core machine far less than a JavaScript one, so it measures the server.
# Without root or apt the benchmark falls back to autocannon and says so.
set -uo pipefail
command -v wrk >/dev/null 2>&1 && exit 0
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "ensure-bench-tools: installing wrk" >&2
  apt-get update -qq >/dev/null 2>&1
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null 2>&1 || echo "ensure-bench-tools: could not install wrk; using autocannon" >&2
fi
exit 0
