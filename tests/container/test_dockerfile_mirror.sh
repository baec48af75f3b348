#!/usr/bin/env bash
# Guards the Dockerfile without a Docker engine: it must stay a mirror of the README's set-up
# (scripts/run.sh: the same scripts/setup.sh purposes, the same scripts/build.sh command), its runtime
# stage must hold only runtime packages, run as a non-root user and be configured only by variables the
# binary knows; then the runtime stage's command and health check are run for real, with the
# Dockerfile's environment, in a private network namespace when one can be made.
#   tests/container/test_dockerfile_mirror.sh [PUZZLED_BIN]     (default build/puzzled)
# Prints one line per check and `N passed, M failed` last; exits non-zero when a check failed.
set -u
cd "$(dirname "$0")/../.." || exit 2
bin=$(realpath "${1:-build/puzzled}")
. tests/lib/checks.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# --- The Dockerfile as instructions: "stage<TAB>INSTRUCTION<TAB>arguments", continuations joined.
awk '
  /^[[:space:]]*#/ { next }
  !continued && /^[[:space:]]*$/ { next }
  {
    text = continued ? text " " $0 : $0
    if (text ~ /\\[[:space:]]*$/) { sub(/\\[[:space:]]*$/, "", text); continued = 1; next }
    continued = 0
    sub(/^[[:space:]]+/, "", text)
    gsub(/[[:space:]]+/, " ", text)
    word = toupper(substr(text, 1, index(text " ", " ") - 1))
    if (word == "FROM") stage++
    print stage "\t" word "\t" substr(text, length(word) + 2)
  }' Dockerfile > "$tmp/instructions"
stages=$(cut -f1 "$tmp/instructions" | sort -un | wc -l)
runtime_stage=$stages
instructions() { # stage (or "any"), instruction: its arguments, one line each
  awk -F'\t' -v stage="$1" -v word="$2" '(stage == "any" || $1 == stage) && $2 == word { print $3 }' \
    "$tmp/instructions"
}
build_stage=$(awk -F'\t' '$2 == "RUN" && $3 ~ /scripts\/build\.sh/ { print $1; exit }' "$tmp/instructions")
build_stage=${build_stage:-0}
# The purposes given to setup.sh by one command text, sorted, space-separated.
setup_purposes() { grep -oE 'setup\.sh( +[a-z]+)+' | cut -d' ' -f2- | tr ' ' '\n' | sort -u | xargs; }
# The words of an exec-form array such as ["puzzled", "--health-check"], one per line.
exec_form_words() { sed -E 's/^\[ *//; s/ *\]$//' <<< "$1" | tr ',' '\n' | sed -E 's/^ *"//; s/" *$//'; }

# --- Stages and the mirror of scripts/run.sh (the README's set-up command).
check "every stage is FROM debian:bookworm-slim, and there is a build stage and a runtime stage" \
  test "$stages" -ge 2 -a -z "$(instructions any FROM | grep -vE '^debian:bookworm-slim( AS [a-z-]+)?$')"
check "README.md starts the service with scripts/run.sh" grep -q 'scripts/run\.sh' README.md
readme_purposes=$(grep -E '^[^#]*scripts/setup\.sh' scripts/run.sh | setup_purposes)
docker_purposes=$(instructions any RUN | setup_purposes)
check "Dockerfile calls setup.sh with the purposes of scripts/run.sh ($readme_purposes): got '$docker_purposes'" \
  test -n "$readme_purposes" -a "$docker_purposes" = "$readme_purposes"
build_purposes=$(instructions "$build_stage" RUN | setup_purposes)
check "the build stage runs scripts/setup.sh build: got '$build_purposes'" test "$build_purposes" = build
runtime_purposes=$(instructions "$runtime_stage" RUN | setup_purposes)
check "the runtime stage runs setup.sh runtime and nothing else: got '$runtime_purposes'" \
  test "$runtime_purposes" = runtime
check "Dockerfile installs packages only through setup.sh (no apt-get/apt install of its own)" \
  test -z "$(instructions any RUN | grep -E '(apt-get|apt|dpkg) +(-[^ ]+ +)*(install|-i)')"
readme_build=$(grep -oE '^[^#]*scripts/build\.sh[^&;|]*' scripts/run.sh | sed -E 's/^.*(scripts\/build\.sh)/\1/; s/ +$//')
docker_build=$(instructions "$build_stage" RUN | grep -oE 'scripts/build\.sh[^&;|]*' | sed -E 's/ +$//')
check "the build stage builds with '$readme_build' as scripts/run.sh does: got '$docker_build'" \
  test -n "$readme_build" -a "$docker_build" = "$readme_build"
