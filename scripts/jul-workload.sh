#!/usr/bin/env bash
# Issue 13's JUL workload (dev.spool.bench.agent.JulIssueWorkload): plain FileHandler, the same under
# the agent (capture at the call, the default), under the agent with spool.events.capture=false
# (today's routed path), and JUL into a discarding stream; alternating rounds. Run from the
# repository root after `mvn -B package -DskipTests` (needs bench/target/benchmarks.jar and
# agent/target/spool-agent.jar). About 1 minute per round on a quiet 2-core machine.
set -euo pipefail
rounds=${1:-3}
java=${JAVA:-java}
jar=bench/target/benchmarks.jar
agent=agent/target/spool-agent.jar
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
for r in $(seq 1 "$rounds"); do
  echo "round $r"
  "$java" -cp "$jar" dev.spool.bench.agent.JulIssueWorkload file "$dir/plain"
  "$java" -javaagent:"$agent" -cp "$jar" dev.spool.bench.agent.JulIssueWorkload file "$dir/agent"
  "$java" -javaagent:"$agent"=spool.events.capture=false -cp "$jar" dev.spool.bench.agent.JulIssueWorkload file "$dir/routed"
  "$java" -cp "$jar" dev.spool.bench.agent.JulIssueWorkload discard "$dir/discard"
  if ! cmp -s <(sed -E 's/^[A-Z][a-z]+ [0-9]{2}, [0-9]{4} [0-9:]+ [AP]M //' "$dir/plain/jul-workload.log" | sort) \
              <(sed -E 's/^[A-Z][a-z]+ [0-9]{2}, [0-9]{4} [0-9:]+ [AP]M //' "$dir/agent/jul-workload.log" | sort); then
    echo "the agent's lines differ from plain (timestamps aside)"; exit 1
  fi
  rm -rf "$dir"/*
done
