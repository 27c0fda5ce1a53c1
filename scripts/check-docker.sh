#!/usr/bin/env bash
# Checks that the Docker image builds and starts. With a Docker engine: docker build, docker run,
# and wait for /readyz. Without one (as on these CI machines): run the Dockerfile's build-stage
# commands in a clean copy of the tracked files, then its runtime-stage install in another, and
# start the compiled service there the way the image's ENTRYPOINT does, and wait for /livez. Both
# stages run on Node 24: the build stage's `npm ci` installs it (the `node` package) and stands in
# for the node:24-slim image's own Node, which the machine may not have.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
port="${CHECK_PORT:-18088}"

wait_for() {
  for _ in $(seq 1 100); do
    if curl -sf "$1" >/dev/null 2>&1; then return 0; fi
    sleep 0.1
  done
  echo "check-docker: $1 did not answer" >&2
  return 1
}

if docker info >/dev/null 2>&1; then
  docker build -t cachegate:check "$root"
  id=$(docker run -d -p "127.0.0.1:$port:8080" cachegate:check)
  trap 'docker rm -f "$id" >/dev/null' EXIT
  wait_for "http://127.0.0.1:$port/readyz"
  echo "check-docker: image built and ready"
  exit 0
fi

work="$(mktemp -d)"
trap 'kill "${pid:-}" 2>/dev/null || true; rm -rf "$work"' EXIT
# The build context: the committed tree, as a fresh clone would have it.
mkdir "$work/build" "$work/app"
git -C "$root" archive HEAD | tar -xf - -C "$work/build"

# Build stage.
cd "$work/build"
npm ci --no-audit --no-fund --loglevel=error   # RUN npm ci
node24="$work/build/node_modules/.bin/node"
"$node24" -e 'if (Number(process.versions.node.split(".")[0]) !== 24) process.exit(1)' \
  || { echo "check-docker: the installed node is not Node 24" >&2; exit 1; }
PATH="$work/build/node_modules/.bin:$PATH" npm run build --silent   # RUN npm run build
test -f dist/main.js && test -d dist/ui

# Runtime stage: production dependencies without install scripts, the compiled code.
cd "$work/app"
cp "$work/build/package.json" "$work/build/package-lock.json" .
npm ci --omit=dev --ignore-scripts --no-audit --no-fund --loglevel=error   # RUN npm ci --omit=dev ...
cp -r "$work/build/dist" "$work/build/schema" "$work/build/openapi" .
GLIBC_TUNABLES=glibc.malloc.mmap_threshold=65536:glibc.malloc.trim_threshold=0 \
  NODE_ENV=production HOST=127.0.0.1 PORT="$port" LOG_LEVEL=warn "$node24" --max-semi-space-size=16 dist/main.js &   # ENV GLIBC_TUNABLES; ENTRYPOINT node --max-semi-space-size=16 dist/main.js
pid=$!
wait_for "http://127.0.0.1:$port/livez"
curl -fsS "http://127.0.0.1:$port/ui" | grep -q '<html' || { echo "check-docker: the image does not serve the dashboard" >&2; exit 1; }
echo "check-docker: no Docker engine here; the build and runtime stages ran and the compiled service started on $("$node24" --version)"
