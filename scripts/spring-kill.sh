#!/usr/bin/env bash
# Issue 33's Spring Boot check, by hand: does a kill -9 lose a request's log line whose response came
# back? The plain Spring Boot web app of scripts/spring-boot.sh (bench/spring-host; per request one
# line "request <id> wrote ..." through Logback, logged before the response), under the agent at its
# defaults, in one folder for all rounds:
#   round k: start the app, await /ping, KillLoad sends ids k*10^7, k*10^7+1, ... from USERS keep-alive
#   users and notes each id whose "ok <id>" came back; after 1-4 s (random) the app gets SIGKILL;
#   after the last round one more start (it replays what the journal holds), then SIGTERM.
# Checks: every acknowledged id's line is in the log files (active, rolled .gz archives, a source file
# left by a compression a kill cut short; or a
# <log>.spool-recovered-* side file, counted apart), once; prints the figures; exits 1 on a loss.
#
#   scripts/spring-kill.sh [kills=10]
#   env: USERS=20  LOGGING=boot (Spring Boot's stock file appender and pattern: encoded on the request
#        thread, its bytes journaled) or app (the app's logback-spring.xml: encoded on Spool's thread)
#        AGENT=0 (plain Spring Boot, the positive control)  AGENT_ARGS="spool.sink.journal=false"
#        (the agent without its journals, the negative control)
# Needs: mvn -B -q -DskipTests package (agent/target/spool-agent.jar); builds the host if missing.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
KILLS=${1:-10}; USERS=${USERS:-20}
HOST=bench/spring-host
JAR=$ROOT/$HOST/target/spring-host.jar
AGENT_JAR=$ROOT/agent/target/spool-agent.jar
[[ -f $AGENT_JAR ]] || { echo "build first: mvn -B -q -DskipTests package ($AGENT_JAR)" >&2; exit 2; }
[[ -f $JAR && -f $HOST/target/classes/dev/spool/bench/spring/KillLoad.class ]] || mvn -B -q -f "$HOST/pom.xml" package -DskipTests
OUT=$(mktemp -d)
DIR=$OUT/app
mkdir -p "$DIR"
APP_PID=
cleanup() {
  if [[ -n $APP_PID ]] && kill -0 "$APP_PID" 2>/dev/null; then kill -9 "$APP_PID"; wait "$APP_PID" || true; fi
  rm -rf "$OUT"
}
trap cleanup EXIT
OPTS=(); [[ ${AGENT:-1} == 0 ]] || OPTS=(-javaagent:"$AGENT_JAR${AGENT_ARGS:+=$AGENT_ARGS}")
ARGS=()
case ${LOGGING:-boot} in
  app) ;;
  boot) ARGS=(--logging.config=classpath:logback-boot-file.xml --logging.file.name=logs/app.log
              --logging.logback.rollingpolicy.max-file-size=100KB --logging.logback.rollingpolicy.max-history=0) ;;
  *) echo "LOGGING: app or boot" >&2; exit 2 ;;
esac
start() { # starts the app in $DIR and sets PORT
  rm -f "$DIR/port"
  (cd "$DIR" && exec java "${OPTS[@]}" -jar "$JAR" "${ARGS[@]}") >>"$OUT/app.out" 2>&1 &
  APP_PID=$!
  local deadline=$((SECONDS + 120))
  until [[ -f $DIR/port ]] && PORT=$(<"$DIR/port") && curl -sf "http://127.0.0.1:$PORT/ping" >/dev/null; do
    kill -0 "$APP_PID" 2>/dev/null || { echo "the app died: $(tail -5 "$OUT/app.out")" >&2; exit 1; }
    (( SECONDS < deadline )) || { echo "not ready in 120 s" >&2; exit 1; }
    sleep 0.1                            # poll interval, not a wait for readiness
  done
}
echo "# $(date -u +%FT%TZ), load $(cut -d' ' -f1-3 /proc/loadavg), logging ${LOGGING:-boot}, agent ${AGENT:-1} ${AGENT_ARGS:-}, $KILLS kills, $USERS users"
for k in $(seq 1 "$KILLS"); do
  start
  java -cp "$HOST/target/classes" dev.spool.bench.spring.KillLoad "$PORT" $((k * 10000000)) 9999999 "$USERS" "$OUT/acked-$k" >/dev/null &
  LOAD=$!
  sleep "$(awk -v r=$RANDOM 'BEGIN { printf "%.2f", 1 + 3 * r / 32767 }')"   # a random point of the run
  { kill -9 "$APP_PID"; wait "$APP_PID"; } 2>/dev/null || true   # (bash would print "Killed")
  APP_PID=
  wait "$LOAD"
  echo "  round $k: $(wc -l <"$OUT/acked-$k") acknowledged, $(ls "$DIR/logs" | wc -l) files in logs/"
done
start   # the next start replays what the killed process's journal held
kill "$APP_PID"; wait "$APP_PID" || true   # SIGTERM: Spring's graceful close, the agent's last flush
APP_PID=
cat "$OUT"/acked-* | sort -u >"$OUT/acked"
ids() { # what the files hold; a .gz a kill cut short gives what it has (its source file is left beside it)
  local f; for f in "$@"; do zcat -f "$f" 2>/dev/null || true; done | grep -o ' request [0-9]* ' | awk '{print $2}'
}
shopt -s nullglob
logs=(); side=()
for f in "$DIR"/logs/*; do
  case $f in *journal*) ;; *.spool-recovered-*) side+=("$f") ;; *) logs+=("$f") ;; esac
done
ids "${logs[@]}" | sort >"$OUT/logged"
if (( ${#side[@]} )); then ids "${side[@]}" | sort >"$OUT/side"; else : >"$OUT/side"; fi
sort -u "$OUT/logged" "$OUT/side" >"$OUT/anywhere"
acked=$(wc -l <"$OUT/acked"); lost=$(comm -23 "$OUT/acked" "$OUT/anywhere" | wc -l)
dups=$(sort "$OUT/logged" "$OUT/side" | uniq -d | wc -l); inside=$(comm -12 "$OUT/acked" <(sort -u "$OUT/side") | wc -l)
left=$(ls "$DIR/logs" | grep -c 'journal' || true)
echo "result kills=$KILLS acknowledged=$acked lost=$lost duplicated=$dups only_in_side_files=$inside side_files=${#side[@]} journals_left=$left log_files=$(ls "$DIR/logs" | wc -l)"
(( lost == 0 ))
