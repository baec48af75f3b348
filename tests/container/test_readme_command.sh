#!/usr/bin/env bash
# The README's one container command, run as the README writes it. Its first screen (up to the first
# `## ` heading) gives `docker compose up --build` and podman's `podman-compose up --build`; this test
# reads the line for the engine here from the README, so the two cannot drift, and runs it in a fresh
# copy of the tree (the files git knows; the copy's folder name makes the compose project's name,
# and so its containers and image, this run's own), with PUZZLED_HOST_PORT naming a free port instead
# of 8080 (compose.yaml). It checks what the README promises there: the API (/healthz, and
# /openapi.yaml byte for byte the tree's, so the service was built from this tree), the playground
# (/) and the API reference (/docs), the compose healthcheck; then `down` in the copy stops it, the
# command exits 0, and the image it built is removed.
#   tests/container/test_readme_command.sh
# Prints one line per check and `N passed, M failed` last; exits non-zero when a check failed.
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib/checks.sh
. tests/container/engine.sh
select_engine || { echo "FAIL  no container engine: $engine_why"; exit 1; }
tmp=$(mktemp -d)
project="puzzled-readme-$$"
copy=$tmp/$project
image_id=""
up_pid=""
# shellcheck disable=SC2317 # run by the EXIT trap
cleanup() {
  (cd "$copy" 2> /dev/null && "${compose[@]}" down > /dev/null 2>&1)
  [ -n "$up_pid" ] && kill "$up_pid" 2> /dev/null
  [ -n "$image_id" ] && "$engine" rmi -f "$image_id" > /dev/null 2>&1
  rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
# The first build of the image from nothing (toolchain, compile) on a loaded 2-core machine.
BUILD_AND_START_SECONDS=1800

first_screen=$(sed '/^## /q' README.md)
command_line=$(grep -E "^${compose[*]} up( |$)" <<< "$first_screen" | head -n 1 | sed -E 's/[[:space:]]*#.*$//')
check "README's first screen gives the command for $engine: '${command_line}'" test -n "$command_line"
[ -n "$command_line" ] || { checks_summary; exit 1; }

mkdir -p "$copy"
git ls-files -z --cached --others --exclude-standard | tar --null -T - --ignore-failed-read -cf - 2> /dev/null | tar -C "$copy" -xf -
port=$(free_port)
base="http://127.0.0.1:$port"
echo "      in a copy of the tree at $copy: PUZZLED_HOST_PORT=$port $command_line"
# BUILDAH_FORMAT=docker: podman builds in the format run.sh's build used, so this build finds its
# layers in the cache (a user's podman builds the OCI format, the same image less its HEALTHCHECK).
(cd "$copy" && PUZZLED_HOST_PORT=$port BUILDAH_FORMAT=docker exec bash -c "$command_line") > "$tmp/up.log" 2>&1 &
up_pid=$!
started=$(date +%s)
while kill -0 "$up_pid" 2> /dev/null && [ $(($(date +%s) - started)) -lt "$BUILD_AND_START_SECONDS" ]; do
  [ "$(curl -s -o /dev/null -w '%{http_code}' "$base/readyz")" = 200 ] && break
  sleep 1
done
check "the command builds and starts the service, ready on $base in $(($(date +%s) - started)) s" \
  test "$(curl -s "$base/readyz")" = '{"status":"ready"}'
if [ "$failed" -gt 0 ]; then
  sed 's/^/      up | /' "$tmp/up.log" | tail -n 30
  checks_summary
  exit 1
fi
container=$("$engine" ps --filter "label=com.docker.compose.project=$project" --format '{{.Names}}' | head -n 1)
image_id=$("$engine" inspect --format '{{.Image}}' "$container" 2> /dev/null)

check "/healthz answers {\"status\":\"ok\"}" test "$(curl -s "$base/healthz")" = '{"status":"ok"}'
check "/openapi.yaml is the tree's openapi.yaml, byte for byte" cmp -s <(curl -s "$base/openapi.yaml") openapi.yaml
for page in / /docs; do
  type=$(curl -s -o "$tmp/page" -w '%{http_code} %{content_type}' "$base$page")
  check "the page $page is served ($type)" bash -c "[[ '$type' == '200 text/html'* ]] && grep -qi '<html' '$tmp/page'"
done
container_health "$container"
check "the compose healthcheck of $container passes ($health)" test "$health_status" = 0

(cd "$copy" && "${compose[@]}" down) > "$tmp/down.log" 2>&1
check "${compose[*]} down stops it (exit $?)" test -z "$("$engine" ps -a --filter "label=com.docker.compose.project=$project" --format '{{.Names}}')"
for _ in $(seq 1 60); do
  kill -0 "$up_pid" 2> /dev/null || break
  sleep 1
done
if kill -0 "$up_pid" 2> /dev/null; then
  up_status="still running 60 s after down"
else
  wait "$up_pid"
  up_status=$?
  up_pid=""
fi
check "the command then exits 0 ($up_status)" test "$up_status" = 0
checks_summary
[ "$failed" -eq 0 ]
