#!/usr/bin/env bash
# The one benchmark command: builds the benchmarks (Release), starts puzzled, runs every benchmark
# binary (bench/<name>/*.c|*.cpp -> bench_<name>) and every bench/<name>/http.sh, and prints one table:
# each measure, our figure, the peer's figure from the same run, and the ratio (>1: we are better).
# Every benchmark prints TSV rows: measure, ours, peer name, peer value, unit, lower|higher.
# Then bench/curves/run.sh draws the scaling curves (bench/results/curve-*.svg) and prints their growth rates.
#   bench/run.sh                 # every benchmark
#   bench/run.sh sudoku queens   # only bench/sudoku and bench/queens, and only their curves
# Peers that the user builds are named by environment variables (TDOKU_DIR: bench/sudoku/README.md).
set -euo pipefail
names=("$@")
selected() { [ ${#names[@]} -eq 0 ] || printf '%s\n' "${names[@]}" | grep -qx "$1"; }
cd "$(dirname "$0")/.."
scripts/setup.sh build runtime bench > /dev/null
scripts/build.sh build-bench -DCMAKE_BUILD_TYPE=Release -DPUZZLED_TESTS=OFF -DPUZZLED_BENCH=ON > /dev/null

rows=$(mktemp)
log=$(mktemp)
build-bench/puzzled --host 127.0.0.1 --port 0 --client-rate 0 > "$log.out" 2> "$log" &
server=$!
trap 'kill $server 2>/dev/null; rm -f "$rows" "$log" "$log.out"' EXIT
for _ in $(seq 1 200); do grep -q '^listening on ' "$log.out" && break; sleep 0.05; done
export PUZZLED_URL=$(sed -n 's/^listening on //p' "$log.out")
export PUZZLED_BIN=$PWD/build-bench/puzzled
export PUZZLED_PID=$server

for binary in build-bench/bench/bench_*; do
  [ -x "$binary" ] && selected "${binary#build-bench/bench/bench_}" || continue
  echo "running $(basename "$binary")" >&2
  "$binary" >> "$rows" || echo "$(basename "$binary") failed" >&2
done
for script in bench/*/http.sh; do
  selected "$(basename "$(dirname "$script")")" || continue
  echo "running $script" >&2
  bash "$script" >> "$rows" || echo "$script failed" >&2
done

echo
echo "Machine: $(nproc) cores, $(awk -F': ' '/model name/ {print $2; exit}' /proc/cpuinfo), $(free -g | awk '/Mem:/ {print $2}') GiB; $(date -u +%Y-%m-%d)"
echo
echo "| measure | puzzled | peer | peer's figure | unit | ratio (>1: puzzled better) |"
echo "|---|---|---|---|---|---|"
awk -F'\t' 'NF >= 6 {
  ratio = "-"
  if ($4 != "-" && $2 + 0 > 0 && $4 + 0 > 0) ratio = sprintf("%.2f", $6 == "lower" ? $4 / $2 : $2 / $4)
  printf "| %s | %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5, ratio
}' "$rows"

if [ ${#names[@]} -eq 0 ]; then
  bench/curves/run.sh build-bench bench/results
else # the selected benchmarks' curves only, drawn from their points (an http.sh-only benchmark has none)
  mkdir -p bench/results
  for name in "${names[@]}"; do
    [ ! -x build-bench/bench/bench_"$name" ] || build-bench/bench/bench_"$name" curve || true
  done > bench/results/curve-points.tsv
  [ ! -s bench/results/curve-points.tsv ] || bench/curves/run.sh build-bench bench/results bench/results/curve-points.tsv
fi
