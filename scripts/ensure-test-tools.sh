#!/usr/bin/env bash
# Installs the real clients the tests drive, when this machine lacks them: the Python Kubernetes
# client (Debian's python3-kubernetes, used with /usr/bin/python3), the headless browser of the
# page tests (Debian's chromium, driven by playwright-core; playwright's own browser downloads
# cannot reach their hosts, so `npx playwright install` is never used), etcd, whose processes
# the etcd backend's tests start themselves (Debian's etcd-server and etcd-client: /usr/bin/etcd
# and /usr/bin/etcdctl; the packaged service is not used), and Prometheus' promtool, which checks
# /metrics and the alerting rules of deploy/monitoring/ (Debian's prometheus: /usr/bin/promtool;
# the packaged server is not used). kubectl is part of the machine image; its absence is
# reported, since the tests that need it must fail loudly.
# Runs before `npm test` (npm's pretest), so `npm ci && npm test` works on a fresh machine.
set -euo pipefail

missing=()
if ! /usr/bin/python3 -c 'import kubernetes' >/dev/null 2>&1; then
  missing+=(python3-kubernetes)
fi
if [ ! -x /usr/bin/chromium ]; then
  missing+=(chromium)
fi
if [ ! -x /usr/bin/etcd ]; then
  missing+=(etcd-server)
fi
if [ ! -x /usr/bin/etcdctl ]; then
  missing+=(etcd-client)
fi
if [ ! -x /usr/bin/promtool ]; then
  missing+=(prometheus)
fi

if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" != "0" ] && ! command -v sudo >/dev/null 2>&1; then
    echo "ensure-test-tools: need ${missing[*]} but cannot install without root" >&2
    exit 1
  fi
  SUDO=""; [ "$(id -u)" != "0" ] && SUDO="sudo"
  echo "ensure-test-tools: installing ${missing[*]}" >&2
  $SUDO apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi

if ! command -v kubectl >/dev/null 2>&1; then
  echo "ensure-test-tools: kubectl is not on PATH; the kubectl tests will fail" >&2
fi
