#!/usr/bin/env bash
# The Logback differential fuzz (LogbackDifferentialFuzzIT) for as long as asked: seed after seed, each on Logback
# 1.4, 1.5 and the newest line, plain vs agent in forked JVMs, until the minutes are up.
# Usage: scripts/logback-fuzz.sh <minutes> [first seed] [cases per seed] [java] [lines, e.g. 1.5,1.6]
# e.g. scripts/logback-fuzz.sh 60 1000 300 /usr/lib/jvm/temurin-25-jdk-amd64/bin/java
# Prints "[logback-fuzz] seeds A..B x N cases x Logback [..]: differences D"; every difference names its line, seed and case
# (replay one alone: -Dspool.fuzz.logback.seed=<seed> -Dspool.fuzz.logback.first=<case> -Dspool.fuzz.logback.cases=1).
set -euo pipefail
cd "$(dirname "$0")/.."
minutes=${1:?minutes}
seed=${2:-$(date +%s)}
cases=${3:-300}
java=${4:-}
lines=${5:-1.4,1.5,1.6}
extra=()
if [ -n "$java" ]; then extra+=("-Dspool.it.java=$java"); fi
status=0
mvn -B -pl agent -am verify -Dtest=NoSuch -Dsurefire.failIfNoSpecifiedTests=false \
    -Dit.test=LogbackDifferentialFuzzIT -Dfailsafe.failIfNoSpecifiedTests=false \
    -Dspool.fuzz.logback.seed="$seed" -Dspool.fuzz.logback.cases="$cases" -Dspool.fuzz.logback.minutes="$minutes" \
    -Dspool.fuzz.logback.lines="$lines" "${extra[@]}" || status=$?
grep -h '\[logback-fuzz\]' agent/target/failsafe-reports/dev.spool.agent.it.LogbackDifferentialFuzzIT-output.txt || true
exit $status
