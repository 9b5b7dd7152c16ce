#!/usr/bin/env bash
# Startup cost of the agent: wall time of a JVM that does (almost) nothing, run in alternation
#   plain         java Hello
#   empty agent   java -javaagent:<an agent whose premain is empty> Hello   (the JVM's own cost of any agent)
#   spool         java -javaagent:agent/target/spool-agent.jar Hello
# and the same for the sample app's smallest run (1 job x 1 step: Jackson, JUL and an emitter are used).
# Prints the median of ROUNDS runs of each. Usage (repository root, after mvn -B -DskipTests package):
#   ROUNDS=15 JAVA=java agent/bench-startup.sh
# BASE_AGENT=<another spool-agent.jar> adds that jar's runs to the same alternation (before/after).
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${ROUNDS:-15}
JAVA=${JAVA:-java}
AGENT=${AGENT:-agent/target/spool-agent.jar}
BASE_AGENT=${BASE_AGENT:-}
SAMPLE=sample-app/target/spool-sample.jar
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

mkdir -p "$work/src/empty" "$work/classes"
cat > "$work/src/Hello.java" <<'JAVA'
public class Hello { public static void main(String[] a) { System.out.println("hello"); } }
JAVA
cat > "$work/src/empty/EmptyAgent.java" <<'JAVA'
package empty;
public class EmptyAgent { public static void premain(String a, java.lang.instrument.Instrumentation i) { } }
JAVA
javac -d "$work/classes" "$work/src/Hello.java" "$work/src/empty/EmptyAgent.java"
printf 'Premain-Class: empty.EmptyAgent\n' > "$work/manifest"
jar cfm "$work/empty-agent.jar" "$work/manifest" -C "$work/classes" empty

millis() { echo $(( $(date +%s%N) / 1000000 )); }
run() { # label, command...
  local label=$1; shift
  local t0; t0=$(millis)
  "$@" > /dev/null 2>&1
  echo "$label $(( $(millis) - t0 ))" >> "$work/times"
}
emitter='spool.events.methods=dev.spool.sample.Emitter#emit'
for ((i = 0; i < ROUNDS; i++)); do
  run hello-plain "$JAVA" -cp "$work/classes" Hello
  run hello-empty-agent "$JAVA" -javaagent:"$work/empty-agent.jar" -cp "$work/classes" Hello
  run hello-spool "$JAVA" -javaagent:"$AGENT" -cp "$work/classes" Hello
  [[ -n $BASE_AGENT ]] && run hello-spool-base "$JAVA" -javaagent:"$BASE_AGENT" -cp "$work/classes" Hello
  if [[ -f $SAMPLE ]]; then
    rm -rf "$work/out"
    run sample-plain "$JAVA" -jar "$SAMPLE" --out "$work/out" --jobs 1 --steps 1 --threads 1
    rm -rf "$work/out"
    run sample-empty-agent "$JAVA" -javaagent:"$work/empty-agent.jar" -jar "$SAMPLE" --out "$work/out" --jobs 1 --steps 1 --threads 1
    rm -rf "$work/out"
    run sample-spool "$JAVA" -javaagent:"$AGENT=$emitter,spool.events.file=$work/out/events.spool" -jar "$SAMPLE" --out "$work/out" --jobs 1 --steps 1 --threads 1
    if [[ -n $BASE_AGENT ]]; then
      rm -rf "$work/out"
      run sample-spool-base "$JAVA" -javaagent:"$BASE_AGENT=$emitter,spool.events.file=$work/out/events.spool" -jar "$SAMPLE" --out "$work/out" --jobs 1 --steps 1 --threads 1
    fi
  fi
done
echo "median wall time in ms over $ROUNDS rounds ($("$JAVA" -version 2>&1 | head -1)):"
for label in hello-plain hello-empty-agent hello-spool hello-spool-base sample-plain sample-empty-agent sample-spool sample-spool-base; do
  grep "^$label " "$work/times" | awk '{print $2}' | sort -n | awk -v l="$label" '{a[NR]=$1} END {if (NR) printf "  %-20s %6d\n", l, a[int((NR+1)/2)]}'
done
