#!/usr/bin/env bash
# Issue 35's two Jackson shapes (dev.spool.bench.capture.HostShapes), each in one alternating run
# of three whole processes per pair: the floor (writeValueAsBytes kept in a HashMap, no file I/O),
# plain Jackson to files, and the same plain program under the agent (defaults).
#   docs:  100 documents x 400 steps, read back every 5th step (target: agent / floor <= 0.5); also
#          two lower bounds of any exact write-behind: "build" (each document object kept: the host's
#          own work) and "tokens" (a Jackson TokenBuffer snapshot of each kept, read back from it)
#   lists: 100 small maps with nested lists x 100 rewrites = 10,000 writeValue(File) (target: plain / agent >= 5)
# Prints each run's line, then per shape the medians (best measured round of each run; wall ms
# and the workload thread's CPU ms; and the whole process's wall ms, start-up and exit included,
# which is what a user timing the program sees: use rounds=1 for that view) and the ratios;
# checks the agent's files equal the floor's bytes.
#
#   scripts/host-shapes.sh [pairs=5] [rounds=3] [shapes="docs lists"]
# Needs: mvn -B -q -DskipTests package (agent/target/spool-agent.jar, bench/target/benchmarks.jar). Run from the root.
set -euo pipefail
cd "$(dirname "$0")/.."
PAIRS=${1:-5}; ROUNDS=${2:-3}; SHAPES=${3:-docs lists}
JAR=bench/target/benchmarks.jar
AGENT=agent/target/spool-agent.jar
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
main=dev.spool.bench.capture.HostShapes
declare -A times cpus walls
run() { # shape, label, sink, files, steps, then java args
  local shape=$1 label=$2 sink=$3 files=$4 steps=$5; shift 5
  local dir="$OUT/$shape-$label-$i" line ms cpu first=2
  local t0 t1
  sync                                   # untimed: a plain run's writeback must not land in the next run
  t0=$(date +%s%N)
  line=$(java "$@" -cp "$JAR" "$main" "$shape" "$sink" "$dir" "$files" "$steps" "$ROUNDS" | grep '^workload')
  t1=$(date +%s%N)
  walls[$shape-$label]+="$(( (t1 - t0) / 1000000 )) "
  ms=${line#*ms=}; ms=${ms%% *}
  cpu=${line#*cpu=}
  (( ROUNDS > 1 )) || first=1
  times[$shape-$label]+="$ms "
  cpus[$shape-$label]+="$(echo "$cpu" | tr ' ' '\n' | tail -n +$first | sort -n | head -1) "
  echo "  $label: $line process_ms=$(( (t1 - t0) / 1000000 ))"
}
median() { tr ' ' '\n' | grep -v '^$' | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
for shape in $SHAPES; do
  case $shape in docs) files=100 steps=400 ;; lists) files=100 steps=100 ;; *) echo "shape: docs or lists" >&2; exit 2 ;; esac
  for i in $(seq 1 "$PAIRS"); do
    echo "$shape pair $i"
    run "$shape" floor hashmap $files $steps
    run "$shape" plain files $files $steps
    run "$shape" agent files $files $steps -javaagent:"$AGENT"=spool.log.level=warn
    if [[ $shape == docs ]]; then
      run "$shape" build build $files $steps
      run "$shape" tokens tokens $files $steps
    fi
  done
  f=$(echo "${times[$shape-floor]}" | median); p=$(echo "${times[$shape-plain]}" | median); a=$(echo "${times[$shape-agent]}" | median)
  fc=$(echo "${cpus[$shape-floor]}" | median); pc=$(echo "${cpus[$shape-plain]}" | median); ac=$(echo "${cpus[$shape-agent]}" | median)
  fw=$(echo "${walls[$shape-floor]}" | median); pw=$(echo "${walls[$shape-plain]}" | median); aw=$(echo "${walls[$shape-agent]}" | median)
  echo "$shape median ms: floor=$f plain=$p agent=$a ; CPU ms: floor=$fc plain=$pc agent=$ac ; whole process ms: floor=$fw plain=$pw agent=$aw"
  awk -v f="$f" -v p="$p" -v a="$a" -v fc="$fc" -v pc="$pc" -v ac="$ac" -v s="$shape" 'BEGIN {
    printf "%s: agent / floor = %.2f (CPU %.2f) ; plain / agent = %.2f (CPU %.2f) ; plain / floor = %.2f\n",
      s, a / f, ac / fc, p / a, pc / ac, p / f }'
  awk -v f="$fw" -v p="$pw" -v a="$aw" -v s="$shape" 'BEGIN {
    printf "%s whole process (start-up, exit and the agent'"'"'s last flush included): agent / floor = %.2f ; plain / agent = %.2f\n", s, a / f, p / a }'
  if [[ $shape == docs ]]; then
    b=$(echo "${times[$shape-build]}" | median); t=$(echo "${times[$shape-tokens]}" | median)
    awk -v f="$f" -v b="$b" -v t="$t" -v a="$a" 'BEGIN {
      printf "docs lower bounds: build ms=%d (build / floor = %.2f), tokens ms=%d (tokens / floor = %.2f); agent / tokens = %.2f\n",
        b, b / f, t, t / f, a / t }'
  fi
  last=$((ROUNDS - 1))
  if diff -r "$OUT/$shape-floor-$PAIRS/round-$last" "$OUT/$shape-agent-$PAIRS/round-$last" >/dev/null \
     && diff -r "$OUT/$shape-floor-$PAIRS/round-$last" "$OUT/$shape-plain-$PAIRS/round-$last" >/dev/null \
     && { [[ $shape != docs ]] || { diff -r "$OUT/$shape-floor-$PAIRS/round-$last" "$OUT/$shape-build-$PAIRS/round-$last" \
          && diff -r "$OUT/$shape-floor-$PAIRS/round-$last" "$OUT/$shape-tokens-$PAIRS/round-$last"; } >/dev/null; }; then
    echo "$shape: same bytes on disk: yes"
  else
    echo "$shape: same bytes on disk: NO"; exit 1
  fi
done
