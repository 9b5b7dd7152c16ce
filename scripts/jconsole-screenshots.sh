#!/usr/bin/env bash
# Takes the README's JConsole screenshots of the sample app running with the agent, under a
# virtual X server: docs/img/jconsole-agent.png, jconsole-buffer.png, jconsole-sink.png.
# Needs Debian's xvfb, xdotool and imagemagick (installed here when missing) and a JDK's jconsole.
# Clicks go to fixed positions of JConsole's 1280x900 layout (JDK 17); look at the images after
# a JDK upgrade: a blank or wrong window is a failure.
#
# Usage (repository root, after `mvn -B -q -DskipTests package`): scripts/jconsole-screenshots.sh
set -euo pipefail
cd "$(dirname "$0")/.."
AGENT=agent/target/spool-agent.jar
APP=sample-app/target/spool-sample.jar
[[ -f $AGENT && -f $APP ]] || { echo "build first: mvn -B -q -DskipTests package" >&2; exit 1; }
if ! command -v Xvfb >/dev/null || ! command -v xdotool >/dev/null || ! command -v import >/dev/null; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq xvfb xdotool imagemagick
fi
mkdir -p docs/img
work=$(mktemp -d)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$work"; }
trap cleanup EXIT

display=:$((90 + RANDOM % 9))
Xvfb "$display" -screen 0 1280x900x24 >/dev/null 2>&1 & pids+=($!)
export DISPLAY=$display

java -javaagent:$AGENT=spool.events.methods=dev.spool.sample.Emitter#emit,spool.events.file=$work/out/events.spool \
  -jar $APP --out "$work/out" --jobs 8 --steps 300 --threads 2 --hold > "$work/app.log" 2>&1 & app=$!; pids+=($app)
for _ in $(seq 150); do grep -q elapsedMillis "$work/app.log" && break; sleep 0.2; done
grep -q elapsedMillis "$work/app.log" || { echo "the sample app did not finish its run" >&2; cat "$work/app.log" >&2; exit 1; }

jconsole "$app" > "$work/jconsole.log" 2>&1 & pids+=($!)
win=""
for _ in $(seq 150); do win=$(xdotool search --name "Java Monitoring" 2>/dev/null | head -1 || true); [[ -n $win ]] && break; sleep 0.2; done
[[ -n $win ]] || { echo "the JConsole window did not appear" >&2; exit 1; }
sleep 5
xdotool windowsize "$win" 1280 900 windowmove "$win" 0 0
sleep 1
click() { xdotool mousemove "$1" "$2" click 1; sleep "${3:-1.5}"; }
shot() { import -window root "docs/img/$1"; echo "wrote docs/img/$1"; }

click 363 202 4          # "Insecure connection": a local attach without SSL asks once
click 472 58 3           # the MBeans tab
xdotool mousemove 170 400 mousedown 1 mousemove 250 400 mousemove 360 400 mouseup 1; sleep 1   # widen the tree
click 16 117             # expand dev.spool
click 36 134             # expand Agent
click 97 149 2           # Agent > Attributes
shot jconsole-agent.png
click 36 134             # collapse Agent
click 36 150             # expand Buffer
click 97 165 2           # Buffer > Attributes
shot jconsole-buffer.png
click 36 212             # expand the Sink folder
click 56 229             # expand the first sink
click 117 245 2          # its Attributes
shot jconsole-sink.png
