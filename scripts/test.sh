#!/usr/bin/env bash
# `npm test`: the whole suite, as root or not. Brings up what the tests need: system packages
# (redis-server, chromium and chromium-headless-shell, docker.io, busybox-static, prometheus for promtool, and for the compose stack test
# docker-compose and debootstrap, or as another user mmdebstrap and uidmap), a Docker engine,
# the Prisma client and the web build. The last step is the operator's smoke test of the production stack (infra/test-stack.sh); SKIP_STACK_TEST=1 leaves it
# out (it builds images, so it is the slowest step).
# PostgreSQL comes from the embedded-postgres package (or DATABASE_URL), started once by the test
# harness. Challenge-server tests run containers from an image built locally from busybox; no
# image is pulled.
set -euo pipefail
export TURBO_TELEMETRY_DISABLED=1 DO_NOT_TRACK=1
cd "$(dirname "$0")/.."

need_packages=()
command -v redis-server >/dev/null 2>&1 || need_packages+=(redis-server)
[ -x /usr/bin/chromium ] || need_packages+=(chromium)
# The browser journeys run in Chromium's headless build (lighter than the full browser) when present.
[ -x /usr/bin/chromium-headless-shell ] || need_packages+=(chromium-headless-shell)
command -v dockerd >/dev/null 2>&1 || need_packages+=(docker.io)
[ -x /bin/busybox ] || [ -x /usr/bin/busybox ] || need_packages+=(busybox-static)
# promtool checks the stack's Prometheus configuration and alert rules.
command -v promtool >/dev/null 2>&1 || need_packages+=(prometheus)
if [ "${SKIP_STACK_TEST:-0}" != "1" ]; then
  command -v docker-compose >/dev/null 2>&1 || need_packages+=(docker-compose)
  if [ "$(id -u)" = "0" ]; then
    command -v debootstrap >/dev/null 2>&1 || [ -x /usr/sbin/debootstrap ] || need_packages+=(debootstrap)
  elif ! docker image inspect flagship-base/debian:bookworm >/dev/null 2>&1; then
    # Not root: the base images' Debian rootfs is made with mmdebstrap in a user namespace.
    command -v mmdebstrap >/dev/null 2>&1 || need_packages+=(mmdebstrap)
    command -v newuidmap >/dev/null 2>&1 || need_packages+=(uidmap)
  fi
