#!/usr/bin/env bash
# docker/compose.yaml for real: nginx in front of the puzzled replicas, started with the engine's
# compose (podman-compose, or docker compose), then the scale-out checks of tests/scaleout/
# (under_load.sh): every endpoint's answer through the proxy, wrk load with one replica SIGKILLed in
# the middle and zero failed requests, a second replica killed while a slow request is known to be
# computing on it (read from its /metrics on the admin port, reached at its address on the project
# network) and that request retried by nginx and answered whole, every answer again through the
# replica left; then torn down.
# The file is run as a variant that changes only what this machine needs, and prints it: the image
# (IMAGE, already built, instead of building again), a project name unique to the run, nginx's port
# (a free loopback port instead of 8080 on every interface), and the proxy image: no registry is
# reachable for nginx:1.28, so Debian's nginx-light (1.22, tests/container/nginx.Dockerfile) runs the
# same docker/nginx.conf with an upstream.conf naming the replicas without `resolve` (nginx 1.27.3+
# only): 1.22 resolves the service name once, at start, to every replica's address.
#   tests/container/test_compose.sh IMAGE
# Prints one line per check and `N passed, M failed` last; exits non-zero when a check failed.
set -u
cd "$(dirname "$0")/../.." || exit 2
image=${1:?usage: tests/container/test_compose.sh IMAGE}
. tests/lib/checks.sh
. tests/container/engine.sh
. tests/scaleout/under_load.sh
select_engine || { echo "FAIL  no container engine: $engine_why"; exit 1; }
project="puzzled-compose-$$"
tmp=$(mktemp -d)
chmod 755 "$tmp" # mounted into the nginx container, whose workers run as nobody
nginx_image=localhost/puzzled-test-nginx:bookworm
# shellcheck disable=SC2317 # run by the EXIT trap
cleanup() {
  [ -f "$tmp/compose.yaml" ] && "${compose[@]}" -p "$project" -f "$tmp/compose.yaml" down -v > /dev/null 2>&1
  rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

build_log=$tmp/nginx-build.log
if [ "$engine" = podman ]; then
  nice podman build --network host --pull=never -t "$nginx_image" -f tests/container/nginx.Dockerfile tests/container > "$build_log" 2>&1
else
  nice docker build -t "$nginx_image" -f tests/container/nginx.Dockerfile tests/container > "$build_log" 2>&1
fi
status=$?
check "the proxy image $nginx_image builds (Debian's nginx-light on $base_image)" test "$status" = 0
[ "$status" = 0 ] || { tail -n 20 "$build_log"; checks_summary; exit 1; }

port=$(free_port)
tls_port=$(free_port)
sed -E '/^resolver /d; s/ resolve / /' docker/upstream.conf > "$tmp/upstream.conf"
python3 - docker/compose.yaml "$tmp/compose.yaml" "$image" "$nginx_image" "$port" "$tls_port" "$tmp/upstream.conf" \
  "$(pwd)/docker" "$slow_time_limit_ms" << 'EOF' || { fail "write the compose variant"; checks_summary; exit 1; }
import sys, yaml
source, target, image, nginx_image, port, tls_port, upstream, docker_dir, slow_time_limit_ms = sys.argv[1:]
with open(source) as f:
    compose = yaml.safe_load(f)
puzzled, nginx = compose["services"]["puzzled"], compose["services"]["nginx"]
changes = [f"puzzled: image {puzzled['image']} -> {image}, no build",
           f"nginx: image {nginx['image']} -> {nginx_image}, ports {nginx['ports']} -> "
           f"127.0.0.1:{port}:8080, 127.0.0.1:{tls_port}:8443"]
puzzled["image"] = image
del puzzled["build"]
nginx["image"], nginx["ports"] = nginx_image, [f"127.0.0.1:{port}:8080", f"127.0.0.1:{tls_port}:8443"]
volumes = []
for volume in nginx["volumes"]:
    source_path, mount = volume.split(":", 1)
    if not source_path.startswith("./"):  # a named volume (the certificate's)
        volumes.append(volume)
    elif source_path == "./upstream.conf":
        volumes.append(f"{upstream}:{mount}")
        changes.append("upstream.conf without resolver/resolve")
    else:  # the same file, named by its absolute path (the variant lives elsewhere)
        volumes.append(f"{docker_dir}/{source_path.removeprefix('./')}:{mount}")
nginx["volumes"] = volumes
# The load below is one client (wrk) hammering the proxy: per-client limits would answer it 429.
puzzled["environment"]["PUZZLED_CLIENT_RATE"] = "0"
changes.append("puzzled: PUZZLED_CLIENT_RATE=0 (the load is one client)")
# The retry check's slow requests must not run out of time on a loaded machine (under_load.sh).
puzzled["environment"]["PUZZLED_TIME_LIMIT_MS"] = slow_time_limit_ms
changes.append(f"puzzled: PUZZLED_TIME_LIMIT_MS={slow_time_limit_ms} (the slow requests on a loaded machine)")
with open(target, "w") as f:
    yaml.safe_dump(compose, f)
print("      compose variant: " + "; ".join(changes))
EOF
replica_count=$(python3 -c 'import sys, yaml; print(yaml.safe_load(open(sys.argv[1]))["services"]["puzzled"]["deploy"]["replicas"])' docker/compose.yaml)
echo "      ${compose[*]} -p $project up -d ($replica_count replicas and nginx)"
"${compose[@]}" -p "$project" -f "$tmp/compose.yaml" up -d > "$tmp/up.log" 2>&1
check "${compose[*]} up -d starts the stack" test $? = 0
# Containers of the run, by service (both engines label them with Docker's compose labels).
containers_of() { # service
  "$engine" ps -a --filter "label=com.docker.compose.project=$project" \
    --filter "label=com.docker.compose.service=$1" --format '{{.Names}}' | sort
}
mapfile -t replica_names < <(containers_of puzzled)
nginx_name=$(containers_of nginx | head -n 1)
check "$replica_count puzzled replicas and nginx are up (${replica_names[*]} ${nginx_name})" \
  test "${#replica_names[@]}" = "$replica_count" -a -n "$nginx_name"
proxy="http://127.0.0.1:$port"
for _ in $(seq 1 100); do # 10 s and more: guards a stack that never comes up (it takes a few seconds)
  [ "$(curl -s -o /dev/null -w '%{http_code}' "$proxy/readyz")" = 200 ] && break
  sleep 0.1
done
check "nginx answers /readyz through the published port $proxy" \
  test "$(curl -s "$proxy/readyz")" = '{"status":"ready"}'
if [ "$failed" -gt 0 ]; then
  sed 's/^/      | /' "$tmp/up.log" | tail -n 30
  [ -n "$nginx_name" ] && "$engine" logs "$nginx_name" 2>&1 | tail -n 20 | sed 's/^/      nginx | /'
  checks_summary
  exit 1
fi

# The hooks of under_load.sh: replica_names[0] is killed under load, replica_names[1] with the slow
# request in flight.
replicas=("${replica_names[@]}")
replica_log() { "$engine" logs "$1" 2>&1; }
replica_ip() { "$engine" inspect --format '{{range .NetworkSettings.Networks}}{{.IPAddress}}{{end}}' "$1"; }
replica_metrics() { curl -s --max-time 5 "http://$(replica_ip "$1"):9090/metrics"; }
replica_address() { echo "$(replica_ip "$1"):8080"; }
kill_replica() {
  "$engine" kill --signal KILL "$1" > /dev/null
  killed_status=$("$engine" wait "$1" 2> /dev/null | tail -n 1)
}
proxy_access_log() { "$engine" logs "$nginx_name" 2> /dev/null; }
check "the admin port of ${replica_names[1]} answers /metrics at its address ($(replica_ip "${replica_names[1]}"):9090)" \
  bash -c "curl -s --max-time 5 'http://$(replica_ip "${replica_names[1]}"):9090/metrics' | grep -q '^puzzled_workers_busy '"
check_answers "(compose, $replica_count replicas)"
check_http2 "https://127.0.0.1:$tls_port"
load_with_a_kill "${replica_names[0]}"
retry_in_flight "${replica_names[1]}"
check_answers "(compose, after the kills)"

"${compose[@]}" -p "$project" -f "$tmp/compose.yaml" down -v > "$tmp/down.log" 2>&1
check "${compose[*]} down tears it down (exit $?)" test -z "$(containers_of puzzled; containers_of nginx)"
checks_summary
[ "$failed" -eq 0 ]
