#!/usr/bin/env bash
# Scaling curves: how the cost of each endpoint's core grows with the work, beside its peer where one
# exists. Runs every benchmark binary that has a curve mode with the argument `curve` (bench/lib/curve.h:
# rows of curve, size, our seconds, the peer's seconds or -, the peer's name), keeps the points as
# <out>/curve-<name>.tsv, fits the growth by least squares (on the larger half of the sizes, where fixed
# costs no longer dominate, unless the curve names its own range), prints the growth rates as a Markdown
# table and draws <out>/curve-<name>.svg with gnuplot (log-log for polynomial curves, log-linear for
# exponential ones).
#   bench/curves/run.sh [build-dir] [out-dir]      # defaults: build-bench, bench/results (from the top)
#   bench/curves/run.sh build-bench bench/results bench/results/curve-points.tsv  # redraw saved points
# bench/run.sh calls it after the ratio table; a few minutes (queens n = 17 is most of it).
set -euo pipefail
saved=${3:+$(realpath "$3")} # before the cd: a path relative to where the caller stands
cd "$(dirname "$0")/../.."
build=${1:-build-bench}
out=${2:-bench/results}
mkdir -p "$out"

# name: binary, kind (power: cost ~ size^k, fitted on log-log; exponential: cost ~ b^size), the sizes
# the fit covers ("upper": the larger half; "low-high": that range), x-axis label. Ladders: a plain BFS
# covers the whole connected component after about 10 steps, so only the steps before that tell growth.
curves=(
  "rank:bench_rank:power:upper:items"
  "unrank:bench_rank:power:upper:items"
  "shuffle:bench_random:power:upper:items"
  "knight:bench_knight:power:upper:squares (n x n boards, open tour from the corner)"
  "queens:bench_queens:exponential:upper:n (board side; count of all solutions)"
  "ladder:bench_ladder:exponential:1-10:steps of the shortest ladder (5-letter words, built-in list)"
  "sudoku:bench_sudoku:power:upper:search nodes of puzzled's 9x9 search (power-of-two buckets; bench/sudoku/data)"
)

points=$out/curve-points.tsv
if [ -n "$saved" ]; then
  [ "$saved" -ef "$points" ] || cp "$saved" "$points"
else
  : > "$points"
  for binary in $(printf '%s\n' "${curves[@]}" | cut -d: -f2 | sort -u); do
    echo "curves: running $binary curve" >&2
    "$build/bench/$binary" curve >> "$points" || echo "curves: $binary failed" >&2
  done
fi

# Least-squares slope of log(cost) on log(size) (power) or on size (exponential), over the sizes the
# range says that have the column; prints "-" without at least two points.
fit() { # file column kind range
  awk -F'\t' -v column="$2" -v kind="$3" -v range="$4" '
    BEGIN { n = 0; if (range != "upper") { split(range, bounds, "-"); low = bounds[1]; high = bounds[2] } }
    $column != "-" && (range == "upper" || ($2 >= low && $2 <= high)) {
      x[n] = kind == "power" ? log($2) : $2; y[n] = log($column); n++
    }
    END {
      if (n < 2) { print "-"; exit }
      first = range == "upper" ? int(n / 2) : 0; if (n - first < 2) first = n - 2
      for (i = first; i < n; i++) { sx += x[i]; sy += y[i]; m++ }
      for (i = first; i < n; i++) { sxy += (x[i] - sx / m) * (y[i] - sy / m); sxx += (x[i] - sx / m) ^ 2 }
      slope = sxy / sxx
      if (kind == "power") printf "n^%.2f", slope; else printf "x%.2f per step", exp(slope)
    }' "$1"
}

echo
echo "| curve | sizes (fitted) | puzzled grows as | peer | peer grows as | plot |"
echo "|---|---|---|---|---|---|"
for spec in "${curves[@]}"; do
  IFS=: read -r name binary kind range label <<< "$spec"
  data="$out/curve-$name.tsv"
  awk -F'\t' -v name="$name" '$1 == name' "$points" > "$data"
  [ -s "$data" ] || { echo "curves: no points for $name" >&2; continue; }
  peer=$(awk -F'\t' 'NR == 1 { print $5 }' "$data")
  sizes=$(awk -F'\t' 'NR == 1 { first = $2 } { last = $2 } END { print first " .. " last }' "$data")
  echo "| $name | $sizes ($range) | $(fit "$data" 3 "$kind" "$range") | $peer | $(fit "$data" 4 "$kind" "$range") | $out/curve-$name.svg |"
  logscale=$([ "$kind" = power ] && echo "xy" || echo "y")
  gnuplot <<GNUPLOT
set terminal svg size 640,400 dynamic font "sans,12" background "white"
set output "$out/curve-$name.svg"
set title "$name: seconds per run by size"
set xlabel "$label"
set ylabel "seconds"
set logscale $logscale
set format y "10^{%L}"
$([ "$kind" = power ] && echo 'set format x "10^{%L}"')
set grid
set key below
set datafile separator "\t"
set datafile missing "-"
plot "$data" using 2:3 with linespoints lw 2 pt 7 title "puzzled", \
     "$data" using 2:4 with linespoints lw 2 pt 5 title "$peer"
GNUPLOT
done
