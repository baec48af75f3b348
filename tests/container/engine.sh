# shellcheck shell=bash disable=SC2034 # sets variables for the scripts that source it
# Sourced by the container tests (tests/container/*.sh): picks the container engine, sets it up on a
# fresh machine, and provides the local debian:bookworm-slim base image when no registry is reachable.
#   . tests/container/engine.sh
#   select_engine || skip ...       # sets $engine (docker or podman) and $compose; says which and why
#   ensure_base_image               # sets $base_image_source (a sentence saying where the base came from)
#   container_health NAME           # sets $health and $health_status (0: its HEALTHCHECK passes)
# Docker is used when its daemon answers; otherwise podman from Debian, with runc and no default
# ulimits (tests/container/containers.conf: crun refuses the cgroup layout and rlimits of our machines).
# Expensive results are cached under $PUZZLED_CACHE (default /var/cache/puzzled-ci as root, else
# ~/.cache/puzzled): the debootstrapped base is a tarball there, rebuilt when it is missing.

container_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export CONTAINERS_CONF="$container_dir/containers.conf"
if [ "$(id -u)" -eq 0 ]; then
  PUZZLED_CACHE=${PUZZLED_CACHE:-/var/cache/puzzled-ci}
else
  PUZZLED_CACHE=${PUZZLED_CACHE:-$HOME/.cache/puzzled}
fi
base_image=docker.io/library/debian:bookworm-slim
engine=""
compose=()
engine_why=""

# Sets engine and compose, or returns 1 with engine_why saying why no engine can run here.
select_engine() {
  if command -v docker > /dev/null && timeout 20 docker info > /dev/null 2>&1; then
    engine=docker
    compose=(docker compose)
    engine_why="the Docker daemon answers"
    return 0
  fi
  "$container_dir/../../scripts/setup.sh" container || { engine_why="setup.sh container failed"; return 1; }
  local error
  if ! error=$(podman info 2>&1 > /dev/null); then
    engine_why="podman cannot run here: $(tail -n 3 <<< "$error" | tr '\n' ' ')"
    return 1
  fi
  engine=podman
  compose=(podman-compose)
  engine_why="no Docker daemon answers ($(command -v docker > /dev/null && echo 'docker client only' || echo 'no docker')): podman $(podman version --format '{{.Client.Version}}') with runc"
  return 0
}

# debian:bookworm-slim for FROM: pulled from a registry when one answers, else debootstrapped from
# Debian's archive (the mirror apt uses here) into a cached tarball and imported under that name. An
# image imported by an older recipe (its label differs from the recipe's hash) is replaced.
ensure_base_image() {
  local recipe tarball label
  recipe=$(declare -f build_base_tarball | sha256sum | cut -c1-12)
  tarball="$PUZZLED_CACHE/debian-bookworm-minbase-$recipe.tar.gz"
  label=$("$engine" image inspect --format '{{index .Config.Labels "org.puzzled.base-recipe"}}' "$base_image" 2> /dev/null)
  [ "$label" = "<no value>" ] && label="" # an image without that label (pulled from a registry)
  if [ "$label" = "$recipe" ]; then
    base_image_source="$base_image from debootstrap (minbase, slim-like apt and dpkg settings), already imported from $tarball"
    return 0
  fi
  if [ -z "$label" ] && "$engine" image inspect "$base_image" > /dev/null 2>&1; then
    base_image_source="$base_image as found in $engine's image store (not made by this test: pulled earlier)"
    return 0
  fi
  if [ -z "$label" ] && timeout 20 "$engine" pull -q "$base_image" > /dev/null 2>&1; then
    base_image_source="$base_image pulled from a registry"
    return 0
  fi
  if [ ! -s "$tarball" ]; then
    build_base_tarball "$tarball" || return 1
  fi
  "$engine" import --change "LABEL org.puzzled.base-recipe=$recipe" "$tarball" "$base_image" > /dev/null 2>&1 ||
    return 1
  base_image_source="$base_image imported from $tarball (no registry reachable: debootstrap --variant=minbase bookworm)"
}

