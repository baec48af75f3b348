#!/usr/bin/env bash
# GET /queens?n=1000000&mode=first (a 6.9 MB solution, streamed) versus nginx serving the same bytes
# from a file, transfers of each in turn, the median of PAIRED_ROUNDS each (bench/lib/static_nginx.sh),
# in the same run.
# Then a count of n = 18 over HTTP under the default time limit (below).
set -euo pipefail
. "$(dirname "$0")/../lib/static_nginx.sh"
root=$(mktemp -d)
query="queens?n=1000000&mode=first"
curl -sf -o "$root/queens.json" "$PUZZLED_URL/$query"
static_nginx_start "$root"
ours=("$PUZZLED_URL/$query")
peer=("$STATIC_URL/queens.json")
paired_medians ours peer
printf 'queens mode first n=10^6 over HTTP (6.9 MB, median of %s)\t%s\tnginx static file, same bytes\t%s\ts\tlower\n' \
  "$PAIRED_ROUNDS" "$PAIRED_OURS" "$PAIRED_PEER"
rm -rf "$root"

# GET /queens?n=18&mode=count under the server's default time limit, once, checked against OEIS
# A000170(18): its wall time, and the server's processor time over it (from /proc, all its threads).
server_ticks() { awk '{print $14 + $15}' "/proc/$PUZZLED_PID/stat"; }
ticks_before=$(server_ticks)
started=$(date +%s.%N)
answer=$(curl -s "$PUZZLED_URL/queens?n=18&mode=count")
ended=$(date +%s.%N)
ticks_after=$(server_ticks)
case $answer in *'"total":"666090624"'*) ;; *) echo "queens n=18 count, not OEIS's 666090624: $answer" >&2; exit 1 ;; esac
awk -v wall="$(awk -v a="$started" -v b="$ended" 'BEGIN {print b - a}')" \
  -v processor="$(awk -v a="$ticks_before" -v b="$ticks_after" -v hz="$(getconf CLK_TCK)" 'BEGIN {print (b - a) / hz}')" \
  'BEGIN {
    printf "queens count n=18 over HTTP, default time limit, once\t%.3f\t-\t-\ts\tlower\n", wall
    printf "queens count n=18 over HTTP: server processor time, all threads\t%.3f\t-\t-\ts\tlower\n", processor
  }'
