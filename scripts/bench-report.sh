#!/usr/bin/env bash
# Reruns the benchmark set behind docs/BENCHMARKS.md's tables, one area after another, and writes
# one Markdown report with, per area, the command, its date, the machine and the load average
# before and after, then the command's own summary (the last lines it prints: medians, ratios,
# tables). It does NOT rewrite docs/BENCHMARKS.md in place: the scripts print their results in
# different shapes, so the report is for pasting the new figures into the tables by hand (keep
# the date, machine and load columns; say "loaded" when the load average was above ~2).
#
#   scripts/bench-report.sh [area...]        areas: demo capture jul grid flush anchors jmh kafka startup spring
#   QUICK=1 scripts/bench-report.sh demo     fewer rounds (a smoke run, not figures to publish)
#   SKIP_BUILD=1                             use the jars already built
#
# Writes bench-report/<UTC timestamp>/REPORT.md and each command's full output beside it.
# Run from the repository root on a quiet machine (nothing else building or testing). The whole
# set takes about 60-90 minutes on a quiet 2-core machine; Kafka adds ~4 minutes.
set -euo pipefail
cd "$(dirname "$0")/.."

AREAS=("$@")
[[ ${#AREAS[@]} -eq 0 ]] && AREAS=(demo capture jul grid flush anchors jmh startup)
QUICK=${QUICK:-0}
OUT=bench-report/$(date -u +%Y%m%dT%H%M%SZ)
mkdir -p "$OUT"
REPORT=$OUT/REPORT.md
BENCH=bench/target/benchmarks.jar
JMH=(java -jar "$BENCH")
GRID=(java -cp "$BENCH")

rounds() { if [[ $QUICK == 1 ]]; then echo "$2"; else echo "$1"; fi; }
load() { cut -d' ' -f1-3 /proc/loadavg; }
machine() {
  printf '%s cores, %s GiB, %s, %s' "$(nproc)" \
    "$(awk '/MemTotal/ {printf "%d", $2/1048576}' /proc/meminfo)" \
    "$(java -version 2>&1 | head -1)" "$(uname -sr)"
}

# run <area> <name> <lines of summary to keep> <command...>
run() {
  local area=$1 name=$2 keep=$3; shift 3
  local log=$OUT/$name.txt before after start
  before=$(load); start=$(date -u '+%Y-%m-%d %H:%M UTC')
  echo "== $area: $name ($start, load $before)" >&2
  if "$@" >"$log" 2>&1; then status=ok; else status="FAILED (exit $?)"; fi
  after=$(load)
  {
    printf '\n### %s: `%s`\n\n' "$area" "$name"
    printf -- '- command: `%s`\n- date: %s; machine: %s\n- load average before / after: %s / %s; result: %s\n\n' \
      "$*" "$start" "$(machine)" "$before" "$after" "$status"
    printf '```\n'; tail -n "$keep" "$log"; printf '```\n'
  } >>"$REPORT"
}

{
  printf '# Benchmark report, %s\n\n' "$(date -u '+%Y-%m-%d %H:%M UTC')"
  printf 'Commit %s%s. Machine: %s.\n' "$(git rev-parse --short HEAD)" \
    "$(git diff --quiet && echo '' || echo ' (with uncommitted changes)')" "$(machine)"
  printf 'Paste each area'"'"'s figures into its table in docs/BENCHMARKS.md (the full outputs are beside this file).\n'
} >"$REPORT"

if [[ ${SKIP_BUILD:-0} != 1 ]]; then
  echo "building (mvn -B -q -DskipTests package)" >&2
  mvn -B -q -DskipTests package
fi

for area in "${AREAS[@]}"; do
  case $area in
    demo)
      run demo demo-floor 12 scripts/demo-floor.sh "$(rounds 7 2)"
      run demo demo-phases 8 scripts/demo-phases.sh "$(rounds 5 2)"
      run demo demo 30 ./demo.sh ;;
    capture)
      run capture capture-workload 12 scripts/capture-workload.sh "$(rounds 5 2)" 100 400 6
      run capture CaptureBench 16 "${JMH[@]}" CaptureBench -wi 3 -i 5 -w 1s -r 1s -f 1
      # docs: 10 rounds, the capture path needs 3-4 to be compiled (with 3 it reports warm-up, 0.93 vs 0.21)
      run capture host-shapes-docs 12 scripts/host-shapes.sh "$(rounds 3 2)" 10 docs
      run capture host-shapes-lists 8 scripts/host-shapes.sh "$(rounds 5 2)" 3 lists ;;
    jul)
      run jul jul-workload 10 scripts/jul-workload.sh "$(rounds 7 2)" ;;
    spring)   # not in the default set: downloads Spring Boot 3.5.7 for bench/spring-host (outside the reactor)
      run spring spring-boot 12 scripts/spring-boot.sh "$(rounds 3 1)" 20000 ;;
    grid)
      run grid grid 14 "${GRID[@]}" dev.spool.bench.grid.GridRun --cells 100x1,1000x1,10000x1,100x5,2000x5,100x50
      run grid grid-create-flush 10 "${GRID[@]}" dev.spool.bench.grid.GridRun --cells 1000x1,10000x1,2000x5 \
        --agent-args spool.buffer.create=flush
      run grid grid-bounded-heap 6 "${GRID[@]}" dev.spool.bench.grid.GridRun --cells 100000x5 --jvm -Xmx256m
      run grid create-floor 10 "${GRID[@]}" dev.spool.bench.grid.CreateFloorRun --files 2000 ;;
    flush)
      for dir in /tmp /dev/shm; do for t in 1 2 4; do
        run flush "flush-$t-$(basename "$dir")" 6 "${GRID[@]}" dev.spool.bench.buffer.FlushPairedRun \
          --threads "$t" --dir "$dir" --rounds "$(rounds 300 60)" 200
      done; done ;;
    anchors)
      run anchors layout-anchors-logback 20 env MESSAGES=1000000 JMH_ARGS="-wi 1 -i 2" scripts/layout-anchors.sh
      run anchors layout-anchors-jul 20 env JUL=1 MESSAGES=1000000 JMH_ARGS="-wi 1 -i 2" scripts/layout-anchors.sh
      run anchors anchors-bench 30 env SKIP_BUILD=1 scripts/anchors-bench.sh ;;
    jmh)
      run jmh buffer-ops 30 "${JMH[@]}" 'dev.spool.bench.buffer.Buffer(Ops|Flush)Bench' -f 1 -wi 2 -i 3 -w 1s -r 1s
      run jmh synced-get 4 env ALLOC=1 scripts/synced-get.sh "$(rounds 5 2)"
      run jmh sink 30 "${JMH[@]}" 'dev.spool.bench.sink.*' -f 1 -wi 2 -i 6 -w 1s -r 1s
      for pair in $(seq 1 "$(rounds 3 1)"); do for t in 1 4; do   # sustained producer against the writer's own floor, alternating
        run jmh "producer-sustained-t$t-$pair" 6 "${JMH[@]}" 'ProducerCostBench.preEncoded' -p journal=true -t "$t" -f 1 -wi 2 -i 5 -w 1s -r 1s
      done
        run jmh "writer-floor-$pair" 6 "${JMH[@]}" 'WriterFloorBench' -p journal=true -f 1 -wi 2 -i 5 -w 1s -r 1s
      done
      run jmh agent 20 "${JMH[@]}" 'dev.spool.bench.agent.(JulFileHandler|NonMatchingHook)' -f 1 -wi 2 -i 5 -w 1s -r 1s
      run jmh host-file-hook 8 "${JMH[@]}" HostFileOpHookBench -wi 3 -i 5 -w 1s -r 1s -f 1
      run jmh jfr-cost 16 "${JMH[@]}" 'dev.spool.bench.jfr.JfrCostBench' -f 3 -wi 5 -w 1s -i 5 -r 1s
      run jmh jfr-demo 8 env ROUNDS="$(rounds 7 2)" scripts/jfr-cost.sh
      run jmh refused-put 8 "${GRID[@]}" dev.spool.bench.buffer.RefusedPutRun --rounds 4 ;;
    startup)
      run startup cds-startup-17 10 scripts/cds-startup.sh "${JAVA_HOME:-$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")}" \
        "$(rounds 9 3)" agent/target/spool-agent.jar ;;
    kafka)
      run kafka kafka-benches 4 mvn -B verify -pl kafka -am -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false \
        -Dit.test='ShippingBench,AppenderBench'
      for f in kafka/target/failsafe-reports/dev.spool.kafka.it.{ShippingBench,AppenderBench}-output.txt; do
        [[ -f $f ]] && { printf '\n```\n'; tail -n 20 "$f"; printf '```\n'; } >>"$REPORT"
      done ;;
    *) echo "unknown area '$area' (demo capture jul grid flush anchors jmh startup kafka)" >&2; exit 2 ;;
  esac
done
echo "report: $REPORT" >&2