fi
if [ ${#need_packages[@]} -gt 0 ]; then
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    echo "Installing system packages: ${need_packages[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${need_packages[@]}" >/dev/null
  else
    echo "Missing system packages: ${need_packages[*]}" >&2
    echo "Install them (Debian: sudo apt-get install ${need_packages[*]}) and run npm test again." >&2
    exit 1
  fi
fi

# A Docker engine for the challenge-server tests: started here when none answers and we may.
if ! docker info >/dev/null 2>&1; then
  if [ "$(id -u)" = "0" ]; then
    echo "Starting dockerd"
    (dockerd >"${TMPDIR:-/tmp}/flagship-dockerd.log" 2>&1 &)
    for _ in $(seq 1 60); do docker info >/dev/null 2>&1 && break; sleep 0.5; done
  fi
  if ! docker info >/dev/null 2>&1; then
    echo "No Docker engine answers. Start one (sudo dockerd, or add yourself to the docker group) and run npm test again." >&2
    exit 1
  fi
fi

# The stack test builds the base images when they are missing: say now, not after the suite, when
# this user cannot (build-base.sh --check names what is missing).
if [ "${SKIP_STACK_TEST:-0}" != "1" ] && ! reason=$(infra/images/build-base.sh --check 2>&1); then
  echo "$reason" >&2
  echo "Or leave the compose stack test out: SKIP_STACK_TEST=1 npm test" >&2
  exit 1
fi

# The stack test's base images (a Debian rootfs and the images on it) take minutes, mostly waiting
# on the package mirror: build them now, beside the other suites, and wait for them before that
# test. Images already present are kept, so this costs nothing on a machine that has them.
# Then, once the first part of the browser journeys has ended (not beside the integration tests,
# whose deadlines feel a busy engine, nor beside both parts of the journeys), the stack's own
# server and worker images are built from them under a tag of this run's: the stack test builds
# them again under its own tag, from Docker's layer cache, in seconds.
base_images_pid=""
base_images_log="${TMPDIR:-/tmp}/flagship-base-images-$$.log"
app_images_go="${TMPDIR:-/tmp}/flagship-app-images-$$.go"
app_images_tag="prebuilt-$$"
if [ "${SKIP_STACK_TEST:-0}" != "1" ]; then
  (
    infra/images/build-base.sh
    while [ ! -e "$app_images_go" ]; do sleep 2; done
    node_base=$(sed -n 's/^NODE_BASE=//p' infra/images/offline.env)
    for image in server worker; do
      echo "Building flagship-$image:$app_images_tag"
      docker build -q -f "infra/Dockerfile.$image" --build-arg "NODE_BASE=$node_base" -t "flagship-$image:$app_images_tag" .
    done
  ) >"$base_images_log" 2>&1 &
  base_images_pid=$!
  # A run that stops early does not leave the build running behind it.
  trap 'kill "$base_images_pid" 2>/dev/null || true; rm -f "$app_images_go"; docker rmi "flagship-server:$app_images_tag" "flagship-worker:$app_images_tag" >/dev/null 2>&1 || true' EXIT
fi

[ -d node_modules ] || npm ci
[ -f packages/db/src/generated/client.ts ] || node scripts/prisma-generate.mjs

# Each step says when it started, so a slow run shows where its time went.
step() { printf '\n== %s (at %dm%02ds)\n' "$1" $((SECONDS / 60)) $((SECONDS % 60)); }

# The typecheck (one core, most of a minute) runs beside the lint and the unit tests; its output
# is printed once they are done.
step "Typecheck (beside the lint and the unit tests)"
typecheck_log="${TMPDIR:-/tmp}/flagship-typecheck-$$.log"
npm run --silent typecheck >"$typecheck_log" 2>&1 &
typecheck_pid=$!
step "Lint"
npx --no-install eslint . --max-warnings=0
step "Unit tests"
npx --no-install vitest run --project unit
if ! wait "$typecheck_pid"; then
  cat "$typecheck_log" >&2
  echo "The typecheck failed (above)." >&2
  exit 1
fi
# The Docker suites run one after another, not beside each other: an integration test makes the
# engine a Swarm manager for a while, and the stack test's image builds and containers slow the
# engine for the integration tests' deadlines.
step "Integration and contract tests"
npx --no-install vitest run --project integration
step "Build"
npx --no-install turbo run build --output-logs=errors-only
step "Multi-host test"
bash infra/test-multihost.sh
step "Browser tests"
# The journeys in E2E_SHARDS parts (2 by default) run at once, each part with its own servers,
# database, mail server and output folder, so that one part's waits on its server are the other's
# time to run. A part's log is printed when it ends.
shards="${E2E_SHARDS:-2}"
shard_pids=()
shard_logs=()
for i in $(seq 1 "$shards"); do
  log="${TMPDIR:-/tmp}/flagship-e2e-part-$i-$$.log"
  shard_logs+=("$log")
  E2E_PORT=$((8181 + (i - 1) * 100)) E2E_OUTPUT_DIR="test-results/part-$i" \
    npx --no-install playwright test -c apps/web/playwright.config.ts --shard="$i/$shards" >"$log" 2>&1 &
  shard_pids+=($!)
done
# The stack's app images are built once the first part has ended (see above): beside both parts,
# on two cores, the build (8 minutes then) slowed every journey by half and some past their time.
if [ -n "$base_images_pid" ]; then
  all_running() { local pid; for pid in "$@"; do kill -0 "$pid" 2>/dev/null || return 1; done; }
  while all_running "${shard_pids[@]}"; do sleep 5; done
  touch "$app_images_go"
fi
# Parts that passed are printed first and failed ones last, then each failure's summary again:
# the end of the run's output says what failed, however much of it a reader is shown.
failed_parts=()
for i in $(seq 1 "$shards"); do
  if wait "${shard_pids[$((i - 1))]}"; then
    printf -- '-- Browser tests, part %s of %s: passed\n' "$i" "$shards"
    cat "${shard_logs[$((i - 1))]}"
  else
    failed_parts+=("$i")
  fi
done
if [ ${#failed_parts[@]} -gt 0 ]; then
  for i in "${failed_parts[@]}"; do
    printf -- '-- Browser tests, part %s of %s: FAILED\n' "$i" "$shards"
    cat "${shard_logs[$((i - 1))]}"
  done
  {
    echo
    echo "Browser tests failed. In short:"
    for i in "${failed_parts[@]}"; do
      echo "-- part $i of $shards:"
      # Playwright's closing summary (the failed, flaky and passed counts, each failed test named);
      # a part that ended before its summary (its server did not start) shows its last lines.
      if grep -qE '^  [0-9]+ failed' "${shard_logs[$((i - 1))]}"; then
        sed -n '/^  [0-9]* failed/,$p' "${shard_logs[$((i - 1))]}"
      else
        tail -n 30 "${shard_logs[$((i - 1))]}"
      fi
    done
  } >&2
  exit 1
fi
if [ "${SKIP_STACK_TEST:-0}" != "1" ]; then
  step "Compose stack test"
  if ! wait "$base_images_pid"; then
    cat "$base_images_log" >&2
    echo "Building the stack's images failed (above)." >&2
    exit 1
  fi
  bash infra/test-stack.sh
fi
printf '\nAll tests passed in %dm%02ds.\n' $((SECONDS / 60)) $((SECONDS % 60))
