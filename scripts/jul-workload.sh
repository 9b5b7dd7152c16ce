#!/usr/bin/env bash
# Issue 13's JUL workload (dev.spool.bench.agent.JulIssueWorkload): plain FileHandler, the same under
# the agent (capture at the call, the default), under the agent with spool.events.capture=false
# (today's routed path), and JUL into a discarding stream; alternating rounds. Run from the
# repository root after `mvn -B package -DskipTests` (needs bench/target/benchmarks.jar and
# agent/target/spool-agent.jar). About 1 minute per round on a quiet 2-core machine. Ends with the
# median total_ms and process_cpu_ms of each mode and the target's ratio, agent / discard (<= 0.5).
# AGENT_ARGS adds agent arguments to both agent runs; JVM_ARGS JVM options to every run (e.g.
# JVM_ARGS=-Ddev.spool.jul.directWrite=false for the writer through the handler's Writer;
# JVM_ARGS=-Dbench.jul.limit=4194304 for a handler rotating every 4 MiB over 20 files;
# JVM_ARGS=-Dbench.jul.formatter=xml for XMLFormatter, =app for an application's formatter class;
# JVM_ARGS=-Dbench.jul.params=mutable for a parameter that is not an immutable JDK value).
set -euo pipefail
rounds=${1:-3}
java=${JAVA:-java}
jar=bench/target/benchmarks.jar
agent=agent/target/spool-agent.jar
read -r -a jvm <<< "${JVM_ARGS:-}"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
: > "$dir/results"
run() { # <mode label> <JulIssueWorkload mode> <out dir> [jvm options...]
  local label=$1 mode=$2 out=$3
  shift 3
  local line
  line=$("$java" "${jvm[@]}" "$@" -cp "$jar" dev.spool.bench.agent.JulIssueWorkload "$mode" "$out")
  echo "$line"
  echo "$label $line" >> "$dir/results"
}
lines() { # <out dir>: the log's lines (every generation of a rotating one), timestamps cut, sorted
  cat $(ls "$1"/jul-workload.log "$1"/jul-workload.log.[0-9] "$1"/jul-workload.log.[0-9][0-9] 2>/dev/null) \
    | sed -E 's/^[A-Z][a-z]+ [0-9]{2}, [0-9]{4} [0-9:]+ [AP]M //' | grep -v -E '^  <(date|millis|nanos|thread)>' | sort
}
for r in $(seq 1 "$rounds"); do
  echo "round $r"
  run plain file "$dir/plain"
  run agent file "$dir/agent" -javaagent:"$agent${AGENT_ARGS:+=$AGENT_ARGS}"
  run routed file "$dir/routed" -javaagent:"$agent=spool.events.capture=false${AGENT_ARGS:+,$AGENT_ARGS}"
  run discard discard "$dir/discard"
  if ! cmp -s <(lines "$dir/plain") <(lines "$dir/agent"); then
    echo "the agent's lines differ from plain (timestamps aside)"; exit 1
  fi
  rm -rf "${dir:?}"/plain "${dir:?}"/agent "${dir:?}"/routed "${dir:?}"/discard
done
median() { sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }
field() { grep "^$1 " "$dir/results" | grep -o "$2=[0-9]*" | cut -d= -f2 | median; }
for m in plain agent routed discard; do
  echo "median $m total_ms=$(field "$m" total_ms) process_cpu_ms=$(field "$m" process_cpu_ms)"
done
awk -v a="$(field agent total_ms)" -v d="$(field discard total_ms)" -v p="$(field plain total_ms)" \
  'BEGIN { printf "agent/discard=%.2f (target <= 0.5) agent/plain=%.2f; lines equal plain'"'"'s in every round\n", a / d, a / p }'
