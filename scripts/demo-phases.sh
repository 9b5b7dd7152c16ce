#!/usr/bin/env bash
# Where the demo's wall time goes (issue 12 item 7): runs the sample app without and with the agent,
# alternating, and splits each run's wall time into start-up (JVM start to the app's "starting"
# line: the JVM, the agent's premain), the app's set-up before its clock starts (its first
# ObjectMapper, and the classes woven as they load), the app's own clock (elapsedMillis) and the
# exit (the summary line to the process's end: shutdown hooks, the final flush), with the process's
# CPU time (user + sys, which a loaded machine distorts less than wall time). Prints every run,
# then the medians.
#
#   scripts/demo-phases.sh [pairs=5] [jobs=16] [steps=2000] [threads=4] [agent jar] [plain|agent|both]
# Needs: mvn package (agent/target/spool-agent.jar, sample-app/target/spool-sample.jar). Run from the root.
set -euo pipefail
cd "$(dirname "$0")/.."
PAIRS=${1:-5}; JOBS=${2:-16}; STEPS=${3:-2000}; THREADS=${4:-4}
AGENT=${5:-agent/target/spool-agent.jar}; WHICH=${6:-both}
SAMPLE=sample-app/target/spool-sample.jar
EMITTER='dev.spool.sample.Emitter#emit'
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
[[ -f $SAMPLE && -f $AGENT ]] || { echo "build first: $SAMPLE and $AGENT are needed" >&2; exit 2; }
now() { date +%s%N; }
declare -A col
run() { # label, JVM options...
  local label=$1; shift
  local dir="$OUT/$label" start started=0 summary=0 end line elapsed
  rm -rf "$dir" && mkdir -p "$dir"
  sync  # untimed: the previous run's deferred writeback is not timed in this one (as demo.sh)
  start=$(now)
  while IFS= read -r line; do
    case $line in
      starting:*) started=$(now) ;;
      '{"elapsedMillis"'*) summary=$(now); elapsed=${line#*:}; elapsed=${elapsed%%,*} ;;
    esac
  done < <({ TIMEFORMAT='cpu %U %S'; time java "$@" -jar "$SAMPLE" --out "$dir" \
             --jobs "$JOBS" --steps "$STEPS" --threads "$THREADS" 2>&1; } 2>"$dir.time")
  wait $! 2>/dev/null || true
  end=$(now)
  (( started > 0 && summary > 0 )) || { echo "$label: the app did not run (see $dir)" >&2; exit 1; }
  local wall=$(( (end - start) / 1000000 )) up=$(( (started - start) / 1000000 ))
  local setup=$(( (summary - started) / 1000000 - elapsed )) exit=$(( (end - summary) / 1000000 ))
  local cpu; cpu=$(awk '/^cpu/ {printf "%d", ($2 + $3) * 1000}' "$dir.time")
  printf '  %-6s wall %6d ms = start-up %5d + set-up %5d + app %6d + exit %5d; process CPU %6d ms\n' \
    "$label" "$wall" "$up" "$setup" "$elapsed" "$exit" "$cpu"
  col[$label.wall]+="$wall "; col[$label.up]+="$up "; col[$label.setup]+="$setup "; col[$label.app]+="$elapsed "
  col[$label.exit]+="$exit "; col[$label.cpu]+="$cpu "
}
median() { tr ' ' '\n' | grep -v '^$' | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
for i in $(seq 1 "$PAIRS"); do
  echo "pair $i"
  [[ $WHICH == agent ]] || run plain
  [[ $WHICH == plain ]] || run agent "-javaagent:$AGENT=spool.events.methods=$EMITTER,spool.events.file=$OUT/agent/events.spool"
done
labels=(plain agent); [[ $WHICH == both ]] || labels=("$WHICH")
for label in "${labels[@]}"; do
  printf 'median %-6s wall %s start-up %s set-up %s app %s exit %s CPU %s (ms)\n' "$label" \
    "$(echo "${col[$label.wall]}" | median)" "$(echo "${col[$label.up]}" | median)" \
    "$(echo "${col[$label.setup]}" | median)" "$(echo "${col[$label.app]}" | median)" \
    "$(echo "${col[$label.exit]}" | median)" "$(echo "${col[$label.cpu]}" | median)"
done
if [[ $WHICH == both ]]; then
  awk -v pw="$(echo "${col[plain.wall]}" | median)" -v aw="$(echo "${col[agent.wall]}" | median)" \
      -v pa="$(echo "${col[plain.app]}" | median)" -v aa="$(echo "${col[agent.app]}" | median)" \
      'BEGIN { printf "plain / agent: wall %.2fx, app %.2fx\n", pw / aw, pa / aa }'
fi
