#!/usr/bin/env bash
# What Spool's JFR events cost the demo's workload when no recording runs: the sample app under
# the agent (events routed, as in demo.sh) with spool.jfr.enabled=true (the default) and =false,
# alternating which goes first each round. Prints, per variant, the median of the app's own
# elapsedMillis and of the whole JVM's wall time, with every run's figures.
# Usage (repository root, after `mvn -B -q -DskipTests package`):
#   ROUNDS=7 JOBS=16 STEPS=2000 THREADS=4 scripts/jfr-cost.sh
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${ROUNDS:-7}; JOBS=${JOBS:-16}; STEPS=${STEPS:-2000}; THREADS=${THREADS:-4}
AGENT=${AGENT:-agent/target/spool-agent.jar}
SAMPLE=${SAMPLE:-sample-app/target/spool-sample.jar}
[[ -f $AGENT && -f $SAMPLE ]] || { echo "build first: mvn -B -q -DskipTests package" >&2; exit 1; }
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
declare -A app wall
run() { # run on|off: appends the app's elapsedMillis and the wall time
  local dir=$work/$1 t0 t1 out
  rm -rf "$dir"
  t0=$(date +%s%N)
  out=$(java "-javaagent:$AGENT=spool.events.methods=dev.spool.sample.Emitter#emit,spool.events.file=$work/$1.spool,spool.jfr.enabled=$([[ $1 == on ]] && echo true || echo false)" \
    -jar "$SAMPLE" --out "$dir" --jobs "$JOBS" --steps "$STEPS" --threads "$THREADS" 2>/dev/null)
  t1=$(date +%s%N)
  rm -f "$work/$1.spool"
  app[$1]+="$(sed -n 's/.*"elapsedMillis":\([0-9]*\).*/\1/p' <<<"$out") "
  wall[$1]+="$(( (t1 - t0) / 1000000 )) "
}
median() { tr ' ' '\n' <<<"$1" | grep . | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
echo "# $(date -u +%FT%TZ), load $(cut -d' ' -f1-3 /proc/loadavg), $ROUNDS rounds of $JOBS jobs x $STEPS steps on $THREADS threads"
for ((r = 0; r < ROUNDS; r++)); do
  if ((r % 2 == 0)); then run on; run off; else run off; run on; fi
done
echo "# load at the end $(cut -d' ' -f1-3 /proc/loadavg)"
for v in on off; do
  echo "spool.jfr.enabled=$([[ $v == on ]] && echo true || echo false): median elapsedMillis $(median "${app[$v]}") ms (${app[$v]% }), median wall $(median "${wall[$v]}") ms (${wall[$v]% })"
done
