#!/usr/bin/env bash
# Issue 35's Spring Boot row: a plain Spring Boot 3.5.7 web app (bench/spring-host, outside the
# reactor; the row names Boot 3.4, 3.5.7 is the newest Boot 3 served here) that per request logs one
# line through a Logback RollingFileAppender (100 KB size rolling) and rewrites one small JSON file
# (Spring's ObjectMapper.writeValue(File, Map), 100 files), plain and under the agent (defaults),
# and as its floor (FLOOR=0 leaves it out: --host.floor=true keeps each document's writeValueAsBytes
# in memory and the request logger is off, so no file at all), rotating which goes first, each run a
# fresh process in a fresh folder:
#   start on a free port (server.port=0; the app writes ./port), await /ping, warm up (untimed),
#   measure REQUESTS requests from USERS keep-alive virtual users, stop the app by its pid.
# Checks per run: every request's log line is in the log files (rolled ones included), and the
# agent's JSON files have plain's bytes for the same request ids. Prints each run's line, the
# server's CPU of the measured phase by thread group, then medians and agent / plain ratios.
# The first agent run also prints the agent's `status` (routed logs, plain-path reasons, Jackson).
# AGENT_ARGS="spool.sink.journal=false": the agent run with those arguments (its journals off, issue 33).
#
#   scripts/spring-boot.sh [pairs=3] [requests=20000]
#   env: WARMUP=5000 USERS=20 (a divisor of 100)  FLOOR=1  JFR=DIR
#        LOGGING=app (the app's logback-spring.xml) or boot (Spring Boot's stock file appender and
#        pattern, logback-boot-file.xml; .gz archives) (record each run with JFR's profile settings)
# Needs: mvn -B -q -DskipTests package (agent/target/spool-agent.jar); builds the host if missing.
# Run from the root. Target (issue 35): agent / plain >= 1.3x requests/s, p99 the same or better.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
PAIRS=${1:-3}; REQUESTS=${2:-20000}; WARMUP=${WARMUP:-5000}; USERS=${USERS:-20}
HOST=bench/spring-host
JAR=$ROOT/$HOST/target/spring-host.jar
AGENT=$ROOT/agent/target/spool-agent.jar
[[ -f $AGENT ]] || { echo "build first: mvn -B -q -DskipTests package ($AGENT)" >&2; exit 2; }
[[ -f $JAR && -d $HOST/target/classes ]] || mvn -B -q -f "$HOST/pom.xml" package -DskipTests
OUT=$(mktemp -d)
APP_PID=
cleanup() {
  if [[ -n $APP_PID ]] && kill -0 "$APP_PID" 2>/dev/null; then kill "$APP_PID"; wait "$APP_PID" || true; fi
  rm -rf "$OUT"
}
trap cleanup EXIT
declare -A rps p99 cpu ccpu
run() { # label: plain, agent or floor
  local label=$1 opts=() args=("${LOGARGS[@]}")
  case $label in
    agent) opts=(-javaagent:"$AGENT${AGENT_ARGS:+=$AGENT_ARGS}") ;;
    floor) args+=(--host.floor=true --logging.level.dev.spool.bench.spring.DocumentController=off) ;;
  esac
  local dir="$OUT/$label-$i" port= line lines jfr=()
  mkdir -p "$dir"
  [[ -z ${JFR:-} ]] || { mkdir -p "$JFR"; jfr=("-XX:StartFlightRecording=filename=$JFR/$label-$i.jfr,settings=profile"); }
  sync                                   # untimed: the previous run's writeback must not land in this one
  (cd "$dir" && exec java "${jfr[@]}" "${opts[@]}" -jar "$JAR" "${args[@]}") >"$dir.out" 2>&1 &
  APP_PID=$!
  local deadline=$((SECONDS + 120))
  until [[ -f $dir/port ]] && port=$(<"$dir/port") && curl -sf "http://127.0.0.1:$port/ping" >/dev/null; do
    kill -0 "$APP_PID" 2>/dev/null || { echo "$label: the app died: $(tail -5 "$dir.out")" >&2; exit 1; }
    (( SECONDS < deadline )) || { echo "$label: not ready in 120 s" >&2; exit 1; }
    sleep 0.1                            # poll interval, not a wait for readiness
  done
  line=$(java -cp "$HOST/target/classes" dev.spool.bench.spring.LoadGen "$port" "$WARMUP" "$REQUESTS" "$USERS" "$APP_PID")
  local status=
  if [[ $label == agent && $i == 1 ]]; then
    status=$(java -jar "$AGENT" status "$APP_PID"; java -jar "$AGENT" status "$APP_PID" --json | grep -o '"plainPathByReason": *{[^}]*}') || true
  fi
  kill "$APP_PID"; wait "$APP_PID" || true   # SIGTERM: Spring's graceful close, the agent's last flush
  APP_PID=
  lines=$(zcat -f "$dir"/logs/* | grep -c ' request ') || true
  [[ $label == floor ]] || (( lines == WARMUP + REQUESTS )) || { echo "$label: $lines request lines in the logs, $((WARMUP + REQUESTS)) requests served" >&2; exit 1; }
  local docs; docs=$(ls "$dir/data" | grep -c '\.json$') || true
  [[ $label == floor ]] || (( docs == 100 )) || { echo "$label: $docs JSON files, 100 expected" >&2; exit 1; }
  local first=${line%%$'\n'*}
  local r=${first#*rps=}; r=${r%% *}; local q=${first#*p99_us=}; q=${q%% *}; local c=${first#* cpu_us_per_req=}; c=${c%% *}
  local cc=${first#*client_cpu_us_per_req=}; cc=${cc%% *}
  rps[$label]+="$r "; p99[$label]+="$q "; cpu[$label]+="$c "; ccpu[$label]+="$cc "
  echo "  $label: $first log_files=$(ls "$dir/logs" | wc -l)"
  echo "    ${line#*$'\n'}"
  [[ -z $status ]] || sed 's/^/    status: /' <<<"$status"
  rm -rf "$dir.out"
}
median() { tr ' ' '\n' <<<"$1" | grep . | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
LOGARGS=()
case ${LOGGING:-app} in
  app) ;;   # the app's logback-spring.xml: %d %level [%thread] %logger: %msg%n
  boot) LOGARGS=(--logging.config=classpath:logback-boot-file.xml --logging.file.name=logs/app.log
                 --logging.logback.rollingpolicy.max-file-size=100KB --logging.logback.rollingpolicy.max-history=0) ;;
  *) echo "LOGGING: app or boot" >&2; exit 2 ;;
esac
ORDER=(plain agent); [[ ${FLOOR:-1} == 0 ]] || ORDER+=(floor)
echo "# $(date -u +%FT%TZ), load $(cut -d' ' -f1-3 /proc/loadavg), logging ${LOGGING:-app}, $PAIRS pairs, $WARMUP warm-up + $REQUESTS measured requests, $USERS users"
for i in $(seq 1 "$PAIRS"); do
  echo "pair $i"
  for k in 0 1 2; do label=${ORDER[(i - 1 + k) % ${#ORDER[@]}]}; [[ -n $label ]] && run "$label"; done
  diff -r "$OUT/plain-$i/data" "$OUT/agent-$i/data" >/dev/null \
    || { echo "pair $i: the agent's JSON files differ from plain's for the same request ids" >&2; exit 1; }
  rm -rf "$OUT/plain-$i" "$OUT/agent-$i"
done
echo "# load at the end $(cut -d' ' -f1-3 /proc/loadavg)"
for label in "${ORDER[@]}"; do
  printf 'median %-6s requests/s %6s  p99 %7s us  server CPU %4s us/request  load generator CPU %4s us/request\n' "$label" \
    "$(median "${rps[$label]}")" "$(median "${p99[$label]}")" "$(median "${cpu[$label]}")" "$(median "${ccpu[$label]}")"
done
pr=$(median "${rps[plain]}"); ar=$(median "${rps[agent]}"); pq=$(median "${p99[plain]}"); aq=$(median "${p99[agent]}")
pc=$(median "${cpu[plain]}"); ac=$(median "${cpu[agent]}")
awk -v pr="$pr" -v ar="$ar" -v pq="$pq" -v aq="$aq" -v pc="$pc" -v ac="$ac" 'BEGIN {
  printf "agent / plain: requests/s %.2fx (target >= 1.3) ; p99 %.2f (target <= 1.0) ; server CPU per request %.2f\n", ar / pr, aq / pq, ac / pc }'
[[ -z ${rps[floor]:-} ]] || awk -v pr="$pr" -v ar="$ar" -v fr="$(median "${rps[floor]}")" 'BEGIN {
  printf "floor (no log line, JSON kept in memory) / plain: requests/s %.2fx: the most any agent could reach; agent / floor %.2f\n", fr / pr, ar / fr }'
echo "checks: every request's log line present (rolled files included); agent JSON bytes = plain's: yes"
