#!/usr/bin/env bash
# Buffered SyncedMap.get against HashMap.get (issue 35, target <= 2x) and against the floor of a
# per-file monitor (a HashMap under its own lock), in one alternating run: each pair runs
# BufferOpsBench.get1000 once per store (hashMap, sharedObject, lockedHashMap), 1 file x 1,000
# keys and 1,000 files x 1 key. Prints each run's score (us per 1,000 gets) and the medians of the
# per-pair ratios. ALLOC=1 adds JMH's -prof gc (allocation per operation, independent of load).
#
#   scripts/synced-get.sh [pairs=3] [op=get1000]
# Needs: mvn -B -q -DskipTests package -pl bench -am. Run from the root.
set -euo pipefail
cd "$(dirname "$0")/.."
PAIRS=${1:-3}; OP=${2:-get1000}
JAR=bench/target/benchmarks.jar
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
PROF=(); [[ ${ALLOC:-0} == 1 ]] && PROF=(-prof gc)
IMPLS=(hashMap sharedObject lockedHashMap)
for i in $(seq 1 "$PAIRS"); do
  for impl in "${IMPLS[@]}"; do
    java -jar "$JAR" "dev.spool.bench.buffer.BufferOpsBench.$OP\$" -p impl="$impl" -p files=1,1000 \
      -f 1 -wi 3 -i 5 -w 1s -r 1s "${PROF[@]}" -rf csv -rff "$OUT/$impl-$i.csv" >"$OUT/$impl-$i.log" 2>&1
    grep -v '^"Benchmark"' "$OUT/$impl-$i.csv" | awk -F, -v impl="$impl" -v i="$i" '
      { gsub(/"/, ""); m = index($1, ":") ? substr($1, index($1, ":") + 1) : "time"
        printf "pair%s files=%s %s %s %s\n", i, $(NF-1), impl, m, $5 }'
  done
done | tee "$OUT/all.txt"
echo "medians of the per-pair ratios of us per 1,000 ops (ALLOC=1: the gc.alloc.rate.norm rows above are bytes per 1,000 ops):"
awk '$4 == "time" { s[$1" "$2" "$3] = $5 }
  END {
    for (k in s) { split(k, a, " "); if (a[3] == "hashMap") {
      h = s[k]; o = s[a[1] " " a[2] " sharedObject"]; l = s[a[1] " " a[2] " lockedHashMap"]
      print a[1], a[2], o / h, o / l, l / h } }
  }' "$OUT/all.txt" | sort -k2 | awk '
  { r1[$2] = r1[$2] " " $3; r2[$2] = r2[$2] " " $4; r3[$2] = r3[$2] " " $5 }
  function med(s,   a, n, i, j, t) { n = split(s, a, " ")
    for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j - 1] + 0 > a[j] + 0; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
    return a[int((n + 1) / 2)] }
  END { for (f in r1) printf "%s: shared/hashMap %.2f  shared/locked %.2f  locked/hashMap %.2f  (per pair:%s)\n", f, med(r1[f]), med(r2[f]), med(r3[f]), r1[f] }'
