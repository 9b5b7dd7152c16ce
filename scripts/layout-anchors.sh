#!/usr/bin/env bash
# The anchors with realistic layouts (docs/BENCHMARKS.md, "Anchors with realistic layouts: Logback"):
# Logback + PatternLayoutEncoder plain and under the agent, Logback AsyncAppender lossless, Log4j2
# synchronous RandomAccessFile and all-async (Disruptor 3.4.4); 1,000,000 lines, 1 and 2 threads,
# to disk, every line counted; the caller's cost per event from the same invocations.
# Run from the repository root after `mvn -B -q -DskipTests package -pl bench -am` (agent jar included).
#   MESSAGES=1000000 (default) | JMH_ARGS="-wi 1 -i 2" (default)
# JUL=1: the JUL rows instead (issue 13): JUL FileHandler + SimpleFormatter plain (julFile) and under
#   the agent (spoolJul, LayoutAnchorJulAgentBench) beside the same lossless anchors (Logback
#   AsyncAppender, Log4j2 synchronous and all-async); speed-ups against spoolJul.
set -euo pipefail
cd "$(dirname "$0")/.."
MESSAGES=${MESSAGES:-1000000}
JMH_ARGS=${JMH_ARGS:--wi 1 -i 2}
OUT=bench/target/anchors
mkdir -p "$OUT"
date -u +"run started %Y-%m-%d %H:%M:%S UTC, load average: $(cut -d' ' -f1-3 /proc/loadavg)"
if [[ ${JUL:-} == 1 ]]; then
  BENCHES='dev.spool.bench.anchors.LayoutAnchor(Bench|Log4j2AsyncBench|JulAgentBench)'; CONTENDERS=julFile,logbackAsync,log4j2Sync; SPOOL=spoolJul
else
  BENCHES='dev.spool.bench.anchors.LayoutAnchor(Bench|Log4j2AsyncBench|AgentBench)'; CONTENDERS=logbackFile,logbackAsync,log4j2Sync; SPOOL=spoolLogback
fi
# shellcheck disable=SC2086
java -Djmh.ignoreLock=true -jar bench/target/benchmarks.jar "$BENCHES" -p contender="$CONTENDERS" \
  -p messages="$MESSAGES" -f 1 $JMH_ARGS -rf json -rff "$OUT/layout.json" > "$OUT/layout.log" 2>&1 \
  || { tail -50 "$OUT/layout.log"; exit 1; }
date -u +"run ended %Y-%m-%d %H:%M:%S UTC, load average: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$OUT/layout.json" "$OUT/layout.log" "$SPOOL" <<'PY'
import json, re, sys, collections
rows = {}
for r in json.load(open(sys.argv[1])):
    cls = r["benchmark"].split(".")[-2]
    p = r["params"]
    name = {"LayoutAnchorAgentBench": "spoolLogback", "LayoutAnchorJulAgentBench": "spoolJul",
            "LayoutAnchorLog4j2AsyncBench": "log4j2Async"}.get(cls, p.get("contender"))
    rows[(p["layout"], int(p["threads"]), name)] = r["primaryMetric"]["score"]
prod = collections.defaultdict(list)
for line in open(sys.argv[2]):
    m = re.search(r"\[anchor-producers\] contender=(\S+) layout=(\S+) threads=(\d) ms=\S+ ns-per-event-per-thread=(\d+)", line)
    if m:
        prod[(m.group(2), int(m.group(3)), m.group(1))].append(int(m.group(4)))
print("| layout | threads | contender | to disk, ms | Spool's speed-up (their ms / Spool's) | caller's ns per event per thread (every invocation) |")
print("|---|---|---|---|---|---|")
for (layout, threads, name), ms in sorted(rows.items()):
    spool = rows.get((layout, threads, sys.argv[3]))
    ratio = f"{ms / spool:.2f}" if spool else ""
    print(f"| {layout} | {threads} | {name} | {ms:.0f} | {ratio} | {prod.get((layout, threads, name), [])} |")
PY
