#!/usr/bin/env bash
# The container tests, for real: picks the engine (Docker when its daemon answers, else podman from
# Debian, installed and set up here: engine.sh), provides the debian:bookworm-slim base (a registry,
# else a cached debootstrap), builds the Dockerfile into a tag of this run, then runs
#   test_image.sh        the container: endpoints, user, HEALTHCHECK, runtime-only image, read-only
#                        root, flags and PUZZLED_* variables, stop drains and exits 0
#   test_compose.sh      docker/compose.yaml: nginx and the replicas, one SIGKILLed under load
#   test_kubernetes.sh   deploy/kubernetes/: schema validation, then podman kube play
#   test_readme_command.sh  the README's one container command (compose.yaml), as the README writes it
# and removes the tag (the layers stay as the build cache). Fails when any check fails. Where no
# container engine can run at all, it says so loudly, names what it skipped, validates the Kubernetes
# manifests offline all the same, and exits 0; failing to install the engine is a failure, not a skip.
#   tests/container/run.sh
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/container/engine.sh

if ! select_engine; then
  if [ "$engine_why" = "setup.sh container failed" ]; then
    echo "FAIL  the container engine could not be installed (scripts/setup.sh container)"
    exit 1
  fi
  cat << EOF
**********************************************************************************************
SKIPPED: no container engine can run on this machine: $engine_why
Not run: the image build from the Dockerfile, the container checks (test_image.sh), compose with
nginx and the replica kill (test_compose.sh), podman kube play of deploy/kubernetes (test_kubernetes.sh).
Run instead: the Kubernetes manifests' offline schema validation, below.
**********************************************************************************************
EOF
  (cd tests/container/kubernetes && { node -e 'require("./node_modules/kubernetes-models/package.json")' 2> /dev/null ||
    npm ci --no-audit --no-fund --loglevel=error > /dev/null; }) && exec node tests/container/kubernetes/validate.mjs deploy/kubernetes/*.yaml deploy/kubernetes/jobs/*.yaml
  exit 1
fi
echo "      engine: $engine ($engine_why)"

seconds() { date +%s; }
started=$(seconds)
ensure_base_image || { echo "FAIL  no debian:bookworm-slim base image (registry or debootstrap)"; exit 1; }
echo "      base image: $base_image_source ($(($(seconds) - started)) s)"

image="localhost/puzzled:test-$$"
tmp=$(mktemp -d)
# shellcheck disable=SC2317 # run by the EXIT trap
cleanup() {
  "$engine" rmi "$image" > /dev/null 2>&1
  podman rmi "$image" > /dev/null 2>&1 # the copy test_kubernetes.sh made when the engine is Docker
  rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

started=$(seconds)
if ! build_image "$image" > "$tmp/build.log" 2>&1; then
  tail -n 30 "$tmp/build.log"
  echo "FAIL  $engine build of the Dockerfile"
  exit 1
fi
echo "ok    $engine builds the Dockerfile into $image ($(($(seconds) - started)) s)"

status=0
run_part() { # part [IMAGE]
  local part=$1
  started=$(seconds)
  echo "-- tests/container/$part.sh"
  tests/container/"$part".sh "${@:2}" 2>&1 | grep -v 'unable to get systemd connection'
  [ "${PIPESTATUS[0]}" = 0 ] || status=1
  echo "      ($part: $(($(seconds) - started)) s)"
}
for part in test_image test_compose test_kubernetes; do run_part "$part" "$image"; done
run_part test_readme_command
exit $status
