#!/usr/bin/env bash
# Replaces the server copies of a compose stack one at a time, so that players see no failed
# request: for each running copy, one new copy (from the service's current image and settings) is
# started beside the others and waits until it is ready (/readyz, through the compose health
# check), then the old copy is stopped gracefully (SIGTERM: /readyz turns 503, it stops taking
# connections, tells its websockets to reconnect, finishes the requests in flight) and removed.
# nginx never sees fewer ready copies than before, and retries a refused connection on another.
#
#   docker compose build server          # or pull the new image / set FLAGSHIP_TAG
#   infra/rolling-upgrade.sh [compose options: -p PROJECT -f FILE ...]
#
# The arguments are compose's own global options, as given to every other compose command of the
# stack. COMPOSE names the compose command (default `docker compose`, else `docker-compose`);
# SERVICE the service (default server); READY_TIMEOUT the seconds a new copy may take to become
# ready (default 300); STOP_TIMEOUT the seconds a stopping copy may drain (default 20, as
# stop_grace_period in docker-compose.yml); SETTLE the seconds between a copy becoming ready and
# the next old copy stopping (default 6: nginx re-resolves the copies every 5 s).
# Exit status 0 when every copy was replaced; otherwise nothing more is stopped, the old copies
# still running keep serving, and the new copy that failed is left for inspection.
set -euo pipefail

SERVICE=${SERVICE:-server}
READY_TIMEOUT=${READY_TIMEOUT:-300}
STOP_TIMEOUT=${STOP_TIMEOUT:-20}
SETTLE=${SETTLE:-6}
if [ -n "${COMPOSE:-}" ]; then
  read -r -a compose_cmd <<<"$COMPOSE"
elif docker compose version >/dev/null 2>&1; then
  compose_cmd=(docker compose)
else
  compose_cmd=(docker-compose)
fi
compose() { "${compose_cmd[@]}" "$@"; }
say() { printf '%s rolling upgrade: %s\n' "$(date -u +%H:%M:%S)" "$1"; }

mapfile -t old < <(compose "$@" ps -q "$SERVICE")
if [ ${#old[@]} -eq 0 ]; then
  echo "No $SERVICE copy is running: start the stack first (compose up -d)." >&2
  exit 1
fi
count=${#old[@]}
say "replacing ${#old[@]} $SERVICE copies one at a time"

known=("${old[@]}")
for previous in "${old[@]}"; do
  # One more copy than now: compose creates it from the current image and settings, and leaves
  # the running ones as they are (--no-recreate) and the other services alone (--no-deps).
  compose "$@" up -d --no-deps --no-recreate --scale "$SERVICE=$((count + 1))" "$SERVICE" >/dev/null
  fresh=""
  for id in $(compose "$@" ps -q "$SERVICE"); do
    [[ " ${known[*]} " == *" $id "* ]] || fresh=$id
  done
  if [ -z "$fresh" ]; then
    echo "compose started no new $SERVICE copy; nothing was stopped." >&2
    exit 1
  fi
  known+=("$fresh")
  name=$(docker inspect -f '{{.Name}}' "$fresh")
  say "started ${name#/}; waiting until it is ready"
  deadline=$((SECONDS + READY_TIMEOUT))
  while true; do
    health=$(docker inspect -f '{{if .State.Health}}{{.State.Health.Status}}{{else}}none{{end}}' "$fresh")
    [ "$health" = "healthy" ] && break
    if [ "$health" = "none" ]; then
      echo "$SERVICE has no health check: its readiness (/readyz) cannot be awaited. Nothing was stopped." >&2
      exit 1
    fi
    # "unhealthy" may be a few probes that timed out on a busy host: one passing probe makes the
    # copy healthy again, so only the deadline or a copy that stopped running ends the wait.
    if [ "$(docker inspect -f '{{.State.Running}}' "$fresh")" != "true" ] || [ $SECONDS -ge $deadline ]; then
      echo "${name#/} did not become ready ($health); ${previous:0:12} and the other old copies keep serving. See: docker logs ${name#/}" >&2
      exit 1
    fi
    sleep 1
  done
  sleep "$SETTLE"
  name=$(docker inspect -f '{{.Name}}' "$previous")
  say "${name#/} drains and stops"
  docker stop -t "$STOP_TIMEOUT" "$previous" >/dev/null
  docker rm "$previous" >/dev/null
done
say "done: $count new $SERVICE copies"
