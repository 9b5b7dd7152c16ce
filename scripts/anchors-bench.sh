#!/usr/bin/env bash
# Text logging against the anchors (docs/BENCHMARKS.md, "Anchors: text logging against Log4j2
# and Logback"): builds the benchmark jar, runs every contender side by side in one JMH run
# (a fork per contender, thread count and measure), then prints the table with ratios to Spool
# and the line counts of every invocation. Run from anywhere; it works from the repository root.
#   MESSAGES=1000000 (default) | SKIP_BUILD=1 | JMH_ARGS="-wi 1 -i 4" (default)
set -euo pipefail
cd "$(dirname "$0")/.."
MESSAGES=${MESSAGES:-1000000}
JMH_ARGS=${JMH_ARGS:--wi 1 -i 4}
OUT=bench/target/anchors
if [ -z "${SKIP_BUILD:-}" ]; then
  mvn -B -q -DskipTests package -pl bench -am
fi
mkdir -p "$OUT"
date -u +"run started %Y-%m-%d %H:%M:%S UTC, load average: $(cut -d' ' -f1-3 /proc/loadavg)"
# -Djmh.ignoreLock: other JMH runs may share this machine; their load is reported, not avoided.
# shellcheck disable=SC2086
java -Djmh.ignoreLock=true -jar bench/target/benchmarks.jar 'dev.spool.bench.anchors' \
  -p messages="$MESSAGES" -f 1 $JMH_ARGS -rf json -rff "$OUT/anchors.json" > "$OUT/anchors.log" 2>&1 \
  || { tail -50 "$OUT/anchors.log"; exit 1; }
date -u +"run ended %Y-%m-%d %H:%M:%S UTC, load average: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 scripts/anchors-table.py "$OUT/anchors.json" "$OUT/anchors.log"
