#!/usr/bin/env bash
# Issue 12's scientific-document workload, side by side in one alternating run: the same host
# under the agent (capture on, defaults: others' changes checked at the flush, no lstat per call;
# capture on with spool.buffer.others.check=call, one lstat per call, the default before session 7;
# capture off = encode at the call) against the same workload
# keeping writeValueAsBytes output in a HashMap (no file I/O). Prints each run's best measured
# round and the ratios of the medians (wall time, and the workload thread's CPU time, which a
# loaded machine distorts less), then checks the agent's files are the HashMap's bytes.
#
#   scripts/capture-workload.sh [pairs=5] [files=100] [steps=400] [rounds=3]
# Needs: mvn package (agent/target/spool-agent.jar, bench/target/benchmarks.jar). Run from the root.
set -euo pipefail
cd "$(dirname "$0")/.."
PAIRS=${1:-5}; FILES=${2:-100}; STEPS=${3:-400}; ROUNDS=${4:-3}
JAR=bench/target/benchmarks.jar
AGENT=agent/target/spool-agent.jar
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
main=dev.spool.bench.capture.ScienceWorkload
declare -A times cpus
run() { # label, then java args
  local label=$1; shift
  local dir="$OUT/$label-$i"
  local line
  line=$(java "$@" -cp "$JAR" "$main" "${MODE}" "$dir" "$FILES" "$STEPS" "$ROUNDS" | grep '^workload')
  local ms=${line#*ms=}; ms=${ms%% *}
  times[$label]+="$ms "
  local cpu=${line#*cpu=}  # the workload thread's CPU ms per round: the least of the measured rounds
  local first=2; (( ROUNDS > 1 )) || first=1  # the first round is warm-up, unless it is the only one
  cpus[$label]+="$(echo "$cpu" | tr ' ' '\n' | tail -n +$first | sort -n | head -1) "
  echo "  $label: $line"
}
for i in $(seq 1 "$PAIRS"); do
  echo "pair $i"
  MODE=hashmap run hashmap
  MODE=files run agent-capture -javaagent:"$AGENT"=spool.log.level=warn
  MODE=files run agent-callcheck -javaagent:"$AGENT"=spool.log.level=warn,spool.buffer.others.check=call
  MODE=files run agent-encode -javaagent:"$AGENT"=spool.log.level=warn,spool.buffer.capture=false
done
median() { tr ' ' '\n' | grep -v '^$' | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
h=$(echo "${times[hashmap]}" | median); c=$(echo "${times[agent-capture]}" | median); e=$(echo "${times[agent-encode]}" | median)
x=$(echo "${times[agent-callcheck]}" | median)
echo "median ms: hashmap=$h agent-capture=$c agent-encode=$e agent-callcheck=$x"
awk -v h="$h" -v c="$c" -v e="$e" 'BEGIN { printf "agent-capture / hashmap = %.2f ; agent-encode / hashmap = %.2f\n", c / h, e / h }'
awk -v h="$h" -v x="$x" 'BEGIN { printf "agent-callcheck / hashmap = %.2f\n", x / h }'
hc=$(echo "${cpus[hashmap]}" | median); cc=$(echo "${cpus[agent-capture]}" | median); ec=$(echo "${cpus[agent-encode]}" | median)
xc=$(echo "${cpus[agent-callcheck]}" | median)
echo "median CPU ms of the workload thread (least measured round): hashmap=$hc agent-capture=$cc agent-encode=$ec agent-callcheck=$xc"
awk -v h="$hc" -v c="$cc" -v e="$ec" 'BEGIN { printf "CPU: agent-capture / hashmap = %.2f ; agent-encode / hashmap = %.2f\n", c / h, e / h }'
awk -v h="$hc" -v x="$xc" 'BEGIN { printf "CPU: agent-callcheck / hashmap = %.2f\n", x / h }'
last=$((ROUNDS - 1))
if diff -r "$OUT/hashmap-$PAIRS/round-$last" "$OUT/agent-capture-$PAIRS/round-$last" >/dev/null \
   && diff -r "$OUT/hashmap-$PAIRS/round-$last" "$OUT/agent-callcheck-$PAIRS/round-$last" >/dev/null; then
  echo "same bytes on disk: yes"
else
  echo "same bytes on disk: NO"; exit 1
fi
