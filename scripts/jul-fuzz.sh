#!/usr/bin/env bash
# The JUL differential fuzz (JulDifferentialFuzzIT) for as long as asked: seed after seed, plain vs agent in
# forked JVMs, until the minutes are up. Usage: scripts/jul-fuzz.sh <minutes> [first seed] [cases per seed] [java]
# e.g. scripts/jul-fuzz.sh 60 1000 500 /usr/lib/jvm/temurin-25-jdk-amd64/bin/java
# Prints "[jul-fuzz] seeds A..B x N cases: differences D"; every difference names its seed and case.
set -euo pipefail
cd "$(dirname "$0")/.."
minutes=${1:?minutes}
seed=${2:-$(date +%s)}
cases=${3:-500}
java=${4:-}
extra=()
if [ -n "$java" ]; then extra+=("-Dspool.it.java=$java"); fi
mvn -B -pl agent -am verify -Dtest=NoSuch -Dsurefire.failIfNoSpecifiedTests=false \
    -Dit.test=JulDifferentialFuzzIT -Dfailsafe.failIfNoSpecifiedTests=false \
    -Dspool.fuzz.jul.seed="$seed" -Dspool.fuzz.jul.cases="$cases" -Dspool.fuzz.jul.minutes="$minutes" "${extra[@]}"
grep -h '\[jul-fuzz\]' agent/target/failsafe-reports/dev.spool.agent.it.JulDifferentialFuzzIT-output.txt
