#!/usr/bin/env bash
# The Spool demo: run the sample app (a host that knows nothing of Spool) without and with the
# agent, into fresh folders, then check that the results are the same and show the speed-up.
#
#   ./demo.sh                   defaults: 16 jobs x 2000 steps on 4 threads
#   JOBS=8 STEPS=500 ./demo.sh  a smaller run (THREADS too)
#   KAFKA=1 ./demo.sh           instead: a local Kafka broker, the app shipping its events to it
#                               (scripts/kafka-demo.sh)
#
# Exit code 0: same results; 1: a difference (named) or a failed step; 2: bad setup.
set -euo pipefail
cd "$(dirname "$0")"
[[ ${KAFKA:-0} == 1 ]] && exec scripts/kafka-demo.sh

JOBS=${JOBS:-16}
STEPS=${STEPS:-2000}
THREADS=${THREADS:-4}
AGENT=agent/target/spool-agent.jar
SAMPLE=sample-app/target/spool-sample.jar
OUT=demo-out
EMITTER='dev.spool.sample.Emitter#emit'
PHASES=5

phase() { printf '\n== [%s/%s] %s\n' "$1" "$PHASES" "$2"; }
die() { printf 'demo: %s\n' "$1" >&2; exit "${2:-1}"; }
now_millis() { echo $(( $(date +%s%N) / 1000000 )); }

# Shows the app's stderr: progress lines update one line in place on a terminal; every other
# line (the agent's own [spool] diagnostics, errors) is shown as it is. Everything is also kept.
show_progress() {
  local label=$1 log=$2 line
  : > "$log"
  while IFS= read -r line; do
    printf '%s\n' "$line" >> "$log"
    if [[ $line == progress:* ]]; then
      if [[ -t 1 ]]; then printf '\r  %-15s %s   ' "$label" "${line#progress: }"
      else printf '  %-15s %s\n' "$label" "${line#progress: }"; fi
    else
      [[ -t 1 ]] && printf '\r\033[K'
      printf '  %-15s %s\n' "$label" "$line"
    fi
  done
  [[ -t 1 ]] && printf '\n'
  return 0
}

# run_app LABEL DIR [JVM OPTIONS...]: runs the app into DIR (made fresh), sets WALL_MILLIS.
run_app() {
  local label=$1 dir=$2 rc start
  shift 2
  rm -rf "$dir" && mkdir -p "$dir"
  # Untimed: write back what earlier steps left in the page cache (the build, the previous run's
  # files, the folder just removed), so that the kernel's deferred writeback of one run is not
  # timed inside the next. Both runs get it; without it the second run paid for the first
  # (docs/BENCHMARKS.md, "Demo: the disk settled before each run").
  sync
  start=$(now_millis)
  set +e
  java "$@" -jar "$SAMPLE" --out "$dir" --jobs "$JOBS" --steps "$STEPS" --threads "$THREADS" \
    2>&1 >"$dir.stdout" | show_progress "$label" "$dir.stderr"
  rc=${PIPESTATUS[0]}
  set -e
  WALL_MILLIS=$(( $(now_millis) - start ))
  if (( rc != 0 )); then
    die "the run $label failed with exit code $rc (its output: $dir.stdout, $dir.stderr)"
  fi
  printf '  %-15s done in %s ms: %s\n' "$label" "$WALL_MILLIS" "$(tail -n 1 "$dir.stdout")"
}