readme_binary=$(sed -nE 's/^[^#]*exec +([^ ]+).*/\1/p' scripts/run.sh)
workdir=$(instructions "$build_stage" WORKDIR | tail -n 1)
binary_copy=$(instructions "$runtime_stage" COPY | grep -E -- "^--from=[^ ]+ ${workdir:-/}/?$readme_binary ")
check "the runtime stage copies the executable scripts/run.sh starts ($workdir/$readme_binary) from the build stage" \
  test -n "$binary_copy"
check "the runtime stage copies only the executable and openapi.yaml" \
  test -z "$(instructions "$runtime_stage" COPY | grep -vE -- "^--from=[^ ]+ [^ ]*/puzzled [^ ]+$|^openapi\.yaml [^ ]+$")"
check "the build context leaves out host build trees (.dockerignore has build*)" \
  grep -qxE 'build\*/?|/build\*/?' .dockerignore

# --- The runtime packages: no -dev package, and every library the binary needs.
runtime_packages=$(sed -nE 's/^[[:space:]]*\[runtime\]="([^"]*)".*/\1/p' scripts/setup.sh)
check "setup.sh has a runtime purpose: '$runtime_packages'" test -n "$runtime_packages"
check "setup.sh runtime names no -dev package" test -z "$(tr ' ' '\n' <<< "$runtime_packages" | grep -E -- '-dev$')"
# shellcheck disable=SC2086 # the package list is words
apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts --no-breaks --no-replaces \
  --no-enhances $runtime_packages 2> /dev/null | grep -vE '^ |^<' | sort -u > "$tmp/closure"
check "setup.sh runtime pulls in no -dev package as a dependency ($(wc -l < "$tmp/closure") packages)" \
  test -s "$tmp/closure" -a -z "$(grep -E -- '-dev$' "$tmp/closure")"
