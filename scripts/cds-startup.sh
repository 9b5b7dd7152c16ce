#!/usr/bin/env bash
# Start-up cost of the agent's boot bridge: wall time of a short sample-app run (whole JVM),
# alternating agent jars, with the JDK's default CDS archive and with an AppCDS archive of the app.
# Usage: scripts/cds-startup.sh JAVA_HOME ROUNDS AGENT_JAR...   (prints median ms per variant)
set -euo pipefail
jdk=$1; rounds=$2; shift 2
java=$jdk/bin/java
sample=$(cd "$(dirname "$0")/.." && pwd)/sample-app/target/spool-sample.jar
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
run() { rm -rf "$work/o"; local t0 t1; t0=$(date +%s%N); "$java" "$@" -jar "$sample" --out "$work/o" --jobs 1 --steps 5 --threads 1 >/dev/null 2>&1; t1=$(date +%s%N); echo $(( (t1 - t0) / 1000000 )); }
"$java" -XX:ArchiveClassesAtExit="$work/app.jsa" -jar "$sample" --out "$work/o" --jobs 1 --steps 5 --threads 1 >/dev/null 2>&1
declare -A times
variants=("none" "$@")
for ((r = 0; r < rounds; r++)); do
  for v in "${variants[@]}"; do
    for cds in default appcds; do
      args=(); [[ $v != none ]] && args+=("-javaagent:$v")
      [[ $cds == appcds ]] && args+=("-XX:SharedArchiveFile=$work/app.jsa")
      times["$v $cds"]+="$(run "${args[@]}") "
    done
  done
done
for key in "${!times[@]}"; do
  median=$(tr ' ' '\n' <<<"${times[$key]}" | grep . | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
  echo "$median ms  $key  (runs: ${times[$key]})"
done | sort -k3