command -v java >/dev/null 2>&1 || die "java is not on the PATH (Java 17 or later is needed)" 2
java_major=$(java -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p')
[[ ${java_major:-0} =~ ^[0-9]+$ ]] && (( java_major >= 17 )) \
  || die "Java 17 or later is needed, found java.specification.version=${java_major:-unknown}" 2
[[ $JOBS =~ ^[1-9][0-9]*$ && $STEPS =~ ^[1-9][0-9]*$ && $THREADS =~ ^[1-9][0-9]*$ ]] \
  || die "JOBS, STEPS and THREADS must be positive whole numbers (got $JOBS, $STEPS, $THREADS)" 2

phase 1 "build"
stale=""
if [[ -f $AGENT && -f $SAMPLE ]]; then
  oldest=$AGENT
  [[ $SAMPLE -ot $AGENT ]] && oldest=$SAMPLE
  stale=$(find pom.xml runtime mbeans agent sample-app -path '*/target' -prune -o \
    \( -name pom.xml -o -path '*/src/main/*' \) -type f -newer "$oldest" -print -quit)
fi
if [[ -f $AGENT && -f $SAMPLE && -z $stale ]]; then
  echo "  up to date: $AGENT, $SAMPLE"
else
  command -v mvn >/dev/null 2>&1 || die "Maven (mvn) is needed to build; it is not on the PATH" 2
  echo "  mvn -B -q -Dstyle.color=never -DskipTests package -pl agent,sample-app -am   (the first build downloads dependencies)"
  # (Some Maven builds print bare colour-reset codes even in batch mode; they are dropped.)
  mvn -B -q -Dstyle.color=never -DskipTests package -pl agent,sample-app -am 2>&1 \
    | sed $'s/\x1b\\[0m//g' || die "the build failed (see above)"
fi
[[ -f $SAMPLE ]] || die "$SAMPLE is missing after the build"
[[ -f $AGENT ]] || die "$AGENT is missing after the build: the agent module does not produce its jar yet, so there is nothing to compare against"
java -jar "$AGENT" --version >/dev/null 2>&1 \
  || die "$AGENT is not a working agent jar yet (java -jar $AGENT --version fails): the agent module is not built out, so there is nothing to compare against"

phase 2 "run the sample app without the agent: $JOBS jobs x $STEPS steps on $THREADS threads"
run_app "without agent" "$OUT/without-agent"
WALL_WITHOUT=$WALL_MILLIS

AGENT_ARGS="spool.events.methods=$EMITTER,spool.events.file=$OUT/with-agent/events.spool"
phase 3 "run it again with -javaagent:$AGENT=$AGENT_ARGS"
run_app "with agent" "$OUT/with-agent" "-javaagent:$AGENT=$AGENT_ARGS"
WALL_WITH=$WALL_MILLIS

phase 4 "read the agent run's event file back: java -jar $AGENT cat $OUT/with-agent/events.spool"
[[ -f $OUT/with-agent/events.spool ]] || die "the run with agent left no event file $OUT/with-agent/events.spool"
java -jar "$AGENT" cat "$OUT/with-agent/events.spool" > "$OUT/with-agent.events.jsonl" \
  || die "cat of $OUT/with-agent/events.spool failed (exit code $?)"
echo "  $(wc -l < "$OUT/with-agent.events.jsonl" | tr -d ' ') records -> $OUT/with-agent.events.jsonl"

phase 5 "compare"
set +e
java -cp "$SAMPLE" dev.spool.sample.demo.RunComparator \
  --without "$OUT/without-agent" --without-stdout "$OUT/without-agent.stdout" \
  --without-wall-millis "$WALL_WITHOUT" \
  --with "$OUT/with-agent" --with-records "$OUT/with-agent.events.jsonl" \
  --with-stdout "$OUT/with-agent.stdout" --with-wall-millis "$WALL_WITH"
verdict=$?
set -e
if (( verdict != 0 )); then
  die "the runs differ (exit code $verdict); the outputs are in $OUT/" "$verdict"
fi

cat <<EOF

(Wall time is the whole process, from the JVM's start to its exit, so it includes the agent's
start-up and the final flush of everything buffered; elapsedMillis is what the app measured.)

== Look inside
Start the app with the agent and --hold (raise --steps to watch it while it runs):

  rm -rf $OUT/hold && mkdir -p $OUT/hold && java -javaagent:$AGENT=spool.events.methods=$EMITTER,spool.events.file=$OUT/hold/events.spool -jar $SAMPLE --out $OUT/hold --jobs $JOBS --steps $STEPS --threads $THREADS --hold

It prints its pid when it starts and again when the run is over, then stays alive until Ctrl+C.
In another terminal:

  jconsole <pid>

then the MBeans tab, folder dev.spool: Agent (RoutingEnabled is the kill switch, Configuration),
Buffer (WritesAbsorbed, FilesWritten, Flushes; operation flush()), Sink,name=... (EventsWritten,
BytesWritten, Policy). Without a display: java -jar $AGENT status <pid>
EOF