# The Debian mirror apt uses here, read from apt's own sources and nowhere else (no mirror is written in
# this repository): the first URI of an enabled "deb" entry for the suite bookworm, deb822 stanzas
# (*.sources: Types, URIs, Suites, Enabled) or one-line entries (sources.list, *.list). Fails when
# there is none.
apt_sources=${apt_sources:-"/etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources"}
debian_mirror() {
  local files=() file mirror
  for file in $apt_sources; do
    [ -f "$file" ] && files+=("$file")
  done
  [ ${#files[@]} -gt 0 ] || return 1
  mirror=$(awk '
    function has(list, word) { return (" " list " ") ~ (" " word " ") }
    function stanza_end() {
      if (found) return
      if (types != "" && has(types, "deb") && has(suites, "bookworm") && tolower(enabled) != "no" && uris != "") {
        split(uris, first, " "); print first[1]; found = 1; exit
      }
      types = uris = suites = enabled = ""
    }
    FNR == 1 { stanza_end() }
    FILENAME ~ /\.sources$/ {
      if ($0 ~ /^[[:space:]]*$/) { stanza_end(); next }
      if ($0 ~ /^#/) next
      field = tolower($1); value = $0; sub(/^[^:]*:[[:space:]]*/, "", value)
      if (field == "types:") types = value
      else if (field == "uris:") uris = value
      else if (field == "suites:") suites = value
      else if (field == "enabled:") enabled = value
      next
    }
    { sub(/#.*/, "") }
    $1 == "deb" {
      i = 2
      if ($i ~ /^\[/) { while (i <= NF && $i !~ /\]$/) i++; i++ }
      if ($(i + 1) == "bookworm") { print $i; found = 1; exit }
    }
    END { if (!found) stanza_end() }' "${files[@]}")
  [ -n "$mirror" ] && echo "$mirror"
}

# A bookworm root like the registry's debian:bookworm-slim: debootstrap's minbase, then apt keeping no
# .deb files or package caches and dpkg leaving out documentation, as that image is configured.
build_base_tarball() { # tarball
  local tarball=$1 mirror root status
  if ! mirror=$(debian_mirror); then
    echo "FAIL  apt's sources name no Debian mirror for bookworm (read: $apt_sources); debootstrap needs" \
      "the one apt uses: configure apt first (a 'deb URI bookworm main' line or a deb822 stanza)" >&2
    return 1
  fi
  echo "      debootstrap --variant=minbase bookworm from $mirror (apt's sources) into $tarball (about a minute, cached)"
  mkdir -p "$(dirname "$tarball")"
  root=$(mktemp -d)
  if ! debootstrap --variant=minbase bookworm "$root" "$mirror" > "$root.log" 2>&1; then
    tail -n 20 "$root.log" >&2
    rm -rf "$root" "$root.log"
    return 1
  fi
  cat > "$root/etc/apt/apt.conf.d/docker-clean" << 'CONF'
// No package files or binary caches left behind after apt runs (they would stay in an image layer).
DPkg::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
APT::Update::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
Dir::Cache::pkgcache "";
Dir::Cache::srcpkgcache "";
CONF
  cat > "$root/etc/dpkg/dpkg.cfg.d/docker-slim" << 'CONF'
# Documentation is not installed in this image (copyright files are kept).
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/man/*
path-exclude /usr/share/info/*
path-exclude /usr/share/groff/*
path-exclude /usr/share/lintian/*
CONF
  find "$root/usr/share/doc" -mindepth 2 ! -name copyright ! -type d -delete
  rm -rf "$root"/var/lib/apt/lists/* "$root"/var/cache/apt/*.bin "$root"/var/cache/apt/archives/*.deb \
    "$root"/usr/share/man/* "$root"/usr/share/info/* "$root"/var/log/*.log
  tar --numeric-owner -C "$root" -czf "$tarball.tmp" . && mv "$tarball.tmp" "$tarball"
  status=$?
  rm -rf "$root" "$root.log"
  return $status
}

# Builds the Dockerfile into image $1 (podman: --format docker keeps HEALTHCHECK, which the OCI format
# drops; --pull=never uses the base image ensure_base_image provided; host networking for apt). The
# build stage keeps the tag $build_cache, so the next build reuses it (toolchain layer, and the
# compiled tree when the sources did not change); the build stage it replaces is removed rather than
# left behind as an untagged image of half a gigabyte per run.
build_cache=localhost/puzzled-build-cache:latest
build_image() { # image
  local context=$container_dir/../.. previous current
  previous=$("$engine" image inspect --format '{{.Id}}' "$build_cache" 2> /dev/null)
  if [ "$engine" = podman ]; then
    nice podman build --network host --pull=never --format docker --target build -t "$build_cache" "$context" &&
      nice podman build --network host --pull=never --format docker -t "$1" "$context" || return 1
  else
    DOCKER_BUILDKIT=1 nice docker build --target build -t "$build_cache" "$context" &&
      DOCKER_BUILDKIT=1 nice docker build -t "$1" "$context" || return 1
  fi
  current=$("$engine" image inspect --format '{{.Id}}' "$build_cache" 2> /dev/null)
  if [ -n "$previous" ] && [ "$previous" != "$current" ]; then
    "$engine" rmi "$previous" > /dev/null 2>&1 || true
  fi
}

free_port() { # a free TCP port on loopback
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# Runs a container's HEALTHCHECK and sets health (what was seen) and health_status (0 when healthy):
# podman runs it on demand; Docker runs it itself, every 10 s after a 5 s start period, so its status is
# polled for up to 30 s.
container_health() { # container
  if [ "$engine" = podman ]; then
    podman healthcheck run "$1" > /dev/null 2>&1
    health_status=$?
    health="podman healthcheck run exit $health_status"
    return 0
  fi
  for _ in $(seq 1 30); do
    health=$(docker inspect --format '{{.State.Health.Status}}' "$1")
    [ "$health" = healthy ] && break
    sleep 1
  done
  [ "$health" = healthy ]
  health_status=$?
}
