#!/usr/bin/env bash
# `npm run test:stack`: the operator's smoke test of the production stack. Builds the base images
# from Debian's packages and npm (no registry needed), then the compose stack (PostgreSQL, Redis,
# two server copies behind nginx, two workers), and drives it through nginx on loopback only.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v docker-compose >/dev/null || { echo "docker-compose is needed (Debian: apt-get install docker-compose)" >&2; exit 1; }
if [ "${STACK_REGISTRY:-0}" != "1" ]; then
  infra/images/build-base.sh
  export STACK_ENV_FILE=infra/images/offline.env
fi
docker image inspect flagship-test/banner:2 >/dev/null 2>&1 || node --import tsx -e 'import("./apps/worker/src/challenge-servers/test-image.ts").then((m) => m.buildBannerImage())'
npx --no-install vitest run --config infra/stack.vitest.config.ts
