#!/usr/bin/env bash
# The demo's agent run beside its floors (issue 12): the sample app plain, with the agent, and as
# FloorApp with no file output at all: "encoded" (every document, line and record still encoded or
# formatted, kept in memory: the cache an application would write instead) and "compute" (only the
# app's own work: nothing encoded, formatted or written). Alternating rounds; prints every run, then
# the medians of wall time (process start to end) and app time (the app's own clock), and ratios.
#
#   scripts/demo-floor.sh [rounds=5] [jobs=16] [steps=2000] [threads=4]
# Needs: mvn package (agent/target/spool-agent.jar, sample-app/target/spool-sample.jar). Run from the root.
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${1:-5}; JOBS=${2:-16}; STEPS=${3:-2000}; THREADS=${4:-4}
AGENT=agent/target/spool-agent.jar
SAMPLE=sample-app/target/spool-sample.jar
[[ -f $SAMPLE && -f $AGENT ]] || { echo "build first: $SAMPLE and $AGENT are needed" >&2; exit 2; }
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
declare -A walls apps
run() { # label, java arguments before the app's own
  local label=$1; shift
  local dir="$OUT/$label" start end line app
  rm -rf "$dir" "$dir.err"
  sync  # untimed, as demo.sh: the previous run's deferred writeback is not timed in this one
  start=$(date +%s%N)
  line=$(java "$@" --out "$dir" --jobs "$JOBS" --steps "$STEPS" --threads "$THREADS" 2>"$dir.err" | tail -1) || true
  end=$(date +%s%N)
  [[ $line == '{"elapsedMillis"'* ]] || { echo "$label: the app did not run: $(tail -3 "$dir.err")" >&2; exit 1; }
  app=${line#*:}; app=${app%%,*}
  local wall=$(( (end - start) / 1000000 ))
  printf '  %-8s wall %6d ms  app %6d ms\n' "$label" "$wall" "$app"
  walls[$label]+="$wall "; apps[$label]+="$app "
}
median() { tr ' ' '\n' <<<"$1" | grep . | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
for ((r = 1; r <= ROUNDS; r++)); do
  echo "round $r"
  run plain -jar "$SAMPLE"
  run agent "-javaagent:$AGENT=spool.events.methods=dev.spool.sample.Emitter#emit,spool.events.file=$OUT/agent/events.spool" -jar "$SAMPLE"
  run encoded -cp "$SAMPLE" dev.spool.sample.FloorApp encoded
  run compute -cp "$SAMPLE" dev.spool.sample.FloorApp compute
done
declare -A mw ma
for label in plain agent encoded compute; do
  mw[$label]=$(median "${walls[$label]}"); ma[$label]=$(median "${apps[$label]}")
  printf 'median %-8s wall %6d ms  app %6d ms\n' "$label" "${mw[$label]}" "${ma[$label]}"
done
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", a / b}'; }
echo "plain / agent:    wall $(ratio "${mw[plain]}" "${mw[agent]}")x, app $(ratio "${ma[plain]}" "${ma[agent]}")x"
echo "agent / encoded:  wall $(ratio "${mw[agent]}" "${mw[encoded]}"), app $(ratio "${ma[agent]}" "${ma[encoded]}")"
echo "agent / compute:  wall $(ratio "${mw[agent]}" "${mw[compute]}"), app $(ratio "${ma[agent]}" "${ma[compute]}")"
echo "plain / compute:  wall $(ratio "${mw[plain]}" "${mw[compute]}")x, app $(ratio "${ma[plain]}" "${ma[compute]}")x (the most any agent could reach)"
