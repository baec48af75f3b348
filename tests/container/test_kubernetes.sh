#!/usr/bin/env bash
# The Kubernetes manifests (deploy/kubernetes/) for real, as far as one machine without a cluster
# allows: validated offline against the Kubernetes API schemas (kubernetes/validate.mjs, pinned npm
# packages), then the Deployment played with `podman kube play` against IMAGE, with one replica and a
# hostPort on loopback, to check /healthz and /readyz through the port, the user, the read-only root
# and the resource limits. The variant played changes only the name (unique per run), the image, the
# replica count and the hostPort, and prints what it changed: podman 4.3 publishes every
# containerPort on the host (a hostPort or, without one, the containerPort itself), so two replicas
# on one machine would fight over one port. Then the Indexed Job (jobs/queens-count.yaml), which
# podman 4.3's kube play does not run (it plays no Jobs): its pod template, as a Pod, played K = 8
# times side by side with JOB_COMPLETION_INDEX set to 0..7 as the Job controller sets it, counting
# n = 15; the pods' logs added up by jobs/sum-parts.py must be OEIS's 2,279,184 (and 285,053).
#   tests/container/test_kubernetes.sh IMAGE
# Prints one line per check and `N passed, M failed` last; exits non-zero when a check failed.
set -u
cd "$(dirname "$0")/../.." || exit 2
image=${1:?usage: tests/container/test_kubernetes.sh IMAGE}
. tests/lib/checks.sh
. tests/container/engine.sh
manifests=deploy/kubernetes
tmp=$(mktemp -d)
played=()
# shellcheck disable=SC2317 # run by the EXIT trap
cleanup() {
  for file in "${played[@]}"; do podman kube down "$file" > /dev/null 2>&1; done
  rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# --- Offline validation against the API schemas, and the cross-file properties.
validator=tests/container/kubernetes
if ! (cd "$validator" && node -e 'process.exit(require("./node_modules/kubernetes-models/package.json").version === require("./package.json").devDependencies["kubernetes-models"] ? 0 : 1)' 2> /dev/null); then
  echo "      installing the pinned validator packages (npm ci in $validator)"
  (cd "$validator" && npm ci --no-audit --no-fund --loglevel=error --fetch-retries=1 > "$tmp/npm.log" 2>&1) ||
    { cat "$tmp/npm.log"; fail "npm ci in $validator"; }
fi
while read -r outcome rest; do
  case $outcome in
    ok) pass "(manifests) $rest" ;;
    *) fail "(manifests) $outcome $rest" ;;
  esac