owner_of() { # the package that installed a file, trying both sides of the merged /usr
  local path=$1 alternative=${1#/usr}
  [ "$alternative" = "$path" ] && alternative=/usr$path
  { dpkg-query -S "$path" || dpkg-query -S "$alternative"; } 2> /dev/null | head -n 1 | cut -d: -f1
}
missing=""
for library in $(readelf -d "$bin" | sed -nE 's/.*\(NEEDED\).*\[(.*)\]/\1/p'); do
  path=$(ldd "$bin" | awk -v lib="$library" '$1 == lib { print $3 }')
  package=$(owner_of "$path")
  grep -qx "$package" "$tmp/closure" || missing="$missing $library($path:${package:-no package})"
done
check "every library the binary needs comes from setup.sh runtime or its dependencies:${missing:- yes}" \
  test -z "$missing"

# --- The runtime stage's configuration.
user=$(instructions "$runtime_stage" USER | tail -n 1)
check "the runtime stage runs as a non-root user: USER '${user}'" \
  test -n "$user" -a "${user%%:*}" != root -a "${user%%:*}" != 0
declare -a environment=()
for assignment in $(instructions "$runtime_stage" ENV); do environment+=("${assignment//\"/}"); done
check "ENV uses KEY=VALUE pairs: ${environment[*]}" test -z "$(printf '%s\n' "${environment[@]}" | grep -v =)"
value_of() { printf '%s\n' "${environment[@]}" | sed -n "s/^$1=//p" | tail -n 1; }
check "ENV PUZZLED_HOST=0.0.0.0 (listen on all interfaces)" test "$(value_of PUZZLED_HOST)" = 0.0.0.0
check "EXPOSE 8080 and ENV PUZZLED_PORT=8080" \
  test "$(instructions "$runtime_stage" EXPOSE)" = 8080 -a "$(value_of PUZZLED_PORT)" = 8080
check "STOPSIGNAL SIGTERM" test "$(instructions "$runtime_stage" STOPSIGNAL)" = SIGTERM
healthcheck_form=$(instructions "$runtime_stage" HEALTHCHECK | sed -nE 's/.*CMD (\[.*\])$/\1/p')
mapfile -t healthcheck < <(exec_form_words "$healthcheck_form")
check "HEALTHCHECK CMD [\"puzzled\", \"--health-check\"] in exec form: got '$healthcheck_form'" \
  test "${healthcheck[*]}" = "puzzled --health-check"
entrypoint_form=$(instructions "$runtime_stage" ENTRYPOINT | tail -n 1)
mapfile -t entrypoint < <(exec_form_words "$entrypoint_form")
check "ENTRYPOINT runs puzzled in exec form, so SIGTERM reaches it: got '$entrypoint_form'" \
  test "${entrypoint[0]:-}" = puzzled -a "${entrypoint_form:0:1}" = "["
"$bin" --help > "$tmp/help"
unknown=""
# The variables set: the Dockerfile's ENV keys and compose's "NAME: value" or "- NAME=value" entries.
for name in $({ printf '%s\n' "${environment[@]%%=*}"
  sed -nE 's/^[[:space:]]*-?[[:space:]]*(PUZZLED_[A-Z0-9_]+)[[:space:]]*[:=].*/\1/p' docker/compose.yaml; } | sort -u); do
  grep -qw "$name" "$tmp/help" || unknown="$unknown $name"
done
check "every PUZZLED_* variable set in Dockerfile and docker/compose.yaml is listed by puzzled --help:${unknown:- yes}" \
  test -z "$unknown"
dictionary=$(value_of PUZZLED_DICT)
dictionary=${dictionary:-$(grep -oE 'default /[^)]*' "$tmp/help" | grep -m1 dict | cut -d' ' -f2)}
check "the word list $dictionary is installed by setup.sh runtime ($(owner_of "$dictionary"))" \
  grep -qx "$(owner_of "$dictionary")" <<< "$(tr ' ' '\n' <<< "$runtime_packages")"

if command -v hadolint > /dev/null; then
  check "hadolint finds nothing" hadolint Dockerfile
fi

# --- The runtime stage's command, for real: ENTRYPOINT with the Dockerfile's ENV, then HEALTHCHECK.
mkdir "$tmp/path"
ln -s "$bin" "$tmp/path/puzzled"
# Prints "<port it listened on> <health check status> <SIGTERM exit status> <health check status after>".
# $1 = 1 inside a fresh network namespace (loopback to bring up, the Dockerfile's port free).
run_runtime_stage() {
  local in_namespace=$1 port_override=() port="" status_up status_stop status_down
  if [ "$in_namespace" = 1 ]; then ip link set lo up || return 1; else port_override=(PUZZLED_PORT=0); fi
  env "${environment[@]}" "${port_override[@]}" PATH="$tmp/path:$PATH" "${entrypoint[@]}" \
    > "$tmp/stdout" 2> "$tmp/stderr" &
  local server=$!
  for _ in $(seq 1 100); do
    port=$(sed -nE 's/^listening on http:\/\/.*:([0-9]+)$/\1/p' "$tmp/stdout")
    [ -n "$port" ] && break
    sleep 0.05
  done
  env "${environment[@]}" PUZZLED_PORT="${port:-1}" PATH="$tmp/path:$PATH" "${healthcheck[@]}" > /dev/null
  status_up=$?
  kill -TERM "$server"
  wait "$server"
  status_stop=$?
  env "${environment[@]}" PUZZLED_PORT="${port:-1}" PATH="$tmp/path:$PATH" "${healthcheck[@]}" > /dev/null
  status_down=$?
  echo "${port:-none} $status_up $status_stop $status_down"
}
if result=$(unshare --net --map-root-user bash -c \
  "$(declare -p environment entrypoint healthcheck tmp); $(declare -f run_runtime_stage); run_runtime_stage 1" \
  2> /dev/null); then
  where="in a private network namespace, with PUZZLED_PORT=$(value_of PUZZLED_PORT) as written"
else
  result=$(run_runtime_stage 0)
  where="on a free port (no network namespace here, so PUZZLED_PORT is overridden)"
fi
read -r port status_up status_stop status_down <<< "$result"
echo "      runtime command ${entrypoint[*]} with ${environment[*]} $where: listened on port $port"
[ "$port" = none ] && sed 's/^/      | /' "$tmp/stderr"
check "the runtime command starts and its HEALTHCHECK command exits 0" test "$port" != none -a "$status_up" = 0
check "STOPSIGNAL SIGTERM stops it cleanly (exit status 0): got $status_stop" test "$status_stop" = 0
check "the HEALTHCHECK command exits non-zero once it is stopped: got $status_down" test "$status_down" != 0

checks_summary
[ "$failed" -eq 0 ]
