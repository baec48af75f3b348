#!/usr/bin/env bash
# Installs, with apt-get, the Debian packages puzzled needs for the named purposes (build, runtime,
# test, fuzz, bench, container) that are not installed yet. The Dockerfile calls this same script, so the
# container and the README's set-up install exactly the same things.
#   scripts/setup.sh build runtime     # what `scripts/run.sh` needs
#   scripts/setup.sh build runtime test   # what `scripts/test.sh quick` needs
#   (scripts/test.sh installs, for the stages it runs, the purposes they need)
set -euo pipefail

declare -A packages=(
  # python3-yaml: web/docs.py writes the /docs page from openapi.yaml at build time.
  [build]="gcc g++ make cmake pkg-config libmicrohttpd-dev libcjson-dev libgmp-dev zlib1g-dev libgnutls28-dev python3 python3-yaml"
  [runtime]="libmicrohttpd12 libcjson1 libgmp10 zlib1g wamerican scowl"
  # test: the quick tier's stages (the format check, the docs, unit and integration tests, the spec's lint, the client's types).
  [test]="libcriterion-dev libcurl4-openssl-dev python3 python3-yaml clang-format curl nodejs npm wamerican scowl qqwing libxml2-utils"
  # suite: what the whole suite's other stages add: nginx, load, Prometheus's promtool, TLS tools, the renderer and the browser.
  [suite]="nginx-light wrk prometheus openssl testssl.sh librsvg2-bin chromium"
  # libFuzzer and its sanitizers come with clang (scripts/fuzz.sh, tests/fuzz/).
  [fuzz]="clang"
  [bench]="curl nginx-light wrk qqwing gnuplot-nox"
  # The container tests (tests/container/): podman with runc (catatonit: the pause process of pods), bridge networking (netavark, aardvark-dns
  # for names, iptables for published ports), podman-compose, and debootstrap for a local base image.
  [container]="podman runc catatonit netavark aardvark-dns iptables podman-compose debootstrap"
)

wanted=()
for purpose in "$@"; do
  [ -n "${packages[$purpose]:-}" ] || { echo "setup.sh: unknown purpose '$purpose' (build, runtime, test, suite, fuzz, bench, container)" >&2; exit 2; }
  for package in ${packages[$purpose]}; do
    # Node.js may come from elsewhere than Debian (it does on the development machines): keep it.
    if [ "$package" = nodejs ] && command -v node > /dev/null; then continue; fi
    if [ "$package" = npm ] && command -v npm > /dev/null; then continue; fi
    status=$(dpkg-query -W -f='${Status}' "$package" 2>/dev/null || true)
    [ "$status" = "install ok installed" ] || wanted+=("$package")
  done
done
[ ${#wanted[@]} -eq 0 ] && exit 0

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "setup.sh: installing ${wanted[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${wanted[@]}" > /dev/null
