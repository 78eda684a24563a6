#!/usr/bin/env bash
# The worker tier on several hosts: two Docker engines in network namespaces this test makes, a
# worker process for each (then the two as one Swarm). Needs root; as any other user it says so
# and skips. Needs dockerd, iptables, nsenter and busybox-static (Debian: docker.io, util-linux).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "$(id -u)" != "0" ]; then
  echo "Skipping the multi-host test: it needs root (network namespaces, a bridge, an iptables rule and two dockerds)."
  exit 0
fi
for tool in dockerd iptables nsenter ip; do
  command -v "$tool" >/dev/null || { echo "The multi-host test needs $tool" >&2; exit 1; }
done
# The workers run as `npm run worker` runs them: from the worker's bundle.
npm run --silent build -w @flagship/worker
npx --no-install vitest run --config infra/multihost.vitest.config.ts