done < <(node "$validator/validate.mjs" "$manifests"/*.yaml "$manifests"/jobs/*.yaml 2>&1 | grep -vE '^[0-9]+ passed, [0-9]+ failed$')

# --- podman kube play: Docker has no equivalent, so a Docker-built image is copied into podman.
if ! podman image exists "$image" 2> /dev/null; then
  "$engine" save "$image" | podman load > /dev/null ||
    { fail "copy $image from $engine into podman for kube play"; checks_summary; exit 1; }
fi
# variant FILE NAME REPLICAS HOSTPORT IMAGE: the Deployment with only those fields changed.
variant() {
  python3 - "$manifests/deployment.yaml" "$@" << 'EOF'
import sys, yaml
source, target, name, replicas, host_port = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
image = sys.argv[6]
with open(source) as f:
    deployment = yaml.safe_load(f)
container = next(c for c in deployment["spec"]["template"]["spec"]["containers"] if c["name"] == "puzzled")
changes = [f"name {deployment['metadata']['name']} -> {name}", f"image {container['image']} -> {image}",
           f"replicas {deployment['spec']['replicas']} -> {replicas}"]
deployment["metadata"]["name"], container["image"], deployment["spec"]["replicas"] = name, image, replicas
container["ports"][0].update(hostPort=host_port, hostIP="127.0.0.1")
changes.append(f"hostPort 127.0.0.1:{host_port}")
with open(target, "w") as f:
    yaml.safe_dump(deployment, f)
print(", ".join(changes))
EOF
}

# One replica behind a loopback hostPort.
port=$(free_port)
name="puzzled-kube-$$"
echo "      played: $(variant "$tmp/one.yaml" "$name" 1 "$port" "$image")"
podman kube play "$tmp/one.yaml" > "$tmp/play.out" 2>&1
play_status=$?
played+=("$tmp/one.yaml")
check "podman kube play the Deployment (one replica, hostPort $port)" test "$play_status" = 0
[ "$play_status" = 0 ] || sed 's/^/      | /' "$tmp/play.out"
base="http://127.0.0.1:$port"
for _ in $(seq 1 100); do
  [ "$(curl -s -o /dev/null -w '%{http_code}' "$base/readyz")" = 200 ] && break
  sleep 0.1
done
check "liveness: /healthz answers {\"status\":\"ok\"} through the hostPort" test "$(curl -s "$base/healthz")" = '{"status":"ok"}'
check "readiness: /readyz answers {\"status\":\"ready\"} through the hostPort" test "$(curl -s "$base/readyz")" = '{"status":"ready"}'
check "an endpoint answers through the hostPort (queens n=6 count: $(curl -s "$base/queens?n=6&mode=count"))" \
  grep -q '"total":"4"' <(curl -s "$base/queens?n=6&mode=count")
container="$name-pod-0-puzzled"
check "the container runs as uid 10001 (runAsUser)" test "$(podman exec "$container" id -u 2> /dev/null)" = 10001
check "its root filesystem is read-only (readOnlyRootFilesystem: a write to / fails)" \
  test "$(podman exec "$container" sh -c 'touch /probe 2> /dev/null && echo written || echo refused')" = refused
settings=$(podman inspect --format '{{.HostConfig.ReadonlyRootfs}} {{.HostConfig.Memory}} {{.HostConfig.NanoCpus}}' "$container" 2> /dev/null)
check "podman applied readOnlyRootFilesystem, the 512Mi memory limit and the 2 CPU limit (got: $settings)" \
  test "$settings" = "true 536870912 2000000000"
podman kube down "$tmp/one.yaml" > /dev/null 2>&1
check "podman kube down removes it" test -z "$(podman pod ps -q --filter "name=^$name-pod-")"

# --- The Indexed Job's pod template, K times: pod i as the Job controller makes it (the variable
# JOB_COMPLETION_INDEX=i), with only the board, the parts and the image changed.
parts=8
# job_pod FILE NAME INDEX PARTS IMAGE: the Job's pod template as a Pod, for part INDEX of n = 15.
job_pod() {
  python3 - "$manifests/jobs/queens-count.yaml" "$@" << 'EOF'
import sys, yaml
source, target, name, index, parts, image = sys.argv[1:7]
with open(source) as f:
    job = yaml.safe_load(f)
template = job["spec"]["template"]
container = template["spec"]["containers"][0]
args = container["args"]
args[args.index("--count-queens") + 1] = "15"
args[args.index("--parts") + 1] = parts
container["image"] = image
container.setdefault("env", []).append({"name": "JOB_COMPLETION_INDEX", "value": index})
pod = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name, "labels": template["metadata"]["labels"]},
       "spec": template["spec"]}
with open(target, "w") as f:
    yaml.safe_dump(pod, f)
print(f"Pod {name}: --count-queens 15 --parts {parts}, JOB_COMPLETION_INDEX={index}, image {image}")
EOF
}
job="puzzled-count-$$"
played_all=true
for index in $(seq 0 $((parts - 1))); do
  description=$(job_pod "$tmp/part-$index.yaml" "$job-$index" "$index" "$parts" "$image")
  [ "$index" = 0 ] && echo "      played: $description (and so on to index $((parts - 1)))"
  podman kube play "$tmp/part-$index.yaml" > "$tmp/part-$index.out" 2>&1 ||
    { played_all=false; sed 's/^/      | /' "$tmp/part-$index.out"; }
  played+=("$tmp/part-$index.yaml")
done
check "podman kube play the Job's pod template $parts times, side by side" $played_all
exits=""
for index in $(seq 0 $((parts - 1))); do exits+="$(podman wait "$job-$index-puzzled" 2> /dev/null) "; done
check "every pod's count exits 0 (exit codes: $exits)" test "$exits" = "$(printf '0 %.0s' $(seq 1 $parts))"
for index in $(seq 0 $((parts - 1))); do podman logs "$job-$index-puzzled" 2>&1; done > "$tmp/logs"
summed=$(deploy/kubernetes/jobs/sum-parts.py "$parts" < "$tmp/logs" 2>&1)
check "the $parts parts' logs add up (sum-parts.py) to OEIS's 2,279,184 and 285,053 for n = 15: $summed" \
  test "$summed" = '{"kind":"queens_count","n":15,"found":true,"total":"2279184","unique_total":"285053","parts":8}'
for index in $(seq 0 $((parts - 1))); do podman kube down "$tmp/part-$index.yaml" > /dev/null 2>&1; done
check "podman kube down removes the $parts pods" test -z "$(podman pod ps -q --filter "name=^$job-")"

checks_summary
[ "$failed" -eq 0 ]
